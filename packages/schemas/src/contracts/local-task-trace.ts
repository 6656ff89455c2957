import type { ContractEntry } from '../gates.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  NullableTimestamp,
  PositiveInteger,
  Timestamp,
} from './common.js';

// LocalTaskTraceGate: a strictly ordered, bounded, typed event trace of the CURRENT turn only,
// and a read-only replay projection of it that never executes anything. Previous turns survive
// only as the turn layer's summary (TurnLivenessRecoveryGate), never inside this trace.

/** Maximum number of events a trace retains (`events.length`); older events are dropped and folded into `prefixDigest`. */
export const TRACE_MAX_EVENTS = 128;
/** Maximum size of a whole trace: UTF-8 byte length of the RFC 8785 (JCS) form of the entire document. */
export const TRACE_MAX_BYTES = 131_072;
/** Maximum size of one event payload: UTF-8 byte length of the JCS form of the `payload` object. */
export const TRACE_MAX_PAYLOAD_BYTES = 8_192;

/**
 * Status of a trace. `open` until the one `TurnTerminal` event is appended; afterwards equal to
 * that event's `result`.
 */
export type LocalTaskTraceStatus = 'open' | 'complete' | 'failed' | 'interrupted';

/**
 * The terminal vocabulary of the trace layer, carried as the `result` of the `TurnTerminal`
 * event. Maps 1:1 to the turn layer's terminal states: `complete` = `completed`,
 * `failed` = `error`, `interrupted` = `interrupted`.
 */
export type LocalTaskTraceTerminalResult = 'complete' | 'failed' | 'interrupted';

/**
 * Host event types, exactly as the turn layer (TurnLivenessRecoveryGate) names them: a host maps
 * its own hook or API event names onto these and delivers anything else as `UnknownHostEvent`.
 */
export type LocalTaskTraceHostEventType =
  | 'UserPromptSubmit'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PreCompact'
  | 'Stop'
  | 'TurnError'
  | 'TurnInterrupted'
  | 'UnknownHostEvent';

/** Event types only the trace recorder writes: tool-lease bookkeeping and the one terminal event. */
export type LocalTaskTraceRecorderEventType =
  | 'ToolLeaseStarted'
  | 'ToolLeaseCompleted'
  | 'ToolLeaseResultDeferred'
  | 'TurnTerminal';

/** The closed set of event types of a trace. */
export type LocalTaskTraceEventType = LocalTaskTraceHostEventType | LocalTaskTraceRecorderEventType;

/**
 * The closed set of event results. Which results a type allows: host events `observed`;
 * `ToolLeaseStarted` `allowed`; `ToolLeaseCompleted` `success` or `error`;
 * `ToolLeaseResultDeferred` `duplicate` or `observed`; `TurnTerminal` a terminal result.
 */
export type LocalTaskTraceEventResult =
  | 'observed'
  | 'allowed'
  | 'success'
  | 'error'
  | 'duplicate'
  | LocalTaskTraceTerminalResult;

/**
 * The rule codes a verdict on a trace can carry (a replay's `errorCode` and `violations`, a
 * recorder's refusal). The replay's own faults (`TRACE_REPLAY_MISMATCH`,
 * `TRACE_REPLAY_CAPABILITY_INVALID`) are not in this set.
 */
export type LocalTaskTraceErrorCode =
  | 'TRACE_NOT_FOUND'
  | 'TRACE_BOUNDS_EXCEEDED'
  | 'TRACE_SEQUENCE_INVALID'
  | 'TRACE_DUPLICATE_EVENT'
  | 'TRACE_ID_MISMATCH'
  | 'TRACE_EVENT_INVALID'
  | 'TRACE_TERMINAL_INVALID'
  | 'TRACE_PREFIX_INVALID';

