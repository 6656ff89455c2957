import type { ContractEntry } from '../gates.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  NullableTimestamp,
  PositiveInteger,
  Sha256Hex,
  Timestamp,
} from './common.js';
import type { ContextActionClass, ContextEscalationTrigger } from './context-acquisition.js';
import type { ContentIdentityV1, ContextReadBindingV1 } from './context-identity.js';

// ---------------------------------------------------------------------------------------------
// Scalars of this area
// ---------------------------------------------------------------------------------------------

/**
 * Id of a plan source: a lowercase kind, a colon, and a selector without whitespace, e.g.
 * `profile:README.md` or `memory:status`.
 * @pattern ^[a-z][a-z0-9-]*:[^\s]{1,256}$
 * @maxLength 300
 */
export type ContextSourceId = string;

/**
 * The host's id of one tool call, shared by its PreToolUse and PostToolUse events: 1 to 256
 * printable ASCII characters without spaces.
 * @pattern ^[\x21-\x7e]{1,256}$
 */
export type ToolCallId = string;

/**
 * The host session the evidence was observed in (1 to 256 printable ASCII characters without
 * spaces), or `null` when the host does not expose a session id.
 * @pattern ^[\x21-\x7e]{1,256}$
 */
export type NullableHostSessionId = string | null;

/**
 * A count (bytes, characters, tokens, milliseconds) from 0 to 2^53 - 1, or `null` when it was
 * not measured.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 9007199254740991
 */
export type NullableCount = number | null;

/**
 * Id of a receipt: `receipt-` and 24 lowercase hex characters.
 * @pattern ^receipt-[a-f0-9]{24}$
 */
export type ReceiptId = string;

/**
 * Id of an observation record: `obs-` and 24 lowercase hex characters.
 * @pattern ^obs-[a-f0-9]{24}$
 */
export type ObservationId = string;

/**
 * Id of an observation record, or `null`.
 * @pattern ^obs-[a-f0-9]{24}$
 */
export type NullableObservationId = string | null;

/**
 * A receipt id, or `null`.
 * @pattern ^receipt-[a-f0-9]{24}$
 */
export type NullableReceiptId = string | null;

/**
 * A plan content id (`plan-content-` and 64 hex characters), or `null` for a V1 plan, which has none.
 * @pattern ^plan-content-[a-f0-9]{64}$
 */
export type NullablePlanContentId = string | null;

/** How a receipt's evidence was obtained. Only `structured-plan` can ever complete. */
export type VerificationMode = 'structured-plan' | 'path-observable' | 'instruction-only';

/** Source kinds of a plan's selected sources (the plan section defines them). */
export type ContextSourceKind = 'profile-baseline' | 'profile' | 'profile-local' | 'memory';

// ---------------------------------------------------------------------------------------------
// Observation records (shared by ContextReadReceiptV2 and ContextSourceObservationLedgerV1)
// ---------------------------------------------------------------------------------------------

/**
 * A PreToolUse event of a context tool call, for one requested source. It proves only that a
 * read was attempted; it never satisfies a source.
 */
export interface ContextSourceAttemptObservation {
  /** Derived id: `obs-` + first 24 hex of the JCS SHA-256 of the record without `observationId`, `attemptedAt`, `observedAt` and the telemetry fields (an attempt has none). */
  observationId: ObservationId;
  /** The host hook event this record evidences. */
  hookEvent: 'PreToolUse';
  /** The host's tool call id; the PostToolUse of the same call carries the same id. */
  toolCallId: ToolCallId;
  /** The selected plan source the call requests. A call requesting several sources yields one record per source. */
  sourceId: ContextSourceId;
  /** Kind of the requested source, copied from the plan. */
  sourceKind: ContextSourceKind;
  /** Action class the caller declared for the call; must be in the plan's action envelope. */
  actionClass: ContextActionClass;
  /**
   * Context epoch the call was made under, as the event carried it (not copied from the plan).
   * @minLength 1
   * @maxLength 256
   */
  contextEpoch: string;
  /**
   * Plan id the call was bound to, as the event carried it.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /**
   * Workspace root the call targeted, `/`-separated, as the event carried it.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /** Host session of the event; `null` when the host exposes none. */
  hostSessionId: NullableHostSessionId;
  /** SHA-256 (JCS) of the tool input arguments, or `null` when the host did not expose them. */
  argsDigest: NullableSha256Hex;
  /** Time the PreToolUse event was observed. */
  attemptedAt: Timestamp;
  /** Always `null`: an attempt has no outcome yet. */
  observedAt: null;
  /** Always `attempted`. */
  outcome: 'attempted';
}

