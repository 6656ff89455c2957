import { canonicalize, derivedId, digestOf } from '@agent-contracts/digest';
import type { DigestRule } from '../digest-rules.js';

// Digests and derived ids of LocalTaskTraceGate. All are RFC 8785 JCS + SHA-256 (digestOf /
// derivedId); nothing here hashes JSON.stringify output or a hand-joined string.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `trace-` + first 24 hex of `digestOf({turnKey, openedAt})`. */
export function traceIdOf(turnKey: string, openedAt: string): string {
  return derivedId('trace-', { turnKey, openedAt }, 24);
}

/** `event-` + first 24 hex of `digestOf({traceId, type, occurrenceKey})`. */
export function traceEventIdOf(traceId: string, type: string, occurrenceKey: string): string {
  return derivedId('event-', { traceId, type, occurrenceKey }, 24);
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

/**
 * Size of a trace (or of a payload) in the sense of the bounds: the UTF-8 byte length of its
 * RFC 8785 (JCS) form. Throws, like `digestOf`, on anything that is not plain JSON data.
 */
export function jcsByteLength(value: unknown): number {
  return new TextEncoder().encode(canonicalize(value)).length;
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

function eventIdEntries(doc: Json, traceId: unknown): Array<{ pointer: string; expected: string | null }> {
  if (!Array.isArray(doc.events) || typeof traceId !== 'string') return [];
  return doc.events.flatMap((e, i) =>
    isObject(e) && typeof e.type === 'string' && typeof e.occurrenceKey === 'string'
      ? [{ pointer: `/events/${i}/eventId`, expected: traceEventIdOf(traceId, e.type, e.occurrenceKey) }]
      : [],
  );
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
    compute(document) {
      const d = document as Json;
      return d.ok === true ? eventIdEntries(d, d.traceId) : [];
    },
  },
];