/** Verdict order of the codes: `violations` are sorted by this precedence, then by `eventIndex` (`null` first). */
export const TRACE_ERROR_PRECEDENCE: readonly LocalTaskTraceErrorCode[] = [
  'TRACE_NOT_FOUND',
  'TRACE_BOUNDS_EXCEEDED',
  'TRACE_ID_MISMATCH',
  'TRACE_SEQUENCE_INVALID',
  'TRACE_DUPLICATE_EVENT',
  'TRACE_EVENT_INVALID',
  'TRACE_TERMINAL_INVALID',
  'TRACE_PREFIX_INVALID',
];

/** The results each event type allows (rules T9 and T10). */
export const TRACE_RESULTS_BY_TYPE: Readonly<
  Record<LocalTaskTraceEventType, readonly LocalTaskTraceEventResult[]>
> = {
  UserPromptSubmit: ['observed'],
  PreToolUse: ['observed'],
  PostToolUse: ['observed'],
  PreCompact: ['observed'],
  Stop: ['observed'],
  TurnError: ['observed'],
  TurnInterrupted: ['observed'],
  UnknownHostEvent: ['observed'],
  ToolLeaseStarted: ['allowed'],
  ToolLeaseCompleted: ['success', 'error'],
  ToolLeaseResultDeferred: ['duplicate', 'observed'],
  TurnTerminal: ['complete', 'failed', 'interrupted'],
};

/**
 * Derived identity of a trace: `trace-` + the first 24 hex characters of
 * `digestOf({turnKey, openedAt})`.
 * @pattern ^trace-[a-f0-9]{24}$
 */
export type LocalTaskTraceId = string;

/**
 * A trace identity (`trace-` + 24 hex), or `null` when the replayed trace was invalid.
 * @pattern ^trace-[a-f0-9]{24}$
 */
export type NullableLocalTaskTraceId = string | null;

/**
 * Derived identity of one event occurrence: `event-` + the first 24 hex characters of
 * `digestOf({traceId, type, occurrenceKey})`.
 * @pattern ^event-[a-f0-9]{24}$
 */
export type LocalTaskTraceEventId = string;

/**
 * The key of the turn the trace belongs to, as the turn layer records it: 1 to 256 characters of
 * `[A-Za-z0-9._:@-]`, starting with a letter or digit (the turn layer's key format).
 * @minLength 1
 * @maxLength 256
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:@-]*$
 */
export type LocalTaskTraceTurnKey = string;

/**
 * A turn key (the turn layer's key format), or `null` when the replayed trace was invalid.
 * @minLength 1
 * @maxLength 256
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._:@-]*$
 */
export type NullableLocalTaskTraceTurnKey = string | null;

/**
 * An integer from 0 to 2^53 - 1, or `null` when the replayed trace was invalid.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 9007199254740991
 */
export type NullableTraceCounter = number | null;

/**
 * Index of the offending entry in the replayed trace's `events` array (0-based), or `null` for a
 * violation of the trace as a whole.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 127
 */
export type NullableTraceEventIndex = number | null;

/**
 * One observed event of the current turn. Events are data: no consumer may execute, dispatch,
 * evaluate or open anything named in an event.
 */
export interface LocalTaskTraceEvent {
  /**
   * Derived occurrence identity, unique within the trace: `event-` + first 24 hex of
   * `digestOf({traceId, type, occurrenceKey})`. A re-delivered occurrence derives the same id and
   * is refused as a duplicate.
   * @pattern ^event-[a-f0-9]{24}$
   */
  eventId: LocalTaskTraceEventId;
  /**
   * The host's or recorder's key of this occurrence, stable across re-deliveries: the host event
   * id or tool call id where one exists (e.g. `toolu_01Hq...`), otherwise a recorder-assigned
   * counter value such as `host-seq-7`. 1 to 256 characters of `[A-Za-z0-9._:@-]`, starting with a letter or digit.
   * @minLength 1
   * @maxLength 256
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:@-]*$
   */
  occurrenceKey: string;
  /** Position in the turn: `sequenceBase + index + 1`, strictly consecutive from 1 over the whole turn. */
  sequence: PositiveInteger;
  /** When the recorder observed the event (UTC); never earlier than the previous event's or than `openedAt`. */
  observedAt: Timestamp;
  /**
   * Event type: one of the host event types the turn layer observes (`UserPromptSubmit`,
   * `PreToolUse`, `PostToolUse`, `PreCompact`, `Stop`, `TurnError`, `TurnInterrupted`,
   * `UnknownHostEvent`) or one of the recorder-reserved types (`ToolLeaseStarted`,
   * `ToolLeaseCompleted`, `ToolLeaseResultDeferred`, `TurnTerminal`).
   */
  type: LocalTaskTraceEventType;
  /** Outcome of the event; the allowed values depend on `type` (see the result vocabulary table). */
  result: LocalTaskTraceEventResult;
  /**
   * Free-form, inert evidence of the event (e.g. `{toolCallId, toolName, artifactPaths}` or
   * `{reason}`): at most 32 top-level keys and 8192 bytes of JCS. Never executed or interpreted as
   * instructions.
   * @maxProperties 32
   */
  payload: { [key: string]: unknown };
}