/** Outcome of a PostToolUse record, classified in the order the spec gives. */
export type ContextResultOutcome =
  | 'observed-success'
  | 'baseline-ready'
  | 'wrong-root'
  | 'invalid'
  | 'unobservable'
  | 'failed';

/**
 * A PostToolUse event of a context tool call, for one source: what the host actually received.
 * Only such a record, correlated to its attempt and carrying the delivered body's identity, can
 * satisfy a source.
 */
export interface ContextSourceResultObservation {
  /** Derived id: `obs-` + first 24 hex of the JCS SHA-256 of the record without `observationId`, `attemptedAt`, `observedAt` and the telemetry fields `bytes`, `chars`, `hostDeliveredBytes`, `latencyMs`, `tokens`. */
  observationId: ObservationId;
  /** The host hook event this record evidences. */
  hookEvent: 'PostToolUse';
  /** The host's tool call id; equals the `toolCallId` of the correlated PreToolUse record (or of the plan call for `baseline-ready`). */
  toolCallId: ToolCallId;
  /** The selected plan source the result is for. */
  sourceId: ContextSourceId;
  /** Kind of the source, copied from the plan. */
  sourceKind: ContextSourceKind;
  /**
   * Context epoch the result carried (never filled in from the plan).
   * @minLength 1
   * @maxLength 256
   */
  contextEpoch: string;
  /**
   * Plan id the result carried.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /**
   * Workspace root the result was read from, `/`-separated.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /** Host session the result was delivered in; `null` when the host exposes none. */
  hostSessionId: NullableHostSessionId;
  /** SHA-256 (JCS) of the tool input the PostToolUse event carried, or `null` when it carried none. */
  argsDigest: NullableSha256Hex;
  /** Time of the correlated PreToolUse event (copied from the attempt record; for `baseline-ready`, of the plan call). */
  attemptedAt: Timestamp;
  /** Time the PostToolUse event was observed. */
  observedAt: Timestamp;
  /** Classified outcome; success outcomes are `observed-success` and `baseline-ready`. */
  outcome: ContextResultOutcome;
  /** The source result reported success and `bodyObserved` is true. */
  successful: boolean;
  /** The tool result payload could be extracted from the event. */
  observable: boolean;
  /** No failure marker (`success:false`, `ok:false`, `isError:true`, `error`) at any level of the result. */
  transportSuccess: boolean;
  /** `activeRoot` equals the binding's `activeRoot`. */
  activeRootMatch: boolean;
  /** `contextEpoch` and `planId` equal the binding's, and the record is correlated by `toolCallId` (see invariants). */
  correlationValid: boolean;
  /**
   * Layer the source was read from (e.g. `project`, `user`, `memory-query`); must be a layer of the plan source.
   * @minLength 1
   * @maxLength 64
   */
  sourceLayer: string;
  /** The source's live metadata still hashes to the plan's metadata digest (memory sources: the query target matched). */
  sourceRefsMatch: boolean;
  /** The result matched the source's declared result schema. */
  schemaMatch: boolean;
  /** The result is about the plan's target (project and root). */
  targetMatch: boolean;
  /** The source body itself (not only metadata or a summary) was present in the delivered result. */
  bodyObserved: boolean;
  /** The result was served from a cache: a computation-cache hit (`reusedObservationId` null) or a delivery reuse (non-null). */
  cache: boolean;
  /** For a delivery-reuse record, the id of the prior receipt's PostToolUse record it reuses; otherwise `null`. */
  reusedObservationId: NullableObservationId;
  /** SHA-256 (JCS) of the extracted tool-result payload; `null` when nothing was observable. */
  resultDigest: NullableSha256Hex;
  /** Identity of the delivered source body, or `null` when no body identity was observed. */
  contentIdentity: ContentIdentityV1 | null;
  /** Bytes of the extracted payload (telemetry). */
  bytes: NullableCount;
  /** Characters of the extracted payload (telemetry). */
  chars: NullableCount;
  /** Bytes the host reported as delivered to the model (telemetry). */
  hostDeliveredBytes: NullableCount;
  /** Tool latency in milliseconds (telemetry). */
  latencyMs: NullableCount;
  /** Tokens the delivery cost, when the host reports them (telemetry). */
  tokens: NullableCount;
}

