// The `store.*` methods (docs/protocol.md#store-v1-capability-store), one per store operation of
// the TaskContinuityWriteGate (docs/spec/task-continuity-write-gate.md#store-operations). These
// are the wire shapes; any store whose requests and results have these members speaks them.
import type {
  CanonicalTaskWriteContextV1,
  FencedTaskWriteOwnerOperation,
  TaskOperationEffect,
  TaskRecoveryCommitFenceV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
  WorkflowTaskTerminalReceiptV1,
  WorkflowTaskTerminalStatus,
} from '@agent-contracts/schemas';

/** A task key: a lowercase UUID `taskId` in a 64-hex-character `projectRootIdentity`. */
export interface StoreTaskKey {
  /** The task's project root identity (64 lowercase hex characters). */
  readonly projectRootIdentity: string;
  /** The task (a lowercase UUID). */
  readonly taskId: string;
}

/** Params of `store.read`, `store.readWriteContext`, `store.replay` and `store.history`. */
export interface StoreTaskParams {
  /** The task. */
  readonly task: StoreTaskKey;
}

/** The current owner ref of a task: the four identifying members of its lease. */
export interface StorePresentOwnerRef {
  /** `ownerGeneration` of the lease. */
  readonly ownerGeneration: number;
  /** `ownerNonce` of the lease. */
  readonly ownerNonce: string;
  /** `leaseRevision` of the lease. */
  readonly leaseRevision: number;
  /** `leaseDigest` of the lease. */
  readonly leaseDigest: string;
}

/** The owner ref of a task without an envelope. */
export interface StoreAbsentOwnerRef {
  /** Always `absent`. */
  readonly mode: 'absent';
}

/** An owner ref: two refs match when every member is equal. */
export type StoreOwnerRef = StorePresentOwnerRef | StoreAbsentOwnerRef;

/** `prepare`: a new operation record (`operation-prepare`). */
export interface StorePrepareEvent {
  /** The event. */
  readonly event: 'prepare';
  /** New operation id, unique within the task. */
  readonly operationId: string;
  /** New idempotency key, never used before in the task. */
  readonly idempotencyKey: string;
  /** What the operation does (lowercase kebab-case). */
  readonly kind: string;
  /** Normalised, unique, sorted targets (1 to 256). */
  readonly exactTargets: readonly string[];
  /** Digest of the observation of the targets before dispatch. */
  readonly beforeDigest: string;
}

/** An operation event after `prepare`: the five fields that name the operation, and the event's own. */
export interface StoreBoundEvent {
  /** The event. */
  readonly event: 'dispatch' | 'mark-reconcile' | 'abort';
  /** `operationId` of the record. */
  readonly operationId: string;
  /** `idempotencyKey` of the record. */
  readonly idempotencyKey: string;
  /** `writerGeneration` of the record (the generation that prepared it). */
  readonly writerGeneration: number;
  /** `targetSetDigest` of the record. */
  readonly targetSetDigest: string;
  /** `beforeDigest` of the record. */
  readonly beforeDigest: string;
}

/** `observe`: dispatched -> observed. */
export interface StoreObserveEvent extends Omit<StoreBoundEvent, 'event'> {
  /** The event. */
  readonly event: 'observe';
  /** Digest of the observed result. */
  readonly resultDigest: string;
}

/** `settle` (observed -> settled) and `reconcile` (reconcile-required -> settled). */
export interface StoreSettleEvent extends Omit<StoreBoundEvent, 'event'> {
  /** The event. */
  readonly event: 'settle' | 'reconcile';
  /** `known-applied` or `known-not-applied`. */
  readonly effect: TaskOperationEffect;
  /** Digest of the evidence the settlement rests on, or null. */
  readonly evidenceDigest: string | null;
}

/** One operation event of `store.commitOperation`. */
export type StoreOperationEvent = StorePrepareEvent | StoreBoundEvent | StoreObserveEvent | StoreSettleEvent;

/** `request` of `store.commitState`: one envelope with `commitKind: state`. */
export interface StoreStateCommitRequest {
  /** The task. */
  readonly taskId: string;
  /** The task's project root identity. */
  readonly projectRootIdentity: string;
  /** The fence the requester read ((0, 0) for a task never written); null is refused with `LIFECYCLE_STATE_FENCE_REQUIRED`. */
  readonly expectedFence: TaskRecoveryCommitFenceV1 | null;
  /** The owner ref the requester read. */
  readonly expectedOwner: StoreOwnerRef;
  /** The requester's session digest. */
  readonly sessionDigest: string;
  /** The new application state. */
  readonly state: { readonly [key: string]: unknown };
  /** Only makes an unchanged state be written as a new envelope; bypasses no check. */
  readonly force?: boolean;
}

/** `request` of `store.commitOperation`: one envelope with `commitKind: operation-*`. */
export interface StoreOperationCommitRequest {
  /** The task. */
  readonly taskId: string;
  /** The task's project root identity. */
  readonly projectRootIdentity: string;
  /** The fence the requester read ((0, 0) for a task never written); null is refused with `LIFECYCLE_STATE_FENCE_REQUIRED`. */
  readonly expectedFence: TaskRecoveryCommitFenceV1 | null;
  /** The owner ref the requester read. */
  readonly expectedOwner: StoreOwnerRef;
  /** The requester's session digest. */
  readonly sessionDigest: string;
  /** The event. */
  readonly event: StoreOperationEvent;
  /** Optional new application state committed with the event. */
  readonly state?: { readonly [key: string]: unknown };
}

