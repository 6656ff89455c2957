import type { ContractEntry } from '../gates.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  NullableTimestamp,
  PositiveInteger,
  Sha256Hex,
  Timestamp,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Shared vocabulary of the TurnLivenessRecoveryGate. Sub-shapes are not contracts of their own;
// they are inlined into the contracts below.
// ---------------------------------------------------------------------------------------------

/**
 * The eight states of the turn state model. `suspect` and `stalled-recoverable` are outcomes of
 * classification only; they are never persisted (see TurnPersistedState).
 */
export type TurnStateName =
  | 'idle'
  | 'running'
  | 'awaiting-continuation'
  | 'suspect'
  | 'stalled-recoverable'
  | 'completed'
  | 'error'
  | 'interrupted';

/** The states an event handler writes. Classification outcomes (`suspect`, `stalled-recoverable`) are excluded. */
export type TurnPersistedState =
  | 'idle'
  | 'running'
  | 'awaiting-continuation'
  | 'completed'
  | 'error'
  | 'interrupted';

/** The one terminal-status vocabulary of this layer. */
export type TurnTerminalStatus = 'completed' | 'error' | 'interrupted';

/** The two classification outcomes that make a turn stale. */
export type TurnStaleState = 'suspect' | 'stalled-recoverable';

/**
 * Host events the liveness layer understands. A host maps its own hook or API event names onto
 * these; anything it cannot map is delivered as `UnknownHostEvent`.
 */
export type TurnHostEventType =
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PreCompact'
  | 'Stop'
  | 'TurnError'
  | 'TurnInterrupted'
  | 'UnknownHostEvent';

/** Why classification produced its state (one reason per row of the classification table). */
export type TurnClassificationReason =
  | 'terminal-state'
  | 'idle'
  | 'active-operation-lease'
  | 'operation-lease-expired'
  | 'within-grace'
  | 'continuation-grace-expired'
  | 'continuation-timeout'
  | 'agent-turn-within-lease'
  | 'agent-turn-lease-expired';

/** The classification reasons that make a turn stale, i.e. that a recovery card can carry. */
export type TurnStaleReason =
  | 'operation-lease-expired'
  | 'continuation-grace-expired'
  | 'continuation-timeout'
  | 'agent-turn-lease-expired';

/** How a turn ended. */
export type TurnEndReason =
  | 'host-stop'
  | 'host-error'
  | 'host-interrupt'
  | 'superseded-by-new-prompt'
  | 'stale-turn-recovered-by-new-prompt';

/** The three channels through which turn liveness can be observed. */
export type TurnObserverKind = 'host-native-watchdog' | 'hook-event-time' | 'read-only-sidecar';

/**
 * Identity of one turn: the host's own turn or request id when it has one, else
 * `derivedId('turn-', {sessionKey, eventSequence, startedAt}, 24)`. Unique per turn.
 * @minLength 1
 * @maxLength 256
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
 */
export type TurnKey = string;

/**
 * A turn key, or `null` before the first turn.
 * @minLength 1
 * @maxLength 256
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
 */
export type NullableTurnKey = string | null;

/**
 * Host identifier of one tool call (operation), as the host reported it; the same form as a task
 * operation's `operationId`, so the two can be the same value.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
 */
export type TurnOperationId = string;

/**
 * A host tool-call identifier, or `null` where the field says what null means.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
 */
export type NullableTurnOperationId = string | null;

/**
 * A trace id (LocalTaskTraceV1.traceId, owned by the LocalTaskTraceGate), or `null` before the first turn.
 * @minLength 1
 * @maxLength 256
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
 */
export type NullableTraceId = string | null;

/**
 * A recovery notice key (`derivedId('turn-notice-', ..., 24)`), or `null` when none was emitted in this turn.
 * @pattern ^turn-notice-[a-f0-9]{24}$
 */
export type NullableRecoveryNoticeKey = string | null;

/**
 * An idempotency key (`derivedId('idem-', ..., 24)`), or `null` when the checkpoint names no operation.
 * @pattern ^idem-[a-f0-9]{24}$
 */
export type NullableIdempotencyKey = string | null;

/**
 * An elapsed time in milliseconds, or `null` where the field says what null means.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 9007199254740991
 */
