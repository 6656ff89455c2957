// The fence (TaskContinuityWriteGate): what a commit compares before it writes. A commit names
// the fence it read; the store writes only on that exact fence, and only for the current owner.
import type { TaskRecoveryCommitFenceV1, TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { type CommitRefusal, isObject, refuse } from './commit.js';
import { ownerRefOf, ownerRefsMatch } from './write-context.js';

/**
 * The two numbers of a TaskRecoveryCommitFenceV1 that every commit compares: the store's
 * compare-and-append and the fenced-write history checks use this one type.
 */
export type Fence = Pick<TaskRecoveryCommitFenceV1, 'stateSequence' | 'writerGeneration'>;

/** The fence of an envelope, or (0, 0) for a task never written. */
export function fenceOf(envelope: TaskRecoveryStateV5 | null): TaskRecoveryCommitFenceV1 {
  return {
    schemaVersion: 'TaskRecoveryCommitFenceV1',
    stateSequence: envelope?.sequence ?? 0,
    writerGeneration: envelope?.writerGeneration ?? 0,
  };
}

/** Whether `value` is a well-formed `TaskRecoveryCommitFenceV1`. */
export function isValidFence(value: unknown): value is TaskRecoveryCommitFenceV1 {
  return (
    isObject(value) &&
    value.schemaVersion === 'TaskRecoveryCommitFenceV1' &&
    Number.isSafeInteger(value.stateSequence) &&
    (value.stateSequence as number) >= 0 &&
    Number.isSafeInteger(value.writerGeneration) &&
    (value.writerGeneration as number) >= 0
  );
}

/**
 * Steps 5 and 6 of every commit: the request's fence must be exactly the current fence
 * (`LIFECYCLE_STATE_FENCE_MISMATCH`, with the fence read), then its owner ref the current owner
 * ref (`FENCED_TASK_WRITE_OWNER_CAS_MISMATCH`).
 */
export function checkFenceAndOwner(
  current: TaskRecoveryStateV5 | null,
  expectedFence: TaskRecoveryCommitFenceV1,
  expectedOwner: unknown,
): CommitRefusal | null {
  const fence = fenceOf(current);
  if (
    expectedFence.stateSequence !== fence.stateSequence ||
    expectedFence.writerGeneration !== fence.writerGeneration
  ) {
    return refuse(
      'LIFECYCLE_STATE_FENCE_MISMATCH',
      `The fence (${expectedFence.stateSequence}, ${expectedFence.writerGeneration}) is not the current fence (${fence.stateSequence}, ${fence.writerGeneration}); re-read, re-validate the intent against the current state and only then retry with the new fence.`,
      fence,
    );
  }
  if (!ownerRefsMatch(expectedOwner as never, ownerRefOf(current?.owner))) {
    return refuse(
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
      'expectedOwner is not the current owner ref; re-read the task, the requester may no longer be the holder.',
      fence,
    );
  }
  return null;
}
