// @module-tag unit
// Step 4 of commitOperation for operation events (docs/spec/task-continuity-write-gate.md#late-and-duplicate-receipts):
// an identical duplicate returns `replayed` and writes nothing, one that differs in any member is
// refused with its code; a settle, reconcile or abort naming an operation in the settled window is
// a replay exactly when the record it would produce has the stored recordDigest, which the store
// decides with the pre-resolution record (priorRecordNeeded, priorRecordFromHistory: TCW-018).
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { recordDigestOf } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import {
  fenceOf,
  operationBindingOf,
  priorRecordFromHistory,
  priorRecordNeeded,
} from '../../src/task-continuity/index.js';
import {
  atGeneration,
  chain,
  commit,
  decide,
  env,
  first,
  KNOWN,
  last,
  NOW,
  on,
  prepare,
  request,
  settledRef,
  sha,
  toObserved,
  toSettled,
  unresolved,
  withSettled,
} from './operation-commit-helpers.js';

/** The answer of a decision: its status, or its code. */
const outcome = (d: { ok: boolean; status?: string; code?: string }) => (d.ok ? d.status : d.code);

describe('operationBindingOf', () => {
  it('is the five binding fields of the record, and nothing else', () => {
    const p = commit(first(), prepare('op-1'));
    const u = unresolved(p);
    expect(operationBindingOf(u)).toEqual({
      operationId: 'op-1',
      idempotencyKey: 'key-op-1',
      writerGeneration: 1,
      targetSetDigest: u.targetSetDigest,
      beforeDigest: sha('before-op-1'),
    });
  });
});

describe('step 4: a duplicate prepare', () => {
  // Built inside each test: engine code run while the file loads would make its mutants static.
  const prepared = () => commit(first(), prepare('op-1'));

  it('equal in every member to the prepared record is replayed, writing nothing', () => {
    const p = prepared();
    expect(decide(p, prepare('op-1'))).toEqual({
      ok: true,
      status: 'replayed',
      envelope: p,
      fence: fenceOf(p),
      receipt: null,
    });
  });

  it.each([
    ['idempotencyKey', { idempotencyKey: 'key-other' }],
    ['kind', { kind: 'delete' }],
    ['beforeDigest', { beforeDigest: sha('other') }],
    ['exactTargets', { exactTargets: ['docs/b.md'] }],
  ])('with another %s is refused with TASK_OPERATION_REPLAY_MISMATCH', (_, member) => {
    const p = prepared();
    expect(decide(p, prepare('op-1', member))).toEqual({
      ok: false,
      code: 'TASK_OPERATION_REPLAY_MISMATCH',
      message: expect.stringContaining('Operation op-1 is already prepared'),
      currentFence: fenceOf(p),
    });
  });

  it('of another operationId, equal in every other member, is refused: one is in flight', () => {
    const p = prepared();
    expect(
      decide(p, prepare('op-2', { idempotencyKey: 'key-op-1', beforeDigest: sha('before-op-1') })),
    ).toEqual({
      ok: false,
      code: 'TASK_OPERATION_IN_FLIGHT',
      message: expect.stringContaining('Operation op-1 is unresolved (prepared)'),
      currentFence: fenceOf(p),
    });
  });

  it('under a later generation than the one that prepared it is no replay', () => {
    const p = prepared();
    const later = atGeneration(p, 2);
    expect(decide(later, prepare('op-1'))).toMatchObject({
      ok: false,
      code: 'TASK_OPERATION_REPLAY_MISMATCH',
      currentFence: fenceOf(later),
    });
  });

  it('after the record left prepared is refused with TASK_OPERATION_REPLAY_MISMATCH', () => {
    const p = prepared();
    const d = commit(p, on(p, 'dispatch'));
    expect(outcome(decide(d, prepare('op-1')))).toBe('TASK_OPERATION_REPLAY_MISMATCH');
  });
});

