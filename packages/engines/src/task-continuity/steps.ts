// The steps of the commit algorithm that state, operation and owner commits share: the request's
// key and fence, the envelope read, the writer, and building and deciding the new envelope.
import { digestOf } from '@agent-contracts/digest';
import {
  envelopeDigestOf,
  type FencedTaskWriteOwnerLeaseV2,
  recordDigestOf,
  settledSetDigestOf,
  type TaskCommitKind,
  type TaskOperationRecordV1,
  type TaskOperationSetV1,
  type TaskRecoveryStateV5,
  type TaskTerminalLineageEntryV1,
  type WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import {
  type CommitDecision,
  type CommitEnvironment,
  type CommitNoWrite,
  type CommitRefusal,
  refuse,
} from './commit.js';
import { fenceOf, isValidFence } from './fence.js';
import { checkStoredEnvelope } from './stored-envelope.js';
import { checkTaskKey } from './task-key.js';
import { compareTimestamps } from './time.js';

interface Common {
  readonly taskId: unknown;
  readonly projectRootIdentity: unknown;
  readonly expectedFence: unknown;
}

/** Step 1: task key and fence. */
export function checkRequest(request: Common): CommitRefusal | null {
  const key = checkTaskKey(request);
  if (!key.ok) return refuse(key.code, key.message);
  if (!isValidFence(request.expectedFence)) {
    return refuse(
      'LIFECYCLE_STATE_FENCE_REQUIRED',
      'The request carries no valid expectedFence; read the task (or use the last write context) and send its fence, (0, 0) for a new task.',
    );
  }
  return null;
}

/** Step 3: the envelope read must be valid and belong to the task. */
export function checkRead(current: TaskRecoveryStateV5 | null, request: Common): CommitRefusal | null {
  if (current === null) return null;
  const r = checkStoredEnvelope(current);
  if (!r.ok) return refuse(r.code, r.message, fenceOf(current));
  if (current.taskId !== request.taskId || current.projectRootIdentity !== request.projectRootIdentity) {
    return refuse(
      'LIFECYCLE_STATE_UNAVAILABLE',
      'The stored envelope belongs to another task key; stop writing and repair the store out of band.',
      fenceOf(current),
    );
  }
  return null;
}

/** Step 7 (state and operation commits): an active lease held by the requester. */
export function checkWriter(
  current: TaskRecoveryStateV5 | null,
  sessionDigest: unknown,
): CommitRefusal | null {
  const fence = fenceOf(current);
  if (current === null || current.owner.status !== 'active') {
    return refuse(
      'TASK_WRITE_OWNER_MISSING',
      `The task has no active write owner (${current?.owner.status ?? 'no envelope'}); acquire, reacquire, accept or reopen first.`,
      fence,
    );
  }
  if (sessionDigest !== current.owner.sessionDigest) {
    return refuse(
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
      'The requesting session is not the holder; only the holder may write, another session needs a handoff or a takeover.',
      fence,
    );
  }
  return null;
}

export function committedAtFor(current: TaskRecoveryStateV5 | null, clock: Clock): string {
  const now = timestampOf(clock.now());
  return current && compareTimestamps(now, current.committedAt) < 0 ? current.committedAt : now;
}

export function laterBy(ts: string, ms: number): string {
  return timestampOf(Date.parse(ts) + ms);
}

interface EnvelopeParts {
  readonly commitKind: TaskCommitKind;
  readonly committedAt: string;
  readonly owner: FencedTaskWriteOwnerLeaseV2;
  readonly operations: TaskOperationSetV1;
  readonly terminalReceipt: WorkflowTaskTerminalReceiptV1 | null;
  readonly terminalLineage: TaskTerminalLineageEntryV1[];
  readonly state: { [key: string]: unknown };
}

export function buildEnvelope(
  current: TaskRecoveryStateV5 | null,
  key: { taskId: string; projectRootIdentity: string },
  parts: EnvelopeParts,
): TaskRecoveryStateV5 {
  const body = {
    schemaVersion: 'TaskRecoveryStateV5' as const,
    taskId: key.taskId,
    projectRootIdentity: key.projectRootIdentity,
    sequence: (current?.sequence ?? 0) + 1,
    writerGeneration: parts.owner.ownerGeneration,
    lifecycleRevision: parts.owner.reopenGeneration + 1,
    commitKind: parts.commitKind,
    committedAt: parts.committedAt,
    previousEnvelopeDigest: current?.envelopeDigest ?? null,
    owner: parts.owner,
    operations: parts.operations,
    terminalReceipt: parts.terminalReceipt,
    terminalLineage: parts.terminalLineage,
    state: parts.state,
    stateDigest: digestOf(parts.state),
  };
  return { ...body, envelopeDigest: envelopeDigestOf(body) };
}

/** Steps 9 and 11: generation delta assertion, payload limit, then the write decision. */
export function write(
  current: TaskRecoveryStateV5 | null,
  envelope: TaskRecoveryStateV5,
  env: CommitEnvironment,
  receipt: WorkflowTaskTerminalReceiptV1 | null,
  generationDelta: number,
): CommitDecision {
  const fence = fenceOf(current);
  if (envelope.writerGeneration !== fence.writerGeneration + generationDelta) {
    return refuse(
      'LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID',
      `The candidate would move writerGeneration from ${fence.writerGeneration} to ${envelope.writerGeneration}; change ownership only through transitionOwner.`,
      fence,
    );
  }
  if (env.maxEnvelopeBytes !== undefined) {
    const bytes = new TextEncoder().encode(JSON.stringify(envelope)).length;
    if (bytes > env.maxEnvelopeBytes) {
      return refuse(
        'LIFECYCLE_STATE_PAYLOAD_EXCEEDED',
        `The envelope would be ${bytes} bytes, over the store's limit of ${env.maxEnvelopeBytes}; shrink state. Nothing was written.`,
        fence,
      );
    }
  }
  return { ok: true, status: 'committed', envelope, fence: fenceOf(envelope), receipt };
}

export function noWrite(
  current: TaskRecoveryStateV5,
  status: 'semantic-noop' | 'replayed',
  receipt: WorkflowTaskTerminalReceiptV1 | null = null,
): CommitNoWrite {
  return { ok: true, status, envelope: current, fence: fenceOf(current), receipt };
}

/** The empty operation set of a new task. */
export function emptyOperationSet(): TaskOperationSetV1 {
  return withSettledDigest({ unresolved: null, settledTotal: 0, settled: [] });
}

export function withSettledDigest(
  parts: Omit<TaskOperationSetV1, 'schemaVersion' | 'settledSetDigest'>,
): TaskOperationSetV1 {
  const set = { schemaVersion: 'TaskOperationSetV1' as const, ...parts };
  return { ...set, settledSetDigest: settledSetDigestOf(set) };
}

export function sealRecord(record: Omit<TaskOperationRecordV1, 'recordDigest'>): TaskOperationRecordV1 {
  return { ...record, recordDigest: recordDigestOf(record) };
}