/**
 * The typed, strictly ordered event trace of one turn (the current one). Bounded to 128 events
 * and 128 KiB; events dropped from the front are folded, oldest first, into `prefixDigest`.
 */
export interface LocalTaskTraceV1 {
  /** Contract discriminator. */
  schemaVersion: 'LocalTaskTraceV1';
  /**
   * Derived trace identity: `trace-` + first 24 hex of `digestOf({turnKey, openedAt})`.
   * @pattern ^trace-[a-f0-9]{24}$
   */
  traceId: LocalTaskTraceId;
  /**
   * The turn this trace records, as the turn layer keys it. 1 to 256 characters of `[A-Za-z0-9._:@-]`, starting with a letter or digit.
   * @minLength 1
   * @maxLength 256
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:@-]*$
   */
  turnKey: LocalTaskTraceTurnKey;
  /** `open` while the turn runs; the `TurnTerminal` event's `result` once it is appended. */
  status: LocalTaskTraceStatus;
  /** Sequence of the last event ever appended in this turn: `sequenceBase + events.length`; 0 for a trace with no events. */
  sequence: NonNegativeInteger;
  /** When the trace was opened (the start of the turn), UTC. */
  openedAt: Timestamp;
  /** `null` while `open`; otherwise exactly the `observedAt` string of the `TurnTerminal` event. */
  completedAt: NullableTimestamp;
  /** Sequence of the last dropped event; 0 when nothing was dropped. Always equal to `droppedEvents`. */
  sequenceBase: NonNegativeInteger;
  /** Number of events dropped from the front to keep the bounds. Always equal to `sequenceBase`. */
  droppedEvents: NonNegativeInteger;
  /**
   * Oldest-first fold over every dropped event: `p_k = digestOf({prefixDigest: p_(k-1), event: e_k})`
   * with `p_0 = null`; `null` iff `droppedEvents` is 0.
   */
  prefixDigest: NullableSha256Hex;
  /**
   * Retained events in sequence order; at most 128, and the whole document at most 131072 bytes of JCS.
   * @maxItems 128
   */
  events: LocalTaskTraceEvent[];
}

/**
 * What a replay is allowed to do, fixed by the schema: read and project data, nothing else.
 */
export interface LocalTaskTraceReplayCapabilityBoundary {
  /** The replay only reads its input; always `true`. */
  readOnly: true;
  /** The replay never writes any state (trace, turn, task or store); always `false`. */
  stateMutation: false;
  /** The replay never re-runs a tool call, mutation or other operation named in an event; always `false`. */
  operationReplay: false;
  /** The replay never executes, evaluates, opens or dispatches an event payload; always `false`. */
  payloadExecution: false;
  /** The replay never starts, kills, restarts, interrupts or resumes a process or turn; always `false`. */
  processControl: false;
}

/** One rule a replayed trace breaks. */
export interface LocalTaskTraceViolation {
  /** The rule code broken. */
  errorCode: LocalTaskTraceErrorCode;
  /**
   * Human-readable explanation naming the rule and what to do next; not compared by conformance tests.
   * @minLength 1
   * @maxLength 1024
   */
  message: string;
  /**
   * Index of the offending entry in the replayed trace's `events` array (0-based), or `null` for a
   * violation of the trace as a whole.
   * @TJS-type ["integer", "null"]
   * @minimum 0
   * @maximum 127
   */
  eventIndex: NullableTraceEventIndex;
}

