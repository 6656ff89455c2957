// `conform --explore` (docs/protocol.md#explore): per capability that has a reference engine and
// that the implementation declares, fast-check generates command sequences (`fc.commands`) and
// runs each (`fc.asyncModelRun`) against the implementation and the model; a difference fails
// the property, fast-check shrinks the sequence, and the minimal one is reported with the seed
// and path that replay it and, when it needs one process only, as a golden case.
import { createHash } from 'node:crypto';
import { missingCapabilities } from '@agent-contracts/protocol';
import fc from 'fast-check';
import type { Case } from '../cases.js';
import type { Implementation } from '../implementation.js';
import type { Difference } from '../json-diff.js';
import type { Requirement } from '../requirements/catalogue.js';
import { checkpointExplorer } from './capabilities/checkpoint.js';
import { contextExplorer } from './capabilities/context.js';
import { delegationExplorer } from './capabilities/delegation.js';
import { digestExplorer } from './capabilities/digest.js';
import { livenessExplorer } from './capabilities/liveness.js';
import { policyExplorer } from './capabilities/policy.js';
import { runExplorer } from './capabilities/run.js';
import { storeExplorer } from './capabilities/store.js';
import { traceExplorer } from './capabilities/trace.js';
import { type CapabilityExplorer, EXPLORE_T0, type RunContext } from './command.js';
import { goldenCaseOf } from './golden.js';
import { randomSeed } from './names.js';
import {
  ExploreDefect,
  ExploreDifference,
  ExploreSession,
  type ProcessEvent,
  type SentStep,
} from './session.js';

/** Every capability with a reference engine, in the order explore runs them. */
export const EXPLORERS: readonly CapabilityExplorer[] = [
  storeExplorer,
  livenessExplorer,
  traceExplorer,
  checkpointExplorer,
  runExplorer,
  policyExplorer,
  delegationExplorer,
  contextExplorer,
  digestExplorer,
];

/** The capability names explore knows. */
export const EXPLORE_CAPABILITIES: readonly string[] = EXPLORERS.map((e) => e.name);

/** Where explore gets implementation processes from. */
export interface ExploreTarget {
  /** The long-lived process every sequence starts on (already said hello). */
  readonly main: Implementation;
  /**
   * Start one more process on the main one's state location (hello said, clock not set), for
   * sequences with two writers, kills and freezes; absent (an in-process adapter) means one.
   */
  readonly spawn?: () => Promise<Implementation>;
}

/** Options of {@link explore}. */
export interface ExploreOptions {
  /** The seed of every capability's exploration (default: a random one, reported). */
  readonly seed?: number;
  /** Replay only this counterexample path (fast-check's `path`); needs exactly one capability. */
  readonly path?: string;
  /** Sequences per capability (default 100). */
  readonly runs?: number;
  /** Time budget of the whole exploration in ms, shared by the capabilities (default none). */
  readonly timeMs?: number;
  /** At most this many commands per sequence (default 24). */
  readonly maxCommands?: number;
  /** Only these capabilities (default: every one the implementation declares). */
  readonly capabilities?: readonly string[];
  /** Deadline of one request, in ms. */
  readonly timeoutMs: number;
  /** The requirement catalogue (conformance/requirements.json), for the golden cases' ids. */
  readonly catalogue?: readonly Requirement[];
  /** Called after every sequence. */
  readonly onProgress?: (p: { capability: string; run: number; runs: number; shrinking: boolean }) => void;
  /** Called when a capability starts and when it is done. */
  readonly onCapability?: (capability: string, result: ExploreResult | null) => void;
}

/** What explore found for one capability. */
export interface ExploreResult {
  /** `explore/<capability>`. */
  readonly id: string;
  readonly capability: string;
  readonly gate: string;
  readonly subject: string;
  readonly spec: string;
  /** `pass`: no difference; `fail`/`crash`/`timeout`/`error`: a difference; `harness-error`: the kit's defect. */
  readonly outcome: 'pass' | 'fail' | 'crash' | 'timeout' | 'error' | 'not-applicable' | 'harness-error';
  readonly detail: string;
  readonly seed: number;
  /** The counterexample path: `--explore-seed <seed> --explore-path <path>` replays it. */
  readonly path?: string;
  /** Sequences run (shrinking included) and commands sent. */
  readonly runs: number;
  readonly steps: number;
  readonly durationMs: number;
  /** The minimal sequence, one command per entry. */
  readonly counterexample?: readonly string[];
  /** The minimal sequence as steps, process events included. */
  readonly transcript?: readonly (SentStep | ProcessEvent)[];
  /** The golden case of the minimal sequence (null when it needs several processes). */
  readonly goldenCase?: Case | null;
  readonly failedStep?: number;
  readonly differences?: readonly Difference[];
  readonly moreDifferences?: number;
}