export type NullableDurationMs = number | null;

/**
 * A threshold in milliseconds: 1 second to 7 days.
 * @TJS-type integer
 * @minimum 1000
 * @maximum 604800000
 */
export type ThresholdMs = number;

/** The liveness thresholds. Defaults 120000 / 300000 / 1800000; `stalledAfterMs` MUST be >= `suspectAfterMs` (TURN_THRESHOLDS_INVALID). */
export interface TurnLivenessThresholdsV1 {
  /** Grace after a tool output before an unacknowledged turn is `suspect`. Default 120000 (2 min). */
  suspectAfterMs: ThresholdMs;
  /** Time after a tool output (or after a lease expired) before the turn is `stalled-recoverable`. Default 300000 (5 min); never below `suspectAfterMs`. */
  stalledAfterMs: ThresholdMs;
  /** Agent/operation lease: how long an allowed tool call, or an agent turn with no tool output, counts as alive. Default 1800000 (30 min). */
  operationLeaseMs: ThresholdMs;
}

/**
 * The lease of one in-flight tool call. Only a tool call the host allowed gets one; user
 * processes and unknown PIDs never do, so the lease is always agent-owned and host-allowed.
 */
export interface TurnOperationLeaseV1 {
  /** Host identifier of the tool call. */
  operationId: TurnOperationId;
  /**
   * Tool name as the host reported it.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[A-Za-z0-9][A-Za-z0-9_.:/-]*$
   */
  toolName: string;
  /** Always `true`: the lease belongs to the agent's own operation. A lease never stands for a user process or an unknown PID. */
  ownedByAgent: true;
  /** Always `allowed`: a lease exists only for a tool call the host's permission layer allowed. Blocked calls get no lease. */
  hostDecision: 'allowed';
  /** Whether the tool call may change files or external state (the host's or the tool's own classification). */
  mutating: boolean;
  /**
   * Workspace-relative targets the call declares (at most 20), for reconciliation; empty when unknown or read-only.
   * @maxItems 20
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 512
   * @items.pattern ^(?![/~])(?!.*(?:^|/)\.\.?(?:/|$))[^\\:*?"<>|]+$
   */
  targetPaths: string[];
  /** When the lease started (the allowed PreToolUse event time). */
  startedAt: Timestamp;
  /** `startedAt + thresholds.operationLeaseMs`. At or after this instant the lease is expired. */
  leaseExpiresAt: Timestamp;
  /** `recordDigest` of the TaskOperationRecordV1 that tracks this call when it is a formal mutating operation; `null` otherwise. A reference, never the record. */
  operationRecordDigest: NullableSha256Hex;
}

/** The previous turn, summarised when a new turn starts (the trace keeps only the current turn). */
export interface TurnSummaryV1 {
  /** Key of the previous turn; never equal to the current `turnKey`. */
  turnKey: TurnKey;
  /** How the previous turn ended, in this layer's terminal vocabulary. */
  terminalState: TurnTerminalStatus;
  /** When it ended: its terminal event time, or the time of the prompt that superseded it. */
  terminalAt: Timestamp;
  /** Why it ended. */
  reason: TurnEndReason;
}

/**
 * The never-acting boundary of every liveness observation: the document reports, it does not
 * act. Each flag is the constant `false`, so a document that claims an action fails the schema.
 */
export interface TurnObservationBoundaryV1 {
  /** Always `observation-only`. */
  mode: 'observation-only';
  /** Which channel produced the document. */
  observer: TurnObserverKind;
  /** Always `false`: producing the document changed no turn, operation or task state. */
  stateMutation: false;
  /** Always `false`: no operation (and no mutation) was replayed or retried. */
  operationReplay: false;
  /** Always `false`: no process was killed, restarted or interrupted. */
  processControl: false;
  /** Always `false`: the host, agent or turn was not woken, resumed or prompted. */
  hostWakeup: false;
}

