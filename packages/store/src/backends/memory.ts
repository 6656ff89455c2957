import type { Fence } from '@agent-contracts/engines';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import type { AppendResult, StorageBackend, TaskKey } from '../backend.js';
import { assertAppendShape, StorageBackendError } from './errors.js';

interface Log {
  stateSequence: number;
  writerGeneration: number;
  readonly envelopes: TaskRecoveryStateV5[];
}

const OK: AppendResult = Object.freeze({ ok: true as const });

/**
 * Objects below an envelope's root that this module has deep-frozen after checking them to be
 * plain JSON data. A frozen object cannot gain, lose or change a property, so everything reachable
 * from a member stays checked and frozen, and a subtree that the engines share between consecutive
 * envelopes (owner, operations, terminal lineage) is walked only once.
 */
const sealed = new WeakSet<object>();

// The path being walked by `seal` (synchronous, so one pair serves every backend): the objects,
// to refuse cycles, and the property names or indices, to name the offending place in an error.
const walking: object[] = [];
const names: Array<string | number> = [];

/**
 * Subtrees of at most this many values are not remembered in {@link sealed}: re-checking a small
 * frozen object on a later append costs less than a WeakSet entry (which the collector must trace
 * on every cycle). Larger ones are checked once.
 */
const SMALL = 8;

function notJson(depth: number, what: string): StorageBackendError {
  const path = names
    .slice(0, depth)
    .map((n) => `/${String(n).replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  walking.length = 0;
  names.length = 0;
  return new StorageBackendError(
    'STORE_APPEND_INVALID',
    `the envelope holds ${what} at "${path || '/'}": an envelope is plain JSON data (what the durable backends store and digests cover); nothing was written`,
  );
}

/**
 * Checks that `value` is plain JSON data (what RFC 8785 digests accept: no undefined, function,
 * bigint, symbol, non-finite number, array hole, non-plain object or cycle) and freezes it deeply.
 * `depth` is the length of the path walked so far. Returns the number of values checked.
 */
function seal(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return 1;
    case 'number':
      if (!Number.isFinite(value)) throw notJson(depth, `the non-finite number ${String(value)}`);
      return 1;
    case 'object': {
      if (value === null || sealed.has(value)) return 1;
      for (let i = 0; i < depth; i++) if (walking[i] === value) throw notJson(depth, 'a cycle');
      walking[depth] = value;
      let count = 1;
      // Strings and booleans (most values) are accepted inline; everything else goes through seal.
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (typeof v === 'string' || typeof v === 'boolean') {
            count++;
            continue;
          }
          names[depth] = i;
          if (v === undefined && !(i in value)) throw notJson(depth + 1, 'an array hole');
          count += seal(v, depth + 1);
        }
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) throw notJson(depth, 'a non-plain object');
        const keys = Object.keys(value);
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const v = (value as Record<string, unknown>)[k];
          if (typeof v === 'string' || typeof v === 'boolean') {
            count++;
            continue;
          }
          names[depth] = k;
          count += seal(v, depth + 1);
        }
      }
      Object.freeze(value);
      // An envelope's root is never shared (each append has its own sequence); its subtrees are.
      if (depth > 0 && count > SMALL) sealed.add(value);
      walking[depth] = null as unknown as object; // no reference kept past the walk
      return count;
    }
    default:
      throw notJson(depth, `a value of type ${typeof value}`);
  }
}

/**
 * A {@link StorageBackend} in process memory, for tests and embedding. An envelope is immutable
 * once appended: `compareAndAppend` checks that it is plain JSON data and deep-freezes it (the
 * caller's object itself, no copy), and `load` and `history` return those frozen envelopes, so
 * nothing a caller does to an appended or returned object can change storage (in strict-mode code
 * an attempt throws a `TypeError`). A subtree of more than a few values that an earlier append
 * already checked (the engines share owner, operations and lineage with the envelope before) is
 * not walked again. An envelope that is not plain JSON data is refused with
 * `STORE_APPEND_INVALID` and nothing is written (subtrees checked before the fault may be left
 * frozen). A fence mismatch leaves the object untouched. `compareAndAppend` is atomic because it never yields between the compare and the append.
 * Nothing survives the process.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, TaskStore } from '@agent-contracts/store';
 * const store = new TaskStore(createMemoryBackend());
 * ```
 */
export function createMemoryBackend(): StorageBackend {
  // projectRootIdentity -> taskId -> log: no key string is built per call.
  const roots = new Map<string, Map<string, Log>>();
  let closed = false;
  const open = () => {
    if (closed)
      throw new StorageBackendError('STORE_CLOSED', 'the memory backend is closed: create a new one');
  };
  const find = (key: TaskKey): Log | undefined => roots.get(key.projectRootIdentity)?.get(key.taskId);
  return {
    kind: 'memory',
    async load(key: TaskKey): Promise<TaskRecoveryStateV5 | null> {
      open();
      const envelopes = find(key)?.envelopes;
      return envelopes === undefined ? null : envelopes[envelopes.length - 1]!;
    },
    async loadAt(key: TaskKey, sequence: number): Promise<TaskRecoveryStateV5 | null> {
      open();
      // The log is 1..n without gaps, so the envelope of sequence s sits at index s - 1.
      const e =
        Number.isSafeInteger(sequence) && sequence >= 1 ? find(key)?.envelopes[sequence - 1] : undefined;
      return e ?? null;
    },
    async compareAndAppend(key: TaskKey, expected: Fence, next: TaskRecoveryStateV5): Promise<AppendResult> {
      open();
      assertAppendShape(key, expected, next);
      const log = find(key);
      const stateSequence = log === undefined ? 0 : log.stateSequence;
      const writerGeneration = log === undefined ? 0 : log.writerGeneration;
      if (stateSequence !== expected.stateSequence || writerGeneration !== expected.writerGeneration)
        return { ok: false, current: { stateSequence, writerGeneration } };
      seal(next, 0); // throws before anything is written
      if (log !== undefined) {
        log.envelopes.push(next);
        log.stateSequence = next.sequence;
        log.writerGeneration = next.writerGeneration;
        return OK;
      }
      let tasks = roots.get(key.projectRootIdentity);
      if (tasks === undefined) {
        tasks = new Map();
        roots.set(key.projectRootIdentity, tasks);
      }
      tasks.set(key.taskId, {
        stateSequence: next.sequence,
        writerGeneration: next.writerGeneration,
        envelopes: [next],
      });
      return OK;
    },
    async history(key: TaskKey): Promise<TaskRecoveryStateV5[]> {
      open();
      // A fresh array (the caller may sort or push), of the frozen envelopes themselves.
      return find(key)?.envelopes.slice() ?? [];
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}
