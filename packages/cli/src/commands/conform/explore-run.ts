// `conform --explore`'s run (docs/cli.md#explore): loaded by `conform` only when `--explore` is
// given, since it brings fast-check and the reference engines.
import { writeFileSync } from 'node:fs';
import {
  type CaseResult,
  type Implementation,
  printable,
  printableLines,
  type Requirement,
  type RunLedger,
  startSubprocess,
} from '@agent-contracts/harness';
import { type ExploreResult, explore } from '@agent-contracts/harness/explore';
import type { Io } from '../../io.js';
import type { ExploreSettings } from './explore.js';

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
