// `context.plan`, `context.receipt`, `context.observe`, `context.reuse` and `context.ledger`
// (docs/protocol.md#context-v1-capability-context): the ContextAcquisitionGate engine behind the
// protocol. The implementation keeps, per session, the plans it made and, per plan, its receipt
// and its observation ledger; later methods name the plan by its `planId`.
import type {
  ContentIdentityV1,
  ContextActionClass,
  ContextChangeType,
  ContextEscalationTrigger,
  ContextReadBudget,
  ContextReadPlanV1,
  ContextReadPlanV2,
  ContextReadReceiptV1,
  ContextReadReceiptV2,
  ContextReuseDecisionV1,
  ContextSourceIdentity,
  ContextSourceObservationLedgerV1,
  VerificationMode,
} from '@agent-contracts/schemas';

/** Metadata of one place a source lives, observed without reading its body. */
export interface ContextRefParams {
  /** Where the source lives (a path or a `memory://` query). */
  readonly path: string;
  /** The layer it lives in (e.g. `profile-shared`). */
  readonly layer: string;
  /** Whether it exists. */
  readonly exists: boolean;
  /** Its size in bytes, or null when unknown. */
  readonly size: number | null;
  /** Its modification time (ms since the epoch), or null when unknown. */
  readonly mtimeMs: number | null;
}

/** A delivered body as raw text (hashed as its UTF-8 bytes). */
export interface ContextTextBody {
  /** The body's text. */
  readonly text: string;
  /** The version of the body's contract (default `1`). */
  readonly contractVersion?: string;
}

/** A delivered body as a JSON value (hashed in its RFC 8785 form). */
export interface ContextValueBody {
  /** The body's JSON value. */
  readonly value: unknown;
  /** The version of the body's contract. */
  readonly contractVersion: string;
}

/** A baseline source of the Profile: its file, where it lives, and the body the planner reads. */
export interface ContextBaselineParams {
  /** Its file name (one path segment). */
  readonly file: string;
  /** Where it lives. */
  readonly refs: readonly ContextRefParams[];
  /** Its body, read while planning (the only bodies a planner reads). */
  readonly body: ContextTextBody | ContextValueBody;
}

/** One Profile document besides the two baseline sources, as metadata only. */
export interface ContextDocumentParams {
  /** Its file name (one path segment). */
  readonly file: string;
  /** Whether the catalogue (the index) lists it. */
  readonly catalogued: boolean;
  /** Whether enumerating the store found it. */
  readonly inventoried: boolean;
  /** `profile` (shared) or `profile-local` (machine-local). */
  readonly kind: 'profile' | 'profile-local';
  /** Whether it has a readable body (`false`: metadata only, never selected). */
  readonly readable: boolean;
  /** Whether the catalogue requires it to exist. */
  readonly requiredToExist: boolean;
  /** The change types the catalogue says it serves. */
  readonly serves: readonly ContextChangeType[];
  /** Where it lives. */
  readonly refs: readonly ContextRefParams[];
}

/** The declared source catalogue of one target. */
export interface ContextCatalogueParams {
  /** The active root of the target. */
  readonly activeRoot: string;
  /** The project. */
  readonly project: string;
  /** The Profile index (a baseline source). */
  readonly index: ContextBaselineParams;
  /** The effective non-local configuration (a baseline source). */
  readonly config: ContextBaselineParams;
  /** Every other Profile document. */
  readonly documents: readonly ContextDocumentParams[];
}

/** The seed input record a producer normalizes into an IntentSeedV1 (never trusted as it is). */
export interface ContextSeedInput {
  /** `IntentSeedV1` when given. */
  readonly schemaVersion?: string;
  /** The epoch the seed opens; derived when absent. */
  readonly contextEpoch?: string;
  /** The canonical intent the message was classified into (a word of the message is never one). */
  readonly semantic?: string | null;
  /** An alias of `semantic`; equal to it when both are given. */
  readonly intent?: string | null;
  /** The target the message names, or null. */
  readonly targetHint?: string | null;
  /** Whether the message continues earlier work. */
  readonly continuationHint?: boolean;
  /** `normal`, `high` or `critical` (default `normal`). */
  readonly riskHint?: string;
  /** The classifier's confidence, 0 to 1 (default 1). */
  readonly confidence?: number;
  /** When the seed was formed (default: the implementation's clock). */
  readonly createdAt?: string;
}

/** A body the host saw read in the epoch before the plan was returned. */
export interface ContextPlanningReadParams {
  /** The source read. */
  readonly sourceId: string;
  /** When it was read. */
  readonly readAt: string;
}

