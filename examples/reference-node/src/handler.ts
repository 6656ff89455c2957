// The reference implementation's request handler: one function per protocol method, shared by
// the stdio server (main.ts) and the in-process adapter.
import { canonicalize, DigestError, JsonTextError, parseJsonText, sha256Hex } from '@agent-contracts/digest';
import { type CommitRefusal, checkTaskKey, ManualClock, systemClock } from '@agent-contracts/engines';
import {
  type ClockResult,
  type CrashArmResult,
  type DigestResult,
  type HelloParams,
  type HelloResult,
  type InProcessAdapter,
  InvalidParams,
  MethodNotFound,
  PROTOCOL_VERSION,
  Refusal,
  StateLocationError,
  type StoreCommitOperationParams,
  type StoreCommitResult,
  type StoreCommitStateParams,
  type StoreHistoryResult,
  type StoreReadResult,
  type StoreReadWriteContextResult,
  type StoreReplayResult,
  type StoreTransitionOwnerParams,
  type ValidateResult,
} from '@agent-contracts/protocol';
import { StorageBackendError, StoreError, type TaskKey, type TaskStore } from '@agent-contracts/store';
import {
  BUNDLE_KINDS,
  type Issue,
  SUPPORTED_CONTRACTS,
  validate,
  validateBundle,
} from '@agent-contracts/validators';
import { checkpointMethods } from './checkpoint.js';
import { createContext } from './context.js';
import { CRASH_POINTS, createCrashPoints } from './crash.js';
import { delegationMethods } from './delegation.js';
import { createLiveness } from './liveness.js';
import { createPolicy } from './policy.js';
import { runMethods } from './run.js';
import { openStateStore } from './store.js';
import { createTrace } from './trace.js';

const VERSION = '0.0.0';

function asObject(params: unknown, method: string): Record<string, unknown> {
  if (!params || typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParams(`${method}: params must be an object (see docs/protocol.md)`);
  }
  return params as Record<string, unknown>;
}

const errorsOnly = (issues: readonly Issue[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => ({ code: i.code, path: i.path }));

/**
 * The task key of `params.task`; a key without both members, or one no valid envelope can carry,
 * is the spec's identity refusal (D-TCW-32), before the store is asked.
 */
function taskOf(params: unknown, method: string): TaskKey {
  const task = asObject(params, method).task;
  if (!task || typeof task !== 'object' || Array.isArray(task))
    throw new InvalidParams(`${method}: params.task must be { projectRootIdentity, taskId }`);
  const key = checkTaskKey(task);
  if (!key.ok) throw Refusal.from(key, `${method}: `);
  const { projectRootIdentity, taskId } = task as TaskKey;
  return { projectRootIdentity, taskId };
}

/** `params.request`, passed to the store as it is: the engine judges its members. */
function requestOf<T>(params: unknown, method: string): T {
  const request = asObject(params, method).request;
  if (!request || typeof request !== 'object' || Array.isArray(request))
    throw new InvalidParams(`${method}: params.request must be an object (see docs/protocol.md)`);
  return request as T;
}

/**
 * A store result, or its refusal as JSON-RPC -32000 whose `data` is the refusal object, `ok`
 * included (StoreRefusalData).
 */
function settled<T extends { readonly ok: boolean }>(result: T | CommitRefusal): T {
  if (result.ok) return result as T;
  const { code, message, ...rest } = result as CommitRefusal;
  throw new Refusal(code, message, rest);
}

/** Storage failures (not refusals) with their stable code and what is known of the outcome. */
async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof StorageBackendError) {
      throw new Refusal(e.code, e.message, { retryable: e.retryable, outcome: e.outcome });
    }
    if (e instanceof StoreError || e instanceof StateLocationError) throw new Refusal(e.code, e.message);
    throw e;
  }
}

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /**
   * How to die at an armed crash point (docs/protocol.md#crash-points): the stdio server passes a
   * SIGKILL of its own process. Without it the implementation declares no crash points and has no
   * `crash.arm` (an in-process adapter cannot be killed).
   */
  readonly die?: () => never;
  /** Where durable state lives (directory or database URL), as the harness's `hello` says. */
  readonly stateLocation?: string | null;
}

