// Everything a fault scenario controls: the implementation processes (several on one state
// location), their signals (SIGKILL, SIGSTOP, SIGCONT) and restarts, the clock, the fake tool,
// and independent read-back of durable state through a process that took no part in the run.
import { parseStateLocation } from '@agent-contracts/protocol';
import { HarnessError } from '../errors.js';
import { defaultLocalDirectory, type Implementation, startSubprocess } from '../implementation.js';
import type { RunLedger } from '../session.js';
import type { ImplementationProcess, ProtocolViolation } from '../transport/process.js';
import type { WireTap } from '../wire-log.js';
import { FaultCheckFailure, show } from './check.js';
import {
  type Actor,
  type Binding,
  type Envelope,
  readHistory,
  type TaskKey,
  type View,
  type WriteOutcome,
} from './store-client.js';
import { FakeTool } from './tool.js';

/** How to start implementation processes for the fault matrix. */
export interface FaultTarget {
  /** The implementation's command line (run by `/bin/sh -c`). */
  readonly command: string;
  /** The durable state location every process of a scenario shares (directory or postgres:// URL). */
  readonly stateLocation: string;
  /** The host-local directory of the scenario's processes (default: the state location when it is a directory). */
  readonly localDirectory?: string;
  /** Deadline of one request, in ms. */
  readonly timeoutMs: number;
  /** Deadline of `hello`, process start included (default: that of `startSubprocess`). */
  readonly startTimeoutMs?: number;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The sandbox every process runs in (`conform --isolate`; ProcessOptions.sandbox). */
  readonly sandbox?: readonly string[];
  /** The conformance data directory (fixtures some scenarios read). */
  readonly conformanceDir?: string;
  /**
   * The run the scenario's processes belong to: each must answer `hello` as the run's first
   * process did (`IMPL_HELLO_CHANGED`), and goes by the run's capabilities, never its own.
   */
  readonly run?: RunLedger;
  /** Told of every message of the scenario's processes (`conform --wire`, wire-log.ts). */
  readonly wire?: WireTap;
}

/** The harness's clock origin for every scenario (docs/spec/turn-liveness-recovery-gate.md: T0). */
export const FAULT_T0 = '2026-11-30T05:41:12.000Z';

/** Whether a state location is a PostgreSQL URL. */
export const isPostgresLocation = (location: string): boolean => {
  try {
    return parseStateLocation(location).kind === 'postgres';
  } catch {
    return false;
  }
};

/** An implementation process of a scenario (`pid` leads its process group). */
export type FaultProcess = Implementation;

/** The options of `startSubprocess` for a scenario's processes. */
const subprocessOptions = (target: FaultTarget, onProcess: (p: ImplementationProcess) => void) => ({
  onProcess,
  command: target.command,
  stateLocation: target.stateLocation,
  ...(target.localDirectory === undefined ? {} : { localDirectory: target.localDirectory }),
  requestTimeoutMs: target.timeoutMs,
  ...(target.startTimeoutMs === undefined ? {} : { startTimeoutMs: target.startTimeoutMs }),
  ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  ...(target.env === undefined ? {} : { env: target.env }),
  ...(target.run === undefined ? {} : { run: target.run }),
  ...(target.sandbox === undefined ? {} : { sandbox: target.sandbox }),
  ...(target.wire === undefined ? {} : { wire: target.wire }),
});

/** The resources of one scenario run. Create with {@link FaultWorld.open}; always `close()`. */
export class FaultWorld {
  readonly tool = new FakeTool();
  readonly target: FaultTarget;
  #live = new Set<Implementation>();
  /** Every process the scenario started, live or not, for its protocol violations. */
  #all: Implementation[] = [];
  /** Every operating-system process the scenario started, also those still answering hello. */
  #processes = new Set<ImplementationProcess>();
  #closed = false;
  #now = Date.parse(FAULT_T0);
  #clock = true;

  readonly #track = (p: ImplementationProcess) => {
    this.#processes.add(p);
    // A process started after the scenario ended (a routine still running past its deadline, a
    // spawn that was mid-hello when another failed) is killed at once: none outlives the scenario.
    if (this.#closed) void p.kill();
  };

  constructor(target: FaultTarget) {
    this.target = target;
  }

