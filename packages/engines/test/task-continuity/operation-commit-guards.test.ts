// @module-tag unit
// Steps 3 and 8 of commitOperation (docs/spec/task-continuity-write-gate.md#order-of-the-operation-checks,
// TCW-501): the envelope read, then the guards of each edge in the order of the page, each refusal
// with its code, the fence read and a message that names what to do; and what a committed edge
// writes (the record, the settled window of 64, settledTotal).
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { fenceOf, operationBindingOf, SETTLED_WINDOW } from '../../src/task-continuity/index.js';
import {
  atGeneration,
  chain,
  commit,
  decide,
  first,
  KNOWN,
  last,
  NOW,
  on,
  prepare,
  resealed,
  settledRef,
  sha,
  toObserved,
  toSettled,
  unresolved,
  withSettled,
} from './operation-commit-helpers.js';

/** A refusal of `code` on `e`, with the fence read and a message containing `says`. */
const refused = (e: TaskRecoveryStateV5, code: string, says: string) => ({
  ok: false,
  code,
  message: expect.stringContaining(says),
  currentFence: fenceOf(e),
});

// Every envelope is built inside its test: engine code run while the file loads would make the
// mutants it reaches static, judged apart (tooling/mutate/stryker.config.mjs).
const phases = () => chain(first(), ...toObserved('op-1'));
const preparedOne = () => phases()[1] as TaskRecoveryStateV5;
const dispatchedOne = () => phases()[2] as TaskRecoveryStateV5;
const observedOne = () => last(phases());

describe('step 3: the envelope read', () => {
  it('refuses to build on an envelope that fails its check, with the fence read', () => {
    const p = preparedOne();
    const broken = { ...p, stateDigest: sha('not the state') };
    expect(decide(broken, on(p, 'dispatch'))).toEqual(
      refused(broken, 'LIFECYCLE_STATE_UNAVAILABLE', 'invalid'),
    );
  });

  it('refuses an envelope stored for another task key', () => {
    const p = preparedOne();
    expect(decide(p, on(p, 'dispatch'), { projectRootIdentity: sha('other root') })).toEqual(
      refused(p, 'LIFECYCLE_STATE_UNAVAILABLE', 'another task key'),
    );
  });
});

describe('step 8, prepare: the checks 1 to 5', () => {
  const settledA = () => last(chain(first(), ...toSettled('op-a')));

  it('commits a fresh operation after a settlement: the record the page describes', () => {
    const s = settledA();
    const e = commit(s, prepare('op-b', { exactTargets: ['docs/a.md', 'docs/b.md'] }));
    expect(e.commitKind).toBe('operation-prepare');
    expect(unresolved(e)).toMatchObject({
      operationId: 'op-b',
      idempotencyKey: 'key-op-b',
      writerGeneration: 1,
      expectedStateSequence: s.sequence,
      exactTargets: ['docs/a.md', 'docs/b.md'],
      phase: 'prepared',
      effect: 'none',
      preparedAt: NOW,
      dispatchedAt: null,
      observedAt: null,
      settledAt: null,
      resultDigest: null,
      evidenceDigest: null,
    });
    expect(e.operations.settled).toEqual(s.operations.settled);
  });

  it('refuses an operationId of the settled window (TASK_OPERATION_ALREADY_SETTLED)', () => {
    const s = settledA();
    expect(decide(s, prepare('op-a', { idempotencyKey: 'key-new' }))).toEqual(
      refused(s, 'TASK_OPERATION_ALREADY_SETTLED', 'Operation op-a is already resolved'),
    );
  });

  it('refuses an idempotencyKey of the settled window (TASK_OPERATION_IDEMPOTENCY_KEY_REUSED)', () => {
    const s = settledA();
    expect(decide(s, prepare('op-b', { idempotencyKey: 'key-op-a' }))).toEqual(
      refused(s, 'TASK_OPERATION_IDEMPOTENCY_KEY_REUSED', 'mint a new key'),
    );
  });

  it('refuses a second operation while one is in flight, before any other check', () => {
    const p = preparedOne();
    expect(decide(p, prepare('op-2', { exactTargets: [] }))).toEqual(
      refused(p, 'TASK_OPERATION_IN_FLIGHT', 'Operation op-1 is unresolved (prepared)'),
    );
  });
});

