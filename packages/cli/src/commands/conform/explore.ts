// `conform --explore` (docs/cli.md#explore, docs/protocol.md#explore): after the golden cases and
// the fault matrix, model-based exploration of every capability with a reference engine. Its
// lines are case lines `explore/<capability>` (with `explore` set), counted apart from golden
// cases; a difference is printed with its replay and, when it needs one process, as a golden case.
// This file holds the options; the run (explore-run.ts: fast-check, the reference engines) is
// loaded only when `--explore` is given.
import {
  EXPLORE_CAPABILITY_NAMES as EXPLORE_CAPABILITIES,
  globMatch,
  randomSeed,
} from '@agent-contracts/harness';
import { intOption } from '../../args.js';
import { CliError } from '../../errors.js';

/** The options `conform` takes for exploration. */
export const EXPLORE_OPTIONS = {
  explore: { type: 'boolean' },
  'explore-seed': { type: 'string' },
  'explore-path': { type: 'string' },
  'explore-runs': { type: 'string' },
  'explore-time': { type: 'string' },
  'explore-cases': { type: 'string' },
} as const;

/** Their lines of `conform --help`. */
export const EXPLORE_HELP = `  --explore               after the cases and the fault matrix, explore every capability with
                          a reference engine (${EXPLORE_CAPABILITIES.join(', ')}): random command
                          sequences compared with the reference engines run in process
                          (fast-check); its lines are explore/<capability>, counted apart
  --explore-seed <n>      the seed (default: a random one, printed); the same seed explores the
                          same sequences
  --explore-path <path>   replay only the counterexample at this path (with --explore-seed and a
                          --filter naming one explore/<capability>)
  --explore-runs <n>      sequences per capability (default 100)
  --explore-time <s>      stop exploring after this many seconds, shared by the capabilities
  --explore-cases <file>  write the golden cases of what explore found there (a case file)
`;

type Values = {
  readonly [K in keyof typeof EXPLORE_OPTIONS]?: (typeof EXPLORE_OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : string;
};

/** What `conform` asked of exploration, checked; null without `--explore`. */
export interface ExploreSettings {
  readonly seed: number;
  readonly path?: string;
  readonly runs: number;
  readonly timeMs?: number;
  readonly casesFile?: string;
  /** The capabilities the filters select (every one without a filter). */
  readonly capabilities: readonly string[];
}

/** Read and check the explore options; null when `--explore` is absent. */
export function exploreSettings(
  values: Values,
  filters: readonly string[],
  resolvePath: (p: string) => string,
): ExploreSettings | null {
  const others = Object.keys(EXPLORE_OPTIONS).filter(
    (k) => k !== 'explore' && values[k as keyof Values] !== undefined,
  );
  if (!values.explore) {
    if (others.length) throw new CliError('USAGE_BAD_VALUE', `--${others[0]} needs --explore.`);
    return null;
  }
  let seed = randomSeed();
  if (values['explore-seed'] !== undefined) {
    const text = values['explore-seed'];
    const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < -0x80000000 || n > 0x7fffffff)
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--explore-seed ${JSON.stringify(text)} must be a 32-bit integer, e.g. 42.`,
      );
    seed = n;
  }
  const capabilities = EXPLORE_CAPABILITIES.filter(
    (c) => !filters.length || filters.some((g) => globMatch(g, `explore/${c}`)),
  );
  const path = values['explore-path'];
  if (path !== undefined) {
    if (!/^\d+(:\d+)*(@[A-Za-z0-9+/=:_-]*)?$/.test(path))
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--explore-path ${JSON.stringify(path)} must be a path as explore prints it, e.g. 3:1:0.`,
      );
    if (values['explore-seed'] === undefined)
      throw new CliError(
        'USAGE_BAD_VALUE',
        '--explore-path replays a counterexample of one seed: give --explore-seed too.',
      );
    if (capabilities.length !== 1)
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--explore-path belongs to one capability: add --filter explore/<capability> (one of ${EXPLORE_CAPABILITIES.join(', ')}).`,
      );
  }
  const runs = intOption('explore-runs', values['explore-runs'], 100, 1, 1_000_000);
  const seconds =
    values['explore-time'] === undefined
      ? undefined
      : intOption('explore-time', values['explore-time'], 0, 1, 86_400);
  return {
    seed,
    runs,
    capabilities,
    ...(path === undefined ? {} : { path }),
    ...(seconds === undefined ? {} : { timeMs: seconds * 1000 }),
    ...(values['explore-cases'] === undefined ? {} : { casesFile: resolvePath(values['explore-cases']) }),
  };
}
