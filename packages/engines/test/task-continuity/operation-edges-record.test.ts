// @module-tag unit
// checkOperationTransition (envelope invariant 14, the operation edge table and the phase shape of
// docs/spec/task-continuity-write-gate.md): every edge accepted as the helpers build it, then each
// edge's record broken in one field at a time, each refusal asserted with its code and the message
// that names the one check that failed (every check shares TASK_OPERATION_TRANSITION_INVALID, so
// the message is what tells the checks apart). isOperationEvent on events and non-events.
import type { TaskOperationRecordV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { checkOperationTransition, isOperationEvent } from '../../src/task-continuity/index.js';
import {
  aborted,
  at,
  dispatched,
  observed,
  prepared,
  reconciled,
  reconcileFromDispatched,
  reconcileFromObserved,
  refused,
  settled,
  sha,
} from './helpers/operation-records.js';

type Row = [
  name: string,
  prev: TaskOperationRecordV1 | null,
  next: TaskOperationRecordV1,
  expected: ReturnType<typeof refused> | { ok: true },
  generation?: number,
];
const OK = { ok: true } as const;

describe('checkOperationTransition accepts every edge of the table', () => {
  const rows: Row[] = [
    ['prepare', null, prepared, OK],
    ['prepare (the envelope generation)', null, prepared, OK, 2],
    ['dispatch', prepared, dispatched, OK, 2],
    ['dispatch at the instant of prepare', prepared, { ...dispatched, dispatchedAt: at(10) }, OK],
    ['observe', dispatched, observed, OK, 2],
    ['observe at the instant of dispatch', dispatched, { ...observed, observedAt: at(20) }, OK],
    ['settle', observed, settled, OK, 2],
    ['settle known-not-applied', observed, { ...settled, effect: 'known-not-applied' }, OK],
    ['settle at the instant of observe', observed, { ...settled, settledAt: at(30) }, OK],
    ['mark-reconcile from dispatched', dispatched, reconcileFromDispatched, OK, 7],
    ['mark-reconcile from observed', observed, reconcileFromObserved, OK, 7],
    ['reconcile (never observed)', reconcileFromDispatched, reconciled, OK, 7],
    [
      'reconcile at the instant of dispatch',
      reconcileFromDispatched,
      { ...reconciled, settledAt: at(20) },
      OK,
    ],
    [
      'reconcile (observed)',
      reconcileFromObserved,
      { ...settled, settledAt: at(30), effect: 'known-not-applied' },
      OK,
      7,
    ],
    ['abort', prepared, aborted, OK, 7],
    ['abort at the instant of prepare', prepared, { ...aborted, settledAt: at(10) }, OK],
  ];
  it.each(rows)('%s', (_, prev, next, expected, generation) => {
    const options = generation === undefined ? undefined : { envelopeWriterGeneration: generation };
    expect(checkOperationTransition(prev, next, options)).toEqual(expected);
  });
});

describe('checkOperationTransition refuses what the table does not produce', () => {
  const rows: Row[] = [
    // No edge of the table.
    [
      'no unresolved operation -> dispatched',
      null,
      dispatched,
      refused(
        'no unresolved operation -> dispatched is not an edge of the operation edge table; use an event the current phase allows.',
      ),
    ],
    [
      'prepared -> observed',
      prepared,
      observed,
      refused(
        'prepared -> observed is not an edge of the operation edge table; use an event the current phase allows.',
      ),
    ],
    // Effects.
    [
      'prepare with an unknown effect',
      null,
      { ...prepared, effect: 'unknown' },
      refused('prepare: effect must be none, not unknown.'),
    ],
    [
      'settle with an unknown effect',
      observed,
      { ...settled, effect: 'unknown' },
      refused('settle: effect must be known-applied or known-not-applied, not unknown.'),
    ],
    // prepare: a fresh record.
    [
      'prepare under another generation',
      null,
      prepared,
      refused('prepare: writerGeneration must be the envelope generation.'),
      3,
    ],
    ...(['dispatchedAt', 'observedAt', 'settledAt'] as const).map(
      (field): Row => [
        `prepare with ${field}`,
        null,
        { ...prepared, [field]: at(10) },
        refused('prepare: a prepared record has no dispatchedAt, observedAt or settledAt.'),
      ],
    ),
    ...(['resultDigest', 'evidenceDigest'] as const).map(
      (field): Row => [
        `prepare with ${field}`,
        null,
        { ...prepared, [field]: sha('x') },
        refused('prepare: a prepared record has no resultDigest or evidenceDigest.'),
      ],
    ),
    // Identity.
    ...(
      [
        ['operationId', 'op-2'],
        ['idempotencyKey', 'idem-2'],
        ['writerGeneration', 3],
        ['expectedStateSequence', 6],
        ['kind', 'delete'],
        ['targetSetDigest', sha('other targets')],
        ['beforeDigest', sha('other before')],
        ['preparedAt', at(11)],
      ] as const
    ).map(
      ([field, value]): Row => [
        `dispatch changing ${field}`,
        prepared,
        { ...dispatched, [field]: value },
        refused(`dispatch: ${field} is fixed for the record's life.`),
      ],
    ),
    [
      'dispatch changing exactTargets',
      prepared,
      { ...dispatched, exactTargets: ['docs/a.md'] },
      refused("dispatch: exactTargets are fixed for the record's life."),
    ],
    // Generation column.
    [
      'dispatch by another generation',
      prepared,
      dispatched,
      refused('dispatch: only the generation that prepared the operation may commit this edge.'),
      3,
    ],
    // Carried fields.
    [
      'observe moving dispatchedAt',
      dispatched,
      { ...observed, dispatchedAt: at(21) },
      refused('observe: dispatchedAt is kept.'),
    ],
    [
      'mark-reconcile moving observedAt',
      observed,
      { ...reconcileFromObserved, observedAt: at(31) },
      refused('mark-reconcile: observedAt is kept.'),
    ],
    [
      'mark-reconcile changing resultDigest',
      observed,
      { ...reconcileFromObserved, resultDigest: sha('other result') },
      refused('mark-reconcile: resultDigest is kept.'),
    ],
    // dispatch.
    [
      'dispatch without dispatchedAt',
      prepared,
      { ...dispatched, dispatchedAt: null },
      refused('dispatch: dispatchedAt must be set, not before preparedAt.'),
    ],
    [
      'dispatch before preparedAt',
      prepared,
      { ...dispatched, dispatchedAt: at(9) },
      refused('dispatch: dispatchedAt must be set, not before preparedAt.'),
    ],
    [
      'dispatch with observedAt',
      prepared,
      { ...dispatched, observedAt: at(20) },
      refused('dispatch: nothing is observed at dispatch.'),
    ],
    [
      'dispatch with resultDigest',
      prepared,
      { ...dispatched, resultDigest: sha('result') },
      refused('dispatch: nothing is observed at dispatch.'),
    ],
    [
      'dispatch with settledAt',
      prepared,
      { ...dispatched, settledAt: at(20) },
      refused('dispatch: an unresolved record has no settledAt or evidenceDigest.'),
    ],
    [
      'dispatch with evidenceDigest',
      prepared,
      { ...dispatched, evidenceDigest: sha('evidence') },
      refused('dispatch: an unresolved record has no settledAt or evidenceDigest.'),
    ],
    // observe.
    [
      'observe without observedAt',
      dispatched,
      { ...observed, observedAt: null },
      refused('observe: observedAt and resultDigest must be set.'),
    ],
    [
      'observe without resultDigest',
      dispatched,
      { ...observed, resultDigest: null },
      refused('observe: observedAt and resultDigest must be set.'),
    ],
    [
      'observe before dispatchedAt (after preparedAt)',
      dispatched,
      { ...observed, observedAt: at(15) },
      refused('observe: observedAt must not be before dispatchedAt.'),
    ],
    [
      'observe with evidenceDigest',
      dispatched,
      { ...observed, evidenceDigest: sha('evidence') },
      refused('observe: an unresolved record has no settledAt or evidenceDigest.'),
    ],
    // mark-reconcile.
    [
      'mark-reconcile setting observedAt',
      dispatched,
      { ...reconcileFromDispatched, observedAt: at(30) },
      refused('mark-reconcile: mark-reconcile changes nothing but the phase.'),
    ],
    [
      'mark-reconcile setting resultDigest',
      dispatched,
      { ...reconcileFromDispatched, resultDigest: sha('result') },
      refused('mark-reconcile: mark-reconcile changes nothing but the phase.'),
    ],
    [
      'mark-reconcile with settledAt',
      dispatched,
      { ...reconcileFromDispatched, settledAt: at(30) },
      refused('mark-reconcile: an unresolved record has no settledAt or evidenceDigest.'),
    ],
    // settle, reconcile, abort.
    ...(
      [
        ['settle', observed, settled],
        ['reconcile', reconcileFromDispatched, reconciled],
        ['abort', prepared, aborted],
      ] as const
    ).map(
      ([event, prev, next]): Row => [
        `${event} without settledAt`,
        prev,
        { ...next, settledAt: null },
        refused(`${event}: settledAt must be set.`),
      ],
    ),
    [
      'settle before observedAt (after dispatchedAt)',
      observed,
      { ...settled, settledAt: at(25) },
      refused('settle: settledAt must not be before the earlier phase timestamps.'),
    ],
    [
      'reconcile before dispatchedAt (after preparedAt)',
      reconcileFromDispatched,
      { ...reconciled, settledAt: at(15) },
      refused('reconcile: settledAt must not be before the earlier phase timestamps.'),
    ],
    [
      'abort before preparedAt',
      prepared,
      { ...aborted, settledAt: at(9) },
      refused('abort: settledAt must not be before the earlier phase timestamps.'),
    ],
    [
      'reconcile setting observedAt',
      reconcileFromDispatched,
      { ...reconciled, observedAt: at(30) },
      refused('reconcile: observedAt and resultDigest are kept.'),
    ],
    [
      'reconcile setting resultDigest',
      reconcileFromDispatched,
      { ...reconciled, resultDigest: sha('result') },
      refused('reconcile: observedAt and resultDigest are kept.'),
    ],
    [
      'abort with evidenceDigest',
      prepared,
      { ...aborted, evidenceDigest: sha('evidence') },
      refused('abort: an aborted record has no evidenceDigest.'),
    ],
    [
      'settle without evidenceDigest',
      observed,
      { ...settled, evidenceDigest: null },
      refused('settle: a settlement needs evidenceDigest.'),
    ],
    [
      'reconcile without evidenceDigest',
      reconcileFromDispatched,
      { ...reconciled, evidenceDigest: null },
      refused('reconcile: a settlement needs evidenceDigest.'),
    ],
  ];
  it.each(rows)('%s', (_, prev, next, expected, generation) => {
    const options = generation === undefined ? undefined : { envelopeWriterGeneration: generation };
    expect(checkOperationTransition(prev, next, options)).toEqual(expected);
  });

  it('lets a later generation commit the recovery edges', () => {
    for (const [prev, next] of [
      [observed, reconcileFromObserved],
      [reconcileFromDispatched, reconciled],
      [prepared, aborted],
    ] as const) {
      expect(checkOperationTransition(prev, next, { envelopeWriterGeneration: 9 })).toEqual({ ok: true });
    }
  });
});

describe('isOperationEvent', () => {
  it('is true for the seven events and false for anything else', () => {
    for (const e of ['prepare', 'dispatch', 'observe', 'settle', 'mark-reconcile', 'reconcile', 'abort'])
      expect(isOperationEvent(e)).toBe(true);
    // An array whose text is an event name is an own key of the table, but not a string.
    for (const e of ['owner-renew', 'operation-prepare', 'toString', '', ['prepare'], 7, null, undefined])
      expect(isOperationEvent(e)).toBe(false);
  });
});
