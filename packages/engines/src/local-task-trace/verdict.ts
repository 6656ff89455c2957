// The verdict on a stored LocalTaskTraceV1 (docs/spec/local-task-trace-gate.md, "Validation
// verdict"): the schema failures mapped to rule codes by location, or, for a schema-valid
// document, the T1-T15 violations; as a set of (errorCode, eventIndex) pairs in verdict order.
// The recorder (A2) and the replay share it. It reads its input and nothing else: no getter is
// invoked, nothing is copied out of a payload into a message.
import {
  jcsByteLength,
  type LocalTaskTraceErrorCode,
  type LocalTaskTraceEventResult,
  type LocalTaskTraceEventType,
  type LocalTaskTraceV1,
  type LocalTaskTraceViolation,
  TRACE_ERROR_PRECEDENCE,
  TRACE_MAX_BYTES,
  TRACE_MAX_EVENTS,
  TRACE_MAX_PAYLOAD_BYTES,
  TRACE_RESULTS_BY_TYPE,
  traceEventIdOf,
  traceIdOf,
} from '@agent-contracts/schemas';

/** Maximum number of entries a verdict (a replay's `violations`) keeps. */
export const TRACE_MAX_VIOLATIONS = 256;

/** Maximum number of top-level keys of an event payload (schema `maxProperties`). */
export const TRACE_MAX_PAYLOAD_KEYS = 32;

const TRACE_ID = /^trace-[a-f0-9]{24}$/;
const EVENT_ID = /^event-[a-f0-9]{24}$/;
const KEY = /^[A-Za-z0-9][A-Za-z0-9._:@-]*$/;
const SHA256 = /^[a-f0-9]{64}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const STATUSES = new Set(['open', 'complete', 'failed', 'interrupted']);
const TERMINAL_RESULTS = new Set(['complete', 'failed', 'interrupted']);
const RESULTS = new Set(Object.values(TRACE_RESULTS_BY_TYPE).flat());
const TOP_LEVEL = new Set([
  'schemaVersion',
  'traceId',
  'turnKey',
  'status',
  'sequence',
  'openedAt',
  'completedAt',
  'sequenceBase',
  'droppedEvents',
  'prefixDigest',
  'events',
]);
const EVENT_FIELDS = new Set([
  'eventId',
  'occurrenceKey',
  'sequence',
  'observedAt',
  'type',
  'result',
  'payload',
]);

type Json = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether `value` is plain JSON data that can be read without running any code: no accessor
 * properties (a getter would execute on read), no functions, symbols, `undefined`, non-finite
 * numbers, cycles or non-plain prototypes. Checked on property descriptors, so nothing is invoked.
 */
export function isInertJson(value: unknown): boolean {
  try {
    return inert(value, new Set<object>());
  } catch {
    return false; // nested too deeply to walk (stack exhausted): not data this engine can read
  }
}

function inert(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (seen.has(value)) return false;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  const ok = Array.isArray(value)
    ? proto === Array.prototype && inertEntries(value, seen, true)
    : (proto === Object.prototype || proto === null) && inertEntries(value, seen, false);
  seen.delete(value);
  return ok;
}

function inertEntries(value: object, seen: Set<object>, array: boolean): boolean {
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const descriptors = Object.getOwnPropertyDescriptors(value) as Record<string, PropertyDescriptor>;
  for (const [key, d] of Object.entries(descriptors)) {
    if (array && key === 'length') continue;
    if (!('value' in d) || !d.enumerable) return false;
    if (!inert(d.value, seen)) return false;
  }
  if (array) {
    const length = (value as unknown[]).length;
    for (let i = 0; i < length; i++) if (!Object.hasOwn(value, i)) return false;
  }
  return true;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * The spec's timestamp profile: `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` naming a real UTC date and time
 * (the leap second `23:59:60` allowed), as the schemas' `Timestamp` requires.
 *
 * @example
 * isTraceTimestamp('2026-11-30T05:53:08.114Z') === true;
 */
export function isTraceTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const hour = Number(value.slice(11, 13));
  const minute = Number(value.slice(14, 16));
  const second = Number(value.slice(17, 19));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour > 23 || minute > 59) return false;
  return second <= 59 || (second === 60 && hour === 23 && minute === 59);
}

/**
 * A string key that orders timestamps of the spec's profile as instants at their full written
 * precision (fraction padded to nanoseconds), so `traceInstantKey(a) < traceInstantKey(b)` iff a is earlier.
 */
export function traceInstantKey(timestamp: string): string {
  const dot = timestamp.indexOf('.');
  const fraction = dot < 0 ? '' : timestamp.slice(dot + 1, -1);
  return `${timestamp.slice(0, 19)}.${fraction.padEnd(9, '0')}`;
}

