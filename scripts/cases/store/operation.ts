// Operation cases: the edge table (every phase and event), targets, malformed events and the
// binding of an operation.
import { def, RECORD } from './defs.ts';
import type { Want } from './scenario.ts';
import {
  EVENTS,
  type EventName,
  event,
  OP1,
  OP2,
  PHASES,
  type Phase,
  reachPhase,
  S2,
  S3,
  type Task,
  takeOver,
} from './task.ts';

// Operation edge table: every (phase, event) pair, with the binding of the operation.
const OUTCOME: Record<Phase, Record<EventName, Want>> = {
  prepared: {
    prepare: 'replayed',
    dispatch: 'committed',
    observe: 'TASK_OPERATION_TRANSITION_INVALID',
    settle: 'TASK_OPERATION_TRANSITION_INVALID',
    'mark-reconcile': 'TASK_OPERATION_TRANSITION_INVALID',
    reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
    abort: 'committed',
  },
  dispatched: {
    prepare: 'TASK_OPERATION_REPLAY_MISMATCH',
    dispatch: 'replayed',
    observe: 'committed',
    settle: 'TASK_OPERATION_TRANSITION_INVALID',
    'mark-reconcile': 'committed',
    reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
    abort: 'TASK_OPERATION_ABORT_INVALID',
  },
  observed: {
    prepare: 'TASK_OPERATION_REPLAY_MISMATCH',
    dispatch: 'TASK_OPERATION_TRANSITION_INVALID',
    observe: 'replayed',
    settle: 'committed',
    'mark-reconcile': 'committed',
    reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
    abort: 'TASK_OPERATION_ABORT_INVALID',
  },
  'reconcile-required': {
    prepare: 'TASK_OPERATION_REPLAY_MISMATCH',
    dispatch: 'TASK_OPERATION_TRANSITION_INVALID',
    observe: 'TASK_OPERATION_TRANSITION_INVALID',
    settle: 'TASK_OPERATION_TRANSITION_INVALID',
    'mark-reconcile': 'replayed',
    reconcile: 'committed',
    abort: 'TASK_OPERATION_ABORT_INVALID',
  },
  settled: {
    prepare: 'TASK_OPERATION_ALREADY_SETTLED',
    dispatch: 'TASK_OPERATION_CAS_MISMATCH',
    observe: 'TASK_OPERATION_CAS_MISMATCH',
    settle: 'replayed',
    'mark-reconcile': 'TASK_OPERATION_CAS_MISMATCH',
    reconcile: 'replayed',
    abort: 'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
  },
  'aborted-zero-effect': {
    prepare: 'TASK_OPERATION_ALREADY_SETTLED',
    dispatch: 'TASK_OPERATION_CAS_MISMATCH',
    observe: 'TASK_OPERATION_CAS_MISMATCH',
    settle: 'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    'mark-reconcile': 'TASK_OPERATION_CAS_MISMATCH',
    reconcile: 'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    abort: 'replayed',
  },
};
for (const phase of PHASES) {
  for (const name of EVENTS) {
    const want = OUTCOME[phase][name];
    const what = /^[A-Z]/.test(want)
      ? `refused with ${want}, nothing written`
      : want === 'replayed'
        ? 'an identical duplicate: replayed, nothing written'
        : 'an edge of the table: committed';
    def(
      'operation',
      `operation/${phase}/${name}`,
      RECORD,
      'operation-edge-table',
      `${name} on an operation that is ${phase}: ${what}`,
      async (t) => {
        await t.transition('acquire');
        await reachPhase(t, phase);
        if (/^[A-Z]/.test(want)) await t.refused('store.commitOperation', t.opRequest(event(name)), want);
        else await t.operation(event(name), want);
        await t.history();
      },
    );
  }
}

export const opCase = (
  name: string,
  title: string,
  run: (t: Task) => Promise<void>,
  anchor = 'operation-edge-table',
) => def('operation', `operation/${name}`, RECORD, anchor, title, run);

