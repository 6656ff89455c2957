import { canonicalize, derivedId, digestOf, sha256Hex } from '@agent-contracts/digest';
import type { DigestRule } from '../digest-rules.js';

// Digests and derived ids of LocalTaskTraceGate. All are RFC 8785 JCS + SHA-256 (digestOf /
// derivedId); nothing here hashes JSON.stringify output or a hand-joined string.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// A validator derives one id per event, so the two id functions write the JCS text of their
// small objects directly when every string is its own JCS form between quotes (no character JSON
// escapes, no surrogate); anything else goes through digestOf. Same bytes, same digest.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const VERBATIM = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** `trace-` + first 24 hex of `digestOf({turnKey, openedAt})`. */
export function traceIdOf(turnKey: string, openedAt: string): string {
  if (
    typeof turnKey === 'string' &&
    typeof openedAt === 'string' &&
    VERBATIM.test(turnKey) &&
    VERBATIM.test(openedAt)
  )
    return `trace-${sha256Hex(`{"openedAt":"${openedAt}","turnKey":"${turnKey}"}`).slice(0, 24)}`;
  return derivedId('trace-', { turnKey, openedAt }, 24);
}

/** `event-` + first 24 hex of `digestOf({traceId, type, occurrenceKey})`. */
export function traceEventIdOf(traceId: string, type: string, occurrenceKey: string): string {
  const hex = eventIdDigest(
    traceId,
    typeof traceId === 'string' && VERBATIM.test(traceId),
    type,
    occurrenceKey,
  );
  return `event-${hex.slice(0, 24)}`;
}

// Event types are a dozen names repeated in every trace: remember the verbatim ones (bounded, so a
// hostile document cannot grow the set without limit).
const VERBATIM_TYPES = new Set<string>();
function verbatimType(type: string): boolean {
  if (VERBATIM_TYPES.has(type)) return true;
  if (!VERBATIM.test(type)) return false;
  if (VERBATIM_TYPES.size < 64 && type.length <= 64) VERBATIM_TYPES.add(type);
  return true;
}

/**
 * `digestOf({traceId, type, occurrenceKey})`; `verbatimTrace` says whether `traceId` is a string
 * that is its own JCS text between quotes (tested once per trace by the caller).
 */
function eventIdDigest(traceId: string, verbatimTrace: boolean, type: string, occurrenceKey: string): string {
  if (
    verbatimTrace &&
    typeof type === 'string' &&
    typeof occurrenceKey === 'string' &&
    verbatimType(type) &&
    VERBATIM.test(occurrenceKey)
  )
    return sha256Hex(`{"occurrenceKey":"${occurrenceKey}","traceId":"${traceId}","type":"${type}"}`);
  return digestOf({ traceId, type, occurrenceKey });
}

/**
 * One step of the prefix fold: the digest after dropping `event` (the oldest retained event,
 * copied exactly as it was stored) on top of `previous` (`null` before the first drop).
 */
export function foldPrefixDigest(previous: string | null, event: unknown): string {
  return digestOf({ prefixDigest: previous, event });
}

/** `prefixDigest` after dropping `events` in order (oldest first) from a trace whose prefix was `previous`. */
export function prefixDigestOf(events: readonly unknown[], previous: string | null = null): string | null {
  return events.reduce<string | null>((acc, event) => foldPrefixDigest(acc, event), previous);
}

// jcsByteLength counts the bytes of the JCS text without building it: key order does not change
// the length, and a string of printable ASCII other than quote and backslash is its length + 2.
// Anything else (non-ASCII or escaped text, values that are not plain JSON, deep nesting)
// abandons the count, and the text is built and encoded, which also throws the precise
// DigestError for values that have no JCS form.
const UNUSUAL = Symbol('jcs-size-unusual');
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const MAX_COUNT_DEPTH = 256;

// Documents repeat a few property names thousands of times; remember the plain ones.
const PLAIN_KEYS = new Set<string>();
function plainKey(key: string): boolean {
  if (PLAIN_KEYS.has(key)) return true;
  if (!PLAIN_ASCII.test(key)) return false;
  if (PLAIN_KEYS.size < 4096 && key.length <= 64) PLAIN_KEYS.add(key);
  return true;
}

