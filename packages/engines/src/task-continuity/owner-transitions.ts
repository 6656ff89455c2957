import type {
  FencedTaskWriteOwnerLeaseV2,
  FencedTaskWriteOwnerOperation,
  FencedTaskWriteOwnerStatus,
  TaskCommitKind,
} from '@agent-contracts/schemas';
import { fail, OK, type TaskCheckResult } from './result.js';
import { compareTimestamps } from './time.js';

/** Step of a lease counter in one owner transition. */
export type CounterDelta = 0 | 1;

/**
 * One row of the owner transition table (docs/spec/task-continuity-write-gate.md#owner-transition-table).
 *
 * Deltas are relative to the current lease; for `acquire` they are relative to the all-zero lease
 * of a task without an envelope (ownerGeneration, leaseRevision, revocationEpoch and
 * reopenGeneration all 0), which yields the table's absolute values 1, 1, 0, 0.
 */
export interface OwnerTransitionRow {
  /** The owner transition (`transitionRef.operation`). */
  readonly operation: FencedTaskWriteOwnerOperation;
  /** `commitKind` of the envelope the transition produces. */
  readonly commitKind: TaskCommitKind;
  /** Lease statuses the transition may start from; `null` stands for "no envelope". */
  readonly from: readonly (FencedTaskWriteOwnerStatus | null)[];
  /** Status of the new lease. */
  readonly to: FencedTaskWriteOwnerStatus;
  /** Steps of the lease counters (and therefore of the envelope's `writerGeneration` and `lifecycleRevision`). */
  readonly deltas: {
    readonly ownerGeneration: CounterDelta;
    readonly leaseRevision: CounterDelta;
    readonly revocationEpoch: CounterDelta;
    readonly reopenGeneration: CounterDelta;
  };
  /** `new`: a fresh nonce; `kept`: the current lease's. */
  readonly ownerNonce: 'new' | 'kept';
  /**
   * Where `sessionDigest`, `contextEpoch` and `routeRevision` come from: `requester` (all three
   * from the request), `kept` (all three from the current lease), `session-kept` (session kept,
   * epoch and route from the request).
   */
  readonly binding: 'requester' | 'kept' | 'session-kept';
  /** Whether the new lease carries a `handoffRef` (`set`) or `null`. */
  readonly handoffRef: 'null' | 'set';
  /** Whether the new lease carries a `takeoverRef` (`set`) or `null`. */
  readonly takeoverRef: 'null' | 'set';
  /**
   * `after-issued`: `expiresAt` > `issuedAt`; `equals-issued`: `expiresAt` = `issuedAt`;
   * `after-current`: later than the current lease's `expiresAt` (and than `issuedAt`).
   */
  readonly expiresAt: 'after-issued' | 'equals-issued' | 'after-current';
  /**
   * Who may request it: `any` (fence and owner ref suffice), `holder` (the current holder),
   * `handoff-target` / `takeover-target` (the pending ref's `targetSessionDigest`).
   */
  readonly requester: 'any' | 'holder' | 'handoff-target' | 'takeover-target';
  /** Guards beyond fence (step 5) and owner ref (step 6), in check order, with the refusal code. */
  readonly guards: readonly { readonly code: string; readonly condition: string }[];
  /** The row's effect column, verbatim in substance. */
  readonly effect: string;
}

const ZERO = { ownerGeneration: 0, leaseRevision: 0, revocationEpoch: 0, reopenGeneration: 0 } as const;

/**
 * The owner transition table of the TaskContinuityWriteGate, one entry per operation. Any
 * (status, operation) pair not listed is refused with `FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID`.
 *
 * @example
 * OWNER_TRANSITION_TABLE.release.deltas.ownerGeneration; // 1
 */