/** A piece of evidence that is not a turn terminal: it can pass a response-time validation but never a post-execution one. */
export interface CheckpointObservedEvidenceV1 {
  /**
   * `host-event`: any host event observed at response time; `tool-output`: a PostToolUse;
   * `pre-compact`: a PreCompact; `sidecar-observation`: a read-only sidecar read of the state.
   */
  kind: 'host-event' | 'tool-output' | 'pre-compact' | 'sidecar-observation';
  /** The host event behind the evidence; `UnknownHostEvent` for `sidecar-observation`. */
  eventType: TurnHostEventType;
  /** `eventSequence` of the state after that event was applied (the sidecar: the sequence it read). */
  eventSequence: NonNegativeInteger;
  /** When the evidence was observed (the event time). */
  observedAt: Timestamp;
}

/** Evidence that the turn actually ended: the only kinds that can make a post-execution validation pass. */
export interface CheckpointTerminalEvidenceV1 {
  /**
   * `host-terminal-event`: an explicit Stop, TurnError or TurnInterrupted host event;
   * `host-native-terminal-status`: the host's own API reported the turn terminal.
   */
  kind: 'host-terminal-event' | 'host-native-terminal-status';
  /** `Stop`, `TurnError` or `TurnInterrupted` for `host-terminal-event`; `UnknownHostEvent` for a host-native status read. */
  eventType: TurnHostEventType;
  /** `eventSequence` of the state after the terminal event was applied. */
  eventSequence: NonNegativeInteger;
  /** When the terminal was observed. */
  observedAt: Timestamp;
  /** The terminal status the evidence reports. */
  terminalStatus: TurnTerminalStatus;
}

/** Per-turn pair of checkpoint validations: response-time and post-execution are recorded separately. */
export interface CheckpointValidationPairV1 {
  /** Validation that the host answered this event; recomputed on every host event. */
  responseTime: CheckpointValidationResultV1;
  /** Validation that the turn really finished; passes only on terminal evidence. */
  postExecution: CheckpointValidationResultV1;
}

// ---------------------------------------------------------------------------------------------
// Contracts
// ---------------------------------------------------------------------------------------------

/** Row `stateModel`: the eight states, of which three are terminal. */
export interface TurnStateModelRowV1 {
  /**
   * Exactly the eight states of the model (in any order).
   * @minItems 8
   * @maxItems 8
   * @uniqueItems true
   */
  states: TurnStateName[];
  /**
   * Exactly `completed`, `error`, `interrupted`.
   * @minItems 3
   * @maxItems 3
   * @uniqueItems true
   */
  terminalStates: TurnTerminalStatus[];
  /**
   * Exactly `suspect` and `stalled-recoverable`: computed by classification, never persisted.
   * @minItems 2
   * @maxItems 2
   * @uniqueItems true
   */
  classificationOnlyStates: TurnStaleState[];
}

/** Row `eventEvidence`: which fields carry event-time evidence and which host events are mapped. */
export interface TurnEventEvidenceRowV1 {
  /**
   * Exactly the five evidence fields of the state.
   * @minItems 5
   * @maxItems 5
   * @uniqueItems true
   */
  fields: Array<'turnKey' | 'lastEventType' | 'lastEventAt' | 'lastToolOutputAt' | 'continuationAckAt'>;
  /**
   * The host events this runtime delivers to the liveness layer. MUST include `UserPromptSubmit`, `PreToolUse`, `PostToolUse` and `Stop`.
   * @minItems 4
   * @maxItems 8
   * @uniqueItems true
   */
  mappedEvents: TurnHostEventType[];
  /** Always `host-event-time`: timestamps are the host's event times, not the observer's read time. */
  timeSource: 'host-event-time';
}

/** Row `lease`: who may hold a lease and for how long. */
export interface TurnLeaseRowV1 {
  /** Always `host-allowed-tool-call`: the only thing that creates a lease. */
  grantedFor: 'host-allowed-tool-call';
  /** Always `true`: every lease is agent-owned. */
  ownedByAgent: true;
  /** Always `false`: a user process or an unknown PID is never a lease and never cleanable by this layer. */
  processLeases: false;
  /** Always `1`: at most one in-flight lease per turn; a second concurrent allowed call is refused a lease (TURN_OPERATION_LEASE_HELD). */
  maxInFlight: 1;
}

