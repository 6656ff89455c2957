// Hand-built TaskRecoveryStateV5 envelopes for the backend tests (race, crash, contract runs on
// real files). They follow the spec's shapes and digests (sealed through DIGEST_RULES) so a
// validator accepts them, but they are built here rather than by the TaskStore: the backend only
// sees whole envelopes and fences.
import { digestOf } from '@agent-contracts/digest';
import {
  DIGEST_RULES,
  type FencedTaskWriteOwnerLeaseV2,
  type TaskOperationRecordV1,
  type TaskOperationSetV1,
  type TaskRecoveryStateV5,
} from '@agent-contracts/schemas';
import type { TaskKey } from '../../src/backend.js';

const PENDING = '0'.repeat(64);

function setAt(doc: unknown, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop()!;
  let node = doc as Record<string, unknown>;
  for (const t of tokens) node = node[t] as Record<string, unknown>;
  node[last] = value;
}

/** Fills every digest of `doc` from the spec's digest rules (inner digests first, to a fixpoint). */
export function seal<T>(contract: string, doc: T): T {
  const rules = DIGEST_RULES.filter((r) => r.contract === contract);
  for (let pass = 0; pass < 4; pass++)
    for (const rule of rules) for (const hit of rule.compute(doc)) setAt(doc, hit.pointer, hit.expected);
  return doc;
}

const clone = <T>(v: T): T => structuredClone(v);

/** A deterministic timestamp `ms` milliseconds after 2026-11-30T05:40:00Z. */
export const at = (ms: number): string => new Date(Date.UTC(2026, 10, 30, 5, 40, 0) + ms).toISOString();

/** A task key whose id is derived from `seed` (UUIDv7-shaped). */
export function taskKey(seed: string): TaskKey {
  const h = digestOf({ task: seed });
  return {
    projectRootIdentity: digestOf({ project: 'store-backend-tests' }),
    taskId: `${h.slice(0, 8)}-${h.slice(8, 12)}-7${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`,
  };
}

export const SESSION = digestOf({ host: 'cli', sessionId: 'sess_store_backend_tests' });

const emptyOps = (): TaskOperationSetV1 =>
  seal('TaskOperationSetV1', {
    schemaVersion: 'TaskOperationSetV1',
    unresolved: null,
    settledTotal: 0,
    settled: [],
    settledSetDigest: PENDING,
  });

/** The first envelope of a task: `owner-acquire` by {@link SESSION}, fence (1, 1). */
export function acquire(key: TaskKey, committedAt = at(0)): TaskRecoveryStateV5 {
  const owner = seal('FencedTaskWriteOwnerLeaseV2', {
    schemaVersion: 'FencedTaskWriteOwnerLeaseV2',
    taskId: key.taskId,
    projectRootIdentity: key.projectRootIdentity,
    sessionDigest: SESSION,
    contextEpoch: 'ctx-store-tests',
    routeRevision: digestOf({ route: 'store-tests' }),
    ownerGeneration: 1,
    ownerNonce: `owner-${digestOf({ nonce: key.taskId }).slice(0, 40)}`,
    leaseRevision: 1,
    issuedAt: committedAt,
    expiresAt: new Date(Date.parse(committedAt) + 300_000).toISOString(),
    handoffRef: null,
    takeoverRef: null,
    transitionRef: {
      operation: 'acquire',
      priorLeaseDigest: null,
      requestDigest: digestOf({ operation: 'acquire', taskId: key.taskId }),
      committedAt,
      refDigest: PENDING,
    },
    reopenGeneration: 0,
    revocationEpoch: 0,
    status: 'active',
    leaseDigest: PENDING,
  } satisfies FencedTaskWriteOwnerLeaseV2);
  return seal('TaskRecoveryStateV5', {
    schemaVersion: 'TaskRecoveryStateV5',
    taskId: key.taskId,
    projectRootIdentity: key.projectRootIdentity,
    sequence: 1,
    writerGeneration: 1,
    lifecycleRevision: 1,
    commitKind: 'owner-acquire',
    committedAt,
    previousEnvelopeDigest: null,
    owner,
    operations: emptyOps(),
    terminalReceipt: null,
    terminalLineage: [],
    state: {},
    stateDigest: PENDING,
    envelopeDigest: PENDING,
  } satisfies TaskRecoveryStateV5);
}

function next(
  prev: TaskRecoveryStateV5,
  commitKind: TaskRecoveryStateV5['commitKind'],
  committedAt: string,
  changes: { operations?: TaskOperationSetV1; state?: TaskRecoveryStateV5['state'] },
): TaskRecoveryStateV5 {
  const time = committedAt < prev.committedAt ? prev.committedAt : committedAt;
  return seal('TaskRecoveryStateV5', {
    ...clone(prev),
    sequence: prev.sequence + 1,
    commitKind,
    committedAt: time,
    previousEnvelopeDigest: prev.envelopeDigest,
    operations: clone(changes.operations ?? prev.operations),
    state: clone(changes.state ?? prev.state),
    stateDigest: PENDING,
    envelopeDigest: PENDING,
  });
}