/** One observation record: a PreToolUse attempt or a PostToolUse result. */
export type ContextSourceObservation = ContextSourceAttemptObservation | ContextSourceResultObservation;

// ---------------------------------------------------------------------------------------------
// ContextReadReceiptV2
// ---------------------------------------------------------------------------------------------

/** Status of a receipt. `stale`, `blocked` and `unverified` are absorbing. */
export type ContextReceiptStatusV2 =
  | 'baseline-ready'
  | 'planned'
  | 'attempted'
  | 'escalated-full'
  | 'relevant-complete'
  | 'completed'
  | 'unverified'
  | 'stale'
  | 'blocked';

/** The PostToolUse event that delivered the plan itself to the host (the plan tool call). */
export interface ContextPlanObservation {
  /** Tool call id of the plan call. */
  toolCallId: ToolCallId;
  /** Time of the plan call's PreToolUse event. */
  attemptedAt: Timestamp;
  /** Time of the plan call's PostToolUse event, when the plan became observed. */
  observedAt: Timestamp;
}

/** A sealed source identity: the body identity of a source as last delivered successfully. */
export interface ContextSourceIdentity {
  /** The source. */
  sourceId: ContextSourceId;
  /** Identity of its last successfully delivered body. */
  contentIdentity: ContentIdentityV1;
}

/** One escalation recorded on a receipt. */
export interface ContextReceiptEscalation {
  /** The escalation trigger. */
  trigger: ContextEscalationTrigger;
  /**
   * Machine reason, kebab-case, e.g. `scope-drift`, `profile-drift`, `writer-drift`; replay rules key on it.
   * @pattern ^[a-z][a-z0-9]*(-[a-z0-9]+)*$
   * @maxLength 64
   */
  reasonCode: string;
  /** Time the escalation was recorded. */
  observedAt: Timestamp;
  /** `planned`: triggered by the plan; `replan-required`: the receipt went stale and a new plan is needed. */
  action: 'planned' | 'replan-required';
}

/** The last error recorded on a receipt. */
export interface ContextReceiptError {
  /**
   * Stable error code, UPPER_SNAKE_CASE.
   * @pattern ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$
   * @maxLength 96
   */
  code: string;
  /**
   * Human-readable message.
   * @minLength 1
   * @maxLength 1024
   */
  message: string;
  /**
   * What the caller does next.
   * @minLength 1
   * @maxLength 1024
   */
  nextStep: string;
}

/** Why a receipt is or is not eligible as delivered-context evidence for delivery reuse. */
export type ContextDeliveryReasonCode =
  | 'body-read-required'
  | 'host-session-unobservable'
  | 'current-session-content-observed'
  | 'same-session-epoch-content-observed'
  | 'receipt-unverified'
  | 'receipt-stale'
  | 'receipt-blocked';

/** Delivery state of a receipt, derived from its observations (never supplied by the caller). */
export interface ContextDeliveryState {
  /** Every mandatory source has a sealed source identity. */
  bodyObserved: boolean;
  /** The receipt was completed by delivery reuse (`reuseFrom` is set). */
  reused: boolean;
  /** The receipt may serve as the prior receipt of a later delivery reuse. */
  eligible: boolean;
  /** Derived reason code. */
  reasonCode: ContextDeliveryReasonCode;
}