/** Row `terminalInvariant`. */
export interface TurnTerminalInvariantRowV1 {
  /** Always `false`: a tool output never completes a turn. */
  toolOutputCompletesTurn: false;
  /**
   * Terminal states that clear the in-flight lease: exactly the three terminal states.
   * @minItems 3
   * @maxItems 3
   * @uniqueItems true
   */
  clearsInFlightLeaseOn: TurnTerminalStatus[];
  /** Always `true`: `completed` is refused while the task has an unresolved operation (TURN_TERMINAL_OPERATIONS_UNSETTLED). */
  completionRequiresSettledOperations: true;
}

/** Row `checkpoint`. */
export interface TurnCheckpointRowV1 {
  /** Always `CheckpointV1` (a reference by contract name). */
  contract: 'CheckpointV1';
  /** Always `true`: before any resume the idempotency key MUST be checked against the operation record. */
  verifyIdempotencyBeforeResume: true;
}

/** Row `checkpointValidation`. */
export interface TurnCheckpointValidationRowV1 {
  /** Always `CheckpointValidationResultV1` (a reference by contract name). */
  contract: 'CheckpointValidationResultV1';
  /**
   * Exactly `response-time` and `post-execution`, recorded separately.
   * @minItems 2
   * @maxItems 2
   * @uniqueItems true
   */
  modes: Array<'response-time' | 'post-execution'>;
  /**
   * Evidence kinds that can pass a post-execution validation: only terminal kinds.
   * @minItems 1
   * @maxItems 2
   * @uniqueItems true
   */
  postExecutionPassKinds: Array<'host-terminal-event' | 'host-native-terminal-status'>;
  /** Post-execution deadline after turn start; MUST equal `operationLeaseMs + stalledAfterMs` of `thresholds` (default 2100000). */
  postExecutionDeadlineMs: PositiveInteger;
}

/** Row `localTaskTrace`: the per-turn trace is another gate's contract, referenced by name. */
export interface TurnLocalTaskTraceRowV1 {
  /** Always `LocalTaskTraceV1`. */
  contract: 'LocalTaskTraceV1';
  /** Always `LocalTaskTraceReplayV1`: the read-only replay projection used on restart. */
  replayContract: 'LocalTaskTraceReplayV1';
  /** Always `true`: the trace holds the current turn only; earlier turns survive as `previousTurn`. */
  currentTurnOnly: true;
}

/** Host-native watchdog: the host itself detects a stalled turn, with or without events. */
export interface TurnHostNativeChannelV1 {
  /** `host-native-verified` when the host's watchdog was exercised; `unsupported` when the host has none. */
  status: 'host-native-verified' | 'unsupported' | 'unverified';
  /** Whether the watchdog detects staleness while no event arrives. MUST be `false` unless `status` is `host-native-verified`. */
  detectsWithoutEvent: boolean;
}

/** Hook event-time detection: classification runs only when the host delivers an event. */
export interface TurnHookChannelV1 {
  /** `hook-event-verified` when exercised through the host's hook path. */
  status: 'hook-event-verified' | 'unsupported' | 'unverified';
  /** Always `false`: a hook with no event cannot wake itself, and the contract must not claim it can. */
  detectsWithoutEvent: false;
}

/** Read-only sidecar: a one-shot reader of the persisted state. */
export interface TurnSidecarChannelV1 {
  /** `sidecar-observed` when a sidecar read was exercised. */
  status: 'sidecar-observed' | 'unsupported' | 'unverified';
  /** Always `true`: the sidecar never writes the state it reads. */
  readOnly: true;
  /** Always `false`: the sidecar does not wake the host. */
  hostWakeup: false;
}

/** Row `capabilityBoundary`: the three observation channels, recorded separately, and the actions no channel takes. */
export interface TurnCapabilityBoundaryRowV1 {
  /** The host-native watchdog channel. */
  hostNativeWatchdog: TurnHostNativeChannelV1;
  /** The hook event-time channel. */
  hookEventTime: TurnHookChannelV1;
  /** The read-only sidecar channel. */
  readOnlySidecar: TurnSidecarChannelV1;
  /** Always `false`: observers never replay a mutation. */
  autoMutationReplay: false;
  /** Always `false`: observers never kill, restart or interrupt a process or turn. */
  autoProcessControl: false;
  /** Always `false`: observers never resume a turn; resume is the host's, from the checkpoint. */
  autoResume: false;
}

