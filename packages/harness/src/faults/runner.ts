// Runs fault scenarios: each in a fresh FaultWorld (its own processes on the shared state
// location, its own clock and fake tool), ending as exactly one outcome like a case.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directoryOf, type HelloResult, missingCapabilities } from '@agent-contracts/protocol';
import { shapeOf } from '../compare/shape.js';
import { HarnessDefect, HarnessError } from '../errors.js';
import { type Implementation, startSubprocess } from '../implementation.js';
import { DIFFERENCES_LISTED, type Difference } from '../json-diff.js';
import { type CaseResult, harnessDefectText, type Outcome, withViolations } from '../runner.js';
import type { ReplyViolation } from '../wire/reply.js';
import type { WireTap } from '../wire-log.js';
import { FaultCheckFailure, FaultNotApplicable } from './check.js';
import type { FaultRoutine } from './kinds/common.js';
import * as field from './kinds/field.js';
import * as liveness from './kinds/liveness.js';
import * as store from './kinds/store.js';
import type { FaultScenario } from './scenario.js';
import { type FaultTarget, FaultWorld, isPostgresLocation } from './world.js';

/** Every driver routine, by the `fault` name scenario files use. */
export const FAULT_KINDS: Readonly<Record<string, FaultRoutine>> = {
  'no-continuation': liveness.noContinuation,
  'active-lease': liveness.activeLease,
  'restart-rehydrate': liveness.restartRehydrate,
  'duplicate-recovery': liveness.duplicateRecovery,
  'stale-fence': store.staleFence,
  'concurrent-writers': store.concurrentWriters,
  'racing-writers': store.racingWriters,
  'crash-between-dispatch-and-observe': store.crashBetweenDispatchAndObserve,
  'crash-before-dispatch': store.crashBeforeDispatch,
  'kill-after-ack': store.killAfterAck,
  'crash-points': store.crashPoints,
  receipts: store.receipts,
  'late-receipt': store.lateReceipt,
  'terminal-preconditions': store.terminalPreconditions,
  'replay-writes-nothing': store.replayWritesNothing,
  'reopen-invalidates-fence': store.reopenInvalidatesFence,
  'clock-jumps': store.clockJumps,
  'duplicate-takeover': store.duplicateTakeover,
  'zombie-writer': field.zombieWriter,
  'pg-connections-dropped': field.pgConnectionsDropped,
  'recovery-while-running': field.recoveryWhileRunning,
  'resume-step-mismatch': field.resumeStepMismatch,
  'whole-turn-retry': field.wholeTurnRetry,
  'versioned-state': field.versionedState,
};

/**
 * How long a routine runs, relative to most (1): the scenarios whose routines run longest are
 * started first, so that with several jobs the longest one does not start last and finish alone.
 * `crash-points` drives four crashes one after another (two points, each in a state commit and a
 * dispatch), each about as long as a whole other scenario (bench/README.md, "The main job").
 */
export const FAULT_KIND_WEIGHT: Readonly<Record<string, number>> = { 'crash-points': 4 };

/**
 * The order {@link runFaultMatrix} starts `scenarios` in, as indices into them: heaviest routine
 * first ({@link FAULT_KIND_WEIGHT}), otherwise in the order given.
 */
export function faultStartOrder(scenarios: readonly Pick<FaultScenario, 'fault'>[]): number[] {
  const weight = (i: number) => FAULT_KIND_WEIGHT[scenarios[i]!.fault] ?? 1;
  return scenarios.map((_, i) => i).sort((a, b) => weight(b) - weight(a) || a - b);
}

/**
 * The fault kinds whose routines load the PostgreSQL driver (`pg`, postgres-driver.ts) on a
 * postgres:// state location: a run that selects one of them there needs pg installed.
 */
export const FAULT_KINDS_LOADING_PG: ReadonlySet<string> = new Set(['pg-connections-dropped']);

/** The names of {@link FAULT_KINDS}. */
export const FAULT_KIND_NAMES: ReadonlySet<string> = new Set(Object.keys(FAULT_KINDS));