function jcsSize(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      if (PLAIN_ASCII.test(value)) return value.length + 2;
      throw UNUSUAL;
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      // Small non-negative integers (sequences, sizes) are counted without formatting them.
      if (value >= 0 && value < 1e9 && Number.isInteger(value) && !Object.is(value, -0))
        return value < 10
          ? 1
          : value < 100
            ? 2
            : value < 1e3
              ? 3
              : value < 1e4
                ? 4
                : value < 1e5
                  ? 5
                  : value < 1e6
                    ? 6
                    : value < 1e7
                      ? 7
                      : value < 1e8
                        ? 8
                        : 9;
      if (!Number.isFinite(value)) throw UNUSUAL;
      return String(value).length;
    case 'object': {
      if (value === null) return 4;
      if (depth > MAX_COUNT_DEPTH) throw UNUSUAL;
      if (Array.isArray(value)) {
        const n = value.length;
        let size = n === 0 ? 2 : n + 1; // brackets and commas
        for (let i = 0; i < n; i++) {
          const item: unknown = value[i];
          if (item === undefined) throw UNUSUAL;
          size += jcsSize(item, depth + 1);
        }
        return size;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw UNUSUAL;
      const record = value as Json;
      const keys = Object.keys(record);
      const n = keys.length;
      let size = n === 0 ? 2 : 2 * n + 1; // braces, colons and commas
      for (let i = 0; i < n; i++) {
        const key = keys[i]!;
        if (!plainKey(key)) throw UNUSUAL;
        size += key.length + 2 + jcsSize(record[key], depth + 1);
      }
      return size;
    }
    default:
      throw UNUSUAL;
  }
}

/**
 * Size of a trace (or of a payload) in the sense of the bounds: the UTF-8 byte length of its
 * RFC 8785 (JCS) form. Throws, like `digestOf`, on anything that is not plain JSON data.
 */
export function jcsByteLength(value: unknown): number {
  try {
    return jcsSize(value, 0);
  } catch (err) {
    if (err !== UNUSUAL) throw err;
    return new TextEncoder().encode(canonicalize(value)).length;
  }
}

/** The LocalTaskTraceV1 a valid replay projects (every copied field, in the trace's shape). */
export function traceFromReplay(replay: Json): Json {
  return {
    schemaVersion: 'LocalTaskTraceV1',
    traceId: replay.traceId,
    turnKey: replay.turnKey,
    status: replay.status,
    sequence: replay.sequence,
    openedAt: replay.openedAt,
    completedAt: replay.completedAt,
    sequenceBase: replay.sequenceBase,
    droppedEvents: replay.droppedEvents,
    prefixDigest: replay.prefixDigest,
    events: replay.events,
  };
}

/**
 * An entry may also carry `actual`: the value at `pointer` (own properties only, `undefined` when
 * absent), so a validator comparing one entry per event need not resolve the pointer again.
 */
type Entry = { pointer: string; expected: string | null; actual?: unknown };

/**
 * One entry per event whose eventId can be derived; with `mismatchesOnly`, only those that do not
 * equal the derivation (so a validator builds no entry and no pointer for an event that agrees).
 */
function eventIdEntries(
  doc: Json,
  traceId: unknown,
  mismatchesOnly = false,
): Array<Entry & { actual: unknown }> {
  if (!Array.isArray(doc.events) || typeof traceId !== 'string') return [];
  const out: Array<Entry & { actual: unknown }> = [];
  const events: unknown[] = doc.events;
  const verbatimTrace = VERBATIM.test(traceId);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (!isObject(e) || typeof e.type !== 'string' || typeof e.occurrenceKey !== 'string') continue;
    const hex = eventIdDigest(traceId, verbatimTrace, e.type, e.occurrenceKey);
    const actual = Object.hasOwn(e, 'eventId') ? e.eventId : undefined;
    const expected = `event-${hex.slice(0, 24)}`;
    if (!mismatchesOnly || actual !== expected)
      out.push({ pointer: `/events/${i}/eventId`, expected, actual });
  }
  return out;
}