/** Fault scenarios of the turn-liveness fault matrix (see the gate page). */
export type TurnFaultScenario =
  | 'no-continuation'
  | 'active-lease'
  | 'restart-rehydrate'
  | 'duplicate-recovery'
  | 'post-execution-timeout';

/** Row `validation`: how the contract is validated. */
export interface TurnValidationRowV1 {
  /** Always `true`: host events are replayed directly into the liveness core. */
  directReplay: true;
  /** Always `true`: classification is tested with an injected, fixed clock. */
  fixedClock: true;
  /**
   * Fault scenarios covered. MUST include the four named scenarios (TURN_FAULT_MATRIX_INCOMPLETE).
   * @minItems 4
   * @maxItems 5
   * @uniqueItems true
   */
  faultScenarios: TurnFaultScenario[];
}

/**
 * The machine form of the design-time TurnLivenessContract table, frozen before a long-running
 * or recoverable turn design is built: one row object per table row, with closed value sets,
 * plus the thresholds. Identified by `contractDigest`.
 */
export interface TurnLivenessContractV1 {
  /** Contract discriminator. */
  schemaVersion: 'TurnLivenessContractV1';
  /**
   * The agent runtime or host integration the contract is frozen for.
   * @minLength 1
   * @maxLength 128
   */
  runtimeName: string;
  /**
   * Version of that runtime.
   * @minLength 1
   * @maxLength 64
   */
  runtimeVersion: string;
  /** When the contract was frozen. */
  frozenAt: Timestamp;
  /** Row `stateModel`. */
  stateModel: TurnStateModelRowV1;
  /** Row `eventEvidence`. */
  eventEvidence: TurnEventEvidenceRowV1;
  /** Row `lease`. */
  lease: TurnLeaseRowV1;
  /** Row `terminalInvariant`. */
  terminalInvariant: TurnTerminalInvariantRowV1;
  /** Row `checkpoint`. */
  checkpoint: TurnCheckpointRowV1;
  /** Row `checkpointValidation`. */
  checkpointValidation: TurnCheckpointValidationRowV1;
  /** Row `localTaskTrace`. */
  localTaskTrace: TurnLocalTaskTraceRowV1;
  /** Row `capabilityBoundary`. */
  capabilityBoundary: TurnCapabilityBoundaryRowV1;
  /** Row `validation`. */
  validation: TurnValidationRowV1;
  /** Thresholds the runtime uses. */
  thresholds: TurnLivenessThresholdsV1;
  /** JCS SHA-256 of every other field of this document (all fields except `contractDigest`). */
  contractDigest: Sha256Hex;
}

/**
 * The persisted liveness state of the current turn of one agent session: event-time evidence,
 * the in-flight lease, thresholds, checkpoint and its two validations, and a summary of the
 * previous turn. Classification (`suspect`, `stalled-recoverable`) is computed from it with an
 * injected clock and never stored.
 */
