import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import type { AppendResult, Fence, StorageBackend, TaskKey } from '../backend.js';
import { assertAppendShape, StorageBackendError } from './errors.js';

interface Log {
  fence: Fence;
  readonly lines: string[];
}

const keyOf = (key: TaskKey) => `${key.projectRootIdentity}/${key.taskId}`;

/**
 * A {@link StorageBackend} in process memory, for tests and embedding. Envelopes are stored as
 * their JSON text, so nothing a caller does to a returned or appended object changes storage,
 * and `compareAndAppend` is atomic because it never yields between the compare and the append.
 * Nothing survives the process.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, TaskStore } from '@agent-contracts/store';
 * const store = new TaskStore(createMemoryBackend());
 * ```
 */
export function createMemoryBackend(): StorageBackend {
  const logs = new Map<string, Log>();
  let closed = false;
  const open = () => {
    if (closed)
      throw new StorageBackendError('STORE_CLOSED', 'the memory backend is closed: create a new one');
  };
  return {
    kind: 'memory',
    async load(key: TaskKey): Promise<TaskRecoveryStateV5 | null> {
      open();
      const last = logs.get(keyOf(key))?.lines.at(-1);
      return last === undefined ? null : (JSON.parse(last) as TaskRecoveryStateV5);
    },
    async compareAndAppend(key: TaskKey, expected: Fence, next: TaskRecoveryStateV5): Promise<AppendResult> {
      open();
      assertAppendShape(key, expected, next);
      const log = logs.get(keyOf(key));
      const current: Fence = log?.fence ?? { stateSequence: 0, writerGeneration: 0 };
      if (
        current.stateSequence !== expected.stateSequence ||
        current.writerGeneration !== expected.writerGeneration
      ) {
        return { ok: false, current: { ...current } };
      }
      const line = JSON.stringify(next);
      const fence = { stateSequence: next.sequence, writerGeneration: next.writerGeneration };
      if (log) {
        log.lines.push(line);
        log.fence = fence;
      } else {
        logs.set(keyOf(key), { fence, lines: [line] });
      }
      return { ok: true };
    },
    async history(key: TaskKey): Promise<TaskRecoveryStateV5[]> {
      open();
      return (logs.get(keyOf(key))?.lines ?? []).map((l) => JSON.parse(l) as TaskRecoveryStateV5);
    },
    async close(): Promise<void> {
      closed = true;
    },
  };
}
