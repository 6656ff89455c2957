// Semantic and bundle rules of LocalTaskTraceGate (docs/spec/local-task-trace-gate.md). The
// trace rules are T1-T15 grouped by code (T3/T4 are the TRACE_ID_MISMATCH digest rules, and the
// "prefixDigest non-null with nothing dropped" half of T15 is the TRACE_PREFIX_INVALID digest
// rule); the replay rule is R1-R6 (its recomputed traceId, eventIds and traceDigest are digest
// rules with the same code); the bundle rule is B1-B3. This is an implementation independent of
// the recorder in @agent-contracts/engines; a test cross-checks the two.
import { canonicalize, digestOf } from '@agent-contracts/digest';
import {
  jcsByteLength,
  type LocalTaskTraceEvent,
  type LocalTaskTraceReplayV1,
  type LocalTaskTraceV1,
  TRACE_ERROR_PRECEDENCE,
  TRACE_MAX_BYTES,
  TRACE_MAX_PAYLOAD_BYTES,
  TRACE_RESULTS_BY_TYPE,
  traceFromReplay,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { bundleRule, issue, semanticRule } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const PAGE = 'docs/spec/local-task-trace-gate.md';
const TRACE_INVARIANTS = `${PAGE}#invariants`;
const REPLAY_INVARIANTS = `${PAGE}#invariants-1`;

const TERMINAL_RESULTS: readonly string[] = TRACE_RESULTS_BY_TYPE.TurnTerminal;

/** Nanosecond-padded form of a schema-valid timestamp, so string order is instant order. */
function instant(ts: string): string {
  const dot = ts.indexOf('.');
  return `${ts.slice(0, 19)}.${(dot < 0 ? '' : ts.slice(dot + 1, -1)).padEnd(9, '0')}`;
}

// --- T1-T15 as functions of a schema-valid trace, so the replay rule (R5) can reuse them ---------

type TraceCheck = (t: LocalTaskTraceV1, code: string, rule: string) => Issue[];

const PLAIN_KEY = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

// A schema-valid event has exactly these seven properties, and every string in it is printable
// ASCII without quote or backslash (eventId, occurrenceKey and observedAt by their patterns, type
// and result by their enums), so its JCS text is the names, the punctuation, each string plus its
// two quotes, the digits of sequence and the payload's own text.
const EVENT_KEYS = ['eventId', 'occurrenceKey', 'sequence', 'observedAt', 'type', 'result', 'payload'];
const EVENT_FIXED = EVENT_KEYS.reduce((n, k) => n + k.length + 2, 0) + 2 * EVENT_KEYS.length + 1 + 2 * 5; // + 5 strings' quotes

function digits(n: number): number {
  return n < 10 ? 1 : n < 100 ? 2 : n < 1_000 ? 3 : n < 10_000 ? 4 : String(n).length; // integers
}

/**
 * JCS size of one event whose payload is `payloadBytes` long: the same count as
 * `jcsByteLength({ ...e, payload: {} }) - 2 + payloadBytes`, without copying the event and without
 * measuring the payload twice. Semantic rules see schema-valid documents only (SemanticRule), whose
 * events have exactly the seven properties and plain strings; the type check keeps the arithmetic
 * away from anything else, which is counted key by key.
 */
export function eventSize(e: Record<string, unknown>, payloadBytes: number): number {
  const { eventId, occurrenceKey, sequence, observedAt, type, result } = e;
  if (
    typeof sequence === 'number' &&
    sequence > 0 &&
    typeof eventId === 'string' &&
    typeof occurrenceKey === 'string' &&
    typeof observedAt === 'string' &&
    typeof type === 'string' &&
    typeof result === 'string'
  )
    return (
      EVENT_FIXED +
      eventId.length +
      occurrenceKey.length +
      observedAt.length +
      type.length +
      result.length +
      digits(sequence) +
      payloadBytes
    );
  return eventSizeByKeys(e, payloadBytes);
}

function eventSizeByKeys(e: Record<string, unknown>, payloadBytes: number): number {
  if (!Object.hasOwn(e, 'payload')) return jcsByteLength({ ...e, payload: {} }) - 2 + payloadBytes;
  const keys = Object.keys(e);
  const n = keys.length;
  let size = 2 * n + 1; // braces, colons and commas (n >= 1: payload is a key)
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    if (!PLAIN_KEY.test(key)) return jcsByteLength({ ...e, payload: {} }) - 2 + payloadBytes;
    size += key.length + 2 + (key === 'payload' ? payloadBytes : jcsByteLength(e[key]));
  }
  return size;
}