/** The trace layer's key format (`turnKey`, `occurrenceKey`): 1 to 256 characters of `[A-Za-z0-9._:@-]`. */
export function isTraceKey(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 256 && KEY.test(value);
}

const isCounter = (v: unknown, min: number): v is number =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

/** Whether `result` is allowed for `type` (the result vocabulary table). */
export function isAllowedResult(type: LocalTaskTraceEventType, result: LocalTaskTraceEventResult): boolean {
  return TRACE_RESULTS_BY_TYPE[type].includes(result);
}

/** Whether `type` is one of the twelve event types. */
export function isTraceEventType(value: unknown): value is LocalTaskTraceEventType {
  return typeof value === 'string' && Object.hasOwn(TRACE_RESULTS_BY_TYPE, value);
}

/** Whether `result` is one of the eight event results. */
export function isTraceEventResult(value: unknown): value is LocalTaskTraceEventResult {
  return typeof value === 'string' && RESULTS.has(value as LocalTaskTraceEventResult);
}

/** Whether `result` is a terminal result (`complete`, `failed`, `interrupted`). */
export function isTerminalResult(value: unknown): boolean {
  return typeof value === 'string' && TERMINAL_RESULTS.has(value);
}

/** Collects violations as a set of (code, eventIndex) pairs; the first message of a pair wins. */
class VerdictBuilder {
  readonly #pairs = new Map<string, LocalTaskTraceViolation>();
  add(errorCode: LocalTaskTraceErrorCode, eventIndex: number | null, message: string): void {
    const key = `${errorCode}:${eventIndex ?? ''}`;
    if (!this.#pairs.has(key)) this.#pairs.set(key, { errorCode, message, eventIndex });
  }
  get size(): number {
    return this.#pairs.size;
  }
  sorted(): LocalTaskTraceViolation[] {
    return sortViolations([...this.#pairs.values()]).slice(0, TRACE_MAX_VIOLATIONS);
  }
}

/**
 * Violations in verdict order: code precedence, then `eventIndex` (`null` first, then ascending).
 * Returns a new array.
 */
export function sortViolations(violations: readonly LocalTaskTraceViolation[]): LocalTaskTraceViolation[] {
  const rank = (c: LocalTaskTraceErrorCode) => TRACE_ERROR_PRECEDENCE.indexOf(c);
  return [...violations].sort(
    (a, b) => rank(a.errorCode) - rank(b.errorCode) || (a.eventIndex ?? -1) - (b.eventIndex ?? -1),
  );
}

function identityFailures(doc: Json, out: VerdictBuilder): void {
  const notFound = (what: string) =>
    out.add(
      'TRACE_NOT_FOUND',
      null,
      `${what}; without its identity the document is no trace: do not append to it, open a trace for the turn instead.`,
    );
  if (doc.schemaVersion !== 'LocalTaskTraceV1')
    notFound('schemaVersion is missing or not "LocalTaskTraceV1"');
  if (typeof doc.traceId !== 'string' || !TRACE_ID.test(doc.traceId))
    notFound('traceId is missing or not `trace-` + 24 lowercase hex');
  if (!isTraceKey(doc.turnKey)) notFound('turnKey is missing or outside the key format');
  if (!isTraceTimestamp(doc.openedAt)) notFound('openedAt is missing or not a UTC RFC 3339 timestamp');
  for (const key of Object.keys(doc))
    if (!TOP_LEVEL.has(key)) notFound('the document has a property LocalTaskTraceV1 does not define');
}

function eventSchemaFailures(event: unknown, i: number, out: VerdictBuilder): void {
  const at = `events[${i}]`;
  if (!isJsonObject(event)) {
    out.add('TRACE_SEQUENCE_INVALID', i, `${at} is not an object; refuse the trace.`);
    return;
  }
  if (!Object.hasOwn(event, 'eventId'))
    out.add(
      'TRACE_DUPLICATE_EVENT',
      i,
      `${at} has no eventId, so duplicates cannot be told apart; refuse the trace.`,
    );
  else if (typeof event.eventId !== 'string' || !EVENT_ID.test(event.eventId))
    out.add('TRACE_ID_MISMATCH', i, `${at}.eventId is not \`event-\` + 24 lowercase hex; refuse the trace.`);
  if (!isTraceKey(event.occurrenceKey))
    out.add(
      'TRACE_EVENT_INVALID',
      i,
      `${at}.occurrenceKey is missing or outside the key format; refuse the trace.`,
    );
  if (!isCounter(event.sequence, 1))
    out.add(
      'TRACE_SEQUENCE_INVALID',
      i,
      `${at}.sequence is missing or not an integer >= 1; refuse the trace.`,
    );
  if (!isTraceTimestamp(event.observedAt))
    out.add(
      'TRACE_SEQUENCE_INVALID',
      i,
      `${at}.observedAt is missing or not a UTC timestamp; refuse the trace.`,
    );
  if (!isTraceEventType(event.type))
    out.add(
      'TRACE_EVENT_INVALID',
      i,
      `${at}.type is missing or not one of the event types; refuse the trace.`,
    );
  if (!isTraceEventResult(event.result))
    out.add(
      'TRACE_EVENT_INVALID',
      i,
      `${at}.result is missing or not one of the event results; refuse the trace.`,
    );
  if (!isJsonObject(event.payload) || Object.keys(event.payload).length > TRACE_MAX_PAYLOAD_KEYS)
    out.add(
      'TRACE_EVENT_INVALID',
      i,
      `${at}.payload is missing, not an object or has more than 32 keys; refuse the trace.`,
    );
  for (const key of Object.keys(event))
    if (!EVENT_FIELDS.has(key))
      out.add('TRACE_EVENT_INVALID', i, `${at} has a property an event does not define; refuse the trace.`);
}

function schemaFailures(doc: Json, out: VerdictBuilder): void {
  if (!STATUSES.has(doc.status as string))
    out.add(
      'TRACE_TERMINAL_INVALID',
      null,
      'status is missing or not open/complete/failed/interrupted; refuse the trace.',
    );
  if (doc.completedAt !== null && !isTraceTimestamp(doc.completedAt))
    out.add(
      'TRACE_TERMINAL_INVALID',
      null,
      'completedAt is missing or neither null nor a UTC timestamp; refuse the trace.',
    );
  if (!isCounter(doc.sequence, 0))
    out.add(
      'TRACE_SEQUENCE_INVALID',
      null,
      'sequence is missing or not a non-negative integer; refuse the trace.',
    );
  if (!isCounter(doc.sequenceBase, 0))
    out.add(
      'TRACE_PREFIX_INVALID',
      null,
      'sequenceBase is missing or not a non-negative integer; refuse the trace.',
    );
  if (!isCounter(doc.droppedEvents, 0))
    out.add(
      'TRACE_PREFIX_INVALID',
      null,
      'droppedEvents is missing or not a non-negative integer; refuse the trace.',
    );
  if (doc.prefixDigest !== null && !(typeof doc.prefixDigest === 'string' && SHA256.test(doc.prefixDigest)))
    out.add(
      'TRACE_PREFIX_INVALID',
      null,
      'prefixDigest is missing or neither null nor 64 lowercase hex; refuse the trace.',
    );
  if (!Array.isArray(doc.events)) {
    out.add('TRACE_SEQUENCE_INVALID', null, 'events is missing or not an array; refuse the trace.');
    return;
  }
  if (doc.events.length > TRACE_MAX_EVENTS)
    out.add(
      'TRACE_BOUNDS_EXCEEDED',
      null,
      `events holds ${doc.events.length} entries, more than the 128 a trace retains; refuse the trace.`,
    );
  const n = Math.min(doc.events.length, TRACE_MAX_EVENTS);
  for (let i = 0; i < n; i++) eventSchemaFailures(doc.events[i], i, out);
}

/** T1-T15 over a schema-valid trace. */
function invariantFailures(t: LocalTaskTraceV1, size: number, out: VerdictBuilder): void {
  if (size > TRACE_MAX_BYTES)
    out.add(
      'TRACE_BOUNDS_EXCEEDED',
      null,
      `T1: the trace is ${size} bytes of JCS, more than 131072; refuse the trace.`,
    );
  if (t.traceId !== traceIdOf(t.turnKey, t.openedAt))
    out.add(
      'TRACE_ID_MISMATCH',
      null,
      'T3: traceId does not recompute from {turnKey, openedAt}; refuse the trace.',
    );
  if (t.sequence !== t.sequenceBase + t.events.length)
    out.add(
      'TRACE_SEQUENCE_INVALID',
      null,
      'T6: sequence is not sequenceBase + events.length; refuse the trace.',
    );
  const ids = new Set<string>();
  let previous = traceInstantKey(t.openedAt);
  let terminals = 0;
  t.events.forEach((e, i) => {
    const payloadSize = jcsByteLength(e.payload);
    if (payloadSize > TRACE_MAX_PAYLOAD_BYTES)
      out.add(
        'TRACE_BOUNDS_EXCEEDED',
        i,
        `T2: events[${i}].payload is ${payloadSize} bytes of JCS, more than 8192.`,
      );
    if (e.eventId !== traceEventIdOf(t.traceId, e.type, e.occurrenceKey))
      out.add(
        'TRACE_ID_MISMATCH',
        i,
        `T4: events[${i}].eventId does not recompute from {traceId, type, occurrenceKey}.`,
      );
    if (e.sequence !== t.sequenceBase + i + 1)
      out.add(
        'TRACE_SEQUENCE_INVALID',
        i,
        `T5: events[${i}].sequence is ${e.sequence}, not sequenceBase + ${i + 1} = ${t.sequenceBase + i + 1}; do not renumber it.`,
      );
    const now = traceInstantKey(e.observedAt);
    if (now < previous)
      out.add(
        'TRACE_SEQUENCE_INVALID',
        i,
        `T7: events[${i}].observedAt is earlier than ${i === 0 ? 'openedAt' : `events[${i - 1}].observedAt`}.`,
      );
    previous = now;
    if (ids.has(e.eventId))
      out.add(
        'TRACE_DUPLICATE_EVENT',
        i,
        `T8: events[${i}] repeats the eventId of an earlier event (a re-delivered occurrence).`,
      );
    ids.add(e.eventId);
    const isTerminal = e.type === 'TurnTerminal';
    if (isTerminal) terminals += 1;
    if (isTerminal !== isTerminalResult(e.result))
      out.add(
        'TRACE_TERMINAL_INVALID',
        i,
        isTerminal
          ? `T9: events[${i}] is TurnTerminal with the non-terminal result ${e.result}.`
          : `T9: events[${i}] is ${e.type} with the terminal result ${e.result}; only TurnTerminal closes a trace.`,
      );
    else if (!isAllowedResult(e.type, e.result))
      out.add(
        'TRACE_EVENT_INVALID',
        i,
        `T10: events[${i}].result ${e.result} is not allowed for type ${e.type}.`,
      );
    if (isTerminal && i < t.events.length - 1)
      out.add('TRACE_TERMINAL_INVALID', i, `T11: TurnTerminal at events[${i}] is not the last event.`);
  });
  if (t.status === 'open' && (t.completedAt !== null || terminals > 0))
    out.add(
      'TRACE_TERMINAL_INVALID',
      null,
      'T12: status is open but the trace has a completedAt or a TurnTerminal event.',
    );
  if (t.status !== 'open') {
    const last = t.events.at(-1);
    if (
      last === undefined ||
      last.type !== 'TurnTerminal' ||
      last.result !== t.status ||
      t.completedAt !== last.observedAt
    )
      out.add(
        'TRACE_TERMINAL_INVALID',
        null,
        `T13: status is ${t.status} but the last event is not a TurnTerminal with that result whose observedAt is completedAt.`,
      );
  }
  if (t.droppedEvents !== t.sequenceBase)
    out.add('TRACE_PREFIX_INVALID', null, 'T14: droppedEvents differs from sequenceBase.');
  if ((t.prefixDigest === null) !== (t.droppedEvents === 0))
    out.add('TRACE_PREFIX_INVALID', null, 'T15: prefixDigest must be null exactly when droppedEvents is 0.');
}

/** JCS byte length of inert data, or `null` when it is not JSON data (e.g. a lone surrogate). */
function jsonSize(value: unknown): number | null {
  try {
    return jcsByteLength(value);
  } catch {
    return null;
  }
}

/** The verdict on a trace and whether it could be read as JSON data at all. */
export interface TraceVerdict {
  /** The (errorCode, eventIndex) pairs in verdict order, at most 256; empty iff the trace is valid. */
  readonly violations: readonly LocalTaskTraceViolation[];
  /** Whether the input is plain JSON data (so `digestOf` is defined on it). */
  readonly jsonData: boolean;
}

/**
 * Judge a stored trace as the page's verdict says: a missing, non-object or non-JSON input, or
 * one whose identity fails, is the single violation `(TRACE_NOT_FOUND, null)`; other schema
 * failures map to codes by location; a schema-valid document is checked against T1-T15.
 * Pure; reads `input` only through property descriptors and never invokes code in it.
 *
 * @example
 * const { violations } = traceVerdict(storedTrace);
 * if (violations.length > 0) console.log(violations[0].errorCode);
 */
export function traceVerdict(input: unknown): TraceVerdict {
  const out = new VerdictBuilder();
  const size = input !== undefined && isInertJson(input) ? jsonSize(input) : null;
  const jsonData = size !== null;
  if (size === null || !isJsonObject(input)) {
    out.add(
      'TRACE_NOT_FOUND',
      null,
      input === undefined
        ? 'No LocalTaskTraceV1 exists for the turn; open a trace when the turn starts.'
        : 'The input is not a JSON object of plain data, so it is no trace; do not append to it.',
    );
    return { violations: out.sorted(), jsonData };
  }
  identityFailures(input, out);
  if (out.size > 0) return { violations: out.sorted().slice(0, 1), jsonData };
  schemaFailures(input, out);
  if (out.size === 0) invariantFailures(input as unknown as LocalTaskTraceV1, size, out);
  return { violations: out.sorted(), jsonData };
}