/** The prior plan and receipt a delivery-reuse receipt was completed from. */
export interface ContextReceiptReuseFrom {
  /**
   * Prior plan id.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /**
   * Prior plan content id; equals this receipt's `binding.planContentId`.
   * @pattern ^plan-content-[a-f0-9]{64}$
   */
  planContentId: string;
  /** Prior receipt id. */
  receiptId: ReceiptId;
  /** JCS SHA-256 of the prior receipt's `sourceIdentities`; equals the digest of this receipt's `sourceIdentities`. */
  sourceIdentitiesDigest: Sha256Hex;
}

/**
 * Evidence that the mandatory sources of one plan were delivered to the host, built only from
 * correlated PostToolUse success observations. A new revision (new `receiptId`) is written on
 * every change.
 */
export interface ContextReadReceiptV2 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReadReceiptV2';
  /** Derived id of this revision (see Identity and digests). */
  receiptId: ReceiptId;
  /** The plan the receipt is for: epoch, both plan ids, root and project; equals the plan's `contextBinding`. */
  binding: ContextReadBindingV1;
  /**
   * The host that ran the tool calls, copied from the plan's identity, e.g. `claude-code`, `standalone`.
   * @pattern ^[a-z0-9][a-z0-9._-]{0,63}$
   */
  host: string;
  /** Host session the receipt was written in; `null` when the host exposes none (then delivery reuse is impossible). */
  hostSessionId: NullableHostSessionId;
  /** How evidence was obtained; only `structured-plan` can complete. */
  verificationMode: VerificationMode;
  /** Receipt status (see State machine). */
  status: ContextReceiptStatusV2;
  /** The PostToolUse event that delivered the plan; `null` unless `verificationMode` is `structured-plan`. */
  planObservation: ContextPlanObservation | null;
  /**
   * Observation records in recording order (event time non-decreasing), at most 100.
   * @maxItems 100
   */
  observations: ContextSourceObservation[];
  /**
   * Mandatory sources whose latest correlated PostToolUse record satisfies the success rule; sorted, unique.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z][a-z0-9-]*:[^\s]{1,256}$
   * @items.maxLength 300
   */
  satisfiedSourceIds: string[];
  /**
   * Mandatory sources not satisfied; sorted, unique, disjoint from `satisfiedSourceIds`.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z][a-z0-9-]*:[^\s]{1,256}$
   * @items.maxLength 300
   */
  missingSourceIds: string[];
  /** Copied from the plan. */
  fullRead: boolean;
  /**
   * Copied from the plan: `null` when `fullRead` is false, non-empty when true.
   * @minLength 1
   * @maxLength 1024
   */
  fullReadReason: string | null;
  /**
   * Escalations, oldest first, at most 20.
   * @maxItems 20
   */
  escalations: ContextReceiptEscalation[];
  /** Number of `replan-required` escalations recorded. */
  replanCount: NonNegativeInteger;
  /** Last error, or `null`. Required when `status` is `stale`. */
  lastError: ContextReceiptError | null;
  /**
   * Sealed identities, sorted by `sourceId`: one per source whose latest PostToolUse record satisfies the success rule.
   * @maxItems 256
   */
  sourceIdentities: ContextSourceIdentity[];
  /** Derived delivery state. */
  delivery: ContextDeliveryState;
  /** The prior receipt this one was completed from by delivery reuse, or `null`. */
  reuseFrom: ContextReceiptReuseFrom | null;
  /** Time the receipt was created; for `structured-plan`, equals `planObservation.observedAt`. */
  createdAt: Timestamp;
  /** Time this revision was written; not earlier than any other timestamp in the document. */
  updatedAt: Timestamp;
  /** Time all mandatory sources became satisfied; non-null iff status is `relevant-complete` or `completed`. */
  completedAt: NullableTimestamp;
  /** Time the completed context was consumed by the turn; non-null iff status is `completed`. */
  consumedAt: NullableTimestamp;
}

