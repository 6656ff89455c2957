import type { ContractEntry } from '../gates.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  NullableTimestamp,
  PositiveInteger,
  Sha256Hex,
  Timestamp,
} from './common.js';

/**
 * A task identifier: a lowercase RFC 9562 UUID of version 1 to 8.
 * @pattern ^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$
 */
export type TaskId = string;

/**
 * An opaque identifier of 1 to 128 characters: ASCII letters, digits and `._:-`, starting with a letter or digit.
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$
 */
export type OpaqueId = string;

/**
 * A context epoch: the opaque epoch label of the intent seed the holder works under, 1 to 256 characters.
 * @minLength 1
 * @maxLength 256
 */
export type ContextEpoch = string;

/** Owner transitions (edges of the owner state machine). */
export type FencedTaskWriteOwnerOperation =
  | 'acquire'
  | 'renew'
  | 'release'
  | 'reacquire'
  | 'handoff-prepare'
  | 'handoff-accept'
  | 'takeover-prepare'
  | 'takeover-accept'
  | 'terminal'
  | 'reopen';

/** Status of a fenced write owner lease. */
export type FencedTaskWriteOwnerStatus =
  | 'active'
  | 'released'
  | 'handoff-pending'
  | 'takeover-pending'
  | 'terminal';

/** What produced an envelope: an application state commit, one operation edge, or one owner transition. */
export type TaskCommitKind =
  | 'state'
  | 'operation-prepare'
  | 'operation-dispatch'
  | 'operation-observe'
  | 'operation-settle'
  | 'operation-mark-reconcile'
  | 'operation-reconcile'
  | 'operation-abort'
  | 'owner-acquire'
  | 'owner-renew'
  | 'owner-release'
  | 'owner-reacquire'
  | 'owner-handoff-prepare'
  | 'owner-handoff-accept'
  | 'owner-takeover-prepare'
  | 'owner-takeover-accept'
  | 'owner-terminal'
  | 'owner-reopen';

/** Phase of a mutating task operation. */
export type TaskOperationPhase =
  | 'prepared'
  | 'dispatched'
  | 'observed'
  | 'settled'
  | 'reconcile-required'
  | 'aborted-zero-effect';

/** What is known about an operation's side effect. */
export type TaskOperationEffect = 'none' | 'known-not-applied' | 'known-applied' | 'unknown';

/** Terminal status of a workflow task (this layer's one terminal vocabulary). */
export type WorkflowTaskTerminalStatus = 'completed' | 'rejected' | 'cancelled' | 'failed';

/** Role of one independent terminal evidence item. */
export type TaskTerminalEvidenceRole = 'change-record' | 'completion' | 'memory' | 'report';

/**
 * The exact compare-and-set fence of a task's durable state: a commit is accepted only when
 * both numbers equal the stored ones. A task that has never been written has the fence (0, 0).
 */
export interface TaskRecoveryCommitFenceV1 {
  /** Contract discriminator. */
  schemaVersion: 'TaskRecoveryCommitFenceV1';
  /** Sequence of the last committed envelope (`TaskRecoveryStateV5.sequence`); 0 for a task never written. */
  stateSequence: NonNegativeInteger;
  /** Writer generation of the last committed envelope; moves only in owner transitions, by exactly +1. 0 for a task never written. */
  writerGeneration: NonNegativeInteger;
}

/**
 * How the lease came to be: the owner transition that produced it and a digest of the exact
 * request, so an identical retry is recognised as a replay and writes nothing.
 */
export interface FencedTaskWriteOwnerTransitionRefV1 {
  /** The owner transition (edge) that produced this lease. */
  operation: FencedTaskWriteOwnerOperation;
  /** `leaseDigest` of the lease this transition replaced; `null` only for `acquire`. */
  priorLeaseDigest: NullableSha256Hex;
  /** `digestOf(request)` of the owner transition request (see "Owner transition request" in the spec). */
  requestDigest: Sha256Hex;
  /** When the transition was committed; equals `issuedAt` of the lease and `committedAt` of the envelope it produced. */
  committedAt: Timestamp;
  /** `digestOf` of this object without `refDigest`. */
  refDigest: Sha256Hex;
}

