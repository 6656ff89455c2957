// commitOperation: one operation event (prepare, dispatch, settle, ...) through the operation
// edges, with the settled window and settlement replays.
import { digestOf, hasLoneSurrogate } from '@agent-contracts/digest';
import {
  type TaskOperationRecordV1,
  type TaskOperationSettledRefV1,
  type TaskOperationSetV1,
  type TaskRecoveryCommitFenceV1,
  type TaskRecoveryStateV5,
  targetSetDigestOf,
} from '@agent-contracts/schemas';
import {
  type CommitDecision,
  type CommitEnvironment,
  type CommitRefusal,
  isHex,
  isObject,
  isPositiveInt,
  refuse,
} from './commit.js';
import { checkFenceAndOwner, fenceOf } from './fence.js';
import { checkOperationTransition, OPERATION_EDGES, SETTLED_WINDOW } from './operation-edges.js';
import type {
  OperationBinding,
  OperationCommitRequest,
  OperationEventInput,
  PrepareEvent,
} from './requests.js';
import {
  buildEnvelope,
  checkRead,
  checkRequest,
  checkWriter,
  committedAtFor,
  noWrite,
  sealRecord,
  withSettledDigest,
  write,
} from './steps.js';

const OPAQUE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const KIND = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

const TARGET = /^[^\s\\](?:[^\\]*[^\s\\])?$/;

const BINDING_FIELDS = [
  'operationId',
  'idempotencyKey',
  'writerGeneration',
  'targetSetDigest',
  'beforeDigest',
] as const;

function bindingMatches(record: OperationBinding, event: OperationBinding): boolean {
  return BINDING_FIELDS.every((f) => record[f] === event[f]);
}

/** The five-field binding of a record, as a late or duplicate event must carry it. */
export function operationBindingOf(record: TaskOperationRecordV1): OperationBinding {
  return {
    operationId: record.operationId,
    idempotencyKey: record.idempotencyKey,
    writerGeneration: record.writerGeneration,
    targetSetDigest: record.targetSetDigest,
    beforeDigest: record.beforeDigest,
  };
}

/** Step 2 for operation events: a known event with well-formed members. */
function checkEventShape(event: unknown): CommitRefusal | null {
  const malformed = (what: string) =>
    refuse(
      'TASK_OPERATION_TRANSITION_INVALID',
      `The operation event is malformed (${what}); send one event of the operation edge table.`,
    );
  if (!isObject(event) || typeof event.event !== 'string' || !Object.hasOwn(OPERATION_EDGES, event.event)) {
    return malformed('unknown event');
  }
  if (typeof event.operationId !== 'string' || !OPAQUE.test(event.operationId))
    return malformed('operationId');
  if (typeof event.idempotencyKey !== 'string' || !OPAQUE.test(event.idempotencyKey))
    return malformed('idempotencyKey');
  if (!isHex(event.beforeDigest)) return malformed('beforeDigest');
  if (event.event === 'prepare') {
    if (typeof event.kind !== 'string' || !KIND.test(event.kind) || event.kind.length > 64)
      return malformed('kind');
    return extraMembers(event);
  }
  if (!isPositiveInt(event.writerGeneration)) return malformed('writerGeneration');
  if (!isHex(event.targetSetDigest)) return malformed('targetSetDigest');
  if (event.event === 'observe' && !isHex(event.resultDigest)) return malformed('resultDigest');
  return extraMembers(event);
}

/** The members of each event (docs/spec/task-continuity-write-gate.md#operation-events). */
const EVENT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  prepare: ['event', 'operationId', 'idempotencyKey', 'kind', 'exactTargets', 'beforeDigest'],
  observe: ['event', ...BINDING_FIELDS, 'resultDigest'],
  settle: ['event', ...BINDING_FIELDS, 'effect', 'evidenceDigest'],
  reconcile: ['event', ...BINDING_FIELDS, 'effect', 'evidenceDigest'],
};

/** An event with a member its row does not list is malformed (D-TCW-56). */
function extraMembers(event: { readonly [key: string]: unknown }): CommitRefusal | null {
  const allowed = EVENT_MEMBERS[event.event as string] ?? ['event', ...BINDING_FIELDS];
  const extra = Object.keys(event).filter((k) => !allowed.includes(k));
  if (!extra.length) return null;
  return refuse(
    'TASK_OPERATION_TRANSITION_INVALID',
    `The operation event is malformed (members outside its table: ${extra.slice(0, 5).join(', ')}); send one event of the operation edge table.`,
  );
}