export interface TurnLivenessStateV1 {
  /** Contract discriminator (a string; the seed system wrote the number 1, see D-TLR-03). */
  schemaVersion: 'TurnLivenessStateV1';
  /** Persisted state. `suspect` and `stalled-recoverable` are never stored. */
  state: TurnPersistedState;
  /** Key of the current turn; `null` only in `idle` before the first turn. */
  turnKey: NullableTurnKey;
  /** Number of host events observed over the state's life (all turns); +1 per delivered event, including refused and duplicate ones. */
  eventSequence: NonNegativeInteger;
  /** When the state document was created. */
  initializedAt: Timestamp;
  /** When the current turn started (its UserPromptSubmit); `null` before the first turn. */
  startedAt: NullableTimestamp;
  /** Type of the last observed host event; `null` before any event. */
  lastEventType: TurnHostEventType | null;
  /** Host event time of the last observed event, never moving backwards (the max of the event times seen); `null` before any event. */
  lastEventAt: NullableTimestamp;
  /** Operation id of the last tool output of this turn; `null` when the turn has had none. */
  lastToolCallId: NullableTurnOperationId;
  /** Event time of the first delivery of the last tool output of this turn; duplicates do not move it. `null` when none. */
  lastToolOutputAt: NullableTimestamp;
  /** Event time of the first non-PostToolUse event after the last tool output (the continuation ACK); `null` when not yet acknowledged. */
  continuationAckAt: NullableTimestamp;
  /** The lease of the one in-flight, host-allowed tool call; `null` when none. Cleared by every terminal. */
  inFlightOperation: TurnOperationLeaseV1 | null;
  /** When the current turn reached a terminal state; non-null iff `state` is terminal. */
  terminalAt: NullableTimestamp;
  /** Why the current turn ended; non-null iff `state` is terminal. */
  terminalReason: TurnEndReason | null;
  /** Thresholds in force (already normalised: positive, `stalledAfterMs >= suspectAfterMs`). */
  thresholds: TurnLivenessThresholdsV1;
  /** The current turn's checkpoint; `null` only before the first turn. */
  checkpoint: CheckpointV1 | null;
  /** The current turn's response-time and post-execution validations; `null` only before the first turn. */
  checkpointValidation: CheckpointValidationPairV1 | null;
  /** `traceId` of the current turn's LocalTaskTraceV1 (a reference, not the trace); `null` before the first turn. */
  taskTraceId: NullableTraceId;
  /** `settledSetDigest` of the task's TaskOperationSetV1 as last read (a reference); `null` when the turn runs outside a formal task. */
  taskOperationSetDigest: NullableSha256Hex;
  /** Summary of the previous turn; `null` until a second turn starts. */
  previousTurn: TurnSummaryV1 | null;
  /** `noticeKey` of the last TurnRecoveryCardV1 emitted for the current turn; reset to `null` when a turn starts. */
  lastRecoveryNoticeKey: NullableRecoveryNoticeKey;
}

/**
 * One liveness observation of a persisted TurnLivenessStateV1, as a read-only sidecar (or another
 * observer) produces it: what it read, the digest of what it read, how it classified the turn at
 * `observedAt`, and a boundary that proves it did nothing else.
 */
export interface TurnLivenessEvidenceV1 {
  /** Contract discriminator. */
  schemaVersion: 'TurnLivenessEvidenceV1';
  /** When the observation was made (the classification clock). */
  observedAt: Timestamp;
  /** JCS SHA-256 of the whole TurnLivenessStateV1 document read. Reading it again after the observation MUST give the same digest. */
  sourceStateDigest: Sha256Hex;
  /** `eventSequence` of the state read. */
  sourceEventSequence: NonNegativeInteger;
  /** `turnKey` of the state read. */
  turnKey: NullableTurnKey;
  /** `state` of the state read. */
  persistedState: TurnPersistedState;
  /** Result of the classification table at `observedAt`. */
  classification: TurnStateName;
  /** Row of the classification table that matched. */
  reason: TurnClassificationReason;
  /** The instant the elapsed time is measured from (see the classification table); `null` for `idle` and terminal states. */
  referenceAt: NullableTimestamp;
  /** `max(0, observedAt - referenceAt)` in milliseconds; `null` iff `referenceAt` is `null`. */
  elapsedMs: NullableDurationMs;
  /** Copy of the state's `startedAt`. */
  startedAt: NullableTimestamp;
  /** Copy of the state's `lastEventType`. */
  lastEventType: TurnHostEventType | null;
  /** Copy of the state's `lastEventAt`. */
  lastEventAt: NullableTimestamp;
  /** Copy of the state's `lastToolOutputAt`. */
  lastToolOutputAt: NullableTimestamp;
  /** Copy of the state's `continuationAckAt`. */
  continuationAckAt: NullableTimestamp;
  /** Copy of the state's in-flight lease. */
  inFlightOperation: TurnOperationLeaseV1 | null;
  /** Copy of the state's thresholds. */
  thresholds: TurnLivenessThresholdsV1;
  /** Copy of the state's checkpoint. */
  checkpoint: CheckpointV1 | null;
  /** Copy of the state's checkpoint validations. */
  checkpointValidation: CheckpointValidationPairV1 | null;
  /** Copy of the state's `taskTraceId`. */
  taskTraceId: NullableTraceId;
  /** What the observer did: observe only. */
  capabilityBoundary: TurnObservationBoundaryV1;
}