describe('step 8, checks 6 and 7: the operationId and the binding', () => {
  /** op-a and op-b settled, op-c prepared; and the binding of op-b. */
  function threeOps() {
    const history = chain(first(), ...toSettled('op-a'), ...toSettled('op-b'), () => prepare('op-c'));
    return { e: last(history), b: operationBindingOf(unresolved(history[7] as TaskRecoveryStateV5)) };
  }

  it('a settlement naming a resolved operation while another is unresolved is a settlement mismatch', () => {
    const { e, b } = threeOps();
    expect(b.operationId).toBe('op-b');
    expect(decide(e, { event: 'abort', ...b })).toEqual(
      refused(
        e,
        'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
        'Operation op-b is already resolved with another outcome',
      ),
    );
    expect(decide(e, { event: 'dispatch', ...b })).toEqual(
      refused(e, 'TASK_OPERATION_CAS_MISMATCH', 'Operation op-b is already resolved'),
    );
  });

  it('a settlement naming an operation neither unresolved nor settled is a CAS mismatch', () => {
    const { e, b } = threeOps();
    const z = { ...b, operationId: 'op-z' };
    expect(decide(e, { event: 'abort', ...z })).toEqual(
      refused(e, 'TASK_OPERATION_CAS_MISMATCH', 'Operation op-z is not the unresolved operation of the task'),
    );
    expect(decide(first(), { event: 'settle', ...z, ...KNOWN })).toEqual(
      refused(first(), 'TASK_OPERATION_CAS_MISMATCH', 'Operation op-z is not the unresolved operation'),
    );
  });

  it.each([
    ['idempotencyKey', { idempotencyKey: 'key-other' }],
    ['writerGeneration', { writerGeneration: 2 }],
    ['targetSetDigest', { targetSetDigest: sha('other targets') }],
    ['beforeDigest', { beforeDigest: sha('other before') }],
  ])('an event of the unresolved operation with another %s is a CAS mismatch', (_, member) => {
    const p = preparedOne();
    expect(decide(p, on(p, 'dispatch', member))).toEqual(
      refused(p, 'TASK_OPERATION_CAS_MISMATCH', 'differs from the unresolved record'),
    );
  });
});

describe('step 8, check 8: same generation', () => {
  const laterGeneration = () => atGeneration(dispatchedOne(), 2);

  it('refuses observe by a later generation than the one that dispatched', () => {
    const later = laterGeneration();
    expect(decide(later, on(later, 'observe', { resultDigest: sha('r') }))).toEqual(
      refused(
        later,
        'TASK_OPERATION_CAS_MISMATCH',
        'Only generation 1, which prepared the operation, may observe it',
      ),
    );
  });

  it('lets a later generation mark-reconcile and reconcile it (any generation)', () => {
    const later = laterGeneration();
    const r = commit(later, on(later, 'mark-reconcile'));
    expect(unresolved(r)).toMatchObject({
      phase: 'reconcile-required',
      effect: 'unknown',
      writerGeneration: 1,
    });
    const s = commit(r, on(r, 'reconcile', { effect: 'known-not-applied', evidenceDigest: sha('e') }));
    expect(s.commitKind).toBe('operation-reconcile');
    expect(s.writerGeneration).toBe(2);
    expect(s.operations.settled).toEqual([
      expect.objectContaining({
        operationId: 'op-1',
        writerGeneration: 1,
        phase: 'settled',
        effect: 'known-not-applied',
      }),
    ]);
  });
});

describe('step 8, check 10: the phase the event starts from', () => {
  it('refuses reconcile out of any phase but reconcile-required', () => {
    const o = observedOne();
    expect(decide(o, on(o, 'reconcile', KNOWN))).toEqual(
      refused(
        o,
        'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
        'The operation is observed, not reconcile-required',
      ),
    );
  });

  it('refuses abort once dispatched', () => {
    const d = dispatchedOne();
    expect(decide(d, on(d, 'abort'))).toEqual(
      refused(
        d,
        'TASK_OPERATION_ABORT_INVALID',
        'The operation is dispatched: it was dispatched and can never be aborted',
      ),
    );
  });

  it('refuses every other pair outside the table with TASK_OPERATION_TRANSITION_INVALID', () => {
    const p = preparedOne();
    const d = dispatchedOne();
    expect(decide(d, on(d, 'settle', KNOWN))).toEqual(
      refused(d, 'TASK_OPERATION_TRANSITION_INVALID', 'dispatched -> settle is not an edge'),
    );
    expect(decide(p, on(p, 'mark-reconcile'))).toEqual(
      refused(p, 'TASK_OPERATION_TRANSITION_INVALID', 'prepared -> mark-reconcile is not an edge'),
    );
  });
});