/** Whether `targets` satisfy TaskOperationRecordV1 invariant 3 and the limits. */
export function exactTargetsValid(targets: unknown): targets is string[] {
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > 256) return false;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i];
    if (typeof t !== 'string' || t.length < 1 || t.length > 1024 || !TARGET.test(t)) return false;
    if (hasLoneSurrogate(t)) return false;
    if (t.normalize('NFKC') !== t || t.trim() !== t) return false;
    if (i > 0 && !((targets[i - 1] as string) < t)) return false;
  }
  return true;
}

function resolvedCandidate(
  prior: TaskOperationRecordV1,
  event: OperationEventInput,
  settledAt: string,
): TaskOperationRecordV1 | null {
  if (event.event === 'abort') {
    return sealRecord({ ...prior, phase: 'aborted-zero-effect', effect: 'none', settledAt });
  }
  if (event.event === 'settle' || event.event === 'reconcile') {
    return sealRecord({
      ...prior,
      phase: 'settled',
      effect: event.effect,
      evidenceDigest: event.evidenceDigest,
      settledAt,
    });
  }
  return null;
}

/**
 * The `operationId` whose pre-resolution record a store must pass in
 * {@link CommitEnvironment.priorRecords} to decide `request`: set for a settle, reconcile or abort
 * naming an operation in the settled window, else `null`. The store finds that record in the
 * task's history (the unresolved record of the envelope before the resolving commit).
 */
export function priorRecordNeeded(
  current: TaskRecoveryStateV5 | null,
  request: OperationCommitRequest,
): string | null {
  const ev = request.event as Partial<OperationEventInput> | undefined;
  if (
    !current ||
    !isObject(ev) ||
    (ev.event !== 'settle' && ev.event !== 'reconcile' && ev.event !== 'abort')
  )
    return null;
  if (current.operations.unresolved?.operationId === ev.operationId) return null;
  return current.operations.settled.some((r) => r.operationId === ev.operationId)
    ? (ev.operationId as string)
    : null;
}

/** Step 4 for operation events: an event whose effect is already the current state. */
function isOperationReplay(
  e: TaskRecoveryStateV5,
  event: OperationEventInput,
  env: CommitEnvironment,
): boolean {
  const u = e.operations.unresolved;
  if (event.event === 'prepare') {
    return (
      u !== null &&
      u.phase === 'prepared' &&
      u.operationId === event.operationId &&
      u.idempotencyKey === event.idempotencyKey &&
      u.kind === event.kind &&
      u.beforeDigest === event.beforeDigest &&
      u.writerGeneration === e.writerGeneration &&
      JSON.stringify(u.exactTargets) === JSON.stringify(event.exactTargets)
    );
  }
  if (u !== null && u.operationId === event.operationId) {
    if (!bindingMatches(u, event)) return false;
    switch (event.event) {
      case 'dispatch':
        return u.phase === 'dispatched';
      case 'observe':
        return u.phase === 'observed' && u.resultDigest === event.resultDigest;
      case 'mark-reconcile':
        return u.phase === 'reconcile-required';
      default:
        return false;
    }
  }
  const ref = e.operations.settled.find((r) => r.operationId === event.operationId);
  const prior = env.priorRecords?.get(event.operationId);
  if (!ref || !prior || prior.operationId !== event.operationId || !bindingMatches(prior, event))
    return false;
  const candidate = resolvedCandidate(prior, event, ref.settledAt);
  return candidate !== null && candidate.recordDigest === ref.recordDigest;
}