  /** The harness's current time. */
  get now(): string {
    return new Date(this.#now).toISOString();
  }

  /** Start one more implementation process on the shared state location, with the harness's time. */
  async spawn(): Promise<FaultProcess> {
    const impl = await startSubprocess(subprocessOptions(this.target, this.#track));
    if (this.#closed) {
      await impl.kill();
      throw new HarnessError('IMPL_NOT_RUNNING', 'the scenario has ended; no process is started for it');
    }
    this.#live.add(impl);
    this.#all.push(impl);
    // The run's capabilities (impl.hello is the run's first hello), never this process's own.
    this.#clock = impl.hello.capabilities.clock;
    if (this.#clock) await impl.request('clock.set', { now: this.now });
    return impl;
  }

  /** kill -9 a process (no shutdown, no flush) and forget it. */
  async kill(impl: Implementation): Promise<void> {
    await impl.kill();
    this.#live.delete(impl);
  }

  /** kill -9 a process, then start a fresh one on the same state location. */
  async restart(impl: Implementation): Promise<FaultProcess> {
    await this.kill(impl);
    return this.spawn();
  }

  /** SIGSTOP: the process is frozen mid-whatever; requests sent to it wait in its pipe. */
  stop(impl: Implementation): void {
    impl.pause();
  }

  /** SIGCONT. */
  cont(impl: Implementation): void {
    impl.resume();
  }

  /** Set the clock of every live process (the harness owns time). */
  async setClock(iso: string): Promise<void> {
    this.#now = Date.parse(iso);
    await this.#syncClock();
  }

  /** Move the clock of every live process by `ms` (negative: backwards). */
  async advance(ms: number): Promise<void> {
    this.#now += ms;
    await this.#syncClock();
  }

  async #syncClock(): Promise<void> {
    if (!this.#clock) return;
    for (const impl of this.#live) await impl.request('clock.set', { now: this.now });
  }

  /**
   * The durable history of a task, read by a process started just for this read on the same
   * state location (never the process under test, whose claims are not evidence).
   */
  async audit(task: TaskKey): Promise<Envelope[]> {
    const auditor = await startSubprocess({
      ...subprocessOptions(this.target, this.#track),
      localDirectory: defaultLocalDirectory(this.target.stateLocation),
    });
    this.#all.push(auditor);
    try {
      const history = await readHistory(auditor, task);
      checkChain(history);
      return history;
    } finally {
      await auditor.close().catch(() => {});
    }
  }

  /**
   * Dispatch the unresolved operation as a runtime does: commit `dispatch`, and only when the
   * implementation acknowledged a new dispatch (`committed`) perform the fake tool call.
   */
  async dispatch(actor: Actor, binding: Binding, view?: View): Promise<WriteOutcome> {
    const r = await actor.operation({ event: 'dispatch', ...binding }, view);
    if (r.ok && r.status === 'committed') this.tool.call(binding.operationId, binding.idempotencyKey);
    return r;
  }

  /** Kill every process still running. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#live].map((impl) => impl.kill().catch(() => {})));
    this.#live.clear();
    // Also the processes of spawns and audits still in flight (mid-hello): every process the
    // scenario started is gone when it ends (issue 20, finding 6).
    await Promise.all([...this.#processes].map((p) => p.kill().catch(() => {})));
  }

  /** The protocol violations of every process the scenario started (call after `close`). */
  takeViolations(): { count: number; first: ProtocolViolation[] } {
    let count = 0;
    const first: ProtocolViolation[] = [];
    for (const impl of this.#all) {
      const v = impl.takeViolations();
      count += v.count;
      first.push(...v.first);
    }
    return { count, first };
  }
}

/** The durable log must be one chain: sequences 1..n. */
function checkChain(history: readonly Envelope[]): void {
  history.forEach((e, i) => {
    if (!e || typeof e !== 'object' || e.sequence !== i + 1)
      throw new FaultCheckFailure(
        `the durable history is not one chain: entry ${i} has sequence ${show((e as Envelope | null)?.sequence)}`,
      );
  });
}

/** A stable fingerprint of a durable history (sequence and envelope digest of every entry). */
export const historyFingerprint = (history: readonly Envelope[]): string =>
  history.map((e) => `${e.sequence}:${e.writerGeneration}:${e.envelopeDigest}`).join(',');

/**
 * Whether an error is a harness-observed fault of the process (crash, hang, garbage): not an
 * answer, neither an error reply nor a reply that breaks its schema (the implementation answered).
 */
export const isProcessFault = (e: unknown): e is HarnessError =>
  e instanceof HarnessError && e.code !== 'IMPL_RPC_ERROR' && e.code !== 'IMPL_REPLY_INVALID';
