// What `conform` needs of exploration before it explores (its help, its options): the names of
// the capabilities and a fresh seed, without loading the explorers (fast-check, the reference
// engines), which only `--explore` runs.

/**
 * The capability names explore knows, in the order it runs them: the names of `EXPLORERS`
 * (explore/run.ts; a test holds them equal).
 */
export const EXPLORE_CAPABILITY_NAMES: readonly string[] = [
  'store',
  'liveness',
  'trace',
  'checkpoint',
  'run',
  'policy',
  'delegation',
  'context',
  'digest',
];

/** A fresh random seed (reported, so that the run can be replayed). */
export const randomSeed = (): number => (Math.random() * 0x7fffffff) | 0;
