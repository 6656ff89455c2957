import type { Fence } from '@agent-contracts/engines';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';

/** A task's key: two keys that differ in either member are different tasks. */
export interface TaskKey {
  readonly projectRootIdentity: string;
  readonly taskId: string;
}

/** Outcome of {@link StorageBackend.compareAndAppend}. */
export type AppendResult = { readonly ok: true } | { readonly ok: false; readonly current: Fence };

/**
 * The durable half of a TaskStore: an append-only log of envelopes per task with one atomic
 * primitive. It knows nothing of owners or operations; every rule of the gate is decided by the
 * pure engines before `compareAndAppend` is called, and the fence compare here is what makes the
 * decision safe against racing writers in other processes.
 */
export interface StorageBackend {
  /** `memory`, `sqlite` or `postgres`. */
  readonly kind: 'memory' | 'sqlite' | 'postgres';
  /** The latest envelope of a task, or `null` for a task never written. */
  load(key: TaskKey): Promise<TaskRecoveryStateV5 | null>;
  /**
   * The envelope of a task at `sequence` (latest or not), or `null` when the log holds none there.
   * The commit readback uses it: another process may already have appended on top of the
   * envelope just written, which makes that envelope no longer the latest but no less durable.
   */
  loadAt(key: TaskKey, sequence: number): Promise<TaskRecoveryStateV5 | null>;
  /**
   * Append `next` as the task's new latest envelope iff the stored latest envelope has exactly
   * `expected` (both numbers; (0, 0) means "no envelope yet"). Atomic with respect to every other
   * caller in any process, and durable before the promise resolves (an acknowledged append
   * survives kill -9 and power loss as far as the engine's durability setting allows). On a
   * mismatch nothing is written and the current fence is returned.
   */
  compareAndAppend(key: TaskKey, expected: Fence, next: TaskRecoveryStateV5): Promise<AppendResult>;
  /** Every envelope of a task, oldest first (empty for a task never written). */
  history(key: TaskKey): Promise<TaskRecoveryStateV5[]>;
  /** Release connections and file handles. */
  close(): Promise<void>;
}
