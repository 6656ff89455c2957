// @module-tag unit
import { createHash } from 'node:crypto';
import type { FencedTaskWriteOwnerLeaseV2, TaskOperationRecordV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  checkOperationTransition,
  checkOwnerTransition,
  decideOperationCommit,
  decideOwnerTransition,
  decideStateCommit,
  fenceOf,
  findOperationEdge,
  isOwnerTransitionAllowed,
  OPERATION_EDGES,
  OWNER_OPERATIONS,
  OWNER_TRANSITION_TABLE,
  type OwnerTransitionRequest,
  ownerRefOf,
} from '../../src/task-continuity/index.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
let n = 0;
const env = () => ({
  clock: new ManualClock(Date.parse('2026-11-30T06:00:00.000Z')),
  runtimeGeneration: 'runtime-test',
  mintNonce: () => `owner-${sha(String(++n)).slice(0, 40)}`,
});
const key = { taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6', projectRootIdentity: sha('root') };
const acquireRequest: OwnerTransitionRequest = {
  operation: 'acquire',
  ...key,
  expectedFence: fenceOf(null),
  expectedOwner: { mode: 'absent' },
  sessionDigest: sha('s1'),
  contextEpoch: 'epoch-1',
  routeRevision: sha('route'),
  targetSessionDigest: null,
  handoffRefDigest: null,
  takeoverRefDigest: null,
  takeoverEvidence: null,
  terminal: null,
  terminalReceiptDigest: null,
};

function acquired() {
  const d = decideOwnerTransition(null, acquireRequest, env());
  if (!d.ok || d.status !== 'committed') throw new Error('acquire failed');
  return d.envelope;
}

describe('OWNER_TRANSITION_TABLE', () => {
  it('has the ten rows; writerGeneration moves by +1 exactly on the six revoking/re-granting rows', () => {
    expect(OWNER_OPERATIONS).toHaveLength(10);
    const plusOne = OWNER_OPERATIONS.filter(
      (op) => OWNER_TRANSITION_TABLE[op].deltas.ownerGeneration === 1 && op !== 'acquire',
    );
    expect(plusOne.sort()).toEqual([
      'handoff-prepare',
      'reacquire',
      'release',
      'reopen',
      'takeover-prepare',
      'terminal',
    ]);
    expect(isOwnerTransitionAllowed('terminal', 'renew')).toBe(false);
    expect(isOwnerTransitionAllowed('handoff-pending', 'takeover-prepare')).toBe(true);
    expect(isOwnerTransitionAllowed(null, 'acquire')).toBe(true);
  });
});

describe('checkOwnerTransition', () => {
  const e1 = acquired();
  const renew = decideOwnerTransition(
    e1,
    {
      ...acquireRequest,
      operation: 'renew',
      expectedFence: fenceOf(e1),
      expectedOwner: ownerRefOf(e1.owner),
    },
    env(),
  );
  const next = (renew.ok && renew.status === 'committed' ? renew.envelope : e1).owner;

  it('accepts the leases the engine builds', () => {
    expect(checkOwnerTransition(null, e1.owner, 'acquire')).toEqual({ ok: true });
    expect(checkOwnerTransition(e1.owner, next, 'renew')).toEqual({ ok: true });
  });

  const mutations: Array<[string, Partial<FencedTaskWriteOwnerLeaseV2>]> = [
    ['generation +1 on renew', { ownerGeneration: 2 }],
    ['leaseRevision unchanged', { leaseRevision: 1 }],
    ['new nonce on renew', { ownerNonce: `owner-${'0'.repeat(40)}` }],
    ['another session', { sessionDigest: sha('s2') }],
    ['status changed', { status: 'released' }],
    ['expiry not extended', { expiresAt: e1.owner.expiresAt }],
    ['revocationEpoch moved', { revocationEpoch: 1 }],
  ];
  for (const [what, patch] of mutations) {
    it(`refuses ${what}`, () => {
      const r = checkOwnerTransition(e1.owner, { ...next, ...patch }, 'renew');
      expect(r.ok ? 'ok' : r.code).toBe('FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
    });
  }

  it('refuses every pair the table does not list', () => {
    for (const op of OWNER_OPERATIONS) {
      if (OWNER_TRANSITION_TABLE[op].from.includes('active')) continue;
      const r = checkOwnerTransition(e1.owner, next, op);
      expect(r.ok ? 'ok' : r.code).toBe('FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
    }
  });
});

describe('OPERATION_EDGES and checkOperationTransition', () => {
  const base: TaskOperationRecordV1 = {
    schemaVersion: 'TaskOperationRecordV1',
    operationId: 'op-1',
    idempotencyKey: 'idem-1',
    writerGeneration: 1,
    expectedStateSequence: 1,
    kind: 'update',
    exactTargets: ['a.ts'],
    targetSetDigest: sha('t'),
    beforeDigest: sha('b'),
    phase: 'prepared',
    effect: 'none',
    preparedAt: '2026-11-30T06:00:00.000Z',
    dispatchedAt: null,
    observedAt: null,
    settledAt: null,
    resultDigest: null,
    evidenceDigest: null,
    recordDigest: sha('r'),
  };
  const dispatched = {
    ...base,
    phase: 'dispatched' as const,
    effect: 'unknown' as const,
    dispatchedAt: '2026-11-30T06:00:01.000Z',
  };
  const observed = {
    ...dispatched,
    phase: 'observed' as const,
    observedAt: '2026-11-30T06:00:02.000Z',
    resultDigest: sha('res'),
  };

  it('finds exactly the table edges', () => {
    expect(findOperationEdge('prepared', 'observed')).toBeUndefined();
    expect(findOperationEdge('dispatched', 'settled')).toBeUndefined();
    expect(findOperationEdge('observed', 'reconcile-required')?.event).toBe('mark-reconcile');
    expect(OPERATION_EDGES.abort.from).toEqual(['prepared']);
  });

  it('accepts edges and refuses skips, identity changes and downgrades', () => {
    expect(checkOperationTransition(null, base)).toEqual({ ok: true });
    expect(checkOperationTransition(base, dispatched)).toEqual({ ok: true });
    expect(checkOperationTransition(dispatched, observed)).toEqual({ ok: true });
    const bad = [
      checkOperationTransition(base, observed),
      checkOperationTransition(observed, dispatched),
      checkOperationTransition(base, { ...dispatched, beforeDigest: sha('other') }),
      checkOperationTransition(dispatched, {
        ...dispatched,
        phase: 'aborted-zero-effect',
        effect: 'none',
        settledAt: '2026-11-30T06:00:03.000Z',
      }),
      checkOperationTransition(dispatched, observed, { envelopeWriterGeneration: 2 }),
    ];
    for (const r of bad) expect(r.ok ? 'ok' : r.code).toBe('TASK_OPERATION_TRANSITION_INVALID');
  });
});

describe('commit decisions', () => {
  it('force never bypasses the fence; refusals carry the current fence', () => {
    const e1 = acquired();
    const d = decideStateCommit(
      e1,
      {
        ...key,
        expectedFence: { ...fenceOf(e1), stateSequence: 0 },
        expectedOwner: ownerRefOf(e1.owner),
        sessionDigest: sha('s1'),
        state: { a: 1 },
        force: true,
      },
      env(),
    );
    expect(d.ok ? 'ok' : [d.code, d.currentFence]).toEqual(['LIFECYCLE_STATE_FENCE_MISMATCH', fenceOf(e1)]);
  });

  it('a dispatched operation can be neither aborted nor re-prepared', () => {
    const e1 = acquired();
    const w = { ...key, expectedOwner: ownerRefOf(e1.owner), sessionDigest: sha('s1') };
    const p = decideOperationCommit(
      e1,
      {
        ...w,
        expectedFence: fenceOf(e1),
        event: {
          event: 'prepare',
          operationId: 'op',
          idempotencyKey: 'k',
          kind: 'update',
          exactTargets: ['a'],
          beforeDigest: sha('b'),
        },
      },
      env(),
    );
    if (!p.ok || p.status !== 'committed') throw new Error('prepare failed');
    const u = p.envelope.operations.unresolved as TaskOperationRecordV1;
    const binding = {
      operationId: u.operationId,
      idempotencyKey: u.idempotencyKey,
      writerGeneration: 1,
      targetSetDigest: u.targetSetDigest,
      beforeDigest: u.beforeDigest,
    };
    const d = decideOperationCommit(
      p.envelope,
      { ...w, expectedFence: fenceOf(p.envelope), event: { event: 'dispatch', ...binding } },
      env(),
    );
    if (!d.ok || d.status !== 'committed') throw new Error('dispatch failed');
    const abort = decideOperationCommit(
      d.envelope,
      { ...w, expectedFence: fenceOf(d.envelope), event: { event: 'abort', ...binding } },
      env(),
    );
    expect(abort.ok ? 'ok' : abort.code).toBe('TASK_OPERATION_ABORT_INVALID');
  });
});