opCase(
  'prepare-full-record',
  'prepare: the store fills writerGeneration, expectedStateSequence, targetSetDigest and preparedAt of the new record',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.operation(event('prepare'));
    await t.read({ full: true });
  },
);
opCase(
  'prepare-while-in-flight',
  'prepare of another operation while one is unresolved: TASK_OPERATION_IN_FLIGHT',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.refused('store.commitOperation', t.opRequest(event('prepare', OP2)), 'TASK_OPERATION_IN_FLIGHT');
  },
);
opCase(
  'prepare-reusing-idempotency-key',
  'prepare of a new operationId with an idempotencyKey already settled in the task: TASK_OPERATION_IDEMPOTENCY_KEY_REUSED',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'settled');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('prepare', { ...OP2, idempotencyKey: OP1.idempotencyKey })),
      'TASK_OPERATION_IDEMPOTENCY_KEY_REUSED',
    );
  },
);
opCase(
  'prepare-conflicting-duplicate',
  'prepare of the unresolved operationId with other members: TASK_OPERATION_REPLAY_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'prepared');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('prepare', { ...OP1, kind: 'delete-file' })),
      'TASK_OPERATION_REPLAY_MISMATCH',
    );
  },
);
for (const [name, targets] of [
  ['unsorted', ['src/util.ts', 'src/app.ts']],
  ['duplicate', ['src/app.ts', 'src/app.ts']],
  ['empty', []],
  ['untrimmed', [' src/app.ts']],
  ['backslash', ['src\\app.ts']],
] as const) {
  opCase(
    `prepare-targets-${name}`,
    `prepare with ${name} exactTargets: TASK_OPERATION_TARGETS_INVALID`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitOperation',
        t.opRequest(event('prepare', { ...OP1, exactTargets: [...targets] })),
        'TASK_OPERATION_TARGETS_INVALID',
      );
    },
  );
}
for (const [name, extra] of [
  ['unknown-effect', { effect: 'unknown' }],
  ['no-evidence', { evidenceDigest: null }],
] as const) {
  opCase(`settle-${name}`, `settle with ${name}: TASK_OPERATION_TRANSITION_INVALID`, async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'observed');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('settle', OP1, 1, extra)),
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  });
}
// Step 2: a malformed member is refused before the store reads storage, with the code of the
// request it belongs to.
export const { operationId: _omitted, ...prepareWithoutId } = event('prepare');
const MALFORMED_EVENTS: Array<[string, string, Record<string, unknown>]> = [
  ['unknown-event', 'an unknown event', { ...event('prepare'), event: 'launch' }],
  ['operation-id-missing', 'no operationId', prepareWithoutId],
  [
    'before-digest-not-hex',
    'a beforeDigest that is not 64 lowercase hex',
    event('prepare', OP1, 1, { beforeDigest: 'before op-1' }),
  ],
];
for (const [name, what, malformed] of MALFORMED_EVENTS)
  opCase(
    `malformed/${name}`,
    `an operation event with ${what}: TASK_OPERATION_TRANSITION_INVALID, nothing written`,
    async (t) => {
      await t.transition('acquire');
      await t.refused('store.commitOperation', t.opRequest(malformed), 'TASK_OPERATION_TRANSITION_INVALID');
    },
    'details-of-the-steps',
  );
opCase(
  'unknown-operation',
  'an event naming an operation the task never prepared: TASK_OPERATION_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe', OP2)),
      'TASK_OPERATION_CAS_MISMATCH',
    );
  },
);
opCase(
  'commit-by-non-holder',
  'an operation event from a session that is not the holder: TASK_WRITE_OWNER_SESSION_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('prepare'), S2),
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
    );
  },
);
opCase(
  'state-with-event',
  'an operation event may carry the new application state; it is committed in the same envelope',
  async (t) => {
    await t.transition('acquire');
    await t.write(
      'store.commitOperation',
      { ...t.opRequest(event('prepare')), state: { step: 'prepared' } },
      'committed',
    );
    await t.read({ full: true });
  },
);
for (const [name, phase, want] of [
  ['dispatch', 'prepared', 'TASK_OPERATION_CAS_MISMATCH'],
  ['observe', 'dispatched', 'TASK_OPERATION_CAS_MISMATCH'],
  ['settle', 'observed', 'TASK_OPERATION_CAS_MISMATCH'],
  ['mark-reconcile', 'dispatched', 'committed'],
  ['mark-reconcile', 'observed', 'committed'],
  ['abort', 'prepared', 'committed'],
] as const) {
  opCase(
    `later-generation/${name}-${phase}`,
    `${name} of an operation ${phase} by an earlier generation, after an explicit takeover: ${want === 'committed' ? 'a recovery edge, committed' : `same-generation only, ${want}`}`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, phase);
      await takeOver(t);
      if (want === 'committed') await t.operation(event(name), want, S3);
      else await t.refused('store.commitOperation', t.opRequest(event(name), S3), want);
      await t.history();
    },
  );
}
opCase(
  'later-generation/reconcile',
  'a later holder reconciles a dispatched operation of an earlier generation: mark-reconcile, then reconcile, never re-dispatch',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await takeOver(t);
    await t.operation(event('mark-reconcile'), 'committed', S3);
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('dispatch'), S3),
      'TASK_OPERATION_CAS_MISMATCH',
    );
    await t.operation(event('reconcile', OP1, 1, { effect: 'known-not-applied' }), 'committed', S3);
    await t.read({ full: true });
  },
  'no-automatic-retry',
);
