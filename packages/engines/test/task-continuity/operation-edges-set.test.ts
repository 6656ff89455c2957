// @module-tag unit
// checkOperationSetTransition (envelope invariant 14, for validators of envelope chains): the
// operation set of each operation-* commit kind accepted as the helpers build it, then broken one
// member at a time: the wrong start phase, the settled window touched by an unresolved edge, a
// resolving edge that keeps its record, counts wrongly, drops or rewrites refs (with a full window
// of 64 too), or appends a ref of another record, phase or effect; the generation column and the
// recomputed recordDigest of an aborted record. Each refusal with its code and message.
import type { TaskCommitKind, TaskOperationSetV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { checkOperationSetTransition } from '../../src/task-continuity/index.js';
import {
  aborted,
  dispatched,
  observed,
  olderRefs,
  prepared,
  reconciled,
  reconcileFromDispatched,
  refOf,
  refused,
  resolvedSetOf,
  setOf,
  settled,
  sha,
} from './helpers/operation-records.js';

const OK = { ok: true } as const;
const older = olderRefs(3);
const full = olderRefs(64);

type Row = [
  name: string,
  prev: TaskOperationSetV1,
  next: TaskOperationSetV1,
  kind: TaskCommitKind,
  expected: ReturnType<typeof refused> | typeof OK,
  generation?: number,
];

const check = (row: Row) => {
  const [, prev, next, kind, , generation] = row;
  const options = generation === undefined ? undefined : { envelopeWriterGeneration: generation };
  return checkOperationSetTransition(prev, next, kind, options);
};

describe('checkOperationSetTransition accepts the set each operation kind produces', () => {
  const rows: Row[] = [
    ['prepare', setOf(null, older), setOf(prepared, older), 'operation-prepare', OK, 2],
    ['dispatch', setOf(prepared, older), setOf(dispatched, older), 'operation-dispatch', OK, 2],
    ['observe', setOf(dispatched), setOf(observed), 'operation-observe', OK],
    [
      'mark-reconcile by a later generation',
      setOf(dispatched),
      setOf(reconcileFromDispatched),
      'operation-mark-reconcile',
      OK,
      9,
    ],
    [
      'settle',
      setOf(observed, older),
      resolvedSetOf(setOf(observed, older), settled),
      'operation-settle',
      OK,
      2,
    ],
    [
      'settle without a generation',
      setOf(observed),
      resolvedSetOf(setOf(observed), settled),
      'operation-settle',
      OK,
    ],
    [
      'settle into a full window (the oldest ref dropped)',
      setOf(observed, full, 70),
      resolvedSetOf(setOf(observed, full, 70), settled),
      'operation-settle',
      OK,
    ],
    [
      'reconcile by a later generation',
      setOf(reconcileFromDispatched, older),
      resolvedSetOf(setOf(reconcileFromDispatched, older), reconciled),
      'operation-reconcile',
      OK,
      9,
    ],
    [
      'abort by a later generation',
      setOf(prepared, older),
      resolvedSetOf(setOf(prepared, older), aborted),
      'operation-abort',
      OK,
      9,
    ],
  ];
  it.each(rows)('%s', (...row) => {
    expect(check(row)).toEqual(row[4]);
  });
});

describe('checkOperationSetTransition refuses every other set', () => {
  const settleFrom = setOf(observed, older);
  const settledNext = resolvedSetOf(settleFrom, settled);
  const abortFrom = setOf(prepared, older);
  const abortedNext = resolvedSetOf(abortFrom, aborted);
  const withLast = (set: TaskOperationSetV1, ref: object) =>
    setOf(
      null,
      [...set.settled.slice(0, -1), { ...set.settled[set.settled.length - 1], ...ref }] as never,
      set.settledTotal,
    );
  const rows: Row[] = [
    [
      'a kind that is not an operation kind',
      setOf(prepared),
      setOf(prepared),
      'owner-renew',
      refused('owner-renew is not an operation commit kind.'),
    ],
    [
      'dispatch with no unresolved operation',
      setOf(null),
      setOf(dispatched),
      'operation-dispatch',
      refused('operation-dispatch: dispatch is not allowed from no unresolved operation; it needs prepared.'),
    ],
    [
      'prepare over an unresolved operation',
      setOf(dispatched),
      setOf(prepared),
      'operation-prepare',
      refused('operation-prepare: prepare is not allowed from dispatched; it needs no unresolved operation.'),
    ],
    [
      'mark-reconcile from prepared',
      setOf(prepared),
      setOf(reconcileFromDispatched),
      'operation-mark-reconcile',
      refused(
        'operation-mark-reconcile: mark-reconcile is not allowed from prepared; it needs dispatched or observed.',
      ),
    ],
    // Edges that keep the record unresolved.
    [
      'dispatch that resolves the record',
      setOf(prepared),
      setOf(null),
      'operation-dispatch',
      refused('operation-dispatch: the record must stay unresolved in phase dispatched.'),
    ],
    [
      'dispatch that counts one more resolved operation (the same window digest)',
      setOf(prepared, older),
      { ...setOf(dispatched, older, 4), settledSetDigest: setOf(prepared, older).settledSetDigest },
      'operation-dispatch',
      refused('operation-dispatch: the settled window does not change.'),
    ],
    [
      'dispatch that changes the settled window (its digest)',
      setOf(prepared, older),
      { ...setOf(dispatched, older), settledSetDigest: sha('other window') },
      'operation-dispatch',
      refused('operation-dispatch: the settled window does not change.'),
    ],
    [
      'dispatch whose record breaks the edge table',
      setOf(prepared),
      setOf({ ...dispatched, dispatchedAt: null }),
      'operation-dispatch',
      refused('dispatch: dispatchedAt must be set, not before preparedAt.'),
    ],
    [
      'dispatch by another generation',
      setOf(prepared),
      setOf(dispatched),
      'operation-dispatch',
      refused('dispatch: only the generation that prepared the operation may commit this edge.'),
      3,
    ],
    // Edges that resolve it.
    [
      'settle that keeps the record unresolved',
      settleFrom,
      { ...settledNext, unresolved: settled },
      'operation-settle',
      refused('operation-settle: the record must leave unresolved.'),
    ],
    [
      'settle that does not count the operation',
      settleFrom,
      setOf(null, settledNext.settled, 3),
      'operation-settle',
      refused('operation-settle: settledTotal must grow by one.'),
    ],
    [
      'settle that appends no ref',
      settleFrom,
      setOf(null, older, 4),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle into an empty window that appends no ref',
      setOf(observed),
      setOf(null, [], 1),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle that appends two refs',
      settleFrom,
      setOf(null, [...settledNext.settled, refOf(settled)], 4),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle that rewrites an earlier ref',
      settleFrom,
      setOf(
        null,
        [
          ...older.map((r, i) => (i === 1 ? { ...r, effect: 'known-not-applied' as const } : r)),
          refOf(settled),
        ],
        4,
      ),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle into a full window that keeps the oldest ref',
      setOf(observed, full, 70),
      setOf(null, [...full.slice(0, 63), refOf(settled)], 71),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle into a full window that drops a ref but not the oldest',
      setOf(observed, full, 70),
      setOf(null, [...full.slice(0, 62), full[63], refOf(settled)] as never, 71),
      'operation-settle',
      refused('operation-settle: exactly one ref is appended to settled (the oldest dropped beyond 64).'),
    ],
    [
      'settle that appends a null ref',
      settleFrom,
      setOf(null, [...older, null] as never, 4),
      'operation-settle',
      refused('operation-settle: a ref must be appended to settled.'),
    ],
    ...(
      [
        ['operationId', 'op-2'],
        ['idempotencyKey', 'idem-2'],
        ['writerGeneration', 3],
      ] as const
    ).map(
      ([field, value]): Row => [
        `settle that appends a ref with another ${field}`,
        settleFrom,
        withLast(settledNext, { [field]: value }),
        'operation-settle',
        refused('operation-settle: the appended ref must name the resolved record.'),
      ],
    ),
    [
      'settle that appends an aborted ref',
      settleFrom,
      withLast(settledNext, { phase: 'aborted-zero-effect' }),
      'operation-settle',
      refused(
        'operation-settle: the appended ref must have phase settled and effect known-applied or known-not-applied.',
      ),
    ],
    [
      'settle that appends a ref of unknown effect',
      settleFrom,
      withLast(settledNext, { effect: 'unknown' }),
      'operation-settle',
      refused(
        'operation-settle: the appended ref must have phase settled and effect known-applied or known-not-applied.',
      ),
    ],
    [
      'settle by another generation',
      settleFrom,
      settledNext,
      'operation-settle',
      refused('operation-settle: only the generation that prepared the operation may settle it.'),
      3,
    ],
    [
      'abort whose ref has the digest of the prepared record',
      abortFrom,
      withLast(abortedNext, { recordDigest: prepared.recordDigest }),
      'operation-abort',
      refused("operation-abort: the ref's recordDigest must be the aborted record's."),
    ],
    [
      'abort whose ref has another settledAt than its digest covers',
      abortFrom,
      withLast(abortedNext, { settledAt: '2026-11-30T06:00:16.000Z' }),
      'operation-abort',
      refused("operation-abort: the ref's recordDigest must be the aborted record's."),
    ],
  ];
  it.each(rows)('%s', (...row) => {
    expect(check(row)).toEqual(row[4]);
  });
});