/** A `state` commit on top of `prev` carrying `state`. */
export function stateCommit(
  prev: TaskRecoveryStateV5,
  state: TaskRecoveryStateV5['state'],
  committedAt = at(prev.sequence * 10),
): TaskRecoveryStateV5 {
  return next(prev, 'state', committedAt, { state });
}

/** The operation events the crash test drives, with the phase and effect each one produces. */
export type OperationStep =
  | 'prepare'
  | 'dispatch'
  | 'observe'
  | 'settle'
  | 'abort'
  | 'mark-reconcile'
  | 'reconcile';

/**
 * Moves the operation `opId` one edge along the operation table on top of `prev` (the edge is
 * trusted: the TaskStore's engine decides edges; this only builds the resulting envelope).
 */
export function operationCommit(
  prev: TaskRecoveryStateV5,
  step: OperationStep,
  opId: string,
  committedAt = at(prev.sequence * 10),
): TaskRecoveryStateV5 {
  // biome-ignore lint/complexity/useMathMinMax: RFC 3339 strings compare as strings, not numbers
  const time = committedAt < prev.committedAt ? prev.committedAt : committedAt;
  const ops = clone(prev.operations);
  const current = ops.unresolved;
  const record = (fields: Partial<TaskOperationRecordV1>): TaskOperationRecordV1 =>
    seal('TaskOperationRecordV1', {
      ...(current as TaskOperationRecordV1),
      ...fields,
      recordDigest: PENDING,
    });
  const resolve = (r: TaskOperationRecordV1): TaskOperationSetV1 =>
    seal('TaskOperationSetV1', {
      schemaVersion: 'TaskOperationSetV1',
      unresolved: null,
      settledTotal: ops.settledTotal + 1,
      settled: [
        ...ops.settled,
        {
          operationId: r.operationId,
          idempotencyKey: r.idempotencyKey,
          writerGeneration: r.writerGeneration,
          phase: r.phase as 'settled' | 'aborted-zero-effect',
          effect: r.effect,
          recordDigest: r.recordDigest,
          settledAt: r.settledAt as string,
        },
      ].slice(-64),
      settledSetDigest: PENDING,
    });
  const withUnresolved = (r: TaskOperationRecordV1): TaskOperationSetV1 =>
    seal('TaskOperationSetV1', { ...ops, unresolved: r, settledSetDigest: PENDING });
  const targets = [`src/${opId}.ts`];
  switch (step) {
    case 'prepare':
      return next(prev, 'operation-prepare', time, {
        operations: withUnresolved(
          seal('TaskOperationRecordV1', {
            schemaVersion: 'TaskOperationRecordV1',
            operationId: opId,
            idempotencyKey: `idem-${opId}`,
            writerGeneration: prev.writerGeneration,
            expectedStateSequence: prev.sequence,
            kind: 'update',
            exactTargets: targets,
            targetSetDigest: PENDING,
            beforeDigest: digestOf({ [targets[0]!]: null }),
            phase: 'prepared',
            effect: 'none',
            preparedAt: time,
            dispatchedAt: null,
            observedAt: null,
            settledAt: null,
            resultDigest: null,
            evidenceDigest: null,
            recordDigest: PENDING,
          } satisfies TaskOperationRecordV1),
        ),
      });
    case 'dispatch':
      return next(prev, 'operation-dispatch', time, {
        operations: withUnresolved(record({ phase: 'dispatched', effect: 'unknown', dispatchedAt: time })),
      });
    case 'observe':
      return next(prev, 'operation-observe', time, {
        operations: withUnresolved(
          record({ phase: 'observed', observedAt: time, resultDigest: digestOf({ result: opId }) }),
        ),
      });
    case 'mark-reconcile':
      return next(prev, 'operation-mark-reconcile', time, {
        operations: withUnresolved(record({ phase: 'reconcile-required', effect: 'unknown' })),
      });
    case 'settle':
    case 'reconcile':
      return next(prev, step === 'settle' ? 'operation-settle' : 'operation-reconcile', time, {
        operations: resolve(
          record({
            phase: 'settled',
            effect: 'known-applied',
            settledAt: time,
            evidenceDigest: digestOf({ evidence: opId }),
          }),
        ),
      });
    case 'abort':
      return next(prev, 'operation-abort', time, {
        operations: resolve(record({ phase: 'aborted-zero-effect', effect: 'none', settledAt: time })),
      });
  }
}

/** The fence of an envelope (or (0, 0) for none). */
export const fenceOf = (e: TaskRecoveryStateV5 | null) =>
  e
    ? { stateSequence: e.sequence, writerGeneration: e.writerGeneration }
    : { stateSequence: 0, writerGeneration: 0 };