const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

function contextOf(seed: number, capability: string, run: number): RunContext {
  const h = sha256(`agent-contracts explore ${seed} ${capability} ${run}`);
  return {
    run,
    projectRootIdentity: sha256(`agent-contracts explore project ${seed}`),
    taskId: `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`,
    runId: `run-explore-${h.slice(0, 12)}`,
    t0: EXPLORE_T0,
  };
}

/** An explore path's two parts: fast-check's path, and the replay path of its commands. */
function splitPath(path: string): [string, string | undefined] {
  const at = path.indexOf('@');
  return at < 0 ? [path, undefined] : [path.slice(0, at), path.slice(at + 1)];
}

/** Run one capability's exploration. */
async function exploreOne(
  explorer: CapabilityExplorer,
  target: ExploreTarget,
  options: ExploreOptions & { seed: number; deadline: number | null },
): Promise<ExploreResult> {
  const started = Date.now();
  const processes = target.spawn ? (explorer.processes ?? 1) : 1;
  const procs: Implementation[] = [target.main];
  const restarts = { count: 0 };
  const spawn = async (): Promise<Implementation> => {
    restarts.count++;
    return (target.spawn as () => Promise<Implementation>)();
  };
  const extra: Implementation[] = [];
  try {
    for (let i = 1; i < processes; i++) {
      const p = await spawn();
      procs.push(p);
      extra.push(p);
    }
  } catch (e) {
    return result(explorer, options.seed, started, {
      outcome: 'error',
      detail: `a second process could not be started: ${(e as Error).message}`,
      runs: 0,
      steps: 0,
    });
  }
  let run = 0;
  let steps = 0;
  let defect: string | null = null;
  let broken = false;
  let last: { ctx: RunContext; difference: ExploreDifference } | null = null;
  const numRuns = options.runs ?? 100;
  // An explore path is fast-check's counterexample path and, after `@`, the replay path of
  // `fc.commands` (which commands of the shrunk sequence ran): both are needed to replay it.
  const [fcPath, replayPath] = options.path === undefined ? [undefined, undefined] : splitPath(options.path);
  const arbitrary = fc.commands(explorer.commands(processes), {
    maxCommands: options.maxCommands ?? 24,
    size: 'medium',
    ...(replayPath ? { replayPath } : {}),
  });
  const property = fc.asyncProperty(arbitrary, async (cmds) => {
    if (defect) return true;
    const ctx = contextOf(options.seed, explorer.name, run++);
    if (broken) {
      // The last sequence crashed or hung the main process: start it again first.
      await target.main.restart();
      broken = false;
    }
    const session = new ExploreSession(procs, {
      timeoutMs: options.timeoutMs,
      startMs: ctx.t0,
      restart: async (i) => {
        const fresh = await spawn();
        const old = extra.indexOf(procs[i]!);
        if (old >= 0) extra[old] = fresh;
        else extra.push(fresh);
        return fresh;
      },
    });
    try {
      for (const s of explorer.setup(ctx)) await session.step(s);
      await fc.asyncModelRun(() => ({ model: ctx, real: session }), cmds);
      await session.settle();
      return true;
    } catch (e) {
      if (e instanceof ExploreDefect) {
        defect = e.message;
        return true;
      }
      if (e instanceof ExploreDifference) {
        if (e.outcome !== 'fail') broken = true;
        last = { ctx, difference: e };
      }
      throw e;
    } finally {
      steps += session.transcript.length;
      options.onProgress?.({ capability: explorer.name, run, runs: numRuns, shrinking: last !== null });
    }
  });
  const remaining = options.deadline === null ? undefined : Math.max(1, options.deadline - Date.now());
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns,
    ...(fcPath === undefined ? {} : { path: fcPath }),
    ...(remaining === undefined ? {} : { interruptAfterTimeLimit: remaining, markInterruptAsFailure: false }),
  });
  for (const p of extra) await p.kill().catch(() => {});
  if (defect)
    return result(explorer, options.seed, started, {
      outcome: 'harness-error',
      detail: `HARNESS_EXPLORE_DEFECT: ${defect}. This is a defect of the conformance kit (agent-contracts), not of the implementation under test; please report it`,
      runs: run,
      steps,
    });
  if (!details.failed) {
    const interrupted = details.interrupted
      ? ` (the time budget ended it after ${details.numRuns} of ${numRuns})`
      : '';
    return result(explorer, options.seed, started, {
      outcome: 'pass',
      detail: `${details.numRuns} sequences agreed with the model at every compared pointer${interrupted}`,
      runs: run,
      steps,
    });
  }
  const error = details.errorInstance;
  const found = last as { ctx: RunContext; difference: ExploreDifference } | null;
  if (!(error instanceof ExploreDifference) || !found) {
    return result(explorer, options.seed, started, {
      outcome: 'error',
      detail: `exploration failed: ${String((error as Error)?.message ?? error)}`,
      runs: run,
      steps,
      path: details.counterexamplePath ?? undefined,
    });
  }
  const replay = /replayPath="([^"]*)"/.exec(fc.stringify(details.counterexample))?.[1];
  const path = `${details.counterexamplePath}${replay ? `@${replay}` : ''}`;
  const counterexample = [...((details.counterexample?.[0] ?? []) as Iterable<{ toString(): string }>)].map(
    (c) => c.toString(),
  );
  const title = `explore found (${explorer.name}): ${error.detail.slice(0, 160)}`;
  const golden = goldenCaseOf(
    explorer,
    error.transcript,
    found.ctx,
    options.seed,
    options.catalogue ?? [],
    title,
  );
  const again = `--explore-seed ${options.seed} --explore-path '${path}' --filter explore/${explorer.name}`;
  const failedStep = error.transcript.filter((t) => !('event' in t)).length - 1;
  return result(explorer, options.seed, started, {
    outcome: error.outcome,
    detail: `${error.detail} (after ${details.numRuns} sequences and ${details.numShrinks} shrinks; replay: ${again})`,
    runs: run,
    steps,
    path,
    counterexample,
    transcript: error.transcript,
    goldenCase: golden,
    failedStep,
    ...(error.judgement?.differences.length ? { differences: error.judgement.differences } : {}),
    ...(error.judgement?.moreDifferences ? { moreDifferences: error.judgement.moreDifferences } : {}),
  });
}

