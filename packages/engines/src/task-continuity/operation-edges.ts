import type {
  TaskCommitKind,
  TaskOperationEffect,
  TaskOperationPhase,
  TaskOperationRecordV1,
  TaskOperationSetV1,
} from '@agent-contracts/schemas';
import { recordDigestOf } from '@agent-contracts/schemas';
import { fail, OK, type TaskCheckResult } from './result.js';
import { compareTimestamps } from './time.js';

/** An event of `commitOperation` (the row names of the operation edge table). */
export type TaskOperationEvent =
  | 'prepare'
  | 'dispatch'
  | 'observe'
  | 'settle'
  | 'mark-reconcile'
  | 'reconcile'
  | 'abort';

/**
 * One edge of the operation edge table (docs/spec/task-continuity-write-gate.md#operation-edge-table).
 * `from` lists the phases of the unresolved record the event may start from (`null`: no
 * unresolved operation). `generation`: `current` (the record takes the envelope's generation),
 * `same` (the envelope's `writerGeneration` must equal the record's), `any` (a recovery edge a
 * later holder may also commit).
 */
export interface OperationEdge {
  /** The event. */
  readonly event: TaskOperationEvent;
  /** `commitKind` of the envelope the edge produces. */
  readonly commitKind: TaskCommitKind;
  /** Phases the edge starts from (`null`: no unresolved operation). */
  readonly from: readonly (TaskOperationPhase | null)[];
  /** Phase of the record after the edge. */
  readonly to: TaskOperationPhase;
  /** Which writer generation may commit the edge. */
  readonly generation: 'current' | 'same' | 'any';
  /** Effects the record may have after the edge. */
  readonly effects: readonly TaskOperationEffect[];
  /** Whether the record leaves `unresolved` and its ref is appended to `settled`. */
  readonly resolves: boolean;
  /** Guards beyond steps 1 to 7 of the commit algorithm, in check order, with the refusal code. */
  readonly guards: readonly { readonly code: string; readonly condition: string }[];
  /** The edge's effect column, in substance. */
  readonly effect: string;
}

const BINDING = {
  code: 'TASK_OPERATION_CAS_MISMATCH',
  condition:
    'operationId, idempotencyKey, writerGeneration, targetSetDigest and beforeDigest equal the record',
} as const;
const KNOWN = {
  code: 'TASK_OPERATION_TRANSITION_INVALID',
  condition: 'effect is known-applied or known-not-applied and evidenceDigest is present',
} as const;

/**
 * The operation edge table, keyed by event. Every other (phase, event) pair is refused with
 * `TASK_OPERATION_TRANSITION_INVALID`.
 *
 * @example
 * OPERATION_EDGES.abort.from; // ['prepared']
 */