// ---------------------------------------------------------------------------------------------
// ContextReadReceiptV1 (read-only compatibility)
// ---------------------------------------------------------------------------------------------

/**
 * A legacy observation id as V1 writers formed it (e.g. `attempt-…`, `result-…`, `baseline-profile:README.md`).
 * @pattern ^[A-Za-z0-9:._-]{1,160}$
 */
export type LegacyObservationId = string;

/**
 * A string, possibly empty, of at most 256 characters.
 * @maxLength 256
 */
export type ShortString = string;

/**
 * A short string, or `null`.
 * @minLength 1
 * @maxLength 300
 */
export type NullableShortString = string | null;

/** An observation record of a V1 receipt, as V1 writers produced it. Attempts have outcome `attempted`. */
export interface LegacyContextReadObservation {
  /** Observation id as written. */
  observationId: LegacyObservationId;
  /** Tool call id; empty when the writer had none. */
  toolCallId: ShortString;
  /** Source id, or `null` for an attempt that named no source. */
  sourceId: NullableShortString;
  /** Source kind, or `null`. */
  sourceKind: ContextSourceKind | null;
  /** Declared action class (attempts), or `null`. */
  actionClass: ContextActionClass | null;
  /** Time of the attempt, or `null`. */
  attemptedAt: NullableTimestamp;
  /** Time of the outcome, or `null` for an attempt. */
  observedAt: NullableTimestamp;
  /**
   * Outcome: `attempted`, `baseline-ready`, `observed-success`, `wrong-root`, `invalid`, `unobservable`, `failed`, or a raw outcome passed through.
   * @pattern ^[a-z][a-z0-9]*(-[a-z0-9]+)*$
   * @maxLength 64
   */
  outcome: string;
  /** The writer's success flag. */
  successful: boolean;
  /** The payload was observable. */
  observable: boolean;
  /** No transport failure. */
  transportSuccess: boolean;
  /** Root matched the plan. */
  activeRootMatch: boolean;
  /** Source layer, or `null`. */
  sourceLayer: NullableShortString;
  /** Live metadata matched the plan. */
  sourceRefsMatch: boolean;
  /** Result schema matched. */
  schemaMatch: boolean;
  /** Result target matched. */
  targetMatch: boolean;
  /** Epoch and plan id matched. */
  correlationValid: boolean;
  /** Result digest, or `null`. */
  resultDigest: NullableSha256Hex;
  /** Body identity, or `null` (V1 writers usually wrote `null`). */
  contentIdentity: ContentIdentityV1 | null;
  /** Body observed flag. */
  bodyObserved: boolean;
  /** Host session id; empty when unobservable. */
  hostSessionId: ShortString;
  /** Telemetry. */
  bytes: NullableCount;
  /** Telemetry. */
  chars: NullableCount;
  /** Telemetry. */
  hostDeliveredBytes: NullableCount;
  /** Telemetry. */
  latencyMs: NullableCount;
  /** Telemetry. */
  tokens: NullableCount;
  /** Cache flag. */
  cache: boolean;
}

/** Target identity of a V1 receipt. */
export interface LegacyContextReceiptIdentity {
  /**
   * Workspace root, `/`-separated.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /**
   * Project inside the root.
   * @minLength 1
   * @maxLength 256
   */
  project: string;
  /**
   * Host name.
   * @minLength 1
   * @maxLength 64
   */
  host: string;
}

/** An escalation of a V1 receipt (free-text reason). */
export interface LegacyContextReceiptEscalation {
  /** The trigger. */
  trigger: ContextEscalationTrigger;
  /**
   * Free-text reason as written.
   * @maxLength 1024
   */
  reason: string;
  /** Time recorded. */
  observedAt: Timestamp;
  /** Action. */
  action: 'planned' | 'replan-required';
}

/** The last error of a V1 receipt, as written (`ContextReadErrorV1` shape). */
export interface LegacyContextReadError {
  /** Always `ContextReadErrorV1`. */
  schemaVersion: 'ContextReadErrorV1';
  /**
   * Error code.
   * @pattern ^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$
   * @maxLength 96
   */
  errorCode: string;
  /**
   * Message.
   * @maxLength 4096
   */
  message: string;
  /**
   * Next step.
   * @maxLength 4096
   */
  nextStep: string;
}

