// The LocalTaskTrace recorder (docs/spec/local-task-trace-gate.md, "Recorder operations"):
// open (O1-O3) and append (A1-A10) as pure functions of the current trace + input + an injected
// clock. A refused operation returns a typed refusal and writes nothing; an accepted one returns
// a new, deeply frozen trace and never mutates the one it was given. Persisting the result
// atomically (A11) is the caller's job.
import {
  foldPrefixDigest,
  jcsByteLength,
  type LocalTaskTraceErrorCode,
  type LocalTaskTraceEvent,
  type LocalTaskTraceStatus,
  type LocalTaskTraceTerminalResult,
  type LocalTaskTraceV1,
  type LocalTaskTraceViolation,
  TRACE_MAX_BYTES,
  TRACE_MAX_EVENTS,
  TRACE_MAX_PAYLOAD_BYTES,
  traceEventIdOf,
  traceIdOf,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import {
  isAllowedResult,
  isInertJson,
  isJsonObject,
  isTerminalResult,
  isTraceEventResult,
  isTraceEventType,
  isTraceKey,
  isTraceTimestamp,
  TRACE_MAX_PAYLOAD_KEYS,
  traceInstantKey,
  traceVerdict,
} from './verdict.js';

/** The recorder step that refused an operation (the page's O and A numbering). */
export type TraceRecorderStep = 'O1' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'A7' | 'A8' | 'A10';

/** What a recorder refusal says besides its code and message. */
export interface TraceRefusalDetail {
  /** The step that refused. */
  readonly step: TraceRecorderStep;
  /** A2 only: the verdict on the stored trace, in verdict order. */
  readonly violations?: readonly LocalTaskTraceViolation[];
  /** A7 only: the eventId of the retained event that already records this occurrence. */
  readonly eventId?: string;
}

/** A refused recorder operation (the page's runtime code): nothing was written. */
export type TraceRefusal = EngineRefusal<LocalTaskTraceErrorCode, TraceRefusalDetail>;

/** One event to append (`append(type, result, occurrenceKey, payload[, expectedSequence][, observedAt])`). */
export interface TraceAppendInput {
  /** Event type; checked against the closed enumeration (A5). */
  readonly type: string;
  /** Event result; checked against the enumeration and the type's vocabulary (A5). */
  readonly result: string;
  /** The host's or recorder's key of the occurrence (A5, A7). */
  readonly occurrenceKey: string;
  /** Inert evidence; a JSON object of at most 32 keys and 8192 JCS bytes (A5, A6). Copied, never executed. */
  readonly payload: unknown;
  /** When given, the append is refused unless it is the trace's `sequence + 1` (A4). */
  readonly expectedSequence?: number;
  /** When given, the observation time (refused if earlier than the last event, A8); otherwise the clock's. */
  readonly observedAt?: string;
}

/** An accepted append. */
export interface TraceAppendSuccess {
  readonly ok: true;
  /** The new trace (deeply frozen); persist it atomically. */
  readonly trace: LocalTaskTraceV1;
  /** The event as written. */
  readonly event: LocalTaskTraceEvent;
  /** Events dropped from the front to keep the bounds, oldest first (A10); usually empty. */
  readonly dropped: readonly LocalTaskTraceEvent[];
}

/** Result of {@link appendToTrace}. */
export type TraceAppendResult = TraceAppendSuccess | TraceRefusal;

/** What {@link openTrace} needs. */
export interface TraceOpenInput {
  /** The turn layer's key of the turn that starts. */
  readonly turnKey: string;
  /** The turn's start time; the clock's reading when omitted. */
  readonly openedAt?: string;
  /**
   * The turn layer's end reason for the current turn when an open trace of another turn is closed
   * first (O2): `superseded-by-new-prompt` (default) or `stale-turn-recovered-by-new-prompt`.
   */
  readonly previousTurnEndReason?: 'superseded-by-new-prompt' | 'stale-turn-recovered-by-new-prompt';
}

/** An accepted open. */
export interface TraceOpenSuccess {
  readonly ok: true;
  /** The current trace after the operation: the new turn's, or the unchanged one for a re-delivered start. */
  readonly trace: LocalTaskTraceV1;
  /** `true` when the trace already belonged to this turn and nothing was opened (O1). */
  readonly unchanged: boolean;
  /**
   * The trace that was replaced, as it ended: closed with `TurnTerminal interrupted` when it was
   * open and valid (O2), otherwise exactly as it was. `null` when there was none or nothing was replaced.
   */
  readonly previous: unknown;
}

/** Result of {@link openTrace}. */
export type TraceOpenResult = TraceOpenSuccess | TraceRefusal;

function refuse(
  code: LocalTaskTraceErrorCode,
  step: TraceRecorderStep,
  message: string,
  extra: { violations?: readonly LocalTaskTraceViolation[]; eventId?: string } = {},
): TraceRefusal {
  return refusal(code, message, { step, ...extra });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The clock's reading as a timestamp of the spec's profile, or `null` when it cannot be one. */
function clockTimestamp(clock: Clock): string | null {
  const ms = clock.now();
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const ts = timestampOf(ms);
  return isTraceTimestamp(ts) ? ts : null;
}

/**
 * Append one event to the current trace, running the page's checks A1-A8 in order (the first that
 * fails decides the code and nothing is written), then writing the event with the next sequence
 * (A9) and dropping the oldest events, folded into `prefixDigest`, while the trace exceeds 128
 * events or 131072 JCS bytes (A10). A `TurnTerminal` event closes the trace. `current` is never
 * mutated; pass `null` when there is no trace (A1).
 *
 * @example
 * const clock = new ManualClock(Date.parse('2026-11-30T05:53:08.114Z'));
 * const opened = openTrace(null, { turnKey: 'turn-1' }, clock);
 * if (opened.ok) {
 *   const r = appendToTrace(opened.trace, { type: 'UserPromptSubmit', result: 'observed', occurrenceKey: 'host-seq-1', payload: {} }, clock);
 *   if (!r.ok) console.log(r.code); // e.g. TRACE_DUPLICATE_EVENT on a re-delivery
 * }
 */
export function appendToTrace(current: unknown, input: TraceAppendInput, clock: Clock): TraceAppendResult {
  // A1
  if (current === null || current === undefined)
    return refuse(
      'TRACE_NOT_FOUND',
      'A1',
      'No trace is open for this turn; open one when the turn starts, then append.',
    );
  // A2 (a trace this recorder wrote and froze is valid by construction and cannot have changed)
  const ownTrace = isOwnTrace(current);
  const violations = ownTrace ? [] : traceVerdict(current).violations;
  if (violations.length > 0)
    return refuse(
      violations[0]!.errorCode,
      'A2',
      `The stored trace is invalid (${violations[0]!.message}); the recorder does not append to, repair or rewrite it: open a fresh trace for the next turn.`,
      { violations },
    );
  const trace = current as LocalTaskTraceV1;
  // A3
  if (trace.status !== 'open')
    return refuse(
      'TRACE_TERMINAL_INVALID',
      'A3',
      `The trace is closed (${trace.status}); nothing is appended after its TurnTerminal event: start a new trace for the next turn.`,
    );
  // A4
  if (input.expectedSequence !== undefined && input.expectedSequence !== trace.sequence + 1)
    return refuse(
      'TRACE_SEQUENCE_INVALID',
      'A4',
      `expectedSequence is ${String(input.expectedSequence)} but the next sequence is ${trace.sequence + 1}; re-read the trace and append the next event only.`,
    );
  // A5
  const { type, result, occurrenceKey, payload } = input;
  if (!isTraceEventType(type))
    return refuse(
      'TRACE_EVENT_INVALID',
      'A5',
      'type is not one of the twelve event types; map host events onto them.',
    );
  if (!isTraceEventResult(result))
    return refuse(
      'TRACE_EVENT_INVALID',
      'A5',
      'result is not one of the eight event results; fix the event and append again.',
    );
  if (!isTraceKey(occurrenceKey))
    return refuse(
      'TRACE_EVENT_INVALID',
      'A5',
      'occurrenceKey is not 1 to 256 characters of [A-Za-z0-9._:@-] starting with a letter or digit; fix it and append again.',
    );
  const payloadSize =
    isJsonObject(payload) && Object.keys(payload).length <= TRACE_MAX_PAYLOAD_KEYS && isInertJson(payload)
      ? safeSize(payload)
      : null;
  if (payloadSize === null)
    return refuse(
      'TRACE_EVENT_INVALID',
      'A5',
      'payload is not a JSON object of plain data with at most 32 keys; pass inert evidence only and append again.',
    );
  if ((type === 'TurnTerminal') !== isTerminalResult(result))
    return refuse(
      'TRACE_TERMINAL_INVALID',
      'A5',
      type === 'TurnTerminal'
        ? `TurnTerminal needs a terminal result (complete, failed, interrupted), not ${result}.`
        : `${type} cannot carry the terminal result ${result}; emit terminal results only through the terminal path (TurnTerminal).`,
    );
  if (!isAllowedResult(type, result))
    return refuse(
      'TRACE_EVENT_INVALID',
      'A5',
      `result ${result} is not allowed for type ${type}; fix the pairing and append again.`,
    );
  // A6
  if (payloadSize > TRACE_MAX_PAYLOAD_BYTES)
    return refuse(
      'TRACE_BOUNDS_EXCEEDED',
      'A6',
      `payload is ${payloadSize} bytes of JCS, more than 8192; reduce it (e.g. to the recommended keys) and append again.`,
    );
  // A7
  const eventId = traceEventIdOf(trace.traceId, type, occurrenceKey);
  if (trace.events.some((e) => e.eventId === eventId))
    return refuse(
      'TRACE_DUPLICATE_EVENT',
      'A7',
      `This occurrence is already recorded as ${eventId}; ignore the duplicate delivery (do not retry with another occurrenceKey).`,
      { eventId },
    );
  // A8
  const floor = trace.events.at(-1)?.observedAt ?? trace.openedAt;
  let observedAt: string;
  if (input.observedAt !== undefined) {
    if (!isTraceTimestamp(input.observedAt))
      return refuse(
        'TRACE_SEQUENCE_INVALID',
        'A8',
        'observedAt is not a UTC RFC 3339 timestamp; pass a valid time or omit it.',
      );
    if (traceInstantKey(input.observedAt) < traceInstantKey(floor))
      return refuse(
        'TRACE_SEQUENCE_INVALID',
        'A8',
        `observedAt is earlier than ${trace.events.length > 0 ? 'the last event' : 'openedAt'} (${floor}); re-read the trace and append the next event only.`,
      );
    observedAt = input.observedAt;
  } else {
    const reading = clockTimestamp(clock);
    if (reading === null)
      return refuse(
        'TRACE_SEQUENCE_INVALID',
        'A8',
        'The clock gave no valid UTC time; fix the clock and append again.',
      );
    observedAt = traceInstantKey(reading) < traceInstantKey(floor) ? floor : reading; // the clock stepped back: clamp
  }
  // A9
  const event: LocalTaskTraceEvent = {
    eventId,
    occurrenceKey,
    sequence: trace.sequence + 1,
    observedAt,
    type,
    result,
    payload: structuredClone(payload as Record<string, unknown>),
  };
  // Events of a trace this recorder did not write are copied (frozen or not: a caller's freeze may
  // be shallow), so the result shares nothing with the input and freezing it leaves the input as it was.
  const retained = ownTrace ? trace.events : structuredClone(trace.events);
  const closes = type === 'TurnTerminal';
  let next: LocalTaskTraceV1 = {
    schemaVersion: 'LocalTaskTraceV1',
    traceId: trace.traceId,
    turnKey: trace.turnKey,
    status: closes ? (result as LocalTaskTraceTerminalResult) : trace.status,
    sequence: event.sequence,
    openedAt: trace.openedAt,
    completedAt: closes ? observedAt : trace.completedAt,
    sequenceBase: trace.sequenceBase,
    droppedEvents: trace.droppedEvents,
    prefixDigest: trace.prefixDigest,
    events: [...retained, event],
  };
  // A10
  const dropped: LocalTaskTraceEvent[] = [];
  let eventBytes = 0;
  for (const e of next.events) eventBytes += eventSize(e);
  while (next.events.length > TRACE_MAX_EVENTS || traceSize(next, eventBytes) > TRACE_MAX_BYTES) {
    if (next.events.length === 1)
      return refuse(
        'TRACE_BOUNDS_EXCEEDED',
        'A10',
        'The event alone exceeds the trace bound; reduce the payload and append again.',
      );
    const [removed, ...rest] = next.events as [LocalTaskTraceEvent, ...LocalTaskTraceEvent[]];
    dropped.push(removed);
    eventBytes -= eventSize(removed);
    next = {
      ...next,
      sequenceBase: next.sequenceBase + 1,
      droppedEvents: next.droppedEvents + 1,
      prefixDigest: foldPrefixDigest(next.prefixDigest, removed),
      events: rest,
    };
  }
  own.add(deepFreeze(next));
  return { ok: true, trace: next, event, dropped };
}

// Memos of pure functions over objects this module created and deeply froze (they cannot change):
// the traces it wrote (valid by construction) and the JCS byte length of each event.
const own = new WeakSet<object>();
const sizes = new WeakMap<object, number>();

function isOwnTrace(value: unknown): boolean {
  return typeof value === 'object' && value !== null && own.has(value);
}

function eventSize(event: LocalTaskTraceEvent): number {
  let size = sizes.get(event);
  if (size === undefined) {
    size = jcsByteLength(event);
    if (Object.isFrozen(event)) sizes.set(event, size);
  }
  return size;
}

/**
 * The trace size of T1 (UTF-8 bytes of the JCS form of the whole document), from the event sizes:
 * the JCS form of `events` is `[` + the events' forms joined by `,` + `]`, so the whole document
 * is its form with `events: []` plus every event's bytes plus one comma between two events.
 */
function traceSize(trace: LocalTaskTraceV1, eventBytes: number): number {
  const n = trace.events.length;
  return jcsByteLength({ ...trace, events: [] }) + eventBytes + Math.max(0, n - 1);
}

function safeSize(value: unknown): number | null {
  try {
    return jcsByteLength(value);
  } catch {
    return null;
  }
}

/**
 * Close the current trace: append `TurnTerminal` with the trace-layer terminal `result` and
 * `payload.reason` (the turn layer's end reason), with occurrence key `turn-terminal`. Call it in
 * the same step in which the turn layer records the turn's terminal state, and only then.
 *
 * @example
 * const closed = closeTrace(trace, 'complete', 'host-stop', clock);
 */
export function closeTrace(
  current: unknown,
  result: LocalTaskTraceTerminalResult,
  reason: string,
  clock: Clock,
): TraceAppendResult {
  return appendToTrace(
    current,
    { type: 'TurnTerminal', result, occurrenceKey: 'turn-terminal', payload: { reason } },
    clock,
  );
}

/**
 * Open the trace of a turn that starts (O1-O3). A re-delivered start of the current turn returns
 * the current trace unchanged; an open, valid trace of another turn is first closed with
 * `TurnTerminal interrupted` (O2); an invalid one, or one that is not plain data (no trace, never
 * read), is left as it is. The new trace has
 * `sequence` 0, nothing dropped, no events.
 *
 * @example
 * const r = openTrace(null, { turnKey: '019378e4-5d2a-7c31-9b6e-0f4a8d2c1e57', openedAt: '2026-11-30T05:53:08.114Z' }, clock);
 * if (r.ok) console.log(r.trace.traceId);
 */
export function openTrace(current: unknown, input: TraceOpenInput, clock: Clock): TraceOpenResult {
  if (!isTraceKey(input.turnKey))
    return refuse(
      'TRACE_NOT_FOUND',
      'O1',
      "turnKey is not in the turn layer's key format; wait for the turn's start event and open a trace for it.",
    );
  const openedAt = input.openedAt ?? clockTimestamp(clock);
  if (!isTraceTimestamp(openedAt))
    return refuse(
      'TRACE_NOT_FOUND',
      'O1',
      'openedAt is not a UTC RFC 3339 timestamp; open the trace with the turn start time.',
    );
  // Only plain data is read: a current trace with accessors is no trace (the verdict's
  // TRACE_NOT_FOUND), so none of its code runs; it is replaced as it is.
  const data = isJsonObject(current) && isInertJson(current);
  if (data && current.turnKey === input.turnKey)
    return { ok: true, trace: current as unknown as LocalTaskTraceV1, unchanged: true, previous: null };
  let previous: unknown = current ?? null;
  if (data && (current.status as LocalTaskTraceStatus) === 'open') {
    const closed = closeTrace(
      current,
      'interrupted',
      input.previousTurnEndReason ?? 'superseded-by-new-prompt',
      clock,
    );
    if (closed.ok) previous = closed.trace; // an invalid trace (A2 refusal) is left as it is
  }
  const trace: LocalTaskTraceV1 = {
    schemaVersion: 'LocalTaskTraceV1',
    traceId: traceIdOf(input.turnKey, openedAt),
    turnKey: input.turnKey,
    status: 'open',
    sequence: 0,
    openedAt,
    completedAt: null,
    sequenceBase: 0,
    droppedEvents: 0,
    prefixDigest: null,
    events: [],
  };
  own.add(deepFreeze(trace));
  return { ok: true, trace, unchanged: false, previous };
}