describe('step 8, check 11: a settlement needs a known effect and evidence', () => {
  it.each([
    ['an evidenceDigest that is not hex', { effect: 'known-applied', evidenceDigest: 'e'.repeat(63) }],
    ['no evidenceDigest', { effect: 'known-not-applied', evidenceDigest: null }],
    ['an effect that is not known', { effect: 'unknown', evidenceDigest: sha('e') }],
    ['no effect', { evidenceDigest: sha('e') }],
  ])('refuses a settle with %s', (_, members) => {
    const o = observedOne();
    expect(decide(o, on(o, 'settle', members))).toMatchObject({
      ok: false,
      code: 'TASK_OPERATION_TRANSITION_INVALID',
      currentFence: fenceOf(o),
    });
  });

  it('names what a settlement needs', () => {
    const o = observedOne();
    expect(decide(o, on(o, 'settle', { effect: 'known-applied', evidenceDigest: 'x' }))).toEqual(
      refused(
        o,
        'TASK_OPERATION_TRANSITION_INVALID',
        'A settlement needs effect known-applied or known-not-applied',
      ),
    );
  });

  it('settles with the effect and evidence sent, keeping the observation', () => {
    const o = observedOne();
    const s = commit(o, on(o, 'settle', { effect: 'known-not-applied', evidenceDigest: sha('e') }));
    const u = unresolved(o);
    expect(s.commitKind).toBe('operation-settle');
    expect(s.operations.unresolved).toBeNull();
    expect(s.operations.settledTotal).toBe(1);
    expect(s.operations.settled).toEqual([
      {
        operationId: 'op-1',
        idempotencyKey: 'key-op-1',
        writerGeneration: 1,
        phase: 'settled',
        effect: 'known-not-applied',
        recordDigest: expect.stringMatching(/^[a-f0-9]{64}$/),
        settledAt: NOW,
      },
    ]);
    expect(s.operations.settled[0]?.recordDigest).not.toBe(u.recordDigest);
  });
});

describe('step 8: the record the edge produces is checked against the edge table', () => {
  it('refuses a dispatch that would be timed before the record was prepared', () => {
    const p = preparedOne();
    const ahead = resealed(p, (doc) => {
      (unresolved(doc) as { preparedAt: string }).preparedAt = '2026-11-30T07:00:00.000Z';
    });
    expect(decide(ahead, on(ahead, 'dispatch'))).toEqual(
      refused(ahead, 'TASK_OPERATION_TRANSITION_INVALID', 'dispatchedAt must be set, not before preparedAt'),
    );
  });
});

describe('the settled window keeps the last 64 refs', () => {
  const refs = Array.from({ length: SETTLED_WINDOW }, (_, i) =>
    settledRef(`old-${String(i).padStart(2, '0')}`),
  );
  const full = () => withSettled(first(), refs, 100);

  it('drops the oldest ref when a 65th resolves, and counts every resolution', () => {
    const e = last(
      chain(
        full(),
        () => prepare('op-new'),
        (x) => on(x, 'abort'),
      ),
    );
    expect(e.commitKind).toBe('operation-abort');
    expect(e.operations.settledTotal).toBe(101);
    expect(e.operations.settled).toHaveLength(SETTLED_WINDOW);
    expect(e.operations.settled[0]?.operationId).toBe('old-01');
    expect(last(e.operations.settled)).toMatchObject({
      operationId: 'op-new',
      phase: 'aborted-zero-effect',
      effect: 'none',
      settledAt: NOW,
    });
  });

  it('keeps every ref below the window', () => {
    const e = last(
      chain(
        withSettled(first(), refs.slice(1), 63),
        () => prepare('op-new'),
        (x) => on(x, 'abort'),
      ),
    );
    expect(e.operations.settled.map((r) => r.operationId)).toEqual([
      ...refs.slice(1).map((r) => r.operationId),
      'op-new',
    ]);
  });
});