export const OWNER_TRANSITION_TABLE: { readonly [K in FencedTaskWriteOwnerOperation]: OwnerTransitionRow } = {
  acquire: {
    operation: 'acquire',
    commitKind: 'owner-acquire',
    from: [null],
    to: 'active',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'requester',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'any',
    guards: [
      { code: 'LIFECYCLE_STATE_FENCE_MISMATCH', condition: 'expectedFence is (0, 0)' },
      { code: 'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH', condition: 'expectedOwner is { mode: "absent" }' },
    ],
    effect: 'first envelope, sequence 1; empty operation set; expiresAt > issuedAt',
  },
  renew: {
    operation: 'renew',
    commitKind: 'owner-renew',
    from: ['active'],
    to: 'active',
    deltas: { ownerGeneration: 0, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 },
    ownerNonce: 'kept',
    binding: 'session-kept',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-current',
    requester: 'holder',
    guards: [{ code: 'TASK_WRITE_OWNER_SESSION_MISMATCH', condition: 'requester is the holder' }],
    effect: 'expiresAt later than the current expiresAt',
  },
  release: {
    operation: 'release',
    commitKind: 'owner-release',
    from: ['active'],
    to: 'released',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 1, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'kept',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'equals-issued',
    requester: 'holder',
    guards: [
      { code: 'TASK_WRITE_OWNER_SESSION_MISMATCH', condition: 'requester is the holder' },
      { code: 'TASK_OPERATION_UNSETTLED', condition: 'no unresolved operation' },
    ],
    effect: 'expiresAt = issuedAt',
  },
  reacquire: {
    operation: 'reacquire',
    commitKind: 'owner-reacquire',
    from: ['released'],
    to: 'active',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'requester',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'any',
    guards: [],
    effect: 'expiresAt > issuedAt',
  },
  'handoff-prepare': {
    operation: 'handoff-prepare',
    commitKind: 'owner-handoff-prepare',
    from: ['active'],
    to: 'handoff-pending',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 1, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'kept',
    handoffRef: 'set',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'holder',
    guards: [
      { code: 'TASK_WRITE_OWNER_SESSION_MISMATCH', condition: 'requester is the holder' },
      {
        code: 'TASK_WRITE_OWNER_HANDOFF_INVALID',
        condition: "targetSessionDigest is non-null and not the holder's",
      },
      { code: 'TASK_OPERATION_UNSETTLED', condition: 'no unresolved operation' },
    ],
    effect:
      'handoffRef = { fromLeaseDigest: current leaseDigest, targetSessionDigest, preparedAt: issuedAt }; expiresAt > issuedAt',
  },
  'handoff-accept': {
    operation: 'handoff-accept',
    commitKind: 'owner-handoff-accept',
    from: ['handoff-pending'],
    to: 'active',
    deltas: { ownerGeneration: 0, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'requester',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'handoff-target',
    guards: [
      {
        code: 'TASK_WRITE_OWNER_HANDOFF_INVALID',
        condition: 'requester = handoffRef.targetSessionDigest and handoffRefDigest = handoffRef.refDigest',
      },
    ],
    effect: 'handoffRef = null; expiresAt > issuedAt',
  },
  'takeover-prepare': {
    operation: 'takeover-prepare',
    commitKind: 'owner-takeover-prepare',
    from: ['active', 'handoff-pending', 'takeover-pending'],
    to: 'takeover-pending',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 1, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'kept',
    handoffRef: 'null',
    takeoverRef: 'set',
    expiresAt: 'after-issued',
    requester: 'any',
    guards: [
      {
        code: 'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        condition:
          "takeoverEvidence non-null; targetSessionDigest = requester's sessionDigest; takeoverEvidence.readbackContextDigest = the contextDigest the store computes for E now",
      },
    ],
    effect:
      'takeoverRef = { fromLeaseDigest, targetSessionDigest, ...takeoverEvidence, preparedAt: issuedAt }; handoffRef = null; expiresAt > issuedAt',
  },
  'takeover-accept': {
    operation: 'takeover-accept',
    commitKind: 'owner-takeover-accept',
    from: ['takeover-pending'],
    to: 'active',
    deltas: { ownerGeneration: 0, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'requester',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'takeover-target',
    guards: [
      {
        code: 'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        condition:
          'requester = takeoverRef.targetSessionDigest and takeoverRefDigest = takeoverRef.refDigest',
      },
    ],
    effect: 'takeoverRef = null; expiresAt > issuedAt',
  },
  terminal: {
    operation: 'terminal',
    commitKind: 'owner-terminal',
    from: ['active'],
    to: 'terminal',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 1, reopenGeneration: 0 },
    ownerNonce: 'new',
    binding: 'kept',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'equals-issued',
    requester: 'holder',
    guards: [
      {
        code: 'TASK_TERMINAL_OWNER_MISMATCH',
        condition: 'the lease is active and the requester is the holder',
      },
      { code: 'TASK_TERMINAL_OPERATION_UNSETTLED', condition: 'operations.unresolved is null' },
      {
        code: 'TASK_TERMINAL_STATE_CAS_MISMATCH',
        condition: 'lifecycleRevision, settledSetDigest and writeContextDigest equal the current ones',
      },
      {
        code: 'TASK_TERMINAL_EVIDENCE_*',
        condition: 'the four evidence files, read and hashed by the store',
      },
    ],
    effect: 'receipt and lineage entry; expiresAt = issuedAt',
  },
  reopen: {
    operation: 'reopen',
    commitKind: 'owner-reopen',
    from: ['terminal'],
    to: 'active',
    deltas: { ownerGeneration: 1, leaseRevision: 1, revocationEpoch: 0, reopenGeneration: 1 },
    ownerNonce: 'new',
    binding: 'requester',
    handoffRef: 'null',
    takeoverRef: 'null',
    expiresAt: 'after-issued',
    requester: 'any',
    guards: [
      {
        code: 'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
        condition: 'terminalReceiptDigest = current terminalReceipt.receiptDigest',
      },
    ],
    effect: 'terminalReceipt = null, lineage kept, lifecycleRevision +1',
  },
};

/** Every owner transition operation, in table order. */
export const OWNER_OPERATIONS = Object.keys(OWNER_TRANSITION_TABLE) as FencedTaskWriteOwnerOperation[];

/** Whether `operation` is one of the ten rows of the owner transition table. */
export function isOwnerOperation(operation: unknown): operation is FencedTaskWriteOwnerOperation {
  return typeof operation === 'string' && Object.hasOwn(OWNER_TRANSITION_TABLE, operation);
}

/**
 * Whether the table has a row for (`status`, `operation`); `status` `null` means "no envelope".
 *
 * @example
 * isOwnerTransitionAllowed('terminal', 'renew'); // false
 */
export function isOwnerTransitionAllowed(
  status: FencedTaskWriteOwnerStatus | null,
  operation: FencedTaskWriteOwnerOperation,
): boolean {
  return isOwnerOperation(operation) && OWNER_TRANSITION_TABLE[operation].from.includes(status);
}

/** The envelope commit kind of an owner operation (`owner-<operation>`). */
export function ownerCommitKind(operation: FencedTaskWriteOwnerOperation): TaskCommitKind {
  return OWNER_TRANSITION_TABLE[operation].commitKind;
}

const INVALID = 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';

/**
 * Check that `next` is the lease the owner transition table produces from `prev` (`null` for a
 * task without an envelope) by `operation`: the (status, operation) pair is a row, and every
 * column holds (status, counter deltas, nonce, session binding, refs and their bindings,
 * `transitionRef`, `expiresAt`, and for the accepts the new holder being the pending ref's
 * target). Guards that need the request or the envelope (fence, owner ref, evidence, receipt
 * digests) are not checked here; the commit engine checks those. Failures carry
 * `FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID`.
 *
 * @example
 * const r = checkOwnerTransition(null, firstLease, 'acquire');
 * if (!r.ok) console.log(r.code, r.message);
 */
export function checkOwnerTransition(
  prev: FencedTaskWriteOwnerLeaseV2 | null,
  next: FencedTaskWriteOwnerLeaseV2,
  operation: FencedTaskWriteOwnerOperation,
): TaskCheckResult {
  if (!isOwnerOperation(operation)) {
    return fail(
      INVALID,
      `"${String(operation)}" is not an owner transition; use one of: ${OWNER_OPERATIONS.join(', ')}.`,
    );
  }
  const row = OWNER_TRANSITION_TABLE[operation];
  const status = prev?.status ?? null;
  if (!row.from.includes(status)) {
    return fail(
      INVALID,
      `${operation} is not allowed from ${status ?? 'no envelope'}; it needs ${row.from.map((s) => s ?? 'no envelope').join(' or ')}.`,
    );
  }
  const bad = (what: string) =>
    fail(INVALID, `${operation}: ${what}, as the owner transition table requires.`);
  if (next.status !== row.to) return bad(`the new lease must have status ${row.to}, not ${next.status}`);
  if (prev && (next.taskId !== prev.taskId || next.projectRootIdentity !== prev.projectRootIdentity)) {
    return bad('taskId and projectRootIdentity must stay those of the current lease');
  }
  const base = prev ?? ZERO;
  for (const counter of [
    'ownerGeneration',
    'leaseRevision',
    'revocationEpoch',
    'reopenGeneration',
  ] as const) {
    const expected = base[counter] + row.deltas[counter];
    if (next[counter] !== expected)
      return bad(`${counter} must be ${expected} (delta +${row.deltas[counter]})`);
  }
  if (prev) {
    if (row.ownerNonce === 'kept' && next.ownerNonce !== prev.ownerNonce)
      return bad('ownerNonce must be kept');
    if (row.ownerNonce === 'new' && next.ownerNonce === prev.ownerNonce)
      return bad('ownerNonce must be fresh');
    if (row.binding !== 'requester' && next.sessionDigest !== prev.sessionDigest) {
      return bad("sessionDigest must stay the current holder's");
    }
    if (
      row.binding === 'kept' &&
      (next.contextEpoch !== prev.contextEpoch || next.routeRevision !== prev.routeRevision)
    ) {
      return bad('contextEpoch and routeRevision must be kept');
    }
    if (compareTimestamps(next.issuedAt, prev.issuedAt) < 0)
      return bad('issuedAt must not be earlier than the current lease');
  }
  const ref = next.transitionRef;
  if (ref.operation !== operation) return bad(`transitionRef.operation must be ${operation}`);
  if (ref.priorLeaseDigest !== (prev?.leaseDigest ?? null)) {
    return bad('transitionRef.priorLeaseDigest must be the current lease digest (null only for acquire)');
  }
  if (ref.committedAt !== next.issuedAt) return bad('transitionRef.committedAt must equal issuedAt');
  if (row.handoffRef === 'null' && next.handoffRef !== null) return bad('handoffRef must be null');
  if (row.takeoverRef === 'null' && next.takeoverRef !== null) return bad('takeoverRef must be null');
  for (const key of ['handoffRef', 'takeoverRef'] as const) {
    if (row[key] !== 'set') continue;
    const pending = next[key];
    if (pending === null) return bad(`${key} must be set`);
    if (pending.fromLeaseDigest !== prev?.leaseDigest)
      return bad(`${key}.fromLeaseDigest must be the revoked lease's digest`);
    if (pending.preparedAt !== next.issuedAt) return bad(`${key}.preparedAt must equal issuedAt`);
  }
  if (next.handoffRef && next.handoffRef.targetSessionDigest === next.sessionDigest) {
    return bad("handoffRef.targetSessionDigest must differ from the revoked holder's");
  }
  const order = compareTimestamps(next.expiresAt, next.issuedAt);
  if (row.expiresAt === 'equals-issued' && order !== 0) return bad('expiresAt must equal issuedAt');
  if (row.expiresAt !== 'equals-issued' && order <= 0) return bad('expiresAt must be later than issuedAt');
  if (row.expiresAt === 'after-current' && prev && compareTimestamps(next.expiresAt, prev.expiresAt) <= 0) {
    return bad('expiresAt must be later than the current expiresAt');
  }
  if (row.requester === 'handoff-target' && next.sessionDigest !== prev?.handoffRef?.targetSessionDigest) {
    return bad("the new holder must be the pending handoff's targetSessionDigest");
  }
  if (row.requester === 'takeover-target' && next.sessionDigest !== prev?.takeoverRef?.targetSessionDigest) {
    return bad("the new holder must be the pending takeover's targetSessionDigest");
  }
  return OK;
}
