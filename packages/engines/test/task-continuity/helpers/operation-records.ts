// Operation records and sets in every phase of the operation edge table
// (docs/spec/task-continuity-write-gate.md#phase-shape), one second apart, for the unit tests of
// checkOperationTransition and checkOperationSetTransition. The records follow the phase shape
// table exactly; a test breaks one field at a time.
import { createHash } from 'node:crypto';
import {
  recordDigestOf,
  settledSetDigestOf,
  type TaskOperationRecordV1,
  type TaskOperationSettledRefV1,
  type TaskOperationSetV1,
  targetSetDigestOf,
} from '@agent-contracts/schemas';

export const sha = (s: string) => createHash('sha256').update(s).digest('hex');
export const INVALID = 'TASK_OPERATION_TRANSITION_INVALID';

/** The instant `s` seconds after the record was prepared. */
export const at = (s: number) => `2026-11-30T06:00:${String(s).padStart(2, '0')}.000Z`;

/** A refusal of the edge checks with `message`. */
export const refused = (message: string) => ({ ok: false, code: INVALID, message });

const sealed = (r: Omit<TaskOperationRecordV1, 'recordDigest'>): TaskOperationRecordV1 => ({
  ...r,
  recordDigest: recordDigestOf(r as never),
});

const exactTargets = ['docs/a.md', 'src/b.ts'];

/** A fresh `prepared` record of generation 2, prepared at second 10. */
export const prepared: TaskOperationRecordV1 = sealed({
  schemaVersion: 'TaskOperationRecordV1',
  operationId: 'op-1',
  idempotencyKey: 'idem-1',
  writerGeneration: 2,
  expectedStateSequence: 5,
  kind: 'update',
  exactTargets,
  targetSetDigest: targetSetDigestOf(exactTargets),
  beforeDigest: sha('before'),
  phase: 'prepared',
  effect: 'none',
  preparedAt: at(10),
  dispatchedAt: null,
  observedAt: null,
  settledAt: null,
  resultDigest: null,
  evidenceDigest: null,
});

/** `prepared` dispatched at second 20. */
export const dispatched = sealed({
  ...prepared,
  phase: 'dispatched',
  effect: 'unknown',
  dispatchedAt: at(20),
});

/** `dispatched` observed at second 30. */
export const observed = sealed({
  ...dispatched,
  phase: 'observed',
  observedAt: at(30),
  resultDigest: sha('result'),
});

/** `observed` settled (known-applied) at second 40. */
export const settled = sealed({
  ...observed,
  phase: 'settled',
  effect: 'known-applied',
  settledAt: at(40),
  evidenceDigest: sha('evidence'),
});

/** `dispatched` marked reconcile-required (never observed). */
export const reconcileFromDispatched = sealed({ ...dispatched, phase: 'reconcile-required' });

/** `observed` marked reconcile-required. */
export const reconcileFromObserved = sealed({ ...observed, phase: 'reconcile-required' });

/** `reconcileFromDispatched` reconciled (known-not-applied) at second 40. */
export const reconciled = sealed({
  ...reconcileFromDispatched,
  phase: 'settled',
  effect: 'known-not-applied',
  settledAt: at(40),
  evidenceDigest: sha('evidence'),
});

/** `prepared` aborted at second 15. */
export const aborted = sealed({ ...prepared, phase: 'aborted-zero-effect', settledAt: at(15) });

/** The settled ref of the resolved `record`. */
export function refOf(record: TaskOperationRecordV1): TaskOperationSettledRefV1 {
  return {
    operationId: record.operationId,
    idempotencyKey: record.idempotencyKey,
    writerGeneration: record.writerGeneration,
    phase: record.phase as TaskOperationSettledRefV1['phase'],
    effect: record.effect,
    recordDigest: record.recordDigest,
    settledAt: record.settledAt as string,
  };
}

/** `count` refs of earlier operations (`old-1`, ...), each settled known-applied. */
export function olderRefs(count: number): TaskOperationSettledRefV1[] {
  return Array.from({ length: count }, (_, i) => ({
    operationId: `old-${i + 1}`,
    idempotencyKey: `old-idem-${i + 1}`,
    writerGeneration: 1,
    phase: 'settled',
    effect: 'known-applied',
    recordDigest: sha(`old-${i + 1}`),
    settledAt: at(1),
  }));
}

/** The operation set holding `unresolved` and the refs `settled`, of `settledTotal` resolved operations. */
export function setOf(
  unresolved: TaskOperationRecordV1 | null,
  settled: TaskOperationSettledRefV1[] = [],
  settledTotal = settled.length,
): TaskOperationSetV1 {
  const base = { schemaVersion: 'TaskOperationSetV1' as const, unresolved, settledTotal, settled };
  return { ...base, settledSetDigest: settledSetDigestOf(base as never) };
}

/** The set after `prev`'s unresolved record resolves into `resolved`: its ref appended, the oldest dropped beyond 64. */
export function resolvedSetOf(prev: TaskOperationSetV1, resolved: TaskOperationRecordV1): TaskOperationSetV1 {
  return setOf(null, [...prev.settled, refOf(resolved)].slice(-64), prev.settledTotal + 1);
}
