// transitionOwner: the owner transition table (acquire, renew, handoff, takeover, terminal, ...)
// and, for terminal, the closeout checks and the receipt.
import { digestOf, hasLoneSurrogate } from '@agent-contracts/digest';
import {
  type FencedTaskWriteOwnerLeaseV2,
  receiptDigestOf,
  refDigestOf,
  type TaskRecoveryCommitFenceV1,
  type TaskRecoveryStateV5,
  type WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import {
  type CommitDecision,
  type CommitEnvironment,
  type CommitRefusal,
  isHex,
  isObject,
  isPositiveInt,
  refuse,
} from './commit.js';
import { checkTerminalEvidence } from './evidence.js';
import { checkFenceAndOwner, fenceOf } from './fence.js';
import { buildLease } from './lease.js';
import { checkOwnerTransition, isOwnerOperation, OWNER_TRANSITION_TABLE } from './owner-transitions.js';
import type { OwnerTransitionRequest } from './requests.js';
import { fail } from './result.js';
import {
  buildEnvelope,
  checkRead,
  checkRequest,
  committedAtFor,
  emptyOperationSet,
  noWrite,
  write,
} from './steps.js';
import { writeContextDigestOf } from './write-context.js';

/** Maximum number of entries kept in `terminalLineage`. */
export const TERMINAL_LINEAGE_WINDOW = 64;

const TERMINAL_STATUSES = ['cancelled', 'completed', 'failed', 'rejected'];

/** The members of an owner transition request (the page's "Owner transition request" table). */
const OWNER_REQUEST_MEMBERS = [
  'operation',
  'taskId',
  'projectRootIdentity',
  'expectedFence',
  'expectedOwner',
  'sessionDigest',
  'contextEpoch',
  'routeRevision',
  'targetSessionDigest',
  'handoffRefDigest',
  'takeoverRefDigest',
  'takeoverEvidence',
  'terminal',
  'terminalReceiptDigest',
] as const satisfies readonly (keyof OwnerTransitionRequest)[];

/** Step 2 for owner transitions. */
function checkTransitionShape(request: OwnerTransitionRequest): CommitRefusal | null {
  const invalid = (what: string) =>
    refuse(
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
      `The owner transition request is malformed (${what}); send every member of the request table.`,
    );
  if (!isOwnerOperation(request.operation))
    return invalid(`unknown operation ${JSON.stringify(request.operation)}`);
  // Every member of the request table and no other: `requestDigest` identifies exactly them.
  const members = Object.keys(request);
  const missing = OWNER_REQUEST_MEMBERS.filter((m) => !members.includes(m));
  if (missing.length) return invalid(`missing ${missing.join(', ')}`);
  const unknown = members.filter((m) => !(OWNER_REQUEST_MEMBERS as readonly string[]).includes(m));
  if (unknown.length) return invalid(`members outside the request table: ${unknown.slice(0, 5).join(', ')}`);
  if (!isHex(request.sessionDigest)) return invalid('sessionDigest');
  if (
    typeof request.contextEpoch !== 'string' ||
    request.contextEpoch.length < 1 ||
    request.contextEpoch.length > 256 ||
    hasLoneSurrogate(request.contextEpoch)
  ) {
    return invalid('contextEpoch');
  }
  if (!isHex(request.routeRevision)) return invalid('routeRevision');
  for (const key of [
    'targetSessionDigest',
    'handoffRefDigest',
    'takeoverRefDigest',
    'terminalReceiptDigest',
  ] as const) {
    if (request[key] !== null && !isHex(request[key])) return invalid(key);
  }
  if (request.takeoverEvidence !== null) {
    const t = request.takeoverEvidence;
    if (
      !isObject(t) ||
      !isHex(t.readbackContextDigest) ||
      !isHex(t.livenessEvidenceDigest) ||
      !isHex(t.reconcileReceiptDigest)
    ) {
      return invalid('takeoverEvidence');
    }
  }
  if (request.operation !== 'terminal') return null;
  const t = request.terminal as unknown;
  if (!isObject(t) || !TERMINAL_STATUSES.includes(t.terminalStatus as string)) {
    return refuse(
      'TASK_TERMINAL_INPUT_INVALID',
      'terminal.terminalStatus must be one of completed, rejected, cancelled, failed.',
    );
  }
  if (!isPositiveInt(t.lifecycleRevision) || !isHex(t.settledSetDigest) || !isHex(t.writeContextDigest)) {
    return refuse(
      'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
      'terminal needs lifecycleRevision, settledSetDigest and writeContextDigest; read the write context and send its values.',
    );
  }
  const items = t.evidence;
  if (
    !Array.isArray(items) ||
    !items.every(
      (i) =>
        isObject(i) &&
        typeof i.role === 'string' &&
        typeof i.path === 'string' &&
        isHex(i.sha256) &&
        isPositiveInt(i.bytes) &&
        Object.keys(i).length === 4,
    )
  ) {
    return refuse(
      'TASK_TERMINAL_INPUT_INVALID',
      'terminal.evidence must be an array of { role, path, sha256, bytes } items.',
    );
  }
  return null;
}

/**
 * Decide a `transitionOwner` request: steps 1 to 11 with the owner transition table (and, for
 * `terminal`, the terminal closeout checks) at step 8. The store builds the lease itself: fresh
 * nonce (except `renew`), counters per the row, `issuedAt` = `committedAt`, diagnostic
 * `expiresAt`. An exact replay of the latest transition returns `replayed` (with the stored
 * receipt for `terminal`). Lease expiry is never consulted.
 *
 * @example
 * const d = decideOwnerTransition(null, { operation: 'acquire', expectedFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 }, expectedOwner: { mode: 'absent' }, ...rest }, env);
 */
export function decideOwnerTransition(
  current: TaskRecoveryStateV5 | null,
  request: OwnerTransitionRequest,
  env: CommitEnvironment,
): CommitDecision {
  const early = checkRequest(request) ?? checkTransitionShape(request);
  if (early) return early;
  const read = checkRead(current, request);
  if (read) return read;
  const fence = fenceOf(current);
  if (current) {
    const ref = current.owner.transitionRef;
    let requestDigest: string;
    try {
      requestDigest = digestOf(request);
    } catch {
      return refuse(
        'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
        'The request is not plain JSON data.',
        fence,
      );
    }
    if (request.operation === ref.operation && requestDigest === ref.requestDigest) {
      return noWrite(current, 'replayed', request.operation === 'terminal' ? current.terminalReceipt : null);
    }
    const expected = request.expectedOwner as { leaseDigest?: unknown };
    if (
      request.operation === 'terminal' &&
      current.owner.status === 'terminal' &&
      ref.operation === 'terminal' &&
      expected?.leaseDigest === ref.priorLeaseDigest
    ) {
      return refuse(
        'TASK_TERMINAL_REPLAY_MISMATCH',
        'The task was already closed by a different terminal request; it stays closed as recorded, reopen to change it.',
        fence,
      );
    }
  }
  const failed = checkFenceAndOwner(
    current,
    request.expectedFence as TaskRecoveryCommitFenceV1,
    request.expectedOwner,
  );
  if (failed) return failed;
  const row = OWNER_TRANSITION_TABLE[request.operation];
  const status = current?.owner.status ?? null;
  const no = (code: string, message: string) => refuse(code, message, fence);
  if (!row.from.includes(status)) {
    if (request.operation === 'terminal' && status !== null && status !== 'terminal') {
      return no(
        'TASK_TERMINAL_OWNER_MISMATCH',
        `The lease is ${status}, not active; only the current holder closes a task.`,
      );
    }
    return no(
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
      `${request.operation} is not allowed from ${status ?? 'no envelope'}; read the lease and pick an operation its status allows.`,
    );
  }
  const e = current;
  const committedAt = committedAtFor(e, env.clock);
  const holder = e?.owner.sessionDigest;
  const unresolved = e?.operations.unresolved ?? null;
  let handoffRef: FencedTaskWriteOwnerLeaseV2['handoffRef'] = null;
  let takeoverRef: FencedTaskWriteOwnerLeaseV2['takeoverRef'] = null;
  const notHolder = () =>
    no(
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
      'The requester is not the holder; only the holder may do this, another session needs a handoff or a takeover.',
    );
  switch (request.operation) {
    case 'renew':
      if (request.sessionDigest !== holder) return notHolder();
      break;
    case 'release':
      if (request.sessionDigest !== holder) return notHolder();
      if (unresolved)
        return no(
          'TASK_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; resolve it first, or let the next holder take over explicitly.`,
        );
      break;
    case 'handoff-prepare': {
      if (request.sessionDigest !== holder) return notHolder();
      if (request.targetSessionDigest === null || request.targetSessionDigest === holder) {
        return no(
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
          'handoff-prepare needs a targetSessionDigest other than the holder; prepare the handoff to the right session.',
        );
      }
      if (unresolved)
        return no(
          'TASK_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; resolve it first, or let the next holder take over explicitly.`,
        );
      const body = {
        fromLeaseDigest: (e as TaskRecoveryStateV5).owner.leaseDigest,
        targetSessionDigest: request.targetSessionDigest,
        preparedAt: committedAt,
      };
      handoffRef = { ...body, refDigest: refDigestOf(body) };
      break;
    }
    case 'handoff-accept': {
      const pending = (e as TaskRecoveryStateV5).owner.handoffRef;
      if (
        !pending ||
        request.sessionDigest !== pending.targetSessionDigest ||
        request.handoffRefDigest !== pending.refDigest
      ) {
        return no(
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
          'Only the handoff target may accept, with the pending handoffRef.refDigest.',
        );
      }
      break;
    }
    case 'takeover-prepare': {
      const evidence = request.takeoverEvidence;
      if (
        evidence === null ||
        request.targetSessionDigest !== request.sessionDigest ||
        evidence.readbackContextDigest !==
          writeContextDigestOf(e as TaskRecoveryStateV5, env.runtimeGeneration)
      ) {
        return no(
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
          'takeover-prepare needs takeoverEvidence, the requester as target, and the contextDigest of a fresh readWriteContext; read the write context again, gather the evidence, prepare again.',
        );
      }
      const body = {
        fromLeaseDigest: (e as TaskRecoveryStateV5).owner.leaseDigest,
        targetSessionDigest: request.sessionDigest,
        readbackContextDigest: evidence.readbackContextDigest,
        livenessEvidenceDigest: evidence.livenessEvidenceDigest,
        reconcileReceiptDigest: evidence.reconcileReceiptDigest,
        preparedAt: committedAt,
      };
      takeoverRef = { ...body, refDigest: refDigestOf(body) };
      break;
    }
    case 'takeover-accept': {
      const pending = (e as TaskRecoveryStateV5).owner.takeoverRef;
      if (
        !pending ||
        request.sessionDigest !== pending.targetSessionDigest ||
        request.takeoverRefDigest !== pending.refDigest
      ) {
        return no(
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
          'Only the takeover target may accept, with the pending takeoverRef.refDigest.',
        );
      }
      break;
    }
    case 'reopen':
      if (request.terminalReceiptDigest !== (e as TaskRecoveryStateV5).terminalReceipt?.receiptDigest) {
        return no(
          'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
          'terminalReceiptDigest is not the current terminal receipt; re-read the task.',
        );
      }
      break;
    case 'terminal': {
      const t = request.terminal as NonNullable<OwnerTransitionRequest['terminal']>;
      const cur = e as TaskRecoveryStateV5;
      if (request.sessionDigest !== holder) {
        return no(
          'TASK_TERMINAL_OWNER_MISMATCH',
          'The requester is not the holder; only the current holder closes a task.',
        );
      }
      if (unresolved) {
        return no(
          'TASK_TERMINAL_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; settle, reconcile or abort it first.`,
        );
      }
      const contextDigest = writeContextDigestOf(cur, env.runtimeGeneration);
      if (
        t.lifecycleRevision !== cur.lifecycleRevision ||
        t.settledSetDigest !== cur.operations.settledSetDigest ||
        t.writeContextDigest !== contextDigest
      ) {
        return no(
          'TASK_TERMINAL_STATE_CAS_MISMATCH',
          `The closeout does not match the current state (lifecycleRevision ${cur.lifecycleRevision}, settledSetDigest ${cur.operations.settledSetDigest}, writeContextDigest ${contextDigest}); re-read the write context and re-check the closeout.`,
        );
      }
      const pure = checkTerminalEvidence(t.evidence);
      if (!pure.ok) return no(pure.code, pure.message);
      const files = env.verifyEvidence
        ? env.verifyEvidence(t.evidence)
        : fail(
            'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
            'This store has no project root to read evidence from; configure it, then close.',
          );
      if (!files.ok) return no(files.code, files.message);
      break;
    }
    default:
      break;
  }
  const owner = buildLease(e, request, committedAt, env, { handoffRef, takeoverRef });
  const checked = checkOwnerTransition(e?.owner ?? null, owner, request.operation);
  if (!checked.ok) return no(checked.code, checked.message);
  let terminalReceipt = e?.terminalReceipt ?? null;
  let terminalLineage = e?.terminalLineage ?? [];
  let receipt: WorkflowTaskTerminalReceiptV1 | null = null;
  if (request.operation === 'terminal' && e) {
    const t = request.terminal as NonNullable<OwnerTransitionRequest['terminal']>;
    const body = {
      schemaVersion: 'WorkflowTaskTerminalReceiptV1' as const,
      taskId: e.taskId,
      projectRootIdentity: e.projectRootIdentity,
      terminalStatus: t.terminalStatus,
      lifecycleRevision: t.lifecycleRevision,
      expectedStateSequence: e.sequence,
      expectedWriterGeneration: e.writerGeneration,
      writeContextDigest: t.writeContextDigest,
      priorOwnerLeaseDigest: e.owner.leaseDigest,
      terminalOwnerLeaseDigest: owner.leaseDigest,
      ownerGeneration: e.owner.ownerGeneration,
      terminalGeneration: e.owner.ownerGeneration + 1,
      holderSession: e.owner.sessionDigest,
      settledSetDigest: t.settledSetDigest,
      evidence: t.evidence.map((i) => ({ role: i.role, path: i.path, sha256: i.sha256, bytes: i.bytes })),
      issuedAt: committedAt,
    };
    receipt = { ...body, receiptDigest: receiptDigestOf(body) };
    terminalReceipt = receipt;
    terminalLineage = [
      ...terminalLineage,
      {
        lifecycleRevision: receipt.lifecycleRevision,
        terminalStatus: receipt.terminalStatus,
        receiptDigest: receipt.receiptDigest,
        terminalAt: receipt.issuedAt,
      },
    ].slice(-TERMINAL_LINEAGE_WINDOW);
  }
  if (request.operation === 'reopen') terminalReceipt = null;
  const envelope = buildEnvelope(e, request, {
    commitKind: row.commitKind,
    committedAt,
    owner,
    operations: e?.operations ?? emptyOperationSet(),
    terminalReceipt,
    terminalLineage,
    state: e?.state ?? {},
  });
  return write(e, envelope, env, receipt, row.deltas.ownerGeneration);
}
