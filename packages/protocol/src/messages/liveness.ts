// The `liveness.*` methods (docs/protocol.md#liveness-v1-capability-liveness).
import type {
  TurnClassificationReason,
  TurnLivenessEvidenceV1,
  TurnLivenessStateV1,
  TurnRecoveryCardV1,
  TurnStateName,
} from '@agent-contracts/schemas';

/** Threshold overrides of `liveness.reset`, normalised before they are stored. */
export interface LivenessThresholdOverrides {
  /** Milliseconds without progress before a running turn is suspect. */
  readonly suspectAfterMs?: number;
  /** Milliseconds without progress before a running turn is stalled. */
  readonly stalledAfterMs?: number;
  /** Milliseconds an operation lease lasts. */
  readonly operationLeaseMs?: number;
}

/** Params of `liveness.reset`. */
export interface LivenessResetParams {
  /** Threshold overrides; the defaults of the gate page where absent. */
  readonly thresholds?: LivenessThresholdOverrides;
}

/** `UserPromptSubmit`: a prompt starts a turn. */
export interface UserPromptSubmitEvent {
  /** The host event. */
  readonly type: 'UserPromptSubmit';
  /** The host's event time, an RFC 3339 timestamp (default: now). */
  readonly at?: string;
  /** The host's own turn or request id; derived from `sessionKey` when absent. */
  readonly turnKey?: string;
  /** The host session id, used to derive a turn key when the host has none. */
  readonly sessionKey?: string;
  /** The new turn's LocalTaskTraceV1 `traceId`; derived when absent. */
  readonly taskTraceId?: string;
}

/** `PreToolUse`: a tool call is about to run. */
export interface PreToolUseEvent {
  /** The host event. */
  readonly type: 'PreToolUse';
  /** The host's event time, an RFC 3339 timestamp (default: now). */
  readonly at?: string;
  /** The operation's id. */
  readonly operationId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** The host permission layer's decision; only `allowed` calls get a lease. */
  readonly hostDecision: 'allowed' | 'blocked';
  /** Whether the call may change anything. */
  readonly mutating: boolean;
  /** The paths the call targets: workspace-relative artifact paths, as a lease holds them (D-TLR-59). */
  readonly targetPaths?: readonly string[];
  /** Digest of the task's operation record of this call (64 lowercase hex digits), or null (D-TLR-59). */
  readonly operationRecordDigest?: string | null;
}

/** `PostToolUse`: a tool call's output arrived. */
export interface PostToolUseEvent {
  /** The host event. */
  readonly type: 'PostToolUse';
  /** The host's event time, an RFC 3339 timestamp (default: now). */
  readonly at?: string;
  /** The operation's id. */
  readonly operationId: string;
  /** How the call ended. */
  readonly outcome?: 'success' | 'error';
  /** The paths the call changed: workspace-relative artifact paths, as a checkpoint holds them (D-TLR-59). */
  readonly mutatedTargets?: readonly string[];
}

/** A host event without fields of its own. */
export interface PlainHostEvent {
  /** The host event. */
  readonly type: 'PreCompact' | 'Stop' | 'TurnError' | 'TurnInterrupted' | 'UnknownHostEvent';
  /** The host's event time, an RFC 3339 timestamp (default: now). */
  readonly at?: string;
}

/** One host event of `liveness.event`. */
export type LivenessHostEvent = UserPromptSubmitEvent | PreToolUseEvent | PostToolUseEvent | PlainHostEvent;

/** The context of `liveness.event`. */
export interface LivenessEventContext {
  /** Whether the task has an unresolved operation (default false). */
  readonly unresolvedOperation?: boolean;
  /** Digest of the task's operation set (64 lowercase hex digits), or null (D-TLR-59). */
  readonly taskOperationSetDigest?: string | null;
  /** Who observed the event. */
  readonly observer?: 'hook-event-time' | 'host-native-watchdog';
}

/** Params of `liveness.event`. */
export interface LivenessEventParams {
  /** The host event. */
  readonly event: LivenessHostEvent;
  /** What the host knows besides the event. */
  readonly context?: LivenessEventContext;
}

/** Result of `liveness.event` and `liveness.watchdog`, and the error `data` of a refused `liveness.event`. */
export interface LivenessStepResult {
  /** The new (persisted) state. */
  readonly state: TurnLivenessStateV1;
  /** The card the step emitted, or null. */
  readonly card: TurnRecoveryCardV1 | null;
}

/** Result of `liveness.classify`: the row of the classification table at now. */
export interface LivenessClassifyResult {
  /** The classification. */
  readonly classification: TurnStateName;
  /** Why. */
  readonly reason: TurnClassificationReason;
  /** The time the age is measured from, or null (idle, terminal). */
  readonly referenceAt: string | null;
  /** Milliseconds since `referenceAt`, or null. */
  readonly ageMs: number | null;
}

/** Params of `liveness.lease` for a tool call. */
export interface ToolCallLeaseParams {
  /** The lease kind. */
  readonly kind: 'tool-call';
  /** The host permission layer's decision. */
  readonly hostDecision: 'allowed' | 'blocked';
}

/** Params of `liveness.lease` for a process (never granted: `TURN_LEASE_NOT_HOST_ALLOWED`). */
export interface ProcessLeaseParams {
  /** The lease kind. */
  readonly kind: 'user-process' | 'pid';
  /** The process id. */
  readonly pid?: number;
}

/** Params of `liveness.lease`. */
export type LivenessLeaseParams = ToolCallLeaseParams | ProcessLeaseParams;

/** Result of `liveness.lease`: a lease may be granted now. */
export interface LivenessLeaseResult {
  /** Always true. */
  readonly ok: true;
}

/** Params of `liveness.rehydrate`. */
export interface LivenessRehydrateParams {
  /** The document that becomes the stored state (validated, never repaired). */
  readonly state: unknown;
}

/** Result of `liveness.reset`, `liveness.state` and `liveness.rehydrate`. */
export type LivenessStateResult = TurnLivenessStateV1;

/** Result of `liveness.evidence`. */
export type LivenessEvidenceResult = TurnLivenessEvidenceV1;

/** Error `data` of `TURN_STATE_INVALID`. */
export interface TurnStateInvalidData {
  /** `TURN_STATE_INVALID`. */
  readonly code: 'TURN_STATE_INVALID';
  /** The validation issues of the stored state. */
  readonly issues: readonly unknown[];
}

/** Error `data` of a refused `liveness.event`: the event was counted and the state persisted. */
export interface LivenessEventRefusalData extends LivenessStepResult {
  /** The page's runtime code. */
  readonly code: string;
}