// Likewise a schema-valid trace has exactly these eleven properties, every string in it is
// printable ASCII without quote or backslash (schemaVersion by its const, status by its enum, the
// ids, turnKey and timestamps by their patterns) and every number a non-negative integer, so the
// JCS text of the trace with `events: []` is the names, the punctuation, the strings plus their
// quotes, the digits and `null`s.
const TRACE_KEYS = [
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
];
const TRACE_FIXED = TRACE_KEYS.reduce((n, k) => n + k.length + 2, 0) + 2 * TRACE_KEYS.length + 1 + 2; // + `[]`

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const nullableSize = (v: unknown) => (v === null ? 4 : (v as string).length + 2);
const isNullableString = (v: unknown) => v === null || typeof v === 'string';

/** JCS size of `{ ...t, events: [] }` without copying the trace (types checked as eventSize does). */
export function traceFieldsSize(t: LocalTaskTraceV1): number {
  const {
    schemaVersion,
    traceId,
    turnKey,
    status,
    sequence,
    openedAt,
    completedAt,
    sequenceBase,
    droppedEvents,
    prefixDigest,
  } = t as unknown as Record<string, unknown>;
  if (
    typeof schemaVersion === 'string' &&
    typeof traceId === 'string' &&
    typeof turnKey === 'string' &&
    typeof status === 'string' &&
    typeof openedAt === 'string' &&
    isNullableString(completedAt) &&
    isNullableString(prefixDigest) &&
    isCount(sequence) &&
    isCount(sequenceBase) &&
    isCount(droppedEvents)
  )
    return (
      TRACE_FIXED +
      schemaVersion.length +
      traceId.length +
      turnKey.length +
      status.length +
      openedAt.length +
      2 * 5 +
      nullableSize(completedAt) +
      nullableSize(prefixDigest) +
      digits(sequence) +
      digits(sequenceBase) +
      digits(droppedEvents)
    );
  return jcsByteLength({ ...t, events: [] });
}

/**
 * The JCS sizes of the trace and of each payload, counting every payload once: the trace's JCS
 * text is its other fields, then each event's text (in which `{}` stands for the payload, plus the
 * payload's own text) joined by commas. When any part has no JCS form, the whole trace is
 * measured first, as T1 states, so the error is the one for the whole document.
 */
function traceSizes(t: LocalTaskTraceV1): { size: number; payloads: number[] } {
  try {
    const payloads: number[] = [];
    const n = t.events.length;
    let size = traceFieldsSize(t) + Math.max(0, n - 1);
    for (let i = 0; i < n; i++) {
      const e = t.events[i]!;
      const bytes = jcsByteLength(e.payload);
      payloads.push(bytes);
      size += eventSize(e as unknown as Record<string, unknown>, bytes);
    }
    return { size, payloads };
  } catch {
    return { size: jcsByteLength(t), payloads: t.events.map((e) => jcsByteLength(e.payload)) };
  }
}

const boundsChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  const { size, payloads } = traceSizes(t);
  if (size > TRACE_MAX_BYTES)
    out.push(
      issue(
        code,
        '',
        `T1: the trace is ${size} bytes of JCS, more than ${TRACE_MAX_BYTES}; a recorder drops the oldest events (folding them into prefixDigest) until it fits. Refuse the trace.`,
        rule,
      ),
    );
  t.events.forEach((_e, i) => {
    const bytes = payloads[i]!;
    if (bytes > TRACE_MAX_PAYLOAD_BYTES)
      out.push(
        issue(
          code,
          `/events/${i}/payload`,
          `T2: the payload is ${bytes} bytes of JCS, more than ${TRACE_MAX_PAYLOAD_BYTES}; a recorder refuses such an append, so reduce the payload to its recommended keys.`,
          rule,
        ),
      );
  });
  return out;
};

const sequenceChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  if (t.sequence !== t.sequenceBase + t.events.length)
    out.push(
      issue(
        code,
        '/sequence',
        `T6: sequence is ${t.sequence} but must be sequenceBase + events.length = ${t.sequenceBase + t.events.length}; refuse the trace, do not renumber it.`,
        rule,
      ),
    );
  // Timestamps written with the same number of fractional digits (the usual case) compare as
  // strings; only mixed precisions need the padded form.
  let previousText = t.openedAt;
  let previous: string | null = null;
  t.events.forEach((e, i) => {
    const expected = t.sequenceBase + i + 1;
    if (e.sequence !== expected)
      out.push(
        issue(
          code,
          `/events/${i}/sequence`,
          `T5: events[${i}].sequence is ${e.sequence} but must be sequenceBase + ${i + 1} = ${expected} (consecutive, no gaps); refuse the trace, do not renumber it.`,
          rule,
        ),
      );
    const text = e.observedAt;
    let now: string | null = null;
    let earlier: boolean;
    if (text.length === previousText.length) earlier = text < previousText;
    else {
      now = instant(text);
      previous ??= instant(previousText);
      earlier = now < previous;
    }
    if (earlier)
      out.push(
        issue(
          code,
          `/events/${i}/observedAt`,
          `T7: events[${i}].observedAt is earlier than ${i === 0 ? 'openedAt' : `events[${i - 1}].observedAt`}; observation times never decrease (equal is allowed). Refuse the trace.`,
          rule,
        ),
      );
    previousText = text;
    previous = now;
  });
  return out;
};

const duplicateChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  // Whether any id repeats: pairwise for a few events, else one set insertion per event; only a
  // trace that repeats an id is walked again to name them.
  const events = t.events;
  const n = events.length;
  if (n <= 8) {
    let repeats = false;
    for (let i = 1; i < n && !repeats; i++)
      for (let j = 0; j < i; j++)
        if (events[i]!.eventId === events[j]!.eventId) {
          repeats = true;
          break;
        }
    if (!repeats) return out;
  } else {
    const ids = new Set<string>();
    for (let i = 0; i < n; i++) ids.add(events[i]!.eventId);
    if (ids.size === n) return out;
  }
  const first = new Map<string, number>();
  t.events.forEach((e, i) => {
    const j = first.get(e.eventId);
    if (j === undefined) first.set(e.eventId, i);
    else
      out.push(
        issue(
          code,
          `/events/${i}/eventId`,
          `T8: events[${i}] repeats the eventId of events[${j}] (a re-delivered occurrence); a recorder refuses the duplicate instead of appending it. Refuse the trace.`,
          rule,
        ),
      );
  });
  return out;
};

const isTerminalPairingBroken = (e: LocalTaskTraceEvent) =>
  (e.type === 'TurnTerminal') !== TERMINAL_RESULTS.includes(e.result);

const eventChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  const events = t.events;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (!isTerminalPairingBroken(e) && !TRACE_RESULTS_BY_TYPE[e.type].includes(e.result))
      out.push(
        issue(
          code,
          `/events/${i}/result`,
          `T10: result "${e.result}" is not allowed for type ${e.type} (allowed: ${TRACE_RESULTS_BY_TYPE[e.type].join(', ')}); fix the recorder's type/result pairing.`,
          rule,
        ),
      );
  }
  return out;
};

const terminalChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  t.events.forEach((e, i) => {
    if (isTerminalPairingBroken(e))
      out.push(
        issue(
          code,
          `/events/${i}/result`,
          e.type === 'TurnTerminal'
            ? `T9: a TurnTerminal event carries the non-terminal result "${e.result}"; it must be complete, failed or interrupted.`
            : `T9: ${e.type} carries the terminal result "${e.result}"; only TurnTerminal closes a trace (a tool result is not turn completion).`,
          rule,
        ),
      );
    if (e.type === 'TurnTerminal' && i < t.events.length - 1)
      out.push(
        issue(
          code,
          `/events/${i}/type`,
          `T11: TurnTerminal at events[${i}] is not the last event; nothing may follow the terminal event (start a new trace for the next turn).`,
          rule,
        ),
      );
  });
  const last = t.events.at(-1);
  if (t.status === 'open') {
    if (t.completedAt !== null)
      out.push(
        issue(
          code,
          '/completedAt',
          'T12: the trace is open but has a completedAt; it must be null until the TurnTerminal event.',
          rule,
        ),
      );
    else if (t.events.some((e) => e.type === 'TurnTerminal'))
      out.push(
        issue(
          code,
          '/status',
          "T12: the trace has a TurnTerminal event but status is open; status must be that event's result.",
          rule,
        ),
      );
  } else if (last === undefined || last.type !== 'TurnTerminal' || last.result !== t.status) {
    out.push(
      issue(
        code,
        '/status',
        `T13: status is ${t.status} but the last event is not a TurnTerminal with result ${t.status}; a closed trace ends with exactly one terminal event whose result is the status.`,
        rule,
      ),
    );
  } else if (t.completedAt !== last.observedAt) {
    out.push(
      issue(
        code,
        '/completedAt',
        `T13: completedAt must be string-identical to the TurnTerminal event's observedAt (${last.observedAt}); an equal instant written differently does not count.`,
        rule,
      ),
    );
  }
  return out;
};

const prefixChecks: TraceCheck = (t, code, rule) => {
  const out: Issue[] = [];
  if (t.droppedEvents !== t.sequenceBase)
    out.push(
      issue(
        code,
        '/droppedEvents',
        `T14: droppedEvents is ${t.droppedEvents} but sequenceBase is ${t.sequenceBase}; every drop advances both by one, so they are always equal. Refuse the trace.`,
        rule,
      ),
    );
  // The other half of T15 (a prefixDigest with nothing dropped) is the /prefixDigest digest rule.
  if (t.prefixDigest === null && t.droppedEvents > 0)
    out.push(
      issue(
        code,
        '/prefixDigest',
        `T15: ${t.droppedEvents} events were dropped but prefixDigest is null; it must be the fold over the dropped events. Refuse the trace.`,
        rule,
      ),
    );
  return out;
};

/**
 * T1-T15 as [code, description, check], in rule order: each is a rule of its own, and the replay
 * runs every check on the trace it rebuilds (R5).
 */