export const OPERATION_EDGES: { readonly [E in TaskOperationEvent]: OperationEdge } = {
  prepare: {
    event: 'prepare',
    commitKind: 'operation-prepare',
    from: [null],
    to: 'prepared',
    generation: 'current',
    effects: ['none'],
    resolves: false,
    guards: [
      { code: 'TASK_OPERATION_IN_FLIGHT', condition: 'no unresolved operation' },
      { code: 'TASK_OPERATION_ALREADY_SETTLED', condition: 'operationId not in settled' },
      {
        code: 'TASK_OPERATION_IDEMPOTENCY_KEY_REUSED',
        condition: 'idempotencyKey not used by the unresolved or any settled operation',
      },
      { code: 'TASK_OPERATION_TARGETS_INVALID', condition: 'targets valid' },
    ],
    effect: 'new record: effect none, preparedAt',
  },
  dispatch: {
    event: 'dispatch',
    commitKind: 'operation-dispatch',
    from: ['prepared'],
    to: 'dispatched',
    generation: 'same',
    effects: ['unknown'],
    resolves: false,
    guards: [BINDING],
    effect: 'effect unknown, dispatchedAt; committed before the effect starts',
  },
  observe: {
    event: 'observe',
    commitKind: 'operation-observe',
    from: ['dispatched'],
    to: 'observed',
    generation: 'same',
    effects: ['unknown'],
    resolves: false,
    guards: [BINDING],
    effect: 'observedAt, resultDigest',
  },
  settle: {
    event: 'settle',
    commitKind: 'operation-settle',
    from: ['observed'],
    to: 'settled',
    generation: 'same',
    effects: ['known-applied', 'known-not-applied'],
    resolves: true,
    guards: [BINDING, KNOWN],
    effect:
      'effect, evidenceDigest, settledAt; the record leaves unresolved and its ref is appended to settled',
  },
  'mark-reconcile': {
    event: 'mark-reconcile',
    commitKind: 'operation-mark-reconcile',
    from: ['dispatched', 'observed'],
    to: 'reconcile-required',
    generation: 'any',
    effects: ['unknown'],
    resolves: false,
    guards: [BINDING],
    effect: 'effect stays unknown',
  },
  reconcile: {
    event: 'reconcile',
    commitKind: 'operation-reconcile',
    from: ['reconcile-required'],
    to: 'settled',
    generation: 'any',
    effects: ['known-applied', 'known-not-applied'],
    resolves: true,
    guards: [
      BINDING,
      { code: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH', condition: 'current phase reconcile-required' },
      KNOWN,
    ],
    effect: 'as settle',
  },
  abort: {
    event: 'abort',
    commitKind: 'operation-abort',
    from: ['prepared'],
    to: 'aborted-zero-effect',
    generation: 'any',
    effects: ['none'],
    resolves: true,
    guards: [
      BINDING,
      { code: 'TASK_OPERATION_ABORT_INVALID', condition: 'current phase prepared (never dispatched)' },
    ],
    effect: 'effect none, settledAt; ref appended to settled',
  },
};

/** Every operation event, in table order. */
export const OPERATION_EVENTS = Object.keys(OPERATION_EDGES) as TaskOperationEvent[];

/** Whether `event` is one of the seven operation events. */
export function isOperationEvent(event: unknown): event is TaskOperationEvent {
  return typeof event === 'string' && Object.hasOwn(OPERATION_EDGES, event);
}

/** The edge from phase `from` (`null`: no unresolved record) to phase `to`, if the table has one. */
export function findOperationEdge(
  from: TaskOperationPhase | null,
  to: TaskOperationPhase,
): OperationEdge | undefined {
  return OPERATION_EVENTS.map((e) => OPERATION_EDGES[e]).find(
    (edge) => edge.to === to && edge.from.includes(from),
  );
}

/** The operation event of an `operation-*` commit kind, or `undefined` for other kinds. */
export function operationEventOf(commitKind: TaskCommitKind): TaskOperationEvent | undefined {
  return OPERATION_EVENTS.find((e) => OPERATION_EDGES[e].commitKind === commitKind);
}

/** The phases in which a record is unresolved (held in `TaskOperationSetV1.unresolved`). */
export const UNRESOLVED_PHASES: readonly TaskOperationPhase[] = [
  'prepared',
  'dispatched',
  'observed',
  'reconcile-required',
];

/** Maximum number of refs kept in `TaskOperationSetV1.settled`. */
export const SETTLED_WINDOW = 64;

const INVALID = 'TASK_OPERATION_TRANSITION_INVALID';

const IDENTITY_FIELDS = [
  'operationId',
  'idempotencyKey',
  'writerGeneration',
  'expectedStateSequence',
  'kind',
  'targetSetDigest',
  'beforeDigest',
  'preparedAt',
] as const;

/**
 * Check that `next` is the record the operation edge table produces from `prev` (`null`: no
 * unresolved operation, so `next` must be a fresh `prepared` record). Checks that a table edge
 * leads from `prev.phase` to `next.phase`, that the record's identity (id, key, generation,
 * expected sequence, kind, targets, before digest, preparedAt) is unchanged, that fields set
 * earlier are carried over, and that the new phase has its effect and timestamps. With
 * `options.envelopeWriterGeneration` it also checks the edge's generation column. Failures carry
 * `TASK_OPERATION_TRANSITION_INVALID` (envelope invariant 14).
 *
 * @example
 * checkOperationTransition(prepared, dispatched); // { ok: true }
 * checkOperationTransition(prepared, observed).ok; // false: prepared -> observed is not an edge
 */
export function checkOperationTransition(
  prev: TaskOperationRecordV1 | null,
  next: TaskOperationRecordV1,
  options: { readonly envelopeWriterGeneration?: number } = {},
): TaskCheckResult {
  const from = prev?.phase ?? null;
  const edge = findOperationEdge(from, next.phase);
  if (!edge) {
    return fail(
      INVALID,
      `${from ?? 'no unresolved operation'} -> ${next.phase} is not an edge of the operation edge table; use an event the current phase allows.`,
    );
  }
  const bad = (what: string) => fail(INVALID, `${edge.event}: ${what}.`);
  if (!edge.effects.includes(next.effect))
    return bad(`effect must be ${edge.effects.join(' or ')}, not ${next.effect}`);
  const gen = options.envelopeWriterGeneration;
  if (prev === null) {
    if (gen !== undefined && next.writerGeneration !== gen)
      return bad('writerGeneration must be the envelope generation');
    if (next.dispatchedAt !== null || next.observedAt !== null || next.settledAt !== null) {
      return bad('a prepared record has no dispatchedAt, observedAt or settledAt');
    }
    if (next.resultDigest !== null || next.evidenceDigest !== null) {
      return bad('a prepared record has no resultDigest or evidenceDigest');
    }
    return OK;
  }
  for (const field of IDENTITY_FIELDS) {
    if (prev[field] !== next[field]) return bad(`${field} is fixed for the record's life`);
  }
  if (JSON.stringify(prev.exactTargets) !== JSON.stringify(next.exactTargets)) {
    return bad("exactTargets are fixed for the record's life");
  }
  if (edge.generation === 'same' && gen !== undefined && gen !== prev.writerGeneration) {
    return bad('only the generation that prepared the operation may commit this edge');
  }
  if (prev.dispatchedAt !== null && next.dispatchedAt !== prev.dispatchedAt)
    return bad('dispatchedAt is kept');
  if (prev.observedAt !== null && next.observedAt !== prev.observedAt) return bad('observedAt is kept');
  if (prev.resultDigest !== null && next.resultDigest !== prev.resultDigest)
    return bad('resultDigest is kept');
  switch (edge.event) {
    case 'dispatch':
      if (next.dispatchedAt === null || compareTimestamps(next.dispatchedAt, next.preparedAt) < 0) {
        return bad('dispatchedAt must be set, not before preparedAt');
      }
      if (next.observedAt !== null || next.resultDigest !== null)
        return bad('nothing is observed at dispatch');
      break;
    case 'observe':
      if (next.observedAt === null || next.resultDigest === null)
        return bad('observedAt and resultDigest must be set');
      if (compareTimestamps(next.observedAt, next.dispatchedAt ?? next.preparedAt) < 0) {
        return bad('observedAt must not be before dispatchedAt');
      }
      break;
    case 'mark-reconcile':
      if (next.observedAt !== prev.observedAt || next.resultDigest !== prev.resultDigest) {
        return bad('mark-reconcile changes nothing but the phase');
      }
      break;
    case 'settle':
    case 'reconcile':
    case 'abort':
      if (next.settledAt === null) return bad('settledAt must be set');
      if (compareTimestamps(next.settledAt, next.observedAt ?? next.dispatchedAt ?? next.preparedAt) < 0) {
        return bad('settledAt must not be before the earlier phase timestamps');
      }
      if (next.observedAt !== prev.observedAt || next.resultDigest !== prev.resultDigest) {
        return bad('observedAt and resultDigest are kept');
      }
      if (edge.event === 'abort' && next.evidenceDigest !== null)
        return bad('an aborted record has no evidenceDigest');
      if (edge.event !== 'abort' && next.evidenceDigest === null)
        return bad('a settlement needs evidenceDigest');
      break;
    default:
      break;
  }
  if (!edge.resolves && (next.settledAt !== null || next.evidenceDigest !== null)) {
    return bad('an unresolved record has no settledAt or evidenceDigest');
  }
  return OK;
}

/**
 * Check that `next` is the operation set that the `operation-*` commit kind `commitKind`
 * produces from `prev` (envelope invariant 14, for validators of envelope chains): the
 * unresolved record follows {@link checkOperationTransition}, or, for resolving edges, leaves
 * `unresolved` and exactly one matching ref is appended to `settled` (oldest dropped beyond 64)
 * with `settledTotal` + 1. An aborted record is fully determined, so its ref's `recordDigest` is
 * recomputed too. Failures carry `TASK_OPERATION_TRANSITION_INVALID`.
 *
 * @example
 * checkOperationSetTransition(p.operations, n.operations, n.commitKind, { envelopeWriterGeneration: n.writerGeneration });
 */
export function checkOperationSetTransition(
  prev: TaskOperationSetV1,
  next: TaskOperationSetV1,
  commitKind: TaskCommitKind,
  options: { readonly envelopeWriterGeneration?: number } = {},
): TaskCheckResult {
  const event = operationEventOf(commitKind);
  if (!event) return fail(INVALID, `${commitKind} is not an operation commit kind.`);
  const edge = OPERATION_EDGES[event];
  const bad = (what: string) => fail(INVALID, `${commitKind}: ${what}.`);
  const from = prev.unresolved?.phase ?? null;
  if (!edge.from.includes(from)) {
    return bad(
      `${event} is not allowed from ${from ?? 'no unresolved operation'}; it needs ${edge.from.map((p) => p ?? 'no unresolved operation').join(' or ')}`,
    );
  }
  if (!edge.resolves) {
    if (next.unresolved === null) return bad(`the record must stay unresolved in phase ${edge.to}`);
    if (next.settledTotal !== prev.settledTotal || next.settledSetDigest !== prev.settledSetDigest) {
      return bad('the settled window does not change');
    }
    return checkOperationTransition(prev.unresolved, next.unresolved, options);
  }
  const record = prev.unresolved as TaskOperationRecordV1;
  if (next.unresolved !== null) return bad('the record must leave unresolved');
  if (next.settledTotal !== prev.settledTotal + 1) return bad('settledTotal must grow by one');
  const kept = prev.settled.slice(Math.max(0, prev.settled.length + 1 - SETTLED_WINDOW));
  if (
    next.settled.length !== kept.length + 1 ||
    JSON.stringify(next.settled.slice(0, -1)) !== JSON.stringify(kept)
  ) {
    return bad('exactly one ref is appended to settled (the oldest dropped beyond 64)');
  }
  const ref = next.settled[next.settled.length - 1];
  if (!ref) return bad('a ref must be appended to settled');
  if (
    ref.operationId !== record.operationId ||
    ref.idempotencyKey !== record.idempotencyKey ||
    ref.writerGeneration !== record.writerGeneration
  ) {
    return bad('the appended ref must name the resolved record');
  }
  if (ref.phase !== edge.to || !edge.effects.includes(ref.effect)) {
    return bad(`the appended ref must have phase ${edge.to} and effect ${edge.effects.join(' or ')}`);
  }
  const gen = options.envelopeWriterGeneration;
  if (edge.generation === 'same' && gen !== undefined && gen !== record.writerGeneration) {
    return bad('only the generation that prepared the operation may settle it');
  }
  if (event === 'abort') {
    const aborted = {
      ...record,
      phase: 'aborted-zero-effect' as const,
      effect: 'none' as const,
      settledAt: ref.settledAt,
    };
    if (ref.recordDigest !== recordDigestOf(aborted))
      return bad("the ref's recordDigest must be the aborted record's");
  }
  return OK;
}