function result(
  explorer: CapabilityExplorer,
  seed: number,
  started: number,
  r: Pick<ExploreResult, 'outcome' | 'detail' | 'runs' | 'steps'> & Record<string, unknown>,
): ExploreResult {
  return {
    id: `explore/${explorer.name}`,
    capability: explorer.name,
    gate: explorer.gate,
    subject: explorer.subject,
    spec: explorer.spec,
    seed,
    durationMs: Date.now() - started,
    ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
  } as ExploreResult;
}

/**
 * Explore an implementation: for every capability it declares that has a reference engine (or
 * those `capabilities` names), run command sequences against it and the model, and report each
 * capability's outcome. The in-process entry point of `conform --explore`.
 *
 * @example
 * const impl = await startInProcess(adapter, null);
 * const results = await explore({ main: impl }, { seed: 42, runs: 50, timeoutMs: 10_000 });
 */
export async function explore(target: ExploreTarget, options: ExploreOptions): Promise<ExploreResult[]> {
  const seed = options.seed ?? randomSeed();
  const chosen = EXPLORERS.filter((e) => !options.capabilities || options.capabilities.includes(e.name));
  const deadline = options.timeMs === undefined ? null : Date.now() + options.timeMs;
  const results: ExploreResult[] = [];
  const applicable = chosen.filter(
    (e) => missingCapabilities(e.requires, target.main.hello.capabilities).length === 0,
  );
  for (const [i, explorer] of chosen.entries()) {
    const missing = missingCapabilities(explorer.requires, target.main.hello.capabilities);
    if (missing.length) {
      results.push(
        result(explorer, seed, Date.now(), {
          outcome: 'not-applicable',
          detail: `the implementation does not declare ${missing.join(', ')}`,
          runs: 0,
          steps: 0,
        }),
      );
      continue;
    }
    options.onCapability?.(explorer.name, null);
    // Each capability gets an equal share of what is left of the time budget.
    const left = applicable.slice(applicable.indexOf(explorer)).length;
    const share = deadline === null ? null : Date.now() + Math.max(1, (deadline - Date.now()) / left);
    const r = await exploreOne(explorer, target, { ...options, seed, deadline: share });
    results.push(r);
    options.onCapability?.(explorer.name, r);
    void i;
  }
  return results;
}
