// The read-only replay projection (docs/spec/local-task-trace-gate.md, LocalTaskTraceReplayV1):
// the verdict on a stored trace and, only when it is valid, a faithful copy of every field. It
// reads its input and nothing else: it writes no state, re-runs no operation, opens or executes
// no payload and controls no process, which is what its fixed capability boundary declares.
import { digestOf } from '@agent-contracts/digest';
import type { LocalTaskTraceReplayV1, LocalTaskTraceV1 } from '@agent-contracts/schemas';
import { traceVerdict } from './verdict.js';

/** The capability boundary every replay carries: read-only, and the four capability flags false. */
export const TRACE_REPLAY_CAPABILITY_BOUNDARY: LocalTaskTraceReplayV1['capabilityBoundary'] = Object.freeze({
  readOnly: true,
  stateMutation: false,
  operationReplay: false,
  payloadExecution: false,
  processControl: false,
});

/**
 * Project a stored trace into a `LocalTaskTraceReplayV1`. Pass `undefined` when no trace exists
 * for the turn (`TRACE_NOT_FOUND`, `traceDigest` null). The input is never mutated and nothing in
 * it is executed; payloads are copied as data. Replaying the same trace twice gives JCS-equal
 * documents.
 *
 * @example
 * const replay = replayTrace(storedTrace);
 * if (!replay.ok) console.log(replay.errorCode, replay.violations.length);
 */
export function replayTrace(input: unknown): LocalTaskTraceReplayV1 {
  const { violations, jsonData } = traceVerdict(input);
  const traceDigest = jsonData ? digestOf(input) : null;
  const capabilityBoundary = { ...TRACE_REPLAY_CAPABILITY_BOUNDARY };
  if (violations.length > 0) {
    return {
      schemaVersion: 'LocalTaskTraceReplayV1',
      ok: false,
      errorCode: violations[0]!.errorCode,
      violations: violations.map((v) => ({ ...v })),
      capabilityBoundary,
      traceDigest,
      traceId: null,
      turnKey: null,
      status: null,
      sequence: null,
      openedAt: null,
      completedAt: null,
      sequenceBase: null,
      droppedEvents: null,
      prefixDigest: null,
      events: [],
    };
  }
  const t = input as LocalTaskTraceV1;
  return {
    schemaVersion: 'LocalTaskTraceReplayV1',
    ok: true,
    errorCode: null,
    violations: [],
    capabilityBoundary,
    traceDigest,
    traceId: t.traceId,
    turnKey: t.turnKey,
    status: t.status,
    sequence: t.sequence,
    openedAt: t.openedAt,
    completedAt: t.completedAt,
    sequenceBase: t.sequenceBase,
    droppedEvents: t.droppedEvents,
    prefixDigest: t.prefixDigest,
    events: structuredClone(t.events),
  };
}