/** Digest rules of this area's contracts. */
export const LOCAL_TASK_TRACE_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'LocalTaskTraceV1',
    pointer: '/traceId',
    code: 'TRACE_ID_MISMATCH',
    covers:
      '`"trace-"` + the first 24 hex characters of `digestOf({turnKey, openedAt})`, both exactly as written in the trace.',
    compute(document) {
      const d = document as Json;
      return [{ pointer: '/traceId', expected: traceIdOf(d.turnKey as string, d.openedAt as string) }];
    },
    mismatches(document) {
      const d = document as Json;
      const expected = traceIdOf(d.turnKey as string, d.openedAt as string);
      const actual = Object.hasOwn(d, 'traceId') ? d.traceId : undefined;
      return actual === expected ? [] : [{ pointer: '/traceId', expected, actual }];
    },
  },
  {
    contract: 'LocalTaskTraceV1',
    pointer: '/events/*/eventId',
    code: 'TRACE_ID_MISMATCH',
    covers:
      '`"event-"` + the first 24 hex characters of `digestOf({traceId, type, occurrenceKey})`: the trace\'s `traceId` and the event\'s own `type` and `occurrenceKey`.',
    compute(document) {
      const d = document as Json;
      return eventIdEntries(d, d.traceId);
    },
    mismatches(document) {
      const d = document as Json;
      return eventIdEntries(d, d.traceId, true);
    },
  },
  {
    contract: 'LocalTaskTraceV1',
    pointer: '/prefixDigest',
    code: 'TRACE_PREFIX_INVALID',
    covers:
      'Oldest-first fold over the dropped events e_1..e_n (n = `droppedEvents`), each the complete event object exactly as it was retained: `p_0 = null`, `p_k = digestOf({prefixDigest: p_(k-1), event: e_k})`, `prefixDigest = p_n`. `null` iff n = 0. Recomputable from one document only when n = 0; otherwise from the dropped events (an earlier copy of the trace).',
    compute(document) {
      const d = document as Json;
      return d.droppedEvents === 0 ? [{ pointer: '/prefixDigest', expected: null }] : [];
    },
    mismatches(document) {
      const d = document as Json;
      if (d.droppedEvents !== 0) return [];
      const actual = Object.hasOwn(d, 'prefixDigest') ? d.prefixDigest : undefined;
      return actual === null ? [] : [{ pointer: '/prefixDigest', expected: null, actual }];
    },
  },
  {
    contract: 'LocalTaskTraceReplayV1',
    pointer: '/traceDigest',
    code: 'TRACE_REPLAY_MISMATCH',
    covers:
      '`digestOf` of the whole LocalTaskTraceV1 document the replay read, every field included. When `ok`, equal to `digestOf({schemaVersion: "LocalTaskTraceV1", traceId, turnKey, status, sequence, openedAt, completedAt, sequenceBase, droppedEvents, prefixDigest, events})` rebuilt from the replay\'s own copies; when not `ok`, recomputable only from the input (or `null` when none was read).',
    compute(document) {
      const d = document as Json;
      return d.ok === true ? [{ pointer: '/traceDigest', expected: digestOf(traceFromReplay(d)) }] : [];
    },
  },
  {
    contract: 'LocalTaskTraceReplayV1',
    pointer: '/traceId',
    code: 'TRACE_REPLAY_MISMATCH',
    covers:
      'When `ok`: `"trace-"` + the first 24 hex characters of `digestOf({turnKey, openedAt})` of the replay\'s copies; `null` when not `ok`.',
    compute(document) {
      const d = document as Json;
      return [
        {
          pointer: '/traceId',
          expected: d.ok === true ? traceIdOf(d.turnKey as string, d.openedAt as string) : null,
        },
      ];
    },
  },
  {
    contract: 'LocalTaskTraceReplayV1',
    pointer: '/events/*/eventId',
    code: 'TRACE_REPLAY_MISMATCH',
    covers:
      'When `ok`: `"event-"` + the first 24 hex characters of `digestOf({traceId, type, occurrenceKey})`, as in the trace (events are empty when not `ok`).',
    mismatches(document) {
      const d = document as Json;
      return d.ok === true ? eventIdEntries(d, d.traceId, true) : [];
    },
    compute(document) {
      const d = document as Json;
      return d.ok === true ? eventIdEntries(d, d.traceId) : [];
    },
  },
];