/** Params of `context.plan`. */
export interface ContextPlanParams {
  /** The seed input record; the implementation forms the IntentSeedV1 from it first. */
  readonly seed: ContextSeedInput;
  /** The declared source catalogue. */
  readonly catalogue: ContextCatalogueParams;
  /** The host making the plan (`^[a-z0-9][a-z0-9._-]{0,63}$`). */
  readonly host: string;
  /** A fresh nonce of this planning call (16-128 characters `[A-Za-z0-9._:-]`). */
  readonly invocationNonce: string;
  /** The planner's `<name>@<major>` (default the implementation's own). */
  readonly planner?: string;
  /** The plan contract asked for; only `ContextReadPlanV2` is ever written. */
  readonly contract?: string;
  /** The change types the message asks for. */
  readonly changeTypes?: readonly ContextChangeType[];
  /** The user's or project's words asking for a full read, or null. */
  readonly fullReadRequest?: string | null;
  /** Whether machine-local sources were requested. */
  readonly localSourcesRequested?: boolean;
  /** File names the user or project selected explicitly. */
  readonly explicitSelectors?: readonly string[];
  /** Triggers the caller supplies (`cross-service`, replan triggers); derived ones are refused. */
  readonly triggers?: readonly ContextEscalationTrigger[];
  /** The read budget. */
  readonly budget?: ContextReadBudget;
  /** Artifacts a computation cache supplied (a hit); absent or empty: no cache. */
  readonly cacheArtifacts?: readonly string[];
  /** The read trace of the epoch before the plan was returned. */
  readonly readTrace?: readonly ContextPlanningReadParams[];
}

/** Result of `context.plan`: the plan, kept by the implementation under its `planId`. */
export type ContextPlanResult = ContextReadPlanV2;

/** The tool call that delivered a plan: its PreToolUse time and id (its PostToolUse is the implementation's now). */
export interface ContextPlanCallParams {
  /** The plan call's tool call id. */
  readonly toolCallId: string;
  /** When its PreToolUse was seen. */
  readonly attemptedAt: string;
  /** The digest of its arguments, or null. */
  readonly argsDigest?: string | null;
}

/** How a receipt is opened for a plan. */
export interface ContextReceiptOpenParams {
  /** `structured-plan`, or a fallback mode (whose receipt stays `unverified`). */
  readonly verificationMode: VerificationMode;
  /** The host session, or null when the host cannot observe it. */
  readonly hostSessionId: string | null;
  /** The plan tool call (required for `structured-plan`). */
  readonly planCall?: ContextPlanCallParams;
  /** Whether the plan call's result delivered the baseline bodies (default true). */
  readonly baselineDelivered?: boolean;
}

/** Params of `context.receipt`. */
export interface ContextReceiptParams {
  /** The plan, as `context.plan` returned it. */
  readonly planId: string;
  /** Open the plan's receipt; absent: return the plan's current receipt. */
  readonly open?: ContextReceiptOpenParams;
}

/** Result of `context.receipt`: the plan's receipt. */
export type ContextReceiptResult = ContextReadReceiptV2;

/** A PreToolUse the host saw: an attempt to read sources of the plan. */
export interface ContextPreToolUseEvent {
  /** The hook event. */
  readonly event: 'PreToolUse';
  /** The tool call. */
  readonly toolCallId: string;
  /** The sources the call requests. */
  readonly sourceIds: readonly string[];
  /** The action class of the call. */
  readonly actionClass: ContextActionClass;
  /** The risk the permission layer assigns to the call (default `normal`). */
  readonly risk?: 'normal' | 'high' | 'critical';
  /** The host session, or null. */
  readonly hostSessionId: string | null;
  /** The digest of the call's arguments, or null. */
  readonly argsDigest?: string | null;
  /** The epoch the event carried. */
  readonly contextEpoch: string;
  /** The plan id the event carried. */
  readonly planId: string;
  /** The active root the event carried. */
  readonly activeRoot: string;
  /** The plan content id the event carried, when it named one. */
  readonly planContentId?: string;
  /** The project the event carried, when it named one. */
  readonly project?: string;
}

/** A PostToolUse the host saw: the result of a read of one source of the plan. */
export interface ContextPostToolUseEvent {
  /** The hook event. */
  readonly event: 'PostToolUse';
  /** The tool call. */
  readonly toolCallId: string;
  /** The source the result is of. */
  readonly sourceId: string;
  /** The host session, or null. */
  readonly hostSessionId: string | null;
  /** The digest of the call's arguments, or null. */
  readonly argsDigest?: string | null;
  /** The layer the source was read from. */
  readonly sourceLayer: string;
  /** The source's metadata re-observed at read time; absent: not observed. */
  readonly liveRefs?: readonly ContextRefParams[];
  /** Whether the result matched the source's declared result schema (a memory query: must be stated). */
  readonly schemaMatch?: boolean;
  /** Whether the result is about the plan's target (a memory query: must be stated). */
  readonly targetMatch?: boolean;
  /** Whether the source's own result reported success (default true). */
  readonly sourceOk?: boolean;
  /** The extracted tool-result payload; absent: nothing was observable. */
  readonly toolResult?: unknown;
  /** The delivered body of this source, when the result carried it. */
  readonly body?: ContextTextBody | ContextValueBody | null;
  /** An identity the tool claimed for the body; recomputed from `body` when both are given. */
  readonly contentIdentity?: ContentIdentityV1 | null;
  /** Whether the result was served from a computation cache. */
  readonly cache?: boolean;
  /** Bytes the host delivered, or null. */
  readonly hostDeliveredBytes?: number | null;
  /** Latency in ms, or null. */
  readonly latencyMs?: number | null;
  /** Tokens, or null. */
  readonly tokens?: number | null;
  /** The epoch the event carried. */
  readonly contextEpoch: string;
  /** The plan id the event carried. */
  readonly planId: string;
  /** The active root the event carried. */
  readonly activeRoot: string;
  /** The plan content id the event carried, when it named one. */
  readonly planContentId?: string;
  /** The project the event carried, when it named one. */
  readonly project?: string;
}

