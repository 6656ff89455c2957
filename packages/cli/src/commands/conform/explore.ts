// `conform --explore` (docs/cli.md#explore, docs/protocol.md#explore): after the golden cases and
// the fault matrix, model-based exploration of every capability with a reference engine. Its
// lines are case lines `explore/<capability>` (with `explore` set), counted apart from golden
// cases; a difference is printed with its replay and, when it needs one process, as a golden case.
import { writeFileSync } from 'node:fs';
import {
  type CaseResult,
  EXPLORE_CAPABILITIES,
  type ExploreResult,
  explore,
  globMatch,
  type Implementation,
  printable,
  printableLines,
  type Requirement,
  type RunLedger,
  randomSeed,
  startSubprocess,
} from '@agent-contracts/harness';
import { intOption } from '../../args.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';

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

/** How explore starts implementation processes. */
export interface ExploreLaunch {
  readonly command: string;
  /** Its state location, an opaque directory of the run's state root, like every job's. */
  readonly stateDirectory: string;
  /**
   * The run's ledger: every process explore starts answers hello as the run's first did, and
   * what no explore line was charged with (after the last step, at shutdown, in a process
   * replaced) is charged to the run.
   */
  readonly run: RunLedger;
  /** The argument vector of `--isolate`'s sandbox, when the run has one. */
  readonly sandbox?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly startTimeoutMs: number;
  readonly catalogue: readonly Requirement[];
}

/** The report line of an exploration: a case line with `explore`. */
export function exploreLine(r: ExploreResult): CaseResult {
  return {
    id: r.id,
    gate: r.gate,
    subject: r.subject,
    level: 'MUST',
    outcome: r.outcome,
    detail: r.detail,
    durationMs: r.durationMs,
    title: `exploration of ${r.capability} against the reference engines`,
    spec: r.spec,
    ...(r.failedStep === undefined || r.outcome === 'pass' ? {} : { failedStep: r.failedStep }),
    ...(r.differences ? { differences: r.differences } : {}),
    ...(r.moreDifferences ? { moreDifferences: r.moreDifferences } : {}),
    explore: {
      seed: r.seed,
      runs: r.runs,
      steps: r.steps,
      ...(r.path === undefined ? {} : { path: r.path }),
      ...(r.counterexample
        ? { counterexample: r.counterexample.slice(0, 64).map((c) => c.slice(0, 2000)) }
        : {}),
    },
  };
}

/**
 * Run the exploration on a fresh state directory: one long-lived process, and for the store
 * more on the same location (two writers, a kill, a freeze). Progress goes to stderr.
 */
export async function runExploration(
  settings: ExploreSettings,
  launch: ExploreLaunch,
  io: Io,
): Promise<{ lines: CaseResult[]; report: string }> {
  const options = {
    command: launch.command,
    stateLocation: launch.stateDirectory,
    localDirectory: launch.stateDirectory,
    requestTimeoutMs: launch.timeoutMs,
    startTimeoutMs: launch.startTimeoutMs,
    env: launch.env,
    cwd: launch.cwd,
    run: launch.run,
    ...(launch.sandbox ? { sandbox: launch.sandbox } : {}),
  };
  await io.err(
    `\nExploration: seed ${settings.seed}, ${settings.runs} sequences per capability${settings.timeMs ? `, at most ${settings.timeMs / 1000} s` : ''}\n`,
  );
  let main: Implementation;
  try {
    main = await startSubprocess(options);
  } catch (e) {
    const why = printable((e as Error).message).split('\n')[0];
    const lines = settings.capabilities.map((c) =>
      exploreLine({
        id: `explore/${c}`,
        capability: c,
        gate: 'Exploration',
        subject: 'explore',
        spec: 'docs/protocol.md#explore',
        outcome: 'error',
        detail: `the implementation could not be started: ${why}`,
        seed: settings.seed,
        runs: 0,
        steps: 0,
        durationMs: 0,
      }),
    );
    return { lines, report: '' };
  }
  const spawned: Implementation[] = [];
  let lastShown = 0;
  try {
    const results = await explore(
      {
        main,
        spawn: async () => {
          const p = await startSubprocess(options);
          spawned.push(p);
          return p;
        },
      },
      {
        seed: settings.seed,
        runs: settings.runs,
        timeoutMs: launch.timeoutMs,
        capabilities: settings.capabilities,
        catalogue: launch.catalogue,
        ...(settings.path === undefined ? {} : { path: settings.path }),
        ...(settings.timeMs === undefined ? {} : { timeMs: settings.timeMs }),
        onProgress: (p) => {
          const now = Date.now();
          if (now - lastShown < 2000 && p.run !== p.runs) return;
          lastShown = now;
          void io.err(
            `  explore/${p.capability}: ${p.run} sequences${p.shrinking ? ' (a difference: shrinking)' : ''}\n`,
          );
        },
        onCapability: (c, r) => {
          if (r)
            void io.err(
              `  explore/${c}: ${r.outcome} (${r.runs} sequences, ${r.steps} steps, ${(r.durationMs / 1000).toFixed(1)} s)\n`,
            );
        },
      },
    );
    const found = results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'not-applicable');
    const cases = found.flatMap((r) => (r.goldenCase ? [r.goldenCase] : []));
    if (settings.casesFile && cases.length)
      writeFileSync(settings.casesFile, `${JSON.stringify({ cases }, null, 2)}\n`);
    return { lines: results.map(exploreLine), report: renderFound(found, settings) };
  } finally {
    await main.close().catch(() => {});
    for (const p of spawned) await p.kill().catch(() => {});
    // What arrived after the last step a process was judged on (an unanswered shutdown, garbage
    // after it, a process replaced by a kill) fails the run: no explore line took it.
    for (const p of [main, ...spawned]) launch.run.charge(p.takeViolations(), 'exploration');
  }
}

/** What explore found, for the terminal: the difference, its replay and its golden case. */
function renderFound(found: readonly ExploreResult[], settings: ExploreSettings): string {
  if (!found.length) return '';
  const out: string[] = ['', 'Exploration found:'];
  for (const r of found) {
    out.push('', `${r.id}: ${r.outcome}: ${printable(r.detail)}`);
    if (r.counterexample?.length)
      out.push('  minimal sequence:', ...r.counterexample.map((c) => `    ${printable(c)}`));
    if (r.path !== undefined)
      out.push(`  replay: --explore --explore-seed ${r.seed} --explore-path '${r.path}' --filter ${r.id}`);
    if (r.goldenCase)
      out.push(
        `  as a golden case (for conformance/cases${settings.casesFile ? `; also written to ${printable(settings.casesFile)}` : ''}):`,
        printableLines(JSON.stringify(r.goldenCase, null, 2)),
      );
    else if (r.transcript)
      out.push(
        '  (it needs several processes on one state location, which a golden case cannot stage: replay it with the seed and path above)',
      );
  }
  return `${out.join('\n')}\n`;
}