/** A prepared handoff: the revoked holder names the one session that may accept the lease. */
export interface FencedTaskWriteOwnerHandoffRefV1 {
  /** `leaseDigest` of the active lease the handoff revoked. */
  fromLeaseDigest: Sha256Hex;
  /** `sessionDigest` of the only session allowed to `handoff-accept`; differs from the revoked holder's. */
  targetSessionDigest: Sha256Hex;
  /** When the handoff was prepared (the `handoff-prepare` commit time). */
  preparedAt: Timestamp;
  /** `digestOf` of this object without `refDigest`. */
  refDigest: Sha256Hex;
}

/**
 * A prepared takeover and the explicit evidence it rests on. Lease expiry is never such evidence.
 */
export interface FencedTaskWriteOwnerTakeoverRefV1 {
  /** `leaseDigest` of the lease the takeover revoked. */
  fromLeaseDigest: Sha256Hex;
  /** `sessionDigest` of the session that prepared the takeover, the only one allowed to `takeover-accept`. */
  targetSessionDigest: Sha256Hex;
  /** `contextDigest` of the `CanonicalTaskWriteContextV1` the taking-over session read back from storage; must equal the stored context at prepare time. */
  readbackContextDigest: Sha256Hex;
  /** Digest of the liveness evidence (turn-liveness area) showing that the revoked holder has no live turn. */
  livenessEvidenceDigest: Sha256Hex;
  /** Digest of the reconcile receipt in which the taking-over session examined the task's unresolved operation and targets. */
  reconcileReceiptDigest: Sha256Hex;
  /** When the takeover was prepared (the `takeover-prepare` commit time). */
  preparedAt: Timestamp;
  /** `digestOf` of this object without `refDigest`. */
  refDigest: Sha256Hex;
}

/**
 * The single write owner of a task: who may commit, under which generation, and how the lease
 * got there. Authority comes from the fence and this lease's exact reference, never from time:
 * `expiresAt` is diagnostic only.
 */
export interface FencedTaskWriteOwnerLeaseV2 {
  /** Contract discriminator. */
  schemaVersion: 'FencedTaskWriteOwnerLeaseV2';
  /** The task this lease governs. */
  taskId: TaskId;
  /** Identity of the project root the task belongs to; constant for the task's lifetime. */
  projectRootIdentity: Sha256Hex;
  /** SHA-256 of the holder session's identifier (the raw identifier is not stored). For pending and released leases, the revoked holder's. */
  sessionDigest: Sha256Hex;
  /** Context epoch the holder works under; `renew` may rebind it. */
  contextEpoch: ContextEpoch;
  /** Digest of the route/plan decision the holder executes under; `renew` may rebind it. */
  routeRevision: Sha256Hex;
  /** Owner generation; equals the envelope's `writerGeneration`. Starts at 1, changes only by the +1 steps of the transition table. */
  ownerGeneration: PositiveInteger;
  /**
   * Fresh random value minted by every transition except `renew` (which keeps it): `owner-` plus 40 lowercase hex characters (160 bits).
   * @pattern ^owner-[a-f0-9]{40}$
   */
  ownerNonce: string;
  /** Lease revision; 1 at `acquire`, +1 on every transition. */
  leaseRevision: PositiveInteger;
  /** When this lease was issued; equals `transitionRef.committedAt`. */
  issuedAt: Timestamp;
  /** Diagnostic expiry: later than `issuedAt` while active or pending, equal to it when released or terminal. Never grants, revokes or transfers authority. */
  expiresAt: Timestamp;
  /** The prepared handoff; non-null exactly when `status` is `handoff-pending`. */
  handoffRef: FencedTaskWriteOwnerHandoffRefV1 | null;
  /** The prepared takeover; non-null exactly when `status` is `takeover-pending`. */
  takeoverRef: FencedTaskWriteOwnerTakeoverRefV1 | null;
  /** The transition that produced this lease. */
  transitionRef: FencedTaskWriteOwnerTransitionRefV1;
  /** Number of reopens so far; `lifecycleRevision` = `reopenGeneration` + 1. */
  reopenGeneration: NonNegativeInteger;
  /** Number of revocations so far (release, handoff-prepare, takeover-prepare, terminal each add 1). */
  revocationEpoch: NonNegativeInteger;
  /** Lease status. */
  status: FencedTaskWriteOwnerStatus;
  /** `digestOf` of this lease without `leaseDigest` (nested refs included with their own digests). */
  leaseDigest: Sha256Hex;
}

/**
 * The write context a holder must use, built from a fresh read of storage after every owner
 * transition (and its replay): it binds task, root, lifecycle revision, fence, holder, owner
 * lease, operation and settled sets and the runtime generation into one `contextDigest`.
 */