/**
 * The one advisory an observer emits when a turn classifies as `suspect` or
 * `stalled-recoverable`: at most once per `noticeKey`, observation-only, never acting. Recovery
 * is the host's, from the checkpoint, after the idempotency boundary is verified.
 */
export interface TurnRecoveryCardV1 {
  /** Contract discriminator (a string; the seed system wrote the number 1, see D-TLR-03). */
  schemaVersion: 'TurnRecoveryCardV1';
  /**
   * `derivedId('turn-notice-', {turnKey, referenceAt, priorState, reason}, 24)`: the dedupe key; a card is emitted at most once per key.
   * @pattern ^turn-notice-[a-f0-9]{24}$
   */
  noticeKey: string;
  /** When the observer classified the turn (the clock of the classification). */
  observedAt: Timestamp;
  /** The stale turn. */
  turnKey: TurnKey;
  /** Classification before the event that triggered the card. */
  priorState: TurnStaleState;
  /** Classification reason. */
  reason: TurnStaleReason;
  /** The instant the elapsed time was measured from: `leaseExpiresAt`, `lastToolOutputAt` or `lastEventAt` per the classification row. */
  referenceAt: Timestamp;
  /** `observedAt - referenceAt` in milliseconds. */
  ageMs: NonNegativeInteger;
  /** JCS SHA-256 of the TurnLivenessStateV1 document classified (before the triggering event was applied). */
  sourceStateDigest: Sha256Hex;
  /** `eventSequence` of that state. */
  sourceEventSequence: NonNegativeInteger;
  /** Copy of the state's `lastEventType`. */
  lastEventType: TurnHostEventType;
  /** Copy of the state's `lastEventAt`. */
  lastEventAt: Timestamp;
  /** Copy of the state's `lastToolOutputAt`. */
  lastToolOutputAt: NullableTimestamp;
  /** Copy of the state's `continuationAckAt`. */
  continuationAckAt: NullableTimestamp;
  /** `operationId` of the expired in-flight lease; `null` unless `reason` is `operation-lease-expired`. */
  inFlightOperationId: NullableTurnOperationId;
  /** Copy of the state's checkpoint: where a host-driven resume would start. */
  checkpoint: CheckpointV1;
  /**
   * `verify-idempotency-then-resume-via-host` when the checkpoint carries an idempotency key, else
   * `resume-from-checkpoint-via-host`. Advice to the host or user; the observer does neither.
   */
  recommendedAction: 'verify-idempotency-then-resume-via-host' | 'resume-from-checkpoint-via-host';
  /**
   * Human-readable one-line notice (no instructions to the observer itself).
   * @minLength 1
   * @maxLength 2048
   */
  message: string;
  /** What the observer did: observe only. Every action flag is the constant `false`. */
  capabilityBoundary: TurnObservationBoundaryV1;
}

/**
 * Where a turn stands and how a host would resume it: the phase, the artifacts produced so far,
 * the next action, a resume token and the idempotency key that MUST be verified before any
 * operation is replayed.
 */
export interface CheckpointV1 {
  /** Contract discriminator. */
  schemaVersion: 'CheckpointV1';
  /** The turn the checkpoint belongs to. */
  turnKey: TurnKey;
  /**
   * Phase: `turn-started`, `tool:<toolName>` (a lease is in flight), `tool-output-persisted`,
   * `tool-error-observed`, `pre-compact`, `execution-stop-required` or `terminal:<status>`.
   * @minLength 1
   * @maxLength 256
   * @pattern ^(turn-started|tool:[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}|tool-output-persisted|tool-error-observed|pre-compact|execution-stop-required|terminal:(completed|error|interrupted))$
   */
  phase: string;
  /** The operation the phase concerns (the in-flight or last completed tool call); `null` when the phase concerns none. */
  operationId: NullableTurnOperationId;
  /**
   * Workspace-relative paths of artifacts the turn has produced so far (at most 32, each at most 512 characters; no absolute paths, no `.`/`..` segments).
   * @maxItems 32
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 512
   * @items.pattern ^(?![/~])(?!.*(?:^|/)\.\.?(?:/|$))[^\\:*?"<>|]+$
   */
  artifactPaths: string[];
  /**
   * What the turn waits for or does next, for a human or the host (e.g. `await PostToolUse`).
   * @minLength 1
   * @maxLength 2048
   */
  nextAction: string;
  /**
   * `derivedId('resume-', {purpose: 'resume', turnKey, operationId}, 24)`: the token a host resumes this turn with.
   * @pattern ^resume-[a-f0-9]{24}$
   */
  resumeToken: string;
  /** `derivedId('idem-', {purpose: 'idempotency', turnKey, operationId}, 24)` when `operationId` is non-null, else `null`. A formal task operation for this call carries the same key; it is verified against that record before any resume. */
  idempotencyKey: NullableIdempotencyKey;
  /** When the checkpoint was written (the event time that produced it). */
  recordedAt: Timestamp;
}