/**
 * Read-only compatibility: the receipt V1 writers produced for a `ContextReadPlanV1`. Readers
 * accept it; writers never produce it; it is never delivery-reusable and never gate evidence
 * for a new turn.
 */
export interface ContextReadReceiptV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReadReceiptV1';
  /** `receipt-` + first 24 hex of the JCS SHA-256 of `{planId, verificationMode}`. */
  receiptId: ReceiptId;
  /**
   * Context epoch of the plan.
   * @minLength 1
   * @maxLength 256
   */
  contextEpoch: string;
  /**
   * The V1 plan's id.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /** Target identity. */
  identity: LegacyContextReceiptIdentity;
  /** Verification mode. */
  verificationMode: VerificationMode;
  /** Status (V1 also declared `unplanned`, never produced). */
  status:
    | 'unplanned'
    | 'baseline-ready'
    | 'planned'
    | 'attempted'
    | 'relevant-complete'
    | 'escalated-full'
    | 'completed'
    | 'unverified'
    | 'stale'
    | 'blocked';
  /**
   * Observations, at most 100.
   * @maxItems 100
   */
  observations: LegacyContextReadObservation[];
  /**
   * Satisfied mandatory sources, sorted.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 300
   */
  satisfiedSourceIds: string[];
  /**
   * Missing mandatory sources, sorted.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 300
   */
  missingSourceIds: string[];
  /** Copied from the plan. */
  fullRead: boolean;
  /**
   * Copied from the plan.
   * @minLength 1
   * @maxLength 1024
   */
  fullReadReason: string | null;
  /**
   * Escalations, at most 20.
   * @maxItems 20
   */
  escalations: LegacyContextReceiptEscalation[];
  /** Completion time, or `null`. */
  completedAt: NullableTimestamp;
  /** Consumption time, or `null`. */
  consumedAt: NullableTimestamp;
  /** Replan count. */
  replanCount: NonNegativeInteger;
  /** Last error, or `null`. */
  lastError: LegacyContextReadError | null;
}

// ---------------------------------------------------------------------------------------------
// ContextReuseDecisionV1
// ---------------------------------------------------------------------------------------------

/** Why computation reuse was refused (checks in the spec's order; the first failure wins). */
export type ComputationReuseRefusal =
  | 'current-plan-invalid'
  | 'execution-optimization-full-only'
  | 'legacy-plan-no-content-identity'
  | 'no-compatible-prior-plan'
  | 'target-mismatch'
  | 'plan-content-mismatch';

/** Computation reuse granted: the prior plan's computation may be reused. */
export interface ComputationReuseGranted {
  /** Reuse granted. */
  reuse: true;
  /** Always `content-identity-match`. */
  reasonCode: 'content-identity-match';
}

/** Computation reuse refused. */
export interface ComputationReuseRefused {
  /** Reuse refused. */
  reuse: false;
  /** The first failing check. */
  reasonCode: ComputationReuseRefusal;
}

/** Why delivery reuse was refused (checks in the spec's order; the first failure wins). */
export type DeliveryReuseRefusal =
  | 'current-plan-invalid'
  | 'execution-optimization-full-only'
  | 'legacy-or-missing-prior-plan'
  | 'target-mismatch'
  | 'plan-content-mismatch'
  | 'legacy-or-missing-receipt'
  | 'prior-receipt-invalid'
  | 'prior-receipt-plan-mismatch'
  | 'host-session-mismatch'
  | 'context-epoch-mismatch'
  | 'prior-receipt-incomplete'
  | 'source-identity-mismatch'
  | 'body-observation-unproven';

/** Delivery reuse granted: the prior receipt's delivered bodies count for this plan. */
export interface DeliveryReuseGranted {
  /** Reuse granted. */
  reuse: true;
  /** Always `same-session-epoch-content-observed`. */
  reasonCode: 'same-session-epoch-content-observed';
}