export interface CanonicalTaskWriteContextV1 {
  /** Contract discriminator. */
  schemaVersion: 'CanonicalTaskWriteContextV1';
  /** The task (`TaskRecoveryStateV5.taskId`). */
  taskId: TaskId;
  /** The project root identity (`TaskRecoveryStateV5.projectRootIdentity`). */
  projectRootIdentity: Sha256Hex;
  /** `TaskRecoveryStateV5.lifecycleRevision` of the envelope read back. */
  lifecycleRevision: PositiveInteger;
  /** `TaskRecoveryStateV5.sequence` of the envelope read back: the `stateSequence` of the holder's next expected fence. */
  stateSequence: PositiveInteger;
  /** `TaskRecoveryStateV5.writerGeneration` of the envelope read back: the `writerGeneration` of the holder's next expected fence. */
  writerGeneration: PositiveInteger;
  /** `owner.sessionDigest` of the envelope read back. */
  holderSession: Sha256Hex;
  /** `owner.contextEpoch` of the envelope read back. */
  contextEpoch: ContextEpoch;
  /** `owner.routeRevision` of the envelope read back. */
  routeRevision: Sha256Hex;
  /** `owner.leaseDigest` of the envelope read back; must equal the lease just committed. */
  ownerLeaseDigest: Sha256Hex;
  /** `owner.status` of the envelope read back. */
  ownerStatus: FencedTaskWriteOwnerStatus;
  /** `digestOf(operations)`: the whole `TaskOperationSetV1` of the envelope read back. */
  operationSetDigest: Sha256Hex;
  /** `operations.settledSetDigest` of the envelope read back. */
  settledSetDigest: Sha256Hex;
  /** Identifier of the runtime generation (process incarnation) that performed the readback; a new one is minted at every runtime start. */
  runtimeGeneration: OpaqueId;
  /** `envelopeDigest` of the envelope read back. */
  envelopeDigest: Sha256Hex;
  /** When the readback happened; not covered by `contextDigest`. */
  readAt: Timestamp;
  /** `digestOf` of this object without `contextDigest` and `readAt`. */
  contextDigest: Sha256Hex;
}

/**
 * The durable record of one mutating operation of a task. Its phase moves only along the
 * operation edge table, so an unknown side effect is never silently retried or forgotten.
 */
export interface TaskOperationRecordV1 {
  /** Contract discriminator. */
  schemaVersion: 'TaskOperationRecordV1';
  /** Operation identifier, unique within the task. */
  operationId: OpaqueId;
  /** Key the dispatched effect carries downstream so it applies at most once; never reused by another operation of the task. */
  idempotencyKey: OpaqueId;
  /** Writer generation of the envelope the operation was prepared under; fixed for the record's life. */
  writerGeneration: PositiveInteger;
  /** `stateSequence` of the fence the `operation-prepare` commit matched (the envelope before the prepare). */
  expectedStateSequence: PositiveInteger;
  /**
   * What the operation does, lowercase kebab-case, e.g. `create`, `update`, `create-or-update`, `delete`, `execute`.
   * @pattern ^[a-z][a-z0-9]*(-[a-z0-9]+)*$
   * @maxLength 64
   */
  kind: string;
  /**
   * The exact targets the operation may change: keys normalised like `ContentIdentityV1.sourceKey`
   * (NFKC, trimmed, `/` separators), unique, sorted ascending by UTF-16 code units, 1 to 256.
   * @minItems 1
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 1024
   * @items.pattern ^[^\s\\](?:[^\\]*[^\s\\])?$
   */
  exactTargets: string[];
  /** `digestOf(exactTargets)`. */
  targetSetDigest: Sha256Hex;
  /** Digest of the observation of the exact targets taken before dispatch (absent targets included); hosts SHOULD use `digestOf({ <target>: <content digest or null> })`. */
  beforeDigest: Sha256Hex;
  /** Current phase. */
  phase: TaskOperationPhase;
  /** What is known about the side effect in this phase. */
  effect: TaskOperationEffect;
  /** When the operation was prepared. */
  preparedAt: Timestamp;
  /** When the dispatch was committed (before the effect started); `null` while never dispatched. */
  dispatchedAt: NullableTimestamp;
  /** When the effect's result was observed; `null` when never observed. */
  observedAt: NullableTimestamp;
  /** When the operation was settled or aborted; `null` while unresolved. */
  settledAt: NullableTimestamp;
  /** Digest of the observed result; non-null exactly when `observedAt` is. */
  resultDigest: NullableSha256Hex;
  /** Digest of the evidence the settlement rests on; non-null exactly in phase `settled`. */
  evidenceDigest: NullableSha256Hex;
  /** `digestOf` of this record without `recordDigest`. */
  recordDigest: Sha256Hex;
}

