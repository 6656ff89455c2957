// commitState: a new task state under the fence and the current owner.
import { digestOf } from '@agent-contracts/digest';
import type { TaskRecoveryCommitFenceV1, TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { type CommitDecision, type CommitEnvironment, isObject, refuse } from './commit.js';
import { checkFenceAndOwner, fenceOf } from './fence.js';
import type { StateCommitRequest } from './requests.js';
import {
  buildEnvelope,
  checkRead,
  checkRequest,
  checkWriter,
  committedAtFor,
  noWrite,
  write,
} from './steps.js';

/**
 * Decide a `commitState` request against the current envelope `current` (`null` for a task
 * never written): steps 1 to 11 of the commit algorithm. `force` only turns an unchanged state
 * into a new envelope; it bypasses no check.
 *
 * @example
 * const d = decideStateCommit(envelope, { taskId, projectRootIdentity, expectedFence, expectedOwner, sessionDigest, state }, env);
 * if (d.ok && d.status === 'committed') await backend.compareAndAppend(key, fenceOf(envelope), d.envelope);
 */
export function decideStateCommit(
  current: TaskRecoveryStateV5 | null,
  request: StateCommitRequest,
  env: CommitEnvironment,
): CommitDecision {
  const early = checkRequest(request);
  if (early) return early;
  if (!isObject(request.state)) {
    return refuse(
      'LIFECYCLE_STATE_SHAPE_INVALID',
      'state must be a JSON object; send the application state as an object.',
    );
  }
  const failed =
    checkRead(current, request) ??
    checkFenceAndOwner(current, request.expectedFence as TaskRecoveryCommitFenceV1, request.expectedOwner) ??
    checkWriter(current, request.sessionDigest);
  if (failed) return failed;
  const e = current as TaskRecoveryStateV5;
  let stateDigest: string;
  try {
    stateDigest = digestOf(request.state);
  } catch {
    return refuse(
      'LIFECYCLE_STATE_SHAPE_INVALID',
      'state is not plain JSON data; send JSON values only.',
      fenceOf(e),
    );
  }
  if (stateDigest === e.stateDigest && request.force !== true) return noWrite(e, 'semantic-noop');
  const envelope = buildEnvelope(e, e, {
    commitKind: 'state',
    committedAt: committedAtFor(e, env.clock),
    owner: e.owner,
    operations: e.operations,
    terminalReceipt: e.terminalReceipt,
    terminalLineage: e.terminalLineage,
    state: structuredClone(request.state) as { [key: string]: unknown },
  });
  return write(e, envelope, env, null, 0);
}
