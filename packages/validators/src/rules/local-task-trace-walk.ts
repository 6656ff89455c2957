// One walk over a schema-valid LocalTaskTraceV1 that answers whether every digest rule of the
// contract (traceId, eventIds, prefixDigest: packages/schemas/src/digests/local-task-trace.ts) and
// every semantic rule (T1-T15, local-task-trace.ts) would report nothing. The rules each walk the
// events again and build their issue arrays, entries and pointers for a trace that has none;
// validate() runs this walk first, for a trace that passed the structural check with the default
// rules and digests, and runs the rules themselves only when it says no, so every issue of a
// trace is still the rules' own.
//
// Soundness: `true` only when each rule would return no issue; whatever the walk does not decide
// the way its rule does (mixed timestamp precisions, a value of an unexpected type, anything that
// throws) is `false`, which costs nothing but the rules' own run.
// packages/validators/test/rules/local-task-trace-walk.test.ts holds the walk to the rules'
// answers on every trace fixture and on edits of them, and pins the rule lists it stands for.
import { sha256Hex } from '@agent-contracts/digest';
import {
  jcsByteLength,
  TRACE_MAX_BYTES,
  TRACE_MAX_PAYLOAD_BYTES,
  TRACE_RESULTS_BY_TYPE,
} from '@agent-contracts/schemas';
import { eventSize, traceFieldsSize } from './local-task-trace.js';

/** The digest rules (their pointers) and semantic rules (their codes) the walk stands for. */
export const TRACE_WALK_COVERS = {
  digests: ['/traceId', '/events/*/eventId', '/prefixDigest'],
  rules: [
    'TRACE_BOUNDS_EXCEEDED',
    'TRACE_SEQUENCE_INVALID',
    'TRACE_DUPLICATE_EVENT',
    'TRACE_EVENT_INVALID',
    'TRACE_TERMINAL_INVALID',
    'TRACE_PREFIX_INVALID',
  ],
} as const;

const RESULTS = new Map<string, readonly string[]>(Object.entries(TRACE_RESULTS_BY_TYPE));

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** Whether no two of `ids` are equal (T8 decides it the same way). */
function distinct(events: ReadonlyArray<Record<string, unknown>>): boolean {
  const n = events.length;
  if (n <= 8) {
    for (let i = 1; i < n; i++) {
      const id = events[i]!.eventId;
      for (let j = 0; j < i; j++) if (id === events[j]!.eventId) return false;
    }
    return true;
  }
  const ids = new Set<unknown>();
  for (let i = 0; i < n; i++) ids.add(events[i]!.eventId);
  return ids.size === n;
}

function walk(t: Record<string, unknown>): boolean {
  const { traceId, turnKey, status, sequence, openedAt, completedAt, sequenceBase, droppedEvents } = t;
  const events = t.events as Array<Record<string, unknown>>;
  if (
    typeof traceId !== 'string' ||
    typeof turnKey !== 'string' ||
    typeof openedAt !== 'string' ||
    typeof status !== 'string' ||
    !Array.isArray(events) ||
    !isCount(sequence) ||
    !isCount(sequenceBase) ||
    !isCount(droppedEvents)
  )
    return false;
  const n = events.length;
  // T6, T14, T15 and the /prefixDigest digest rule (null exactly when nothing was dropped).
  if (sequence !== sequenceBase + n || droppedEvents !== sequenceBase) return false;
  const prefixDigest = Object.hasOwn(t, 'prefixDigest') ? t.prefixDigest : undefined;
  if (droppedEvents === 0 ? prefixDigest !== null : prefixDigest === null) return false;
  // T1 (with T2 per event), counted as the rule counts it.
  let size = traceFieldsSize(t as never) + Math.max(0, n - 1);
  let previousText = openedAt;
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    if (typeof e !== 'object' || e === null) return false;
    const { type, result, occurrenceKey, observedAt } = e;
    if (
      typeof type !== 'string' ||
      typeof result !== 'string' ||
      typeof occurrenceKey !== 'string' ||
      typeof observedAt !== 'string'
    )
      return false;
    // T5; T7 for timestamps of one precision (string order is instant order; mixed ones are left
    // to the rule).
    if (e.sequence !== sequenceBase + i + 1) return false;
    if (observedAt.length !== previousText.length || observedAt < previousText) return false;
    previousText = observedAt;
    // T10, and T9 with it: the vocabulary gives the terminal results to TurnTerminal alone. T11.
    const allowed = RESULTS.get(type);
    if (allowed === undefined || !allowed.includes(result)) return false;
    if (type === 'TurnTerminal' && i < n - 1) return false;
    // T2 and the event's share of T1.
    const bytes = jcsByteLength(e.payload);
    if (bytes > TRACE_MAX_PAYLOAD_BYTES) return false;
    size += eventSize(e, bytes);
  }
  if (size > TRACE_MAX_BYTES) return false;
  // T8.
  if (!distinct(events)) return false;
  // T12, T13.
  const last = events[n - 1];
  if (status === 'open') {
    if (completedAt !== null) return false;
    for (let i = 0; i < n; i++) if (events[i]!.type === 'TurnTerminal') return false;
  } else if (
    last === undefined ||
    last.type !== 'TurnTerminal' ||
    last.result !== status ||
    completedAt !== last.observedAt
  )
    return false;
  // The digest rules last, so that a trace one of the rules above refuses costs no hash here.
  // Every string of a schema-valid id input is its own JCS text between quotes (turnKey,
  // occurrenceKey and traceId by their patterns, openedAt by its date-time format, type by its
  // enum, checked above): the id texts are written as the digests' own writers (traceIdOf,
  // traceEventIdOf) write them after testing for it.
  // /traceId:
  if (traceId !== `trace-${sha256Hex(`{"openedAt":"${openedAt}","turnKey":"${turnKey}"}`).slice(0, 24)}`)
    return false;
  // /events/*/eventId:
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    const id = `event-${sha256Hex(`{"occurrenceKey":"${e.occurrenceKey as string}","traceId":"${traceId}","type":"${e.type as string}"}`).slice(0, 24)}`;
    if (e.eventId !== id) return false;
  }
  return true;
}

/**
 * Whether a LocalTaskTraceV1 that passed the structural check breaks none of its digest and
 * semantic rules: `true` only when they would all return no issue (see the file comment).
 */
export function traceIsClean(trace: unknown): boolean {
  try {
    return walk(trace as Record<string, unknown>);
  } catch {
    return false;
  }
}