const TRACE_CHECKS: ReadonlyArray<readonly [code: string, description: string, check: TraceCheck]> = [
  [
    'TRACE_BOUNDS_EXCEEDED',
    'T1/T2: the whole trace is at most 131072 bytes of JCS and every event payload at most 8192 bytes of JCS.',
    boundsChecks,
  ],
  [
    'TRACE_SEQUENCE_INVALID',
    'T5/T6/T7: events[i].sequence = sequenceBase + i + 1, sequence = sequenceBase + events.length, and observedAt never decreases (from openedAt on).',
    sequenceChecks,
  ],
  ['TRACE_DUPLICATE_EVENT', 'T8: no two events of a trace have the same eventId.', duplicateChecks],
  [
    'TRACE_EVENT_INVALID',
    'T10: every event result is one the result vocabulary table allows for its type (terminal pairings are T9).',
    eventChecks,
  ],
  [
    'TRACE_TERMINAL_INVALID',
    'T9/T11/T12/T13: only TurnTerminal carries a terminal result; it is the last event; an open trace has none and no completedAt; a closed trace ends with one whose result is status and whose observedAt is completedAt.',
    terminalChecks,
  ],
  [
    'TRACE_PREFIX_INVALID',
    'T14/T15: droppedEvents equals sequenceBase, and prefixDigest is non-null when events were dropped (null when none were: digest rule).',
    prefixChecks,
  ],
];

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const LOCAL_TASK_TRACE_RULES: readonly SemanticRule[] = [
  ...TRACE_CHECKS.map(([code, description, check]) =>
    semanticRule<LocalTaskTraceV1>(code, 'LocalTaskTraceV1', TRACE_INVARIANTS, description, (t) =>
      check(t, code, TRACE_INVARIANTS),
    ),
  ),
  semanticRule<LocalTaskTraceReplayV1>(
    'TRACE_REPLAY_MISMATCH',
    'LocalTaskTraceReplayV1',
    REPLAY_INVARIANTS,
    'R1-R6: ok iff no violations; errorCode is null iff ok, else violations[0].errorCode; violations in verdict order without repeated pairs; an invalid trace copies nothing; a valid one copies every field and rebuilds a trace that breaks none of T1-T15; TRACE_NOT_FOUND stands alone.',
    replayIssues,
  ),
];

const COPIED = [
  'traceId',
  'turnKey',
  'status',
  'sequence',
  'openedAt',
  'completedAt',
  'sequenceBase',
  'droppedEvents',
  'prefixDigest',
] as const;

function replayIssues(r: LocalTaskTraceReplayV1): Issue[] {
  const code = 'TRACE_REPLAY_MISMATCH';
  const rule = REPLAY_INVARIANTS;
  const out: Issue[] = [];
  const v = r.violations;
  // R1
  if (r.ok !== (v.length === 0))
    out.push(
      issue(
        code,
        '/ok',
        `R1: ok is ${r.ok} but violations has ${v.length} entries; ok is true exactly when violations is empty. Discard the replay and replay the stored trace again.`,
        rule,
      ),
    );
  // R2
  const expectedCode = r.ok ? null : (v[0]?.errorCode ?? null);
  if (r.errorCode !== expectedCode)
    out.push(
      issue(
        code,
        '/errorCode',
        `R2: errorCode must be ${expectedCode === null ? 'null' : `violations[0].errorCode (${expectedCode})`}. Discard the replay and replay the trace again.`,
        rule,
      ),
    );
  // R3
  const rank = (c: string) => TRACE_ERROR_PRECEDENCE.indexOf(c as never);
  for (let i = 1; i < v.length; i++) {
    const a = v[i - 1]!;
    const b = v[i]!;
    const order = rank(a.errorCode) - rank(b.errorCode) || (a.eventIndex ?? -1) - (b.eventIndex ?? -1);
    if (order >= 0) {
      out.push(
        issue(
          code,
          `/violations/${i}`,
          order === 0
            ? `R3: violations[${i}] repeats the (errorCode, eventIndex) pair of violations[${i - 1}]; each pair appears once.`
            : `R3: violations[${i}] is out of verdict order (code precedence, then eventIndex with null first).`,
          rule,
        ),
      );
      break;
    }
  }
  // R6
  if (v.some((x) => x.errorCode === 'TRACE_NOT_FOUND') && (v.length !== 1 || v[0]!.eventIndex !== null))
    out.push(
      issue(
        code,
        '/violations',
        'R6: TRACE_NOT_FOUND is the only violation of its verdict, with eventIndex null: without identity nothing else is judged.',
        rule,
      ),
    );
  if (!r.ok) {
    // R4 (traceId is checked by the /traceId digest rule, which expects null when not ok)
    for (const field of COPIED)
      if (field !== 'traceId' && r[field] !== null)
        out.push(
          issue(
            code,
            `/${field}`,
            `R4: the replay of an invalid trace copies nothing, so ${field} must be null.`,
            rule,
          ),
        );
    if (r.events.length > 0)
      out.push(
        issue(
          code,
          '/events',
          'R4: the replay of an invalid trace copies no events; events must be empty.',
          rule,
        ),
      );
    return out;
  }
  // R5 (traceId, eventIds and traceDigest are recomputed by the digest rules)
  const missing = COPIED.filter(
    (f) => f !== 'traceId' && f !== 'completedAt' && f !== 'prefixDigest' && r[f] === null,
  );
  for (const field of missing)
    out.push(
      issue(code, `/${field}`, `R5: an ok replay copies the trace's ${field}; it must not be null.`, rule),
    );
  if (missing.length > 0 || r.traceId === null) return out;
  const rebuilt = traceFromReplay(r as unknown as Record<string, unknown>) as unknown as LocalTaskTraceV1;
  for (const [, , check] of TRACE_CHECKS)
    for (const i of check(rebuilt, code, rule))
      out.push({ ...i, message: `R5: the trace rebuilt from this replay breaks ${i.message}` });
  return out;
}