/** Step 8 for operation events: the edge's guards, then the new operation set. */
function applyOperationEvent(
  e: TaskRecoveryStateV5,
  event: OperationEventInput,
  committedAt: string,
): TaskOperationSetV1 | CommitRefusal {
  const fence = fenceOf(e);
  const set = e.operations;
  const u = set.unresolved;
  const no = (code: string, message: string) => refuse(code, message, fence);
  if (event.event === 'prepare') {
    return preparedSet(e, event, committedAt);
  }
  const edge = OPERATION_EDGES[event.event];
  if (u === null || u.operationId !== event.operationId) {
    const settled = set.settled.some((r) => r.operationId === event.operationId);
    if (settled && edge.resolves) {
      return no(
        'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
        `Operation ${event.operationId} is already resolved with another outcome; reconcile any disagreement as a new operation.`,
      );
    }
    return no(
      'TASK_OPERATION_CAS_MISMATCH',
      `Operation ${event.operationId} is ${settled ? 'already resolved' : 'not the unresolved operation of the task'}; re-read the operation set, a stale receipt may only serve as reconcile evidence.`,
    );
  }
  if (!bindingMatches(u, event)) {
    return no(
      'TASK_OPERATION_CAS_MISMATCH',
      'The event binding (operationId, idempotencyKey, writerGeneration, targetSetDigest, beforeDigest) differs from the unresolved record; re-read the operation set.',
    );
  }
  if (edge.generation === 'same' && e.writerGeneration !== u.writerGeneration) {
    return no(
      'TASK_OPERATION_CAS_MISMATCH',
      `Only generation ${u.writerGeneration}, which prepared the operation, may ${event.event} it (current generation ${e.writerGeneration}); use mark-reconcile and reconcile.`,
    );
  }
  if (event.event === 'observe' && u.phase === 'observed') {
    return no(
      'TASK_OPERATION_REPLAY_MISMATCH',
      'The operation was already observed with another resultDigest; durable observed evidence is never replaced. Settle or reconcile it.',
    );
  }
  if (!edge.from.includes(u.phase)) {
    if (event.event === 'reconcile') {
      return no(
        'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
        `The operation is ${u.phase}, not reconcile-required; use mark-reconcile first, or settle if this generation observed it.`,
      );
    }
    if (event.event === 'abort') {
      return no(
        'TASK_OPERATION_ABORT_INVALID',
        `The operation is ${u.phase}: it was dispatched and can never be aborted; mark-reconcile, then reconcile with evidence.`,
      );
    }
    return no(
      'TASK_OPERATION_TRANSITION_INVALID',
      `${u.phase} -> ${event.event} is not an edge of the operation edge table; use an event the current phase allows.`,
    );
  }
  let next: TaskOperationRecordV1;
  switch (event.event) {
    case 'dispatch':
      next = sealRecord({ ...u, phase: 'dispatched', effect: 'unknown', dispatchedAt: committedAt });
      break;
    case 'observe':
      next = sealRecord({
        ...u,
        phase: 'observed',
        observedAt: committedAt,
        resultDigest: event.resultDigest,
      });
      break;
    case 'mark-reconcile':
      next = sealRecord({ ...u, phase: 'reconcile-required', effect: 'unknown' });
      break;
    default: {
      if (event.event !== 'abort') {
        if (
          (event.effect !== 'known-applied' && event.effect !== 'known-not-applied') ||
          !isHex(event.evidenceDigest)
        ) {
          return no(
            'TASK_OPERATION_TRANSITION_INVALID',
            'A settlement needs effect known-applied or known-not-applied and an evidenceDigest.',
          );
        }
      }
      next = resolvedCandidate(u, event, committedAt) as TaskOperationRecordV1;
    }
  }
  const checked = checkOperationTransition(u, next, { envelopeWriterGeneration: e.writerGeneration });
  if (!checked.ok) return no(checked.code, checked.message);
  if (!edge.resolves)
    return withSettledDigest({ unresolved: next, settledTotal: set.settledTotal, settled: set.settled });
  const ref: TaskOperationSettledRefV1 = {
    operationId: next.operationId,
    idempotencyKey: next.idempotencyKey,
    writerGeneration: next.writerGeneration,
    phase: next.phase as 'settled' | 'aborted-zero-effect',
    effect: next.effect,
    recordDigest: next.recordDigest,
    settledAt: committedAt,
  };
  return withSettledDigest({
    unresolved: null,
    settledTotal: set.settledTotal + 1,
    settled: [...set.settled, ref].slice(-SETTLED_WINDOW),
  });
}

