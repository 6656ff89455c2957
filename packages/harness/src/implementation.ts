// An implementation under test, however it runs: a subprocess speaking the protocol on stdio, or
// a TypeScript object in the harness's own process (the in-process adapter). The runner only
// sees this interface.

import {
  capabilitiesProblem,
  directoryOf,
  type HelloResult,
  type InProcessAdapter,
  PROTOCOL_VERSION,
  REQUIRED_CAPABILITIES,
  toJsonRpcError,
} from '@agent-contracts/protocol';
import type { MalformedRequest } from './cases.js';
import { HarnessError } from './errors.js';
import { RunLedger } from './session.js';
import { ImplementationProcess, type ProcessOptions, type ProtocolViolation } from './transport/process.js';
import { describeReplyViolation, type RawReply, type Reply, readReply, resultOf } from './wire/reply.js';
import { checkRequest } from './wire/request.js';

/** Options of one request. */
export interface CallOptions {
  /** Deadline of this request, in ms (default: the session's). */
  readonly timeoutMs?: number;
  /** The request breaks its params schema on purpose, exactly here (a golden case's `malformed`). */
  readonly malformed?: MalformedRequest;
}

/** A live session with an implementation. */
export interface Implementation {
  /** What `hello` answered. */
  readonly hello: HelloResult;
  /**
   * Send one request and read its reply (docs/protocol.md#every-message-is-checked): the params
   * are checked against the method's schema first (a request that breaks it is not sent:
   * {@link HarnessDefect}), the reply against the method's result or refusal schema (a reply that
   * breaks it is `{ invalid }`). A refusal is a reply like a result.
   *
   * @throws {HarnessDefect} for a request of the harness that breaks its own schema.
   * @throws {HarnessError} only for a transport failure (timeout, crash, garbage).
   */
  call(method: string, params?: unknown, options?: CallOptions): Promise<Reply>;
  /**
   * {@link call}, for callers to whom anything but a result is a failure (the fault routines): the
   * result, or throws `IMPL_RPC_ERROR` (an error reply) or `IMPL_REPLY_INVALID` (a broken one).
   */
  request(method: string, params?: unknown, options?: CallOptions): Promise<unknown>;
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

/** What every `hello` result carries, in words, for a message about one that does not. */
const HELLO_CARRIES = `hello's result must carry "name", "version" and "language" (non-empty strings), "protocolVersion": ${PROTOCOL_VERSION} and "capabilities" with ${REQUIRED_CAPABILITIES.map((k) => `"${k}"`).join(', ')}`;

/**
 * Check a `hello` result's shape; throws IMPL_HELLO_INVALID naming the member that is missing or
 * wrong and what `hello` must carry.
 */
export function checkHello(value: unknown): HelloResult {
  const bad = (why: string) =>
    new HarnessError(
      'IMPL_HELLO_INVALID',
      `hello returned an invalid result: ${why}; ${HELLO_CARRIES} (see docs/protocol.md#hello)`,
    );
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad('not an object');
  const h = value as Record<string, unknown>;
  for (const k of ['name', 'version', 'language'])
    if (!Object.hasOwn(h, k)) throw bad(`"${k}" is missing`);
    else if (typeof h[k] !== 'string' || !h[k]) throw bad(`"${k}" must be a non-empty string`);
  if (!Object.hasOwn(h, 'protocolVersion')) throw bad('"protocolVersion" is missing');
  if (h.protocolVersion !== PROTOCOL_VERSION) throw bad(`"protocolVersion" must be ${PROTOCOL_VERSION}`);
  if (!Object.hasOwn(h, 'capabilities')) throw bad('"capabilities" is missing');
  const problem = capabilitiesProblem(h.capabilities);
  if (problem) throw bad(problem);
  // Then everything else the schema says (an extra member, a capability it does not know).
  const reply = readReply('hello', { result: value });
  if ('invalid' in reply) throw bad(describeReplyViolation(reply.invalid));
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
  /**
   * The run this session belongs to: its first `hello` is the one every process of the run must
   * repeat (a difference is `IMPL_HELLO_CHANGED`, and the session goes by the run's). Default: a
   * ledger of this session alone, so that at least its restarts are held to its first `hello`.
   */
  readonly run?: RunLedger;
  /**
   * Called with every process the session starts (the first and each restart), before its
   * `hello` is answered, so that an owner can kill what it started even mid-`hello`.
   */
  readonly onProcess?: (process: ImplementationProcess) => void;
}

/** Default deadline of `hello`, process start included, in ms. */
export const START_TIMEOUT_MS = 30_000;

/** The `localDirectory` that goes with a state location when none is given. */
export function defaultLocalDirectory(stateLocation: string | null): string | null {
  return directoryOf(stateLocation);
}

/** How a session sends a request: the raw reply, or a thrown transport failure. */
type Send = (method: string, params: unknown, timeoutMs: number | undefined) => Promise<RawReply>;

/** `call` and `request` of a session over its transport: every request and reply checked. */
function checkedCalls(send: Send): Pick<Implementation, 'call' | 'request'> {
  const call = async (method: string, params?: unknown, options: CallOptions = {}): Promise<Reply> => {
    checkRequest(method, params, options.malformed);
    return readReply(method, await send(method, params, options.timeoutMs));
  };
  return {
    call,
    request: async (method, params, options) => resultOf(method, await call(method, params, options)),
  };
}

/** Send `hello` and check its result; a wrong one is IMPL_HELLO_INVALID, an error IMPL_RPC_ERROR. */
async function greet(
  call: Implementation['call'],
  params: { stateLocation: string | null; localDirectory: string | null },
  timeoutMs?: number,
): Promise<HelloResult> {
  const reply = await call(
    'hello',
    { protocolVersion: PROTOCOL_VERSION, ...params },
    timeoutMs === undefined ? {} : { timeoutMs },
  );
  if ('result' in reply) return checkHello(reply.result);
  if ('invalid' in reply && 'result' in reply.raw) return checkHello(reply.raw.result);
  return resultOf('hello', reply) as never;
}

/** Start an implementation as a subprocess and greet it. Throws HarnessError if it cannot. */
export async function startSubprocess(options: SubprocessOptions): Promise<Implementation> {
  let proc = ImplementationProcess.start(options);
  options.onProcess?.(proc);
  // Violations are read from every process the session ran, also the ones a restart replaced.
  const procs: ImplementationProcess[] = [proc];
  const taken = new Map<ImplementationProcess, number>();
  const { call, request } = checkedCalls((method, params, timeoutMs) =>
    proc.call(method, params, timeoutMs === undefined ? {} : { timeoutMs }),
  );
  const locations = {
    stateLocation: options.stateLocation,
    localDirectory: options.localDirectory ?? defaultLocalDirectory(options.stateLocation),
  };
  const run = options.run ?? new RunLedger();
  const hello_ = async () => {
    let answered: HelloResult;
    try {
      answered = await greet(
        call,
        locations,
        Math.max(options.startTimeoutMs ?? START_TIMEOUT_MS, proc.options.requestTimeoutMs),
      );
    } catch (e) {
      await proc.kill();
      throw e;
    }
    // One hello per run: a process that answers otherwise is charged with it, and the session
    // keeps going by the run's first (it cannot switch a case or a fault off by declaring less).
    const pinned = run.pin(answered);
    if (pinned.violation) proc.recordViolation(pinned.violation.code, pinned.violation.message);
    return pinned.hello;
  };
  let hello = await hello_();
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
    call,
    request,
    async restart() {
      await proc.kill();
      proc = ImplementationProcess.start(options);
      options.onProcess?.(proc);
      procs.push(proc);
      hello = await hello_();
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
  // What the adapter throws is answered as a stdio server answers it (toJsonRpcError): a refusal
  // is -32000, InvalidParams -32602, MethodNotFound -32601, an InternalError or any other throw
  // -32603. The adapter is still there for the next request, so nothing it throws is a crash.
  const { call, request } = checkedCalls(async (method, params) => {
    try {
      // JSON has no undefined: a handler that returns nothing answers null, as on the wire.
      return { result: (await adapter.handle(method, params)) ?? null };
    } catch (e) {
      return { error: toJsonRpcError(e) };
    }
  });
  const run = new RunLedger();
  let violations: ProtocolViolation[] = [];
  const hello = run.pin(await greet(call, { stateLocation, localDirectory })).hello;
  return {
    get hello() {
      return hello;
    },
    stderrTail: '',
    pid: undefined,
    takeViolations: () => {
      const first = violations;
      violations = [];
      return { count: first.length, first };
    },
    call,
    request,
    async restart() {
      await adapter.reset?.();
      const v = run.pin(await greet(call, { stateLocation, localDirectory })).violation;
      if (v) violations.push(v);
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