/** A drift the runtime observed (a profile, source or configuration digest changed, a compaction, ...). */
export interface ContextDriftEvent {
  /** The runtime event. */
  readonly event: 'drift';
  /** The drift kind. */
  readonly trigger: ContextEscalationTrigger;
  /** The reason code (default the trigger); a replayable code when the runtime's own recording failed. */
  readonly reasonCode?: string;
}

/** The plan was found blocked. */
export interface ContextBlockEvent {
  /** The runtime event. */
  readonly event: 'block';
}

/** The runtime consumed a `relevant-complete` receipt. */
export interface ContextConsumeEvent {
  /** The runtime event. */
  readonly event: 'consume';
}

/** Params of `context.observe`. */
export interface ContextObserveParams {
  /** The plan whose receipt the event is folded into. */
  readonly planId: string;
  /** A host hook event or a runtime event of the receipt's state machine. */
  readonly event:
    | ContextPreToolUseEvent
    | ContextPostToolUseEvent
    | ContextDriftEvent
    | ContextBlockEvent
    | ContextConsumeEvent;
}

/** Result of `context.observe`. */
export interface ContextObserveResult {
  /** The receipt after the event. */
  readonly receipt: ContextReadReceiptV2;
  /** Whether the event changed the receipt (false: idempotent repeat, or an absorbing status). */
  readonly changed: boolean;
}

/** Params of `context.reuse`. */
export interface ContextReuseParams {
  /** The current plan. */
  readonly planId: string;
  /** `safe-auto`, or `full-only` (which refuses all reuse). */
  readonly executionOptimizationMode: 'safe-auto' | 'full-only';
  /** The current host session, or null. */
  readonly hostSessionId: string | null;
  /** The current source identities the caller observed, or null. */
  readonly currentSourceIdentities: readonly ContextSourceIdentity[] | null;
  /** The prior plan, or null. */
  readonly priorPlan: ContextReadPlanV2 | ContextReadPlanV1 | null;
  /** The prior receipt, or null. */
  readonly priorReceipt: ContextReadReceiptV2 | ContextReadReceiptV1 | null;
  /** The current plan's tool call: with it, a granted delivery reuse opens the plan's receipt by reuse. */
  readonly planCall?: ContextPlanCallParams;
}

/** Result of `context.reuse`. */
export interface ContextReuseResult {
  /** The decision. */
  readonly decision: ContextReuseDecisionV1;
  /** The receipt a granted delivery reuse opened (with `planCall`), else null. */
  readonly receipt: ContextReadReceiptV2 | null;
}

/** A writer's snapshot is merged into the plan's stored ledger. */
export interface ContextLedgerWriteParams {
  /** The operation. */
  readonly op: 'write';
  /** The plan whose ledger is written. */
  readonly planId: string;
  /** The writer's snapshot (possibly older than the stored one): its records are merged, never replace the stored set. */
  readonly snapshot: ContextSourceObservationLedgerV1;
}

/** The plan's receipt is rebuilt from its stored ledger. */
export interface ContextLedgerReplayParams {
  /** The operation. */
  readonly op: 'replay';
  /** The plan whose receipt is rebuilt. */
  readonly planId: string;
  /** The re-observed metadata of each source, by source id (a memory query absent from it is fresh). */
  readonly liveRefs: { readonly [sourceId: string]: readonly ContextRefParams[] };
}

/** Params of `context.ledger`. */
export type ContextLedgerParams = ContextLedgerWriteParams | ContextLedgerReplayParams;

/** Result of `context.ledger`. */
export interface ContextLedgerResult {
  /** The plan's stored ledger after the operation. */
  readonly ledger: ContextSourceObservationLedgerV1;
  /** Ids of the snapshot's records that were not written (of another binding, or reuse results); `[]` for a replay. */
  readonly dropped: readonly string[];
  /** The replayed successor receipt (now the plan's receipt); null for a write. */
  readonly receipt: ContextReadReceiptV2 | null;
  /** Ids of the successor's records, every one a ledger record; `[]` for a write. */
  readonly replayed: readonly string[];
}