// --- trace-replay bundles --------------------------------------------------------------------

function bundleIssues(documents: readonly ContractDocument[]): Issue[] {
  const code = 'TRACE_REPLAY_MISMATCH';
  const rule = REPLAY_INVARIANTS;
  const [trace, replay] = documents as unknown as [
    LocalTaskTraceV1 | undefined,
    LocalTaskTraceReplayV1 | undefined,
  ];
  if (
    documents.length !== 2 ||
    trace?.schemaVersion !== 'LocalTaskTraceV1' ||
    replay?.schemaVersion !== 'LocalTaskTraceReplayV1'
  )
    return [
      issue(
        'BUNDLE_INVALID',
        '/documents',
        'a trace-replay bundle is exactly [LocalTaskTraceV1, LocalTaskTraceReplayV1]: the trace as read, then the replay produced from it.',
        'bundle',
      ),
    ];
  const out: Issue[] = [];
  // B1
  const digest = digestOf(trace);
  if (replay.traceDigest !== digest)
    out.push(
      issue(
        code,
        '/documents/1/traceDigest',
        `B1: traceDigest must be digestOf of the trace it projects (${digest}); this replay is of another document. Replay the stored trace again.`,
        rule,
      ),
    );
  // B2: the trace passed validation on its own (bundle rules run only then), so its verdict is empty.
  if (!replay.ok || replay.violations.length > 0)
    out.push(
      issue(
        code,
        '/documents/1/ok',
        'B2: the trace is valid, so its replay must be ok with no violations; discard the replay and replay the trace again.',
        rule,
      ),
    );
  // B3
  if (replay.ok) {
    for (const field of COPIED)
      if (replay[field] !== trace[field])
        out.push(
          issue(code, `/documents/1/${field}`, `B3: ${field} must be a copy of the trace's ${field}.`, rule),
        );
    if (replay.events.length !== trace.events.length)
      out.push(
        issue(
          code,
          '/documents/1/events',
          `B3: the replay has ${replay.events.length} events, the trace ${trace.events.length}; an ok replay copies every event.`,
          rule,
        ),
      );
    else {
      const i = replay.events.findIndex((e, k) => canonicalize(e) !== canonicalize(trace.events[k]));
      if (i >= 0)
        out.push(
          issue(
            code,
            `/documents/1/events/${i}`,
            `B3: events[${i}] is not a JCS-equal copy of the trace's events[${i}].`,
            rule,
          ),
        );
    }
  }
  return out;
}

/** Cross-document rules of this area's bundle kinds. */
export const LOCAL_TASK_TRACE_BUNDLE_RULES: readonly BundleRule[] = [
  bundleRule(
    'TRACE_REPLAY_MISMATCH',
    'trace-replay',
    REPLAY_INVARIANTS,
    "B1-B3: in [LocalTaskTraceV1, LocalTaskTraceReplayV1], the replay is exactly the projection of that trace: traceDigest = digestOf(trace), its verdict is the trace's (ok for a valid trace), and every copied field and event equals the trace's.",
    bundleIssues,
  ),
];