/** Reference to a resolved (settled or aborted) operation kept in a task's operation set. */
export interface TaskOperationSettledRefV1 {
  /** `operationId` of the resolved record. */
  operationId: OpaqueId;
  /** `idempotencyKey` of the resolved record. */
  idempotencyKey: OpaqueId;
  /** `writerGeneration` of the resolved record. */
  writerGeneration: PositiveInteger;
  /** Final phase of the record. */
  phase: 'settled' | 'aborted-zero-effect';
  /** Final effect: `known-applied` or `known-not-applied` when settled, `none` when aborted. */
  effect: TaskOperationEffect;
  /** `recordDigest` of the resolved record. */
  recordDigest: Sha256Hex;
  /** `settledAt` of the resolved record. */
  settledAt: Timestamp;
}

/**
 * A task's operations: at most one unresolved record and a bounded window of resolved ones,
 * with a digest that terminal receipts and write contexts bind.
 */
export interface TaskOperationSetV1 {
  /** Contract discriminator. */
  schemaVersion: 'TaskOperationSetV1';
  /** The one unresolved operation (phase prepared, dispatched, observed or reconcile-required), or `null`. */
  unresolved: TaskOperationRecordV1 | null;
  /** Number of operations of this task ever resolved (settled or aborted), including those dropped from `settled`. */
  settledTotal: NonNegativeInteger;
  /**
   * The most recently resolved operations, oldest first, in resolution order; at most 64 (older ones drop off first).
   * @maxItems 64
   */
  settled: TaskOperationSettledRefV1[];
  /** `digestOf({ schemaVersion, settledTotal, settled })`. */
  settledSetDigest: Sha256Hex;
}

/** One independent evidence file of a terminal closeout, hashed by the store at closeout time. */
export interface TaskTerminalEvidenceItemV1 {
  /** What the file is evidence of. */
  role: TaskTerminalEvidenceRole;
  /**
   * Path of the file relative to the project root: `/`-separated, no empty, `.` or `..` segment, no `\` or control character.
   * @minLength 1
   * @maxLength 1024
   * @pattern ^(?!\.\.?(?:/|$))[^/\\\x00-\x1f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f]+)*$
   */
  path: string;
  /** SHA-256 of the file's raw bytes as read by the store. */
  sha256: Sha256Hex;
  /** Length of the file in bytes; an empty file is not evidence. */
  bytes: PositiveInteger;
}

/**
 * The receipt of a task's terminal closeout: it binds the current writer, the write-context
 * fence, the settled operation set and four independent evidence files.
 */
export interface WorkflowTaskTerminalReceiptV1 {
  /** Contract discriminator. */
  schemaVersion: 'WorkflowTaskTerminalReceiptV1';
  /** The task closed. */
  taskId: TaskId;
  /** The project root identity of the task. */
  projectRootIdentity: Sha256Hex;
  /** Terminal status of the task. */
  terminalStatus: WorkflowTaskTerminalStatus;
  /** Lifecycle revision closed by this receipt (`reopenGeneration` + 1 of the closing lease). */
  lifecycleRevision: PositiveInteger;
  /** `stateSequence` of the fence the terminal commit matched. */
  expectedStateSequence: PositiveInteger;
  /** `writerGeneration` of the fence the terminal commit matched; equals `ownerGeneration`. */
  expectedWriterGeneration: PositiveInteger;
  /** `contextDigest` of the write context the closing holder presented; must equal the stored context at closeout. */
  writeContextDigest: Sha256Hex;
  /** `leaseDigest` of the active lease that closed the task. */
  priorOwnerLeaseDigest: Sha256Hex;
  /** `leaseDigest` of the terminal lease the closeout produced. */
  terminalOwnerLeaseDigest: Sha256Hex;
  /** Owner generation of the closing (active) lease. */
  ownerGeneration: PositiveInteger;
  /** Owner generation of the terminal lease: `ownerGeneration` + 1. */
  terminalGeneration: PositiveInteger;
  /** `sessionDigest` of the closing holder. */
  holderSession: Sha256Hex;
  /** `settledSetDigest` of the operation set at closeout (no operation unresolved). */
  settledSetDigest: Sha256Hex;
  /**
   * Exactly four evidence files, one per role, sorted by role.
   * @minItems 4
   * @maxItems 4
   */
  evidence: TaskTerminalEvidenceItemV1[];
  /** When the closeout was committed; equals the terminal lease's `issuedAt`. */
  issuedAt: Timestamp;
  /** `digestOf` of this receipt without `receiptDigest`. */
  receiptDigest: Sha256Hex;
}