/** Options of {@link runFaultScenario} and {@link runFaultMatrix}. */
export interface FaultRunOptions extends FaultTarget {
  /** The implementation's `hello` (capabilities decide not-applicable); probed when absent. */
  readonly hello?: HelloResult;
  /** Longest a whole scenario may run, in ms (default 120 000): past it, `timeout`. */
  readonly scenarioTimeoutMs?: number;
  /** Called when a scenario starts. */
  readonly onStart?: (scenario: FaultScenario) => void;
  /** Called with each result as soon as it is known. */
  readonly onResult?: (result: CaseResult) => void;
  /** Called once with the implementation's `hello` when the matrix had to probe for it. */
  readonly onHello?: (hello: HelloResult) => void;
  /** How many scenarios run at once (default 1); each has its own processes and state. */
  readonly jobs?: number;
  /** The wire tap of one scenario's processes (`conform --wire`, wire-log.ts). */
  readonly wireFor?: (scenarioId: string) => WireTap;
}

/**
 * The state location of one scenario: a subdirectory per scenario under a directory location (so
 * that scenarios never see each other's per-process state); a database URL is shared, since every
 * scenario uses fresh task keys.
 */
export function scenarioStateLocation(location: string): string {
  const directory = directoryOf(location);
  if (directory === null) return location;
  // An opaque name, fresh each time: an implementation must not learn from its path which
  // scenario runs (and behave only there), nor find another run's state in it.
  const dir = join(directory, opaqueName());
  mkdirSync(dir);
  return dir;
}

/** A fresh directory name that says nothing about what runs in it. */
export const opaqueName = (): string => `s-${randomBytes(12).toString('hex')}`;

const PROCESS_OUTCOME: Partial<Record<HarnessError['code'], Outcome>> = {
  IMPL_TIMEOUT: 'timeout',
  IMPL_EXITED: 'crash',
  IMPL_STDOUT_CLOSED: 'crash',
  IMPL_SPAWN_FAILED: 'crash',
  IMPL_NOT_RUNNING: 'crash',
};

/**
 * Run one scenario. Never throws. A protocol violation by any process the scenario started makes
 * a passing scenario `error`.
 */
export async function runFaultScenario(
  scenario: FaultScenario,
  hello: HelloResult,
  options: FaultRunOptions,
): Promise<CaseResult> {
  const started = performance.now();
  const done = (
    outcome: Outcome,
    detail: string,
    stderrTail?: string,
    differences: readonly Difference[] = [],
  ): CaseResult => ({
    id: scenario.id,
    gate: scenario.gate,
    subject: scenario.subject,
    level: scenario.level,
    title: scenario.title,
    spec: scenario.spec,
    requirements: scenario.requirements,
    outcome,
    detail,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    ...(stderrTail ? { stderrTail: stderrTail.slice(-4096) } : {}),
    ...(differences.length ? { differences: differences.slice(0, DIFFERENCES_LISTED) } : {}),
    ...(differences.length > DIFFERENCES_LISTED
      ? { moreDifferences: differences.length - DIFFERENCES_LISTED }
      : {}),
  });
  const missing = missingCapabilities(scenario.requires, hello.capabilities);
  if (missing.length)
    return done('not-applicable', `the implementation does not declare ${missing.join(', ')}`);
  const routine = FAULT_KINDS[scenario.fault];
  if (!routine) return done('error', `the harness has no fault routine "${scenario.fault}"`);
  // With a database URL the host-local state (turn state, trace) gets a directory of its own per
  // scenario; with a directory it lives in the scenario's state directory.
  const ownLocal = isPostgresLocation(options.stateLocation)
    ? mkdtempSync(join(tmpdir(), 'agent-contracts-fault-local-'))
    : null;
  const world = new FaultWorld({
    ...options,
    stateLocation: scenarioStateLocation(options.stateLocation),
    ...(ownLocal ? { localDirectory: ownLocal } : {}),
    ...(options.wireFor ? { wire: options.wireFor(scenario.id) } : {}),
  });
  let result = await runIn(world, routine, scenario, options, done);
  await world.close();
  result = withViolations(result, world.takeViolations());
  if (ownLocal) rmSync(ownLocal, { recursive: true, force: true });
  return result;
}