function preparedSet(
  e: TaskRecoveryStateV5,
  event: PrepareEvent,
  committedAt: string,
): TaskOperationSetV1 | CommitRefusal {
  const fence = fenceOf(e);
  const set = e.operations;
  const u = set.unresolved;
  if (u !== null && u.operationId === event.operationId) {
    return refuse(
      'TASK_OPERATION_REPLAY_MISMATCH',
      `Operation ${event.operationId} is already ${u.phase} with other members; do not retry under the same id, read the record and settle or reconcile it.`,
      fence,
    );
  }
  if (u !== null) {
    return refuse(
      'TASK_OPERATION_IN_FLIGHT',
      `Operation ${u.operationId} is unresolved (${u.phase}); settle, reconcile or abort it first.`,
      fence,
    );
  }
  if (set.settled.some((r) => r.operationId === event.operationId)) {
    return refuse(
      'TASK_OPERATION_ALREADY_SETTLED',
      `Operation ${event.operationId} is already resolved; use a new operationId.`,
      fence,
    );
  }
  if (set.settled.some((r) => r.idempotencyKey === event.idempotencyKey)) {
    return refuse(
      'TASK_OPERATION_IDEMPOTENCY_KEY_REUSED',
      'The idempotencyKey was already used in this task; mint a new key.',
      fence,
    );
  }
  if (!exactTargetsValid(event.exactTargets)) {
    return refuse(
      'TASK_OPERATION_TARGETS_INVALID',
      'exactTargets must be 1 to 256 NFKC-normalised, trimmed, unique targets without "\\", sorted by UTF-16 code units; normalise, sort, and split over 256.',
      fence,
    );
  }
  const record = sealRecord({
    schemaVersion: 'TaskOperationRecordV1',
    operationId: event.operationId,
    idempotencyKey: event.idempotencyKey,
    writerGeneration: e.writerGeneration,
    expectedStateSequence: e.sequence,
    kind: event.kind,
    exactTargets: [...event.exactTargets],
    targetSetDigest: targetSetDigestOf(event.exactTargets),
    beforeDigest: event.beforeDigest,
    phase: 'prepared',
    effect: 'none',
    preparedAt: committedAt,
    dispatchedAt: null,
    observedAt: null,
    settledAt: null,
    resultDigest: null,
    evidenceDigest: null,
  });
  return withSettledDigest({ unresolved: record, settledTotal: set.settledTotal, settled: set.settled });
}

/**
 * Decide a `commitOperation` request: steps 1 to 11 with the operation edge table at step 8.
 * Identical duplicates (and settlement replays, given {@link CommitEnvironment.priorRecords})
 * return `replayed` at step 4, before the fence; every other event advances only the unresolved
 * record whose five binding fields equal its own. No edge re-dispatches or retries.
 *
 * @example
 * const d = decideOperationCommit(envelope, { ...writeRequest, event: { event: 'dispatch', ...binding } }, env);
 */
export function decideOperationCommit(
  current: TaskRecoveryStateV5 | null,
  request: OperationCommitRequest,
  env: CommitEnvironment,
): CommitDecision {
  const early = checkRequest(request) ?? checkEventShape(request.event);
  if (early) return early;
  if (request.state !== undefined && !isObject(request.state)) {
    return refuse('LIFECYCLE_STATE_SHAPE_INVALID', 'state must be a JSON object when present.');
  }
  const read = checkRead(current, request);
  if (read) return read;
  if (current && isOperationReplay(current, request.event, env)) return noWrite(current, 'replayed');
  const failed =
    checkFenceAndOwner(current, request.expectedFence as TaskRecoveryCommitFenceV1, request.expectedOwner) ??
    checkWriter(current, request.sessionDigest);
  if (failed) return failed;
  const e = current as TaskRecoveryStateV5;
  const committedAt = committedAtFor(e, env.clock);
  const operations = applyOperationEvent(e, request.event, committedAt);
  if ('ok' in operations) return operations;
  let state = e.state;
  if (request.state !== undefined) {
    try {
      digestOf(request.state);
    } catch {
      return refuse(
        'LIFECYCLE_STATE_SHAPE_INVALID',
        'state is not plain JSON data; send JSON values only.',
        fenceOf(e),
      );
    }
    state = structuredClone(request.state) as { [key: string]: unknown };
  }
  const envelope = buildEnvelope(e, e, {
    commitKind: OPERATION_EDGES[request.event.event].commitKind,
    committedAt,
    owner: e.owner,
    operations,
    terminalReceipt: e.terminalReceipt,
    terminalLineage: e.terminalLineage,
    state,
  });
  return write(e, envelope, env, null, 0);
}

/** The pre-resolution records a settlement replay needs, found in a task's history (oldest first). */
export function priorRecordFromHistory(
  history: readonly TaskRecoveryStateV5[],
  operationId: string,
): TaskOperationRecordV1 | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const u = history[i]?.operations.unresolved;
    if (u && u.operationId === operationId) return u;
  }
  return undefined;
}