describe('step 4: a duplicate event of the unresolved record', () => {
  const steps = () => chain(first(), ...toObserved('op-1'));

  it('dispatch on a dispatched record is replayed; observe on it commits', () => {
    const d = steps()[2] as TaskRecoveryStateV5;
    expect(outcome(decide(d, on(d, 'dispatch')))).toBe('replayed');
    expect(outcome(decide(d, on(d, 'observe', { resultDigest: sha('r') })))).toBe('committed');
  });

  it('observe with the same resultDigest is replayed, with another is refused', () => {
    const o = last(steps());
    expect(outcome(decide(o, on(o, 'observe', { resultDigest: sha('result-op-1') })))).toBe('replayed');
    expect(decide(o, on(o, 'observe', { resultDigest: sha('other') }))).toEqual({
      ok: false,
      code: 'TASK_OPERATION_REPLAY_MISMATCH',
      message: expect.stringContaining('never replaced'),
      currentFence: fenceOf(o),
    });
  });

  it('mark-reconcile on a reconcile-required record is replayed', () => {
    const o = last(steps());
    const r = commit(o, on(o, 'mark-reconcile'));
    expect(outcome(decide(r, on(r, 'mark-reconcile')))).toBe('replayed');
  });

  it('a late observe with the kept resultDigest on a reconcile-required record is no replay: never downgrade', () => {
    const o = last(steps());
    const r = commit(o, on(o, 'mark-reconcile'));
    expect(unresolved(r).resultDigest).toBe(sha('result-op-1'));
    expect(decide(r, on(r, 'observe', { resultDigest: sha('result-op-1') }))).toEqual({
      ok: false,
      code: 'TASK_OPERATION_TRANSITION_INVALID',
      message: expect.stringContaining('reconcile-required -> observe is not an edge'),
      currentFence: fenceOf(r),
    });
  });

  it('an event of no operation at all is refused with TASK_OPERATION_CAS_MISMATCH', () => {
    const e = first();
    const binding = {
      operationId: 'op-9',
      idempotencyKey: 'key-op-9',
      writerGeneration: 1,
      targetSetDigest: sha('t'),
      beforeDigest: sha('b'),
    };
    expect(decide(e, { event: 'dispatch', ...binding })).toEqual({
      ok: false,
      code: 'TASK_OPERATION_CAS_MISMATCH',
      message: expect.stringContaining('Operation op-9 is not the unresolved operation'),
      currentFence: fenceOf(e),
    });
  });

  it('an abort of the unresolved record is decided on it, even when the window holds a ref of its id', () => {
    const p = commit(first(), prepare('op-1'));
    const u = unresolved(p);
    const aborted = { ...u, phase: 'aborted-zero-effect', effect: 'none', settledAt: NOW };
    const ref = {
      ...settledRef('op-1'),
      phase: 'aborted-zero-effect' as const,
      effect: 'none' as const,
      recordDigest: recordDigestOf(aborted),
      settledAt: NOW,
    };
    const e = withSettled(p, [ref]);
    const d = decide(e, on(e, 'abort'), {}, env({ priorRecords: new Map([['op-1', u]]) }));
    expect(d.ok && d.status === 'committed' ? d.envelope.operations.settledTotal : outcome(d)).toBe(2);
  });
});

