// An implementation under test, however it runs: a subprocess speaking the protocol on stdio, or
// a TypeScript object in the harness's own process (the in-process adapter). The runner only
// sees this interface.

import {
  capabilitiesProblem,
  type HelloResult,
  type InProcessAdapter,
  PROTOCOL_VERSION,
  ProtocolRefusal,
  refusalError,
  rpcFailureMessage,
} from '@agent-contracts/protocol';
import { HarnessError } from './errors.js';
import { ImplementationProcess, type ProcessOptions, type ProtocolViolation } from './transport/process.js';

/** A live session with an implementation. */
export interface Implementation {
  /** What `hello` answered. */
  readonly hello: HelloResult;
  /** Send one request; throws {@link HarnessError} for anything but a result. */
  request(method: string, params?: unknown, options?: { timeoutMs?: number }): Promise<unknown>;
  /** The implementation's recent stderr (empty in-process). */
  readonly stderrTail: string;
  /** The operating-system id of the process (group) now running; undefined in-process. */
  readonly pid: number | undefined;
  /**
   * The protocol violations (garbage, duplicate or unknown ids, unsolicited or oversized lines)
   * seen since the last call, in every process of this session, and how many there were in all
   * (only the first ones are kept with their text). A session with any violation does not
   * conform, whenever the violation happened (docs/protocol.md#framing-and-errors).
   */
  takeViolations(): { readonly count: number; readonly first: readonly ProtocolViolation[] };
  /** Stop it; after a crash, start a fresh one on the same state location. */
  restart(): Promise<void>;
  /** kill -9 (subprocess) or drop (in-process) without any shutdown. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT (subprocess only; in-process: no-op). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Check a `hello` result's shape; throws IMPL_GARBAGE_OUTPUT naming what is wrong. */
export function checkHello(value: unknown): HelloResult {
  const bad = (why: string) =>
    new HarnessError(
      'IMPL_GARBAGE_OUTPUT',
      `hello returned an invalid result: ${why} (see docs/protocol.md#hello)`,
    );
  if (!value || typeof value !== 'object') throw bad('not an object');
  const h = value as Record<string, unknown>;
  for (const k of ['name', 'version', 'language'])
    if (typeof h[k] !== 'string' || !h[k]) throw bad(`"${k}" must be a non-empty string`);
  if (h.protocolVersion !== PROTOCOL_VERSION) throw bad(`"protocolVersion" must be ${PROTOCOL_VERSION}`);
  const problem = capabilitiesProblem(h.capabilities);
  if (problem) throw bad(problem);
  return value as HelloResult;
}

/** Options of a subprocess implementation. */
export interface SubprocessOptions extends ProcessOptions {
  /** Durable state location handed to `hello` (a directory or a database URL). */
  readonly stateLocation: string | null;
  /**
   * Host-local directory handed to `hello` (default: `stateLocation` when it is a directory, else
   * null).
   */
  readonly localDirectory?: string | null;
  /**
   * Deadline of `hello`, which includes starting the process (an interpreter, a JIT, a database
   * connection): default {@link START_TIMEOUT_MS}, and never less than the request deadline.
   */
  readonly startTimeoutMs?: number;
}

/** Default deadline of `hello`, process start included, in ms. */
export const START_TIMEOUT_MS = 30_000;

/** The `localDirectory` that goes with a state location when none is given. */
export function defaultLocalDirectory(stateLocation: string | null): string | null {
  return stateLocation !== null && !/^[a-z][a-z0-9+.-]*:/i.test(stateLocation) ? stateLocation : null;
}

/** Start an implementation as a subprocess and greet it. Throws HarnessError if it cannot. */
export async function startSubprocess(options: SubprocessOptions): Promise<Implementation> {
  let proc = ImplementationProcess.start(options);
  // Violations are read from every process the session ran, also the ones a restart replaced.
  const procs: ImplementationProcess[] = [proc];
  const taken = new Map<ImplementationProcess, number>();
  const greet = async () => {
    try {
      return checkHello(
        await proc.request(
          'hello',
          {
            protocolVersion: PROTOCOL_VERSION,
            stateLocation: options.stateLocation,
            localDirectory: options.localDirectory ?? defaultLocalDirectory(options.stateLocation),
          },
          { timeoutMs: Math.max(options.startTimeoutMs ?? START_TIMEOUT_MS, proc.options.requestTimeoutMs) },
        ),
      );
    } catch (e) {
      await proc.kill();
      throw e;
    }
  };
  let hello = await greet();
  return {
    get hello() {
      return hello;
    },
    get stderrTail() {
      return proc.stderrTail;
    },
    get pid() {
      return proc.pid;
    },
    takeViolations() {
      let count = 0;
      const first: ProtocolViolation[] = [];
      for (const p of procs) {
        const from = taken.get(p) ?? 0;
        count += p.violationCount - from;
        first.push(...p.violations.slice(Math.min(from, p.violations.length)));
        taken.set(p, p.violationCount);
      }
      return { count, first };
    },
    request: (method, params, opts) => proc.request(method, params, opts),
    async restart() {
      await proc.kill();
      proc = ImplementationProcess.start(options);
      procs.push(proc);
      hello = await greet();
    },
    async kill() {
      await proc.kill();
    },
    pause: () => proc.signal('SIGSTOP'),
    resume: () => proc.signal('SIGCONT'),
    async close() {
      await proc.close();
    },
  };
}

/** Run an in-process adapter through the same interface (same cases, no subprocess). */
export async function startInProcess(
  adapter: InProcessAdapter,
  stateLocation: string | null,
  localDirectory: string | null = defaultLocalDirectory(stateLocation),
): Promise<Implementation> {
  const call = async (method: string, params: unknown) => {
    try {
      return await adapter.handle(method, params);
    } catch (e) {
      if (e instanceof ProtocolRefusal) {
        const error = refusalError(e);
        throw new HarnessError('IMPL_RPC_ERROR', rpcFailureMessage(method, error), {
          detail: { method, error },
        });
      }
      throw new HarnessError(
        'IMPL_EXITED',
        `${method}: the in-process implementation threw: ${(e as Error).message}`,
        {
          cause: e,
        },
      );
    }
  };
  let hello = checkHello(
    await call('hello', { protocolVersion: PROTOCOL_VERSION, stateLocation, localDirectory }),
  );
  return {
    get hello() {
      return hello;
    },
    stderrTail: '',
    pid: undefined,
    takeViolations: () => ({ count: 0, first: [] }),
    request: (method, params) => call(method, params),
    async restart() {
      await adapter.reset?.();
      hello = checkHello(
        await call('hello', { protocolVersion: PROTOCOL_VERSION, stateLocation, localDirectory }),
      );
    },
    async kill() {
      await adapter.reset?.();
    },
    pause() {},
    resume() {},
    async close() {
      await adapter.close?.();
    },
  };
}