/** Delivery reuse refused: the bodies must be read again. */
export interface DeliveryReuseRefused {
  /** Reuse refused. */
  reuse: false;
  /** The first failing check. */
  reasonCode: DeliveryReuseRefusal;
}

/** The prior plan a reuse decision compared against. */
export interface ReusePriorPlanRef {
  /** Which plan contract the prior plan is. */
  schemaVersion: 'ContextReadPlanV1' | 'ContextReadPlanV2';
  /**
   * Prior plan id.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /** Prior plan content id; `null` for a V1 plan. */
  planContentId: NullablePlanContentId;
  /**
   * Prior plan's context epoch.
   * @minLength 1
   * @maxLength 256
   */
  contextEpoch: string;
  /**
   * Prior plan's workspace root.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /**
   * Prior plan's project.
   * @minLength 1
   * @maxLength 256
   */
  project: string;
}

/** The prior receipt a reuse decision compared against. */
export interface ReusePriorReceiptRef {
  /** Which receipt contract the prior receipt is. */
  schemaVersion: 'ContextReadReceiptV1' | 'ContextReadReceiptV2';
  /** Prior receipt id. */
  receiptId: ReceiptId;
  /**
   * Plan id the prior receipt binds.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /** Plan content id the prior receipt binds; `null` for V1. */
  planContentId: NullablePlanContentId;
  /**
   * Context epoch of the prior receipt.
   * @minLength 1
   * @maxLength 256
   */
  contextEpoch: string;
  /** Host session of the prior receipt; `null` for V1 or when unobservable. */
  hostSessionId: NullableHostSessionId;
  /** Verification mode of the prior receipt. */
  verificationMode: VerificationMode;
  /**
   * Status of the prior receipt.
   * @pattern ^[a-z][a-z0-9]*(-[a-z0-9]+)*$
   * @maxLength 32
   */
  status: string;
  /** JCS SHA-256 of the prior receipt's `sourceIdentities`; `null` for V1. */
  sourceIdentitiesDigest: NullableSha256Hex;
}

/** The prior artefacts a granted reuse points at. */
export interface ReuseFromRef {
  /**
   * Prior plan id.
   * @pattern ^plan-[a-f0-9]{24}$
   */
  planId: string;
  /**
   * Prior plan content id.
   * @pattern ^plan-content-[a-f0-9]{64}$
   */
  planContentId: string;
  /** Prior receipt id when delivery reuse is granted; `null` for computation reuse only. */
  receiptId: NullableReceiptId;
  /** JCS SHA-256 of the reused source identities when delivery reuse is granted; otherwise `null`. */
  sourceIdentitiesDigest: NullableSha256Hex;
}

/**
 * The outcome of evaluating whether a new plan may reuse a prior plan's computation, and a prior
 * receipt's delivered bodies. Computation reuse never counts as delivery.
 */
export interface ContextReuseDecisionV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReuseDecisionV1';
  /**
   * Derived id: `reuse-` + first 24 hex of the JCS SHA-256 of the document without `decisionId`.
   * @pattern ^reuse-[a-f0-9]{24}$
   */
  decisionId: string;
  /** The current plan's binding (`ContextReadPlanV2.contextBinding`). */
  binding: ContextReadBindingV1;
  /** The current plan's execution optimization mode; `full-only` refuses all reuse. */
  executionOptimizationMode: 'safe-auto' | 'full-only';
  /** Host session the current turn runs in; `null` when unobservable. */
  hostSessionId: NullableHostSessionId;
  /** JCS SHA-256 of the current source identities the caller supplied (sorted `[{sourceId, contentIdentity}]`), or `null` when none were supplied. */
  currentSourceIdentitiesDigest: NullableSha256Hex;
  /** The prior plan compared against, or `null` when there is none. */
  priorPlan: ReusePriorPlanRef | null;
  /** The prior receipt compared against, or `null` when there is none. */
  priorReceipt: ReusePriorReceiptRef | null;
  /** Computation reuse verdict. */
  computation: ComputationReuseGranted | ComputationReuseRefused;
  /** Delivery reuse verdict. */
  delivery: DeliveryReuseGranted | DeliveryReuseRefused;
  /** What a granted reuse points at; `null` when computation reuse is refused. */
  reuseFrom: ReuseFromRef | null;
  /** Time the decision was evaluated. */
  evaluatedAt: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// ContextSourceObservationLedgerV1