/** One closed lifecycle revision of a task. */
export interface TaskTerminalLineageEntryV1 {
  /** The lifecycle revision that was closed. */
  lifecycleRevision: PositiveInteger;
  /** Its terminal status. */
  terminalStatus: WorkflowTaskTerminalStatus;
  /** `receiptDigest` of its terminal receipt. */
  receiptDigest: Sha256Hex;
  /** `issuedAt` of its terminal receipt. */
  terminalAt: Timestamp;
}

/**
 * The durable envelope of one formal task, one per committed write. Every commit matches the
 * fence (`sequence`, `writerGeneration`) of the envelope before it exactly and produces the
 * next envelope with `sequence` + 1.
 */
export interface TaskRecoveryStateV5 {
  /** Contract discriminator. */
  schemaVersion: 'TaskRecoveryStateV5';
  /** The task. */
  taskId: TaskId;
  /** Identity of the project root the task belongs to; constant for the task's lifetime. */
  projectRootIdentity: Sha256Hex;
  /** 1 for the first envelope of the task, +1 per committed write: the fence's `stateSequence`. */
  sequence: PositiveInteger;
  /** Equals `owner.ownerGeneration`: the fence's `writerGeneration`. Changes only in owner transitions, by +1. */
  writerGeneration: PositiveInteger;
  /** `owner.reopenGeneration` + 1; +1 on every reopen. */
  lifecycleRevision: PositiveInteger;
  /** What produced this envelope. */
  commitKind: TaskCommitKind;
  /** When this envelope was committed; never earlier than the previous envelope's. */
  committedAt: Timestamp;
  /** `envelopeDigest` of the envelope with `sequence` - 1; `null` exactly when `sequence` is 1. */
  previousEnvelopeDigest: NullableSha256Hex;
  /** The write owner lease. */
  owner: FencedTaskWriteOwnerLeaseV2;
  /** The task's operation set. */
  operations: TaskOperationSetV1;
  /** The current lifecycle revision's terminal receipt; non-null exactly when `owner.status` is `terminal`. */
  terminalReceipt: WorkflowTaskTerminalReceiptV1 | null;
  /**
   * Closed lifecycle revisions, ascending and contiguous, ending at the latest closed one; at most 64 (older ones drop off first).
   * @maxItems 64
   */
  terminalLineage: TaskTerminalLineageEntryV1[];
  /** The application's task state, opaque to the store. */
  state: { [key: string]: unknown };
  /** `digestOf(state)`. */
  stateDigest: Sha256Hex;
  /** `digestOf` of this envelope without `envelopeDigest`. */
  envelopeDigest: Sha256Hex;
}

/** Catalogue entries of this area, in spec order. */
export const TASK_CONTINUITY_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'TaskRecoveryStateV5',
    gate: 'TaskContinuityWriteGate',
    summary: 'The durable envelope of one formal task, produced by exactly one fenced commit.',
  },
  {
    name: 'TaskRecoveryCommitFenceV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'The (stateSequence, writerGeneration) pair every fenced commit must match exactly.',
  },
  {
    name: 'FencedTaskWriteOwnerLeaseV2',
    gate: 'TaskContinuityWriteGate',
    summary: 'The single write owner of a task and the transition that produced its lease.',
  },
  {
    name: 'CanonicalTaskWriteContextV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'The write context read back from storage after every owner transition, bound by one digest.',
  },
  {
    name: 'TaskOperationRecordV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'The durable record of one mutating operation moving along a fixed phase edge table.',
  },
  {
    name: 'TaskOperationSetV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'At most one unresolved operation plus a bounded, digested window of resolved ones.',
  },
  {
    name: 'WorkflowTaskTerminalReceiptV1',
    gate: 'TaskContinuityWriteGate',
    summary: 'The terminal closeout receipt binding writer, fence, settled set and independent evidence.',
  },
];