async function runIn(
  world: FaultWorld,
  routine: FaultRoutine,
  scenario: FaultScenario,
  options: FaultRunOptions,
  done: (
    outcome: Outcome,
    detail: string,
    stderrTail?: string,
    differences?: readonly Difference[],
  ) => CaseResult,
): Promise<CaseResult> {
  const limit = options.scenarioTimeoutMs ?? 120_000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HarnessError('IMPL_TIMEOUT', `the scenario did not finish within ${limit} ms`)),
      limit,
    );
  });
  try {
    const detail = await Promise.race([routine(world, scenario), deadline]);
    return done('pass', detail);
  } catch (e) {
    if (e instanceof HarnessDefect) return done('harness-error', harnessDefectText(e));
    if (e instanceof FaultCheckFailure) return done('fail', e.message, undefined, e.differences);
    if (e instanceof FaultNotApplicable) return done('not-applicable', e.message);
    if (e instanceof HarnessError) {
      const outcome = PROCESS_OUTCOME[e.code];
      if (outcome) return done(outcome, `${e.code}: ${e.message}`, e.stderrTail);
      // A reply that breaks its schema is a wrong answer, as in a golden case.
      if (e.code === 'IMPL_REPLY_INVALID') {
        const violation = (e.detail as { violation?: ReplyViolation }).violation;
        return done('fail', e.message, e.stderrTail, violation ? [...shapeOf([violation]).differences] : []);
      }
      if (e.code === 'IMPL_RPC_ERROR') {
        const err = e.detail.error as { code?: unknown; message?: unknown } | undefined;
        // The implementation answered, wrongly: a failure, as the same reply is in a golden case.
        return done(
          'fail',
          `${e.message} (JSON-RPC error ${String(err?.code)}, not a spec refusal the scenario allows)`,
          e.stderrTail,
        );
      }
      return done('error', `${e.code}: ${e.message}`, e.stderrTail);
    }
    return done('error', `the scenario failed inside the harness: ${(e as Error)?.message ?? String(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Start one process to learn the implementation's capabilities. */
async function probe(options: FaultTarget): Promise<HelloResult> {
  let impl: Implementation | null = null;
  try {
    impl = await startSubprocess({
      command: options.command,
      stateLocation: options.stateLocation,
      requestTimeoutMs: options.timeoutMs,
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.run === undefined ? {} : { run: options.run }),
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    });
    return impl.hello;
  } finally {
    await impl?.close().catch(() => {});
    // The probe runs no case: what it did wrong is charged to the run.
    if (impl) options.run?.charge(impl.takeViolations(), 'the fault matrix probe');
  }
}

/**
 * Run scenarios against an implementation command, `jobs` at a time, longest first
 * ({@link faultStartOrder}), and return the results in scenario order. An implementation that
 * cannot even be started makes every scenario `error`.
 */
export async function runFaultMatrix(
  scenarios: readonly FaultScenario[],
  options: FaultRunOptions,
): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(scenarios.length);
  let hello = options.hello ?? null;
  let unreachable: string | null = null;
  if (!hello && scenarios.length) {
    try {
      hello = await probe({
        ...options,
        stateLocation: scenarioStateLocation(options.stateLocation),
      });
      options.onHello?.(hello);
    } catch (e) {
      unreachable = e instanceof HarnessError ? `${e.code}: ${e.message}` : String(e);
    }
  }
  const order = faultStartOrder(scenarios);
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < order.length; n = next++) {
      const i = order[n]!;
      const s = scenarios[i]!;
      options.onStart?.(s);
      const r = hello
        ? await runFaultScenario(s, hello, options)
        : {
            id: s.id,
            gate: s.gate,
            subject: s.subject,
            level: s.level,
            requirements: s.requirements,
            outcome: 'error' as const,
            detail: `the implementation could not be started: ${unreachable}`,
            durationMs: 0,
          };
      results[i] = r;
      options.onResult?.(r);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, scenarios.length)) }, worker),
  );
  return results;
}