/**
 * The read-only data projection of one `LocalTaskTraceV1`: the validation verdict and, only when
 * the trace is valid, a faithful copy of it. Producing it changes nothing and executes nothing.
 */
export interface LocalTaskTraceReplayV1 {
  /** Contract discriminator. */
  schemaVersion: 'LocalTaskTraceReplayV1';
  /** `true` iff the replayed trace satisfies every LocalTaskTraceV1 rule (`violations` is empty). */
  ok: boolean;
  /** `null` iff `ok`; otherwise the code of `violations[0]` (the highest-precedence violation). */
  errorCode: LocalTaskTraceErrorCode | null;
  /**
   * Every rule the trace breaks, ordered by code precedence, then `eventIndex` (`null` first, then
   * ascending); empty iff `ok`. At most 256 entries.
   * @maxItems 256
   */
  violations: LocalTaskTraceViolation[];
  /** Fixed capability boundary of every replay. */
  capabilityBoundary: LocalTaskTraceReplayCapabilityBoundary;
  /**
   * `digestOf` of the trace document exactly as read; `null` when no document could be read (or it
   * was not JSON data). When `ok`, equal to the digest of the trace rebuilt from this projection.
   */
  traceDigest: NullableSha256Hex;
  /**
   * Copy of the trace's `traceId` when `ok`; `null` otherwise.
   * @pattern ^trace-[a-f0-9]{24}$
   */
  traceId: NullableLocalTaskTraceId;
  /**
   * Copy of the trace's `turnKey` when `ok`; `null` otherwise.
   * @minLength 1
   * @maxLength 256
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:@-]*$
   */
  turnKey: NullableLocalTaskTraceTurnKey;
  /** Copy of the trace's `status` when `ok`; `null` otherwise. */
  status: LocalTaskTraceStatus | null;
  /**
   * Copy of the trace's `sequence` when `ok`; `null` otherwise.
   * @TJS-type ["integer", "null"]
   * @minimum 0
   * @maximum 9007199254740991
   */
  sequence: NullableTraceCounter;
  /** Copy of the trace's `openedAt` when `ok`; `null` otherwise. */
  openedAt: NullableTimestamp;
  /** Copy of the trace's `completedAt` when `ok` (itself `null` for an open trace); `null` otherwise. */
  completedAt: NullableTimestamp;
  /**
   * Copy of the trace's `sequenceBase` when `ok`; `null` otherwise.
   * @TJS-type ["integer", "null"]
   * @minimum 0
   * @maximum 9007199254740991
   */
  sequenceBase: NullableTraceCounter;
  /**
   * Copy of the trace's `droppedEvents` when `ok`; `null` otherwise.
   * @TJS-type ["integer", "null"]
   * @minimum 0
   * @maximum 9007199254740991
   */
  droppedEvents: NullableTraceCounter;
  /** Copy of the trace's `prefixDigest` when `ok` (itself `null` when nothing was dropped); `null` otherwise. */
  prefixDigest: NullableSha256Hex;
  /**
   * Copies of the trace's events, in order, when `ok`; empty otherwise. Payloads are copied as
   * data and never executed.
   * @maxItems 128
   */
  events: LocalTaskTraceEvent[];
}

/** Catalogue entries of this area, in spec order. */
export const LOCAL_TASK_TRACE_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'LocalTaskTraceV1',
    gate: 'LocalTaskTraceGate',
    summary:
      'The bounded, strictly ordered, typed event trace of the current turn, with exactly one terminal event last once closed.',
  },
  {
    name: 'LocalTaskTraceReplayV1',
    gate: 'LocalTaskTraceGate',
    summary:
      'The read-only replay projection of one trace: verdict, ordered violations and, when valid, a faithful copy; it never executes or mutates anything.',
  },
];
