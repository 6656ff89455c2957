// Late and duplicate receipts of an operation.
import { def, RECORD } from './defs.ts';
import { H } from './names.ts';
import { event, OP1, PATH, reachPhase, S1, S3, type Task, takeOver } from './task.ts';

// Late and duplicate receipts.
const receipt = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('receipts', `receipts/${name}`, RECORD, 'late-and-duplicate-receipts', title, run);

const MUTATIONS: Array<[string, Record<string, unknown>]> = [
  ['operationId', { operationId: 'op-9' }],
  ['idempotencyKey', { idempotencyKey: 'idem-9' }],
  ['writerGeneration', { writerGeneration: 2 }],
  ['targetSetDigest', { targetSetDigest: H('other targets') }],
  ['beforeDigest', { beforeDigest: H('other before') }],
];
for (const [field, change] of MUTATIONS) {
  receipt(
    `observe-with-mutated-${field}`,
    `an observe receipt whose ${field} differs from the unresolved record: TASK_OPERATION_CAS_MISMATCH, nothing written; the true receipt then commits`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused(
        'store.commitOperation',
        t.opRequest(event('observe', OP1, 1, change)),
        'TASK_OPERATION_CAS_MISMATCH',
      );
      await t.history();
      await t.operation(event('observe'));
    },
  );
  receipt(
    `duplicate-dispatch-with-mutated-${field}`,
    `a duplicate dispatch whose ${field} differs: not a replay, TASK_OPERATION_CAS_MISMATCH, nothing written`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused(
        'store.commitOperation',
        t.opRequest(event('dispatch', OP1, 1, change)),
        'TASK_OPERATION_CAS_MISMATCH',
      );
      await t.history();
    },
  );
}
for (const name of ['dispatch', 'observe', 'settle'] as const) {
  receipt(
    `duplicate-${name}-with-its-first-fence`,
    `an identical ${name} retried with the fence it was first sent with: replayed, nothing written`,
    async (t) => {
      await t.transition('acquire');
      const before = PATH[name === 'dispatch' ? 'prepared' : name === 'observe' ? 'dispatched' : 'observed'];
      for (const e of before) await t.operation(event(e));
      await t.read({ as: 'first' });
      const request = t.opRequest(event(name), S1, 'first');
      await t.write('store.commitOperation', request, 'committed');
      await t.sc.step('store.commitOperation', { request }, { want: 'replayed' });
      await t.history();
    },
  );
}
receipt(
  'late-observe-after-settle',
  'an observe receipt arriving after the operation settled: TASK_OPERATION_CAS_MISMATCH, the settled record unchanged',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'settled');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe', OP1, 1, { resultDigest: H('late result') })),
      'TASK_OPERATION_CAS_MISMATCH',
    );
    await t.history();
  },
);
receipt(
  'observe-with-another-result',
  'a second observe with another resultDigest: TASK_OPERATION_REPLAY_MISMATCH; durable observed evidence is never replaced',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'observed');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe', OP1, 1, { resultDigest: H('another result') })),
      'TASK_OPERATION_REPLAY_MISMATCH',
    );
  },
);
receipt(
  'settle-with-another-outcome',
  'a settlement of a settled operation with another effect: TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'settled');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('settle', OP1, 1, { effect: 'known-not-applied' })),
      'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    );
  },
);
receipt(
  'old-generation-receipt-after-takeover',
  "after a takeover the old holder's observe is refused at the fence, and the same receipt from the new holder never advances the operation: it is reconciled instead",
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.read({ as: 'old' });
    await takeOver(t);
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe'), S1, 'old'),
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe'), S3),
      'TASK_OPERATION_CAS_MISMATCH',
    );
    await t.operation(event('mark-reconcile'), 'committed', S3);
    await t.operation(event('reconcile'), 'committed', S3);
    await t.history();
  },
);