// ---------------------------------------------------------------------------------------------

/** The fold of one mandatory source: its latest correlated PostToolUse record. */
export interface ContextObservationFoldEntry {
  /** Mandatory source. */
  sourceId: ContextSourceId;
  /** Latest correlated PostToolUse record for the source, or `null` when there is none. */
  observationId: NullableObservationId;
  /** That record's `resultDigest`, or `null`. */
  resultDigest: NullableSha256Hex;
  /** That record satisfies the success rule. */
  satisfied: boolean;
}

/** The ledger folded against the plan's mandatory sources (what a rebuilt receipt would derive). */
export interface ContextObservationFold {
  /**
   * One entry per mandatory source of the plan, sorted by `sourceId`.
   * @minItems 1
   * @maxItems 256
   */
  sources: ContextObservationFoldEntry[];
  /**
   * Sources whose entry is satisfied; sorted.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z][a-z0-9-]*:[^\s]{1,256}$
   * @items.maxLength 300
   */
  satisfiedSourceIds: string[];
  /**
   * Sources whose entry is not satisfied; sorted.
   * @maxItems 256
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z][a-z0-9-]*:[^\s]{1,256}$
   * @items.maxLength 300
   */
  missingSourceIds: string[];
  /** JCS SHA-256 of `{identity, sources, satisfiedSourceIds, missingSourceIds}` (identity = the ledger's). */
  foldDigest: Sha256Hex;
}

/**
 * The bounded durable ledger of source observations for one context epoch. Receipts are a
 * rebuildable projection of it; a write never loses delivered evidence.
 */
export interface ContextSourceObservationLedgerV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextSourceObservationLedgerV1';
  /**
   * Derived id: `ledger-` + first 24 hex of the JCS SHA-256 of `{contextEpoch}`; one ledger per epoch.
   * @pattern ^ledger-[a-f0-9]{24}$
   */
  ledgerId: string;
  /** The plan binding whose observations the ledger holds; a different binding starts the observations afresh. */
  identity: ContextReadBindingV1;
  /** Write counter of this ledger id: 1 on the first write, +1 on every persisted write. */
  revision: PositiveInteger;
  /**
   * Observation records in recording order, at most 128, merged by `observationId`.
   * @maxItems 128
   */
  observations: ContextSourceObservation[];
  /** The fold against the plan's mandatory sources, or `null` before the writer had the plan. */
  fold: ContextObservationFold | null;
  /** Time of this write. */
  updatedAt: Timestamp;
  /** JCS SHA-256 of the document without `ledgerDigest`. */
  ledgerDigest: Sha256Hex;
}

/** Catalogue entries of this area, in spec order. */
export const CONTEXT_RECEIPTS_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'ContextReadReceiptV1',
    gate: 'ContextAcquisitionGate',
    summary:
      'Read-only compatibility receipt of a ContextReadPlanV1; never delivery-reusable, never gate evidence.',
    compatibility: 'read-only',
  },
  {
    name: 'ContextReadReceiptV2',
    gate: 'ContextAcquisitionGate',
    summary:
      'Evidence that every mandatory source of one plan was delivered, from correlated PostToolUse success observations only.',
  },
  {
    name: 'ContextReuseDecisionV1',
    gate: 'ContextAcquisitionGate',
    summary:
      'Whether a plan may reuse a prior computation and a prior receipt’s delivered bodies, with the first failing reason.',
  },
  {
    name: 'ContextSourceObservationLedgerV1',
    gate: 'ContextAcquisitionGate',
    summary:
      'Bounded durable ledger of one epoch’s source observations; receipts are a rebuildable projection of it.',
  },
];