/**
 * The reference implementation as a protocol handler.
 *
 * @example
 * const impl = createHandler();
 * await impl.handle('hello', { protocolVersion: 1, stateLocation: null });
 */
export function createHandler(
  _options: HandlerOptions = {},
): InProcessAdapter & { readonly clock: ManualClock; close(): Promise<void> } {
  const clock = new ManualClock(systemClock.now());
  let stateLocation: string | null = _options.stateLocation ?? null;
  // The store of the current state location, opened by `hello` and closed by `shutdown`, by
  // `reset` (an in-process restart) and by `close`.
  let store: Promise<TaskStore> | null = null;
  const closeStore = async () => {
    const open = store;
    store = null;
    if (open) await (await open.catch(() => null))?.close();
  };
  const crash = _options.die ? createCrashPoints(_options.die) : null;
  const useStore = async <T>(call: (s: TaskStore) => Promise<T>): Promise<T> => {
    store ??= openStateStore(stateLocation, clock, crash?.wrap);
    return storageCall(async () => call(await (store as Promise<TaskStore>)));
  };
  const liveness = createLiveness(clock);
  const trace = createTrace(clock);
  const policy = createPolicy(clock);
  const context = createContext(clock);

  const methods: Record<string, (params: unknown) => unknown> = {
    async hello(params): Promise<HelloResult> {
      const p = asObject(params, 'hello') as Partial<HelloParams>;
      if (p.protocolVersion !== PROTOCOL_VERSION) {
        throw new Refusal(
          'PROTOCOL_VERSION_UNSUPPORTED',
          `this implementation speaks protocol ${PROTOCOL_VERSION}, not ${String(p.protocolVersion)}`,
        );
      }
      stateLocation = typeof p.stateLocation === 'string' ? p.stateLocation : null;
      // Host-local state (the turn and its trace) lives in localDirectory; the task store may be
      // a database shared by a fleet of hosts.
      const local = typeof p.localDirectory === 'string' ? p.localDirectory : stateLocation;
      liveness.open(local);
      trace.open(local);
      // Open (or reopen, after a restart) the store now, so that an unusable location fails
      // hello instead of every store case.
      await closeStore();
      await useStore(async () => null);
      return {
        name: 'agent-contracts reference (node)',
        version: VERSION,
        language: 'typescript',
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {
          contracts: [...SUPPORTED_CONTRACTS],
          bundles: [...BUNDLE_KINDS],
          digest: true,
          store: true,
          liveness: true,
          checkpoint: true,
          trace: true,
          clock: true,
          crashPoints: crash ? [...CRASH_POINTS] : [],
          run: true,
          policy: true,
          delegation: true,
          context: true,
        },
      };
    },
    validate(params): ValidateResult {
      const p = asObject(params, 'validate');
      if (!('document' in p)) throw new InvalidParams('validate: params.document is required');
      const contract = p.contract;
      if (
        contract !== undefined &&
        (typeof contract !== 'string' || !SUPPORTED_CONTRACTS.includes(contract))
      ) {
        throw new Refusal('SCHEMA_VERSION_UNKNOWN', `validate: unknown contract ${JSON.stringify(contract)}`);
      }
      const r = validate(p.document, contract === undefined ? {} : { contract });
      return r.ok ? { ok: true, issues: [] } : { ok: false, issues: errorsOnly(r.issues) };
    },
    validateBundle(params): ValidateResult {
      const r = validateBundle(asObject(params, 'validateBundle'));
      return r.ok ? { ok: true, issues: [] } : { ok: false, issues: errorsOnly(r.issues) };
    },
    digest(params): DigestResult {
      const p = asObject(params, 'digest');
      if (typeof p.json !== 'string') throw new InvalidParams('digest: params.json must be JSON text');
      let value: unknown;
      try {
        // I-JSON: an object that repeats a member name is refused, never read last-wins.
        value = parseJsonText(p.json);
      } catch (e) {
        if (e instanceof JsonTextError && e.problem.kind === 'duplicate-member')
          throw new Refusal('DIGEST_INPUT_INVALID', `digest: params.json: ${e.message}`, {
            path: e.problem.pointer,
          });
        throw new Refusal('DIGEST_INPUT_INVALID', 'digest: params.json is not JSON');
      }
      try {
        const canonical = canonicalize(value);
        return { canonical, sha256: sha256Hex(canonical) };
      } catch (e) {
        if (e instanceof DigestError) throw new Refusal(e.code, e.message, { path: e.path });
        throw e;
      }
    },
    'clock.set'(params): ClockResult {
      const p = asObject(params, 'clock.set');
      const t = typeof p.now === 'string' ? Date.parse(p.now) : Number.NaN;
      if (Number.isNaN(t)) throw new InvalidParams('clock.set: params.now must be an RFC 3339 timestamp');
      clock.set(t);
      return { now: new Date(clock.now()).toISOString() };
    },
    'clock.advance'(params): ClockResult {
      const p = asObject(params, 'clock.advance');
      if (typeof p.ms !== 'number' || !Number.isFinite(p.ms))
        throw new InvalidParams('clock.advance: params.ms must be a number');
      clock.advance(p.ms);
      return { now: new Date(clock.now()).toISOString() };
    },
    // The store's requests and results are the protocol's wire types (checked here by the compiler).
    'store.read': (params): Promise<StoreReadResult> => {
      const key = taskOf(params, 'store.read');
      return useStore(async (s) => settled(await s.read(key)));
    },
    'store.readWriteContext': (params): Promise<StoreReadWriteContextResult> => {
      const key = taskOf(params, 'store.readWriteContext');
      return useStore(async (s) => settled(await s.readWriteContext(key)));
    },
    'store.commitState': (params): Promise<StoreCommitResult> => {
      const request = requestOf<StoreCommitStateParams['request']>(params, 'store.commitState');
      return useStore(async (s) => settled(await s.commitState(request)));
    },
    'store.commitOperation': (params): Promise<StoreCommitResult> => {
      const request = requestOf<StoreCommitOperationParams['request']>(params, 'store.commitOperation');
      return useStore(async (s) => settled(await s.commitOperation(request)));
    },
    'store.transitionOwner': (params): Promise<StoreCommitResult> => {
      const request = requestOf<StoreTransitionOwnerParams['request']>(params, 'store.transitionOwner');
      return useStore(async (s) => settled(await s.transitionOwner(request)));
    },
    'store.replay': (params): Promise<StoreReplayResult> => {
      const key = taskOf(params, 'store.replay');
      return useStore(async (s) => settled(await s.replay(key)));
    },
    'store.history': (params): Promise<StoreHistoryResult> => {
      const key = taskOf(params, 'store.history');
      return useStore((s) => s.history(key));
    },
    async shutdown() {
      await closeStore();
      return null;
    },
    ...(crash
      ? {
          'crash.arm': (params: unknown): CrashArmResult => {
            const p = asObject(params, 'crash.arm');
            const point = CRASH_POINTS.find((c) => c === p.point);
            if (point === undefined)
              throw new InvalidParams(
                `crash.arm: params.point must be one of ${CRASH_POINTS.join(', ')} (see docs/protocol.md#crash-points)`,
              );
            const skip = p.skip ?? 0;
            if (typeof skip !== 'number' || !Number.isSafeInteger(skip) || skip < 0)
              throw new InvalidParams('crash.arm: params.skip must be a non-negative integer');
            crash.arm(point, skip);
            return { armed: point, skip };
          },
        }
      : {}),
    ...liveness.methods,
    ...checkpointMethods(clock),
    ...runMethods(clock),
    ...trace.methods,
    ...policy.methods,
    ...delegationMethods(clock),
    ...context.methods,
  };

  return {
    clock,
    async handle(method, params) {
      const fn = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!fn) throw new MethodNotFound(`method ${method} is not implemented (see hello's capabilities)`);
      return fn(params);
    },
    async reset() {
      // A restart: in-memory state (the clock, a memory store) is gone; durable state is reopened
      // by the next hello, on the same location.
      clock.set(systemClock.now());
      policy.clear();
      context.clear();
      await closeStore();
    },
    async close() {
      await closeStore();
    },
  };
}