/**
 * The result of one checkpoint validation. Response-time and post-execution are validated and
 * recorded separately; a post-execution validation passes only on terminal evidence.
 */
export interface CheckpointValidationResultV1 {
  /** Contract discriminator. */
  schemaVersion: 'CheckpointValidationResultV1';
  /** The turn validated. */
  turnKey: TurnKey;
  /** `response-time`: the host answered the event; `post-execution`: the turn really finished. Any other value is CHECKPOINT_MODE_INVALID. */
  mode: 'response-time' | 'post-execution';
  /** Outcome, per the decision table. */
  status: 'pass' | 'unverified' | 'incomplete-timeout' | 'blocked';
  /** Whether the outcome blocks the turn's completion claim. */
  blocking: boolean;
  /** `verified`: qualifying evidence; `source-backed`: evidence present but not qualifying (or blocked with evidence); `unverified`: no evidence. */
  evidenceState: 'verified' | 'source-backed' | 'unverified';
  /**
   * Evidence items considered (at most 16).
   * @maxItems 16
   */
  evidence: Array<CheckpointObservedEvidenceV1 | CheckpointTerminalEvidenceV1>;
  /**
   * Issues that block the checkpoint (kebab-case codes, at most 16, unique).
   * @maxItems 16
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 128
   * @items.pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   */
  blockingIssues: string[];
  /**
   * What must happen next (kebab-case codes, at most 16, unique); empty on `pass`.
   * @maxItems 16
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 128
   * @items.pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   */
  requiredActions: string[];
  /** `HOST_RESULT_INCOMPLETE` (unverified), `TRACE_COMPLETION_TIMEOUT` (incomplete-timeout), else `null`. */
  errorCode: 'HOST_RESULT_INCOMPLETE' | 'TRACE_COMPLETION_TIMEOUT' | null;
  /** When the validation was computed (the clock of the decision table). */
  observedAt: Timestamp;
  /** Post-execution: `startedAt + operationLeaseMs + stalledAfterMs` of the turn. Response-time: `null`. */
  deadlineAt: NullableTimestamp;
}

/** Catalogue entries of this area, in spec order. */
export const TURN_LIVENESS_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'TurnLivenessContractV1',
    gate: 'TurnLivenessRecoveryGate',
    summary:
      'The frozen design-time turn-liveness table (state model, evidence, lease, terminal, checkpoint, trace, capability boundary, fault matrix) with thresholds.',
  },
  {
    name: 'TurnLivenessStateV1',
    gate: 'TurnLivenessRecoveryGate',
    summary:
      'The persisted event-time liveness state of the current turn, its lease, checkpoint and validations.',
  },
  {
    name: 'TurnLivenessEvidenceV1',
    gate: 'TurnLivenessRecoveryGate',
    summary: 'One read-only observation and classification of a persisted turn-liveness state.',
  },
  {
    name: 'TurnRecoveryCardV1',
    gate: 'TurnLivenessRecoveryGate',
    summary: 'The once-per-noticeKey, observation-only advisory for a suspect or stalled turn.',
  },
  {
    name: 'CheckpointV1',
    gate: 'TurnLivenessRecoveryGate',
    summary: 'Phase, artifacts, next action, resume token and idempotency key of a turn.',
  },
  {
    name: 'CheckpointValidationResultV1',
    gate: 'TurnLivenessRecoveryGate',
    summary:
      'A response-time or post-execution checkpoint validation; post-execution passes only on terminal evidence.',
  },
];