/** The `terminal` member of a `terminal` owner transition request. */
export interface StoreTerminalMember {
  /** One of the four terminal statuses. */
  readonly terminalStatus: WorkflowTaskTerminalStatus;
  /** The lifecycle revision the holder closes. */
  readonly lifecycleRevision: number;
  /** The settled set digest the holder read. */
  readonly settledSetDigest: string;
  /** The `contextDigest` of the write context the holder read. */
  readonly writeContextDigest: string;
  /** Exactly four evidence items, one per role, sorted by role. */
  readonly evidence: readonly TaskTerminalEvidenceItemV1[];
}

/** Takeover evidence of a `takeover-prepare` request. */
export interface StoreTakeoverEvidence {
  /** `contextDigest` of the write context the taking-over session read back. */
  readonly readbackContextDigest: string;
  /** Digest of the liveness evidence that the holder has no live turn. */
  readonly livenessEvidenceDigest: string;
  /** Digest of the reconcile receipt examining the unresolved operation and targets. */
  readonly reconcileReceiptDigest: string;
}

/** `request` of `store.transitionOwner`: every member of the page's owner transition request, `null` where unused. */
export interface StoreOwnerTransitionRequest {
  /** The row of the owner transition table. */
  readonly operation: FencedTaskWriteOwnerOperation;
  /** The task. */
  readonly taskId: string;
  /** The task's project root identity. */
  readonly projectRootIdentity: string;
  /** The fence the requester read. */
  readonly expectedFence: TaskRecoveryCommitFenceV1 | null;
  /** The owner ref the requester read. */
  readonly expectedOwner: StoreOwnerRef;
  /** The requester's session. */
  readonly sessionDigest: string;
  /** The requester's context epoch. */
  readonly contextEpoch: string;
  /** The requester's route revision. */
  readonly routeRevision: string;
  /** `handoff-prepare`: the accepting session; `takeover-prepare`: the requester's own session. */
  readonly targetSessionDigest: string | null;
  /** `handoff-accept`: the pending `handoffRef.refDigest`. */
  readonly handoffRefDigest: string | null;
  /** `takeover-accept`: the pending `takeoverRef.refDigest`. */
  readonly takeoverRefDigest: string | null;
  /** `takeover-prepare`: the three evidence digests. */
  readonly takeoverEvidence: StoreTakeoverEvidence | null;
  /** `terminal`: the closeout. */
  readonly terminal: StoreTerminalMember | null;
  /** `reopen`: `receiptDigest` of the current terminal receipt. */
  readonly terminalReceiptDigest: string | null;
}

/** Params of `store.commitState`. */
export interface StoreCommitStateParams {
  /** The commit request. */
  readonly request: StoreStateCommitRequest;
}

/** Params of `store.commitOperation`. */
export interface StoreCommitOperationParams {
  /** The commit request. */
  readonly request: StoreOperationCommitRequest;
}

/** Params of `store.transitionOwner`. */
export interface StoreTransitionOwnerParams {
  /** The owner transition request. */
  readonly request: StoreOwnerTransitionRequest;
}

/** Result of `store.read` for a task that has an envelope. */
export interface StoreReadFound {
  /** Always true. */
  readonly ok: true;
  /** `found`. */
  readonly status: 'found';
  /** The latest envelope. */
  readonly envelope: TaskRecoveryStateV5;
  /** Its fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
}

/** Result of `store.read` for a task never written. */
export interface StoreReadMissing {
  /** Always true. */
  readonly ok: true;
  /** `missing`. */
  readonly status: 'missing';
  /** No envelope. */
  readonly envelope: null;
  /** The fence (0, 0). */
  readonly fence: TaskRecoveryCommitFenceV1;
}

/** Result of `store.read`. */
export type StoreReadResult = StoreReadFound | StoreReadMissing;

/** Result of `store.readWriteContext`. */
export interface StoreReadWriteContextResult {
  /** Always true. */
  readonly ok: true;
  /** Built from a fresh read of storage. */
  readonly writeContext: CanonicalTaskWriteContextV1;
}

/** Result of `store.commitState`, `store.commitOperation` and `store.transitionOwner`. */
export interface StoreCommitResult {
  /** Always true. */
  readonly ok: true;
  /** `committed` (one envelope written), `semantic-noop` or `replayed` (nothing written). */
  readonly status: 'committed' | 'semantic-noop' | 'replayed';
  /** The fence of the envelope read back: the caller's next `expectedFence`. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** Built from a fresh read of storage, never from the request. */
  readonly writeContext: CanonicalTaskWriteContextV1;
  /** For `terminal` (committed or replayed), the receipt; else null. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** Result of `store.replay`: the verified history, read-only. */
export interface StoreReplayResult {
  /** Always true. */
  readonly ok: true;
  /** Every envelope, oldest first. */
  readonly envelopes: readonly TaskRecoveryStateV5[];
  /** The current fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** The current write context; null for a task never written. */
  readonly writeContext: CanonicalTaskWriteContextV1 | null;
}

/** Result of `store.history`: every envelope of the task, oldest first (empty for a task never written). */
export type StoreHistoryResult = readonly TaskRecoveryStateV5[];

/** Error `data` of a refusal of the commit algorithm; what is wrong is the error's `message`. */
export interface StoreRefusalData {
  /** The spec's code. */
  readonly code: string;
  /** Always false. */
  readonly ok: false;
  /** The fence the store read (absent only for a refusal before the read). */
  readonly currentFence?: TaskRecoveryCommitFenceV1;
}

/** Error `data` of a storage failure that is not a refusal (`STORE_BUSY`, `STORE_CONNECTION_LOST`, ...). */
export interface StorageFailureData {
  /** The store's code. */
  readonly code: string;
  /** Whether retrying may succeed. */
  readonly retryable?: boolean;
  /** What is known of the write: `not-applied`, or `unknown` (read the task before deciding anything). */
  readonly outcome?: 'not-applied' | 'unknown';
}
