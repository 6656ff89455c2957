import type {
  FencedTaskWriteOwnerOperation,
  TaskOperationEffect,
  TaskRecoveryCommitFenceV1,
  TaskTerminalEvidenceItemV1,
  WorkflowTaskTerminalStatus,
} from '@agent-contracts/schemas';

/** The current owner ref of a task: the four identifying members of its lease. */
export interface PresentOwnerRef {
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
export interface AbsentOwnerRef {
  /** Always `absent`. */
  readonly mode: 'absent';
}

/** An owner ref: two refs match when every member is equal. */
export type OwnerRef = PresentOwnerRef | AbsentOwnerRef;

/** The five fields that name an operation in every event but `prepare` (D-TCW-13). */
export interface OperationBinding {
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

/** `prepare`: a new record (`operation-prepare`). */
export interface PrepareEvent {
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

/** `dispatch`: prepared -> dispatched (`operation-dispatch`), committed before the effect starts. */
export interface DispatchEvent extends OperationBinding {
  /** The event. */
  readonly event: 'dispatch';
}

/** `observe`: dispatched -> observed (`operation-observe`). */
export interface ObserveEvent extends OperationBinding {
  /** The event. */
  readonly event: 'observe';
  /** Digest of the observed result. */
  readonly resultDigest: string;
}

/** `settle`: observed -> settled (`operation-settle`), same generation. */
export interface SettleEvent extends OperationBinding {
  /** The event. */
  readonly event: 'settle';
  /** `known-applied` or `known-not-applied`. */
  readonly effect: TaskOperationEffect;
  /** Digest of the evidence the settlement rests on. */
  readonly evidenceDigest: string | null;
}

/** `mark-reconcile`: dispatched or observed -> reconcile-required (`operation-mark-reconcile`), any generation. */
export interface MarkReconcileEvent extends OperationBinding {
  /** The event. */
  readonly event: 'mark-reconcile';
}

/** `reconcile`: reconcile-required -> settled (`operation-reconcile`), any generation. */
export interface ReconcileEvent extends OperationBinding {
  /** The event. */
  readonly event: 'reconcile';
  /** `known-applied` or `known-not-applied`. */
  readonly effect: TaskOperationEffect;
  /** Digest of the evidence the settlement rests on. */
  readonly evidenceDigest: string | null;
}

/** `abort`: prepared -> aborted-zero-effect (`operation-abort`), only if never dispatched. */
export interface AbortEvent extends OperationBinding {
  /** The event. */
  readonly event: 'abort';
}

/** One event of `commitOperation`. */
export type OperationEventInput =
  | PrepareEvent
  | DispatchEvent
  | ObserveEvent
  | SettleEvent
  | MarkReconcileEvent
  | ReconcileEvent
  | AbortEvent;

/** Members every write request shares. */
interface WriteRequestBase {
  /** The task. */
  readonly taskId: string;
  /** The task's project root identity. */
  readonly projectRootIdentity: string;
  /** The fence the requester read ((0, 0) for a task never written). Required. */
  readonly expectedFence: TaskRecoveryCommitFenceV1 | null | undefined;
  /** The owner ref the requester read. */
  readonly expectedOwner: OwnerRef;
  /** The requester's session digest. */
  readonly sessionDigest: string;
}

/** `commitState`: one envelope with `commitKind: state`. */
export interface StateCommitRequest extends WriteRequestBase {
  /** The new application state. */
  readonly state: { readonly [key: string]: unknown };
  /** Only makes an unchanged state be written as a new envelope; bypasses no check. */
  readonly force?: boolean;
}

/** `commitOperation`: one envelope with `commitKind: operation-*`. */
export interface OperationCommitRequest extends WriteRequestBase {
  /** The event. */
  readonly event: OperationEventInput;
  /** Optional new application state committed with the event. */
  readonly state?: { readonly [key: string]: unknown };
}

/** The `terminal` member of a `terminal` owner transition request. */
export interface TerminalRequestMember {
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
export interface TakeoverEvidence {
  /** `contextDigest` of the write context the taking-over session read back. */
  readonly readbackContextDigest: string;
  /** Digest of the liveness evidence that the holder has no live turn. */
  readonly livenessEvidenceDigest: string;
  /** Digest of the reconcile receipt examining the unresolved operation and targets. */
  readonly reconcileReceiptDigest: string;
}

/**
 * An owner transition request, exactly the members of the page's "Owner transition request"
 * table (every member present, `null` where unused), so that `digestOf(request)` is its
 * `transitionRef.requestDigest`.
 */
export interface OwnerTransitionRequest {
  /** The row of the owner transition table. */
  readonly operation: FencedTaskWriteOwnerOperation;
  /** The task. */
  readonly taskId: string;
  /** The task's project root identity. */
  readonly projectRootIdentity: string;
  /** The fence the requester read. */
  readonly expectedFence: TaskRecoveryCommitFenceV1 | null;
  /** The owner ref the requester read. */
  readonly expectedOwner: OwnerRef;
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
  readonly takeoverEvidence: TakeoverEvidence | null;
  /** `terminal`: the closeout. */
  readonly terminal: TerminalRequestMember | null;
  /** `reopen`: `receiptDigest` of the current terminal receipt. */
  readonly terminalReceiptDigest: string | null;
}