describe('step 4: settlement replays after resolution', () => {
  /** Two settled operations, op-a then op-b; the record of op-b before its settlement; its settle. */
  function settledTwo() {
    const history = chain(first(), ...toSettled('op-a'), ...toSettled('op-b'));
    const prior = priorRecordFromHistory(history, 'op-b');
    if (!prior) throw new Error('no prior record of op-b');
    const settle = { event: 'settle', ...operationBindingOf(prior), ...KNOWN };
    const withPrior = () => env({ priorRecords: new Map([['op-b', prior]]) });
    return { e: last(history), prior, settle, withPrior };
  }

  it('a settle with the stored outcome is replayed, at any later time, writing nothing', () => {
    const { e, prior, settle } = settledTwo();
    const later = env({
      priorRecords: new Map([['op-b', prior]]),
      clock: new ManualClock(Date.parse(NOW) + 60_000),
    });
    expect(decide(e, settle, {}, later)).toEqual({
      ok: true,
      status: 'replayed',
      envelope: e,
      fence: fenceOf(e),
      receipt: null,
    });
  });

  it.each([
    ['another effect', { effect: 'known-not-applied' }],
    ['another evidenceDigest', { evidenceDigest: sha('other evidence') }],
  ])('a settle with %s is refused with TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH', (_, member) => {
    const { e, settle, withPrior } = settledTwo();
    expect(decide(e, { ...settle, ...member }, {}, withPrior())).toEqual({
      ok: false,
      code: 'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
      message: expect.stringContaining('Operation op-b is already resolved with another outcome'),
      currentFence: fenceOf(e),
    });
  });

  it('a settle replay is replayed while another operation is unresolved', () => {
    const { e, settle, withPrior } = settledTwo();
    const next = commit(e, prepare('op-c'));
    expect(outcome(decide(next, settle, {}, withPrior()))).toBe('replayed');
  });

  it('without the prior record the store cannot tell a replay: refused, not replayed', () => {
    const { e, settle } = settledTwo();
    expect(outcome(decide(e, settle, {}, env()))).toBe('TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH');
  });

  it('a settle whose binding differs from the prior record is refused, even with the outcome', () => {
    const { e, settle, withPrior } = settledTwo();
    expect(outcome(decide(e, { ...settle, idempotencyKey: 'key-other' }, {}, withPrior()))).toBe(
      'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    );
  });

  it('a prior record given for an operation that is not in the window is no replay', () => {
    const { settle, withPrior } = settledTwo();
    const f = first();
    const d = decide(f, settle, {}, withPrior());
    expect(outcome(d)).toBe('TASK_OPERATION_CAS_MISMATCH');
  });

  it.each([
    ['dispatch', {}],
    ['observe', { resultDigest: sha('result-op-b') }],
    ['mark-reconcile', {}],
  ])(
    'a %s of a resolved operation is refused with TASK_OPERATION_CAS_MISMATCH, prior record or not',
    (event, extra) => {
      const { e, prior, withPrior } = settledTwo();
      const ev = { event, ...operationBindingOf(prior), ...extra };
      for (const environment of [withPrior(), env()]) {
        expect(decide(e, ev, {}, environment)).toEqual({
          ok: false,
          code: 'TASK_OPERATION_CAS_MISMATCH',
          message: expect.stringContaining('Operation op-b is already resolved'),
          currentFence: fenceOf(e),
        });
      }
    },
  );

  it('an abort and a reconcile replay their stored outcome', () => {
    const a = chain(
      first(),
      () => prepare('op-c'),
      (p) => on(p, 'abort'),
    );
    const pa = priorRecordFromHistory(a, 'op-c');
    if (!pa) throw new Error('no prior record of op-c');
    const abort = { event: 'abort', ...operationBindingOf(pa) };
    expect(outcome(decide(last(a), abort, {}, env({ priorRecords: new Map([['op-c', pa]]) })))).toBe(
      'replayed',
    );

    const r = chain(
      first(),
      () => prepare('op-d'),
      (p) => on(p, 'dispatch'),
      (p) => on(p, 'mark-reconcile'),
      (p) => on(p, 'reconcile', KNOWN),
    );
    const pr = priorRecordFromHistory(r, 'op-d');
    if (!pr) throw new Error('no prior record of op-d');
    const reconcile = { event: 'reconcile', ...operationBindingOf(pr), ...KNOWN };
    const priors = env({ priorRecords: new Map([['op-d', pr]]) });
    expect(outcome(decide(last(r), reconcile, {}, priors))).toBe('replayed');
    expect(outcome(decide(last(r), { ...reconcile, effect: 'known-not-applied' }, {}, priors))).toBe(
      'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    );
  });
});

describe('priorRecordNeeded', () => {
  /** Two settled operations, op-a then op-b. */
  const settledTwo = () => last(chain(first(), ...toSettled('op-a'), ...toSettled('op-b')));
  const binding = (id: string) => ({
    operationId: id,
    idempotencyKey: `key-${id}`,
    writerGeneration: 1,
    targetSetDigest: sha('t'),
    beforeDigest: sha('b'),
  });
  const need = (current: TaskRecoveryStateV5 | null, event: unknown) =>
    priorRecordNeeded(current, request(first(), event));

  it('names a settle, reconcile or abort of an operation in the settled window, whichever it is', () => {
    const e = settledTwo();
    expect(need(e, { event: 'settle', ...binding('op-b'), ...KNOWN })).toBe('op-b');
    expect(need(e, { event: 'reconcile', ...binding('op-a'), ...KNOWN })).toBe('op-a');
    expect(need(e, { event: 'abort', ...binding('op-a') })).toBe('op-a');
  });

  it('is null for a task never written or a request without an event object', () => {
    const e = settledTwo();
    expect(need(null, { event: 'settle', ...binding('op-b'), ...KNOWN })).toBeNull();
    expect(need(e, undefined)).toBeNull();
    expect(need(e, 'settle')).toBeNull();
  });

  it('is null for the events that do not resolve, and for an operation outside the window', () => {
    const e = settledTwo();
    expect(need(e, { event: 'dispatch', ...binding('op-b') })).toBeNull();
    expect(need(e, { event: 'mark-reconcile', ...binding('op-b') })).toBeNull();
    expect(need(e, { event: 'settle', ...binding('op-z'), ...KNOWN })).toBeNull();
  });

  it('is null for the unresolved operation, even when the window also holds a ref of its id', () => {
    const p = commit(first(), prepare('op-1'));
    const both = withSettled(p, [settledRef('op-1')]);
    expect(need(both, { event: 'abort', ...binding('op-1') })).toBeNull();
    expect(need(withSettled(first(), [settledRef('op-1')]), { event: 'abort', ...binding('op-1') })).toBe(
      'op-1',
    );
  });
});

describe('priorRecordFromHistory', () => {
  /** op-a prepared, dispatched, observed and settled, then op-b prepared. */
  const historyOf = () =>
    chain(
      first(),
      ...toObserved('op-a'),
      (p) => on(p, 'settle', KNOWN),
      () => prepare('op-b'),
    );

  it('is the latest unresolved record of the operation (the one just before its resolution)', () => {
    const history = historyOf();
    expect(priorRecordFromHistory(history, 'op-a')).toEqual(unresolved(history[3] as TaskRecoveryStateV5));
    expect(priorRecordFromHistory(history, 'op-a')?.phase).toBe('observed');
  });

  it('passes over the records of other operations, newest first', () => {
    const history = historyOf();
    expect(priorRecordFromHistory(history, 'op-b')?.operationId).toBe('op-b');
    expect(priorRecordFromHistory(history.slice(0, 4), 'op-a')?.phase).toBe('observed');
  });

  it('reads the oldest envelope too, and is undefined for an operation never held', () => {
    const history = historyOf();
    expect(priorRecordFromHistory([history[1] as TaskRecoveryStateV5], 'op-a')?.phase).toBe('prepared');
    expect(priorRecordFromHistory(history, 'op-z')).toBeUndefined();
    expect(priorRecordFromHistory([], 'op-a')).toBeUndefined();
  });
});
