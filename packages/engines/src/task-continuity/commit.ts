import { digestOf, hasLoneSurrogate } from '@agent-contracts/digest';
import type {
  FencedTaskWriteOwnerLeaseV2,
  TaskCommitKind,
  TaskOperationRecordV1,
  TaskOperationSettledRefV1,
  TaskOperationSetV1,
  TaskRecoveryCommitFenceV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
  TaskTerminalLineageEntryV1,
  WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import {
  envelopeDigestOf,
  leaseDigestOf,
  receiptDigestOf,
  recordDigestOf,
  refDigestOf,
  settledSetDigestOf,
  targetSetDigestOf,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import { checkOperationTransition, OPERATION_EDGES, SETTLED_WINDOW } from './operation-edges.js';
import { checkOwnerTransition, isOwnerOperation, OWNER_TRANSITION_TABLE } from './owner-transitions.js';
import type {
  OperationBinding,
  OperationCommitRequest,
  OperationEventInput,
  OwnerTransitionRequest,
  PrepareEvent,
  StateCommitRequest,
} from './requests.js';
import { fail, type TaskCheckResult } from './result.js';
import { checkStoredEnvelope } from './stored-envelope.js';
import { checkTaskKey } from './task-key.js';
import { compareTimestamps } from './time.js';
import { fenceOf, ownerRefOf, ownerRefsMatch, writeContextDigestOf } from './write-context.js';

/** Default diagnostic lease duration (5 minutes); never a decision input. */
export const DEFAULT_LEASE_DURATION_MS = 300_000;

/** Maximum number of entries kept in `terminalLineage`. */
export const TERMINAL_LINEAGE_WINDOW = 64;

/** What a commit decision needs besides the envelope and the request. */
export interface CommitEnvironment {
  /** The store's clock: timestamps and diagnostics only. */
  readonly clock: Clock;
  /** The runtime generation performing the commit (bound into write-context digests). */
  readonly runtimeGeneration: string;
  /** Mints a fresh `owner-` + 40 hex nonce from a cryptographically secure source. */
  readonly mintNonce: () => string;
  /** Diagnostic lease duration in ms (>= 1); default {@link DEFAULT_LEASE_DURATION_MS}. */
  readonly leaseDurationMs?: number;
  /**
   * Terminal evidence checks that need the file system (scope, file, drift, digest), run after
   * the pure path checks. Without it every terminal request is refused with
   * `TASK_TERMINAL_EVIDENCE_FILE_INVALID`.
   */
  readonly verifyEvidence?: (evidence: readonly TaskTerminalEvidenceItemV1[]) => TaskCheckResult;
  /**
   * Full records, as they were just before resolution, of operations in the settled window, by
   * `operationId`: needed to decide a settlement replay (see {@link priorRecordNeeded}).
   */
  readonly priorRecords?: ReadonlyMap<string, TaskOperationRecordV1>;
  /** Documented envelope size limit in UTF-8 bytes (`LIFECYCLE_STATE_PAYLOAD_EXCEEDED`); none by default. */
  readonly maxEnvelopeBytes?: number;
}

/**
 * A refusal of the TaskContinuityWriteGate, by the engine or by the store that runs it: nothing is
 * written. `currentFence` is the fence read, omitted only when the refusal came before the read.
 */
export type CommitRefusal = EngineRefusal<string, { readonly currentFence?: TaskRecoveryCommitFenceV1 }>;

/** A decision to write `envelope` (compare-and-append against the fence of the envelope read). */
export interface CommitWrite {
  /** Always `true`. */
  readonly ok: true;
  /** Always `committed`. */
  readonly status: 'committed';
  /** The new envelope. */
  readonly envelope: TaskRecoveryStateV5;
  /** The new fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** For `terminal`, the receipt produced; else `null`. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** A decision that writes nothing: an unchanged state, or an exact replay. */
export interface CommitNoWrite {
  /** Always `true`. */
  readonly ok: true;
  /** `semantic-noop` or `replayed`. */
  readonly status: 'semantic-noop' | 'replayed';
  /** The current envelope (unchanged). */
  readonly envelope: TaskRecoveryStateV5;
  /** The current fence. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** For a replayed `terminal`, the stored receipt; else `null`. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** Outcome of a commit decision. */
export type CommitDecision = CommitWrite | CommitNoWrite | CommitRefusal;

const HEX = /^[a-f0-9]{64}$/;
const OPAQUE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const KIND = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const TARGET = /^[^\s\\](?:[^\\]*[^\s\\])?$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the schema's evidence path pattern excludes control characters on purpose.
const EVIDENCE_PATH = /^(?!\.\.?(?:\/|$))[^/\\\x00-\x1f]+(?:\/(?!\.\.?(?:\/|$))[^/\\\x00-\x1f]+)*$/;
const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;
const TERMINAL_STATUSES = ['cancelled', 'completed', 'failed', 'rejected'];
const isHex = (v: unknown): v is string => typeof v === 'string' && HEX.test(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

function refuse(code: string, message: string, currentFence?: TaskRecoveryCommitFenceV1): CommitRefusal {
  return currentFence ? refusal(code, message, { currentFence }) : refusal(code, message);
}

/** Whether `value` is a well-formed `TaskRecoveryCommitFenceV1`. */
export function isValidFence(value: unknown): value is TaskRecoveryCommitFenceV1 {
  return (
    isObject(value) &&
    value.schemaVersion === 'TaskRecoveryCommitFenceV1' &&
    Number.isSafeInteger(value.stateSequence) &&
    (value.stateSequence as number) >= 0 &&
    Number.isSafeInteger(value.writerGeneration) &&
    (value.writerGeneration as number) >= 0
  );
}

// ---------------------------------------------------------------------------------------------
// Shared steps

interface Common {
  readonly taskId: unknown;
  readonly projectRootIdentity: unknown;
  readonly expectedFence: unknown;
}

/** Step 1: task key and fence. */
function checkRequest(request: Common): CommitRefusal | null {
  const key = checkTaskKey(request);
  if (!key.ok) return refuse(key.code, key.message);
  if (!isValidFence(request.expectedFence)) {
    return refuse(
      'LIFECYCLE_STATE_FENCE_REQUIRED',
      'The request carries no valid expectedFence; read the task (or use the last write context) and send its fence, (0, 0) for a new task.',
    );
  }
  return null;
}

/** Step 3: the envelope read must be valid and belong to the task. */
function checkRead(current: TaskRecoveryStateV5 | null, request: Common): CommitRefusal | null {
  if (current === null) return null;
  const r = checkStoredEnvelope(current);
  if (!r.ok) return refuse(r.code, r.message, fenceOf(current));
  if (current.taskId !== request.taskId || current.projectRootIdentity !== request.projectRootIdentity) {
    return refuse(
      'LIFECYCLE_STATE_UNAVAILABLE',
      'The stored envelope belongs to another task key; stop writing and repair the store out of band.',
      fenceOf(current),
    );
  }
  return null;
}

/** Steps 5 and 6: exact fence, then owner ref. */
function checkFenceAndOwner(
  current: TaskRecoveryStateV5 | null,
  expectedFence: TaskRecoveryCommitFenceV1,
  expectedOwner: unknown,
): CommitRefusal | null {
  const fence = fenceOf(current);
  if (
    expectedFence.stateSequence !== fence.stateSequence ||
    expectedFence.writerGeneration !== fence.writerGeneration
  ) {
    return refuse(
      'LIFECYCLE_STATE_FENCE_MISMATCH',
      `The fence (${expectedFence.stateSequence}, ${expectedFence.writerGeneration}) is not the current fence (${fence.stateSequence}, ${fence.writerGeneration}); re-read, re-validate the intent against the current state and only then retry with the new fence.`,
      fence,
    );
  }
  if (!ownerRefsMatch(expectedOwner as never, ownerRefOf(current?.owner))) {
    return refuse(
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
      'expectedOwner is not the current owner ref; re-read the task, the requester may no longer be the holder.',
      fence,
    );
  }
  return null;
}

/** Step 7 (state and operation commits): an active lease held by the requester. */
function checkWriter(current: TaskRecoveryStateV5 | null, sessionDigest: unknown): CommitRefusal | null {
  const fence = fenceOf(current);
  if (current === null || current.owner.status !== 'active') {
    return refuse(
      'TASK_WRITE_OWNER_MISSING',
      `The task has no active write owner (${current?.owner.status ?? 'no envelope'}); acquire, reacquire, accept or reopen first.`,
      fence,
    );
  }
  if (sessionDigest !== current.owner.sessionDigest) {
    return refuse(
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
      'The requesting session is not the holder; only the holder may write, another session needs a handoff or a takeover.',
      fence,
    );
  }
  return null;
}

function committedAtFor(current: TaskRecoveryStateV5 | null, clock: Clock): string {
  const now = timestampOf(clock.now());
  return current && compareTimestamps(now, current.committedAt) < 0 ? current.committedAt : now;
}

function laterBy(ts: string, ms: number): string {
  return timestampOf(Date.parse(ts) + ms);
}

interface EnvelopeParts {
  readonly commitKind: TaskCommitKind;
  readonly committedAt: string;
  readonly owner: FencedTaskWriteOwnerLeaseV2;
  readonly operations: TaskOperationSetV1;
  readonly terminalReceipt: WorkflowTaskTerminalReceiptV1 | null;
  readonly terminalLineage: TaskTerminalLineageEntryV1[];
  readonly state: { [key: string]: unknown };
}

function buildEnvelope(
  current: TaskRecoveryStateV5 | null,
  key: { taskId: string; projectRootIdentity: string },
  parts: EnvelopeParts,
): TaskRecoveryStateV5 {
  const body = {
    schemaVersion: 'TaskRecoveryStateV5' as const,
    taskId: key.taskId,
    projectRootIdentity: key.projectRootIdentity,
    sequence: (current?.sequence ?? 0) + 1,
    writerGeneration: parts.owner.ownerGeneration,
    lifecycleRevision: parts.owner.reopenGeneration + 1,
    commitKind: parts.commitKind,
    committedAt: parts.committedAt,
    previousEnvelopeDigest: current?.envelopeDigest ?? null,
    owner: parts.owner,
    operations: parts.operations,
    terminalReceipt: parts.terminalReceipt,
    terminalLineage: parts.terminalLineage,
    state: parts.state,
    stateDigest: digestOf(parts.state),
  };
  return { ...body, envelopeDigest: envelopeDigestOf(body) };
}

/** Steps 9 and 11: generation delta assertion, payload limit, then the write decision. */
function write(
  current: TaskRecoveryStateV5 | null,
  envelope: TaskRecoveryStateV5,
  env: CommitEnvironment,
  receipt: WorkflowTaskTerminalReceiptV1 | null,
  generationDelta: number,
): CommitDecision {
  const fence = fenceOf(current);
  if (envelope.writerGeneration !== fence.writerGeneration + generationDelta) {
    return refuse(
      'LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID',
      `The candidate would move writerGeneration from ${fence.writerGeneration} to ${envelope.writerGeneration}; change ownership only through transitionOwner.`,
      fence,
    );
  }
  if (env.maxEnvelopeBytes !== undefined) {
    const bytes = new TextEncoder().encode(JSON.stringify(envelope)).length;
    if (bytes > env.maxEnvelopeBytes) {
      return refuse(
        'LIFECYCLE_STATE_PAYLOAD_EXCEEDED',
        `The envelope would be ${bytes} bytes, over the store's limit of ${env.maxEnvelopeBytes}; shrink state. Nothing was written.`,
        fence,
      );
    }
  }
  return { ok: true, status: 'committed', envelope, fence: fenceOf(envelope), receipt };
}

function noWrite(
  current: TaskRecoveryStateV5,
  status: 'semantic-noop' | 'replayed',
  receipt: WorkflowTaskTerminalReceiptV1 | null = null,
): CommitNoWrite {
  return { ok: true, status, envelope: current, fence: fenceOf(current), receipt };
}

/** The empty operation set of a new task. */
export function emptyOperationSet(): TaskOperationSetV1 {
  return withSettledDigest({ unresolved: null, settledTotal: 0, settled: [] });
}

function withSettledDigest(
  parts: Omit<TaskOperationSetV1, 'schemaVersion' | 'settledSetDigest'>,
): TaskOperationSetV1 {
  const set = { schemaVersion: 'TaskOperationSetV1' as const, ...parts };
  return { ...set, settledSetDigest: settledSetDigestOf(set) };
}

function sealRecord(record: Omit<TaskOperationRecordV1, 'recordDigest'>): TaskOperationRecordV1 {
  return { ...record, recordDigest: recordDigestOf(record) };
}

// ---------------------------------------------------------------------------------------------
// commitState

/**
 * Decide a `commitState` request against the current envelope `current` (`null` for a task
 * never written): steps 1 to 11 of the commit algorithm. `force` only turns an unchanged state
 * into a new envelope; it bypasses no check.
 *
 * @example
 * const d = decideStateCommit(envelope, { taskId, projectRootIdentity, expectedFence, expectedOwner, sessionDigest, state }, env);
 * if (d.ok && d.status === 'committed') await backend.compareAndAppend(key, fenceOf(envelope), d.envelope);
 */
export function decideStateCommit(
  current: TaskRecoveryStateV5 | null,
  request: StateCommitRequest,
  env: CommitEnvironment,
): CommitDecision {
  const early = checkRequest(request);
  if (early) return early;
  if (!isObject(request.state)) {
    return refuse(
      'LIFECYCLE_STATE_SHAPE_INVALID',
      'state must be a JSON object; send the application state as an object.',
    );
  }
  const failed =
    checkRead(current, request) ??
    checkFenceAndOwner(current, request.expectedFence as TaskRecoveryCommitFenceV1, request.expectedOwner) ??
    checkWriter(current, request.sessionDigest);
  if (failed) return failed;
  const e = current as TaskRecoveryStateV5;
  let stateDigest: string;
  try {
    stateDigest = digestOf(request.state);
  } catch {
    return refuse(
      'LIFECYCLE_STATE_SHAPE_INVALID',
      'state is not plain JSON data; send JSON values only.',
      fenceOf(e),
    );
  }
  if (stateDigest === e.stateDigest && request.force !== true) return noWrite(e, 'semantic-noop');
  const envelope = buildEnvelope(e, e, {
    commitKind: 'state',
    committedAt: committedAtFor(e, env.clock),
    owner: e.owner,
    operations: e.operations,
    terminalReceipt: e.terminalReceipt,
    terminalLineage: e.terminalLineage,
    state: structuredClone(request.state) as { [key: string]: unknown },
  });
  return write(e, envelope, env, null, 0);
}

// ---------------------------------------------------------------------------------------------
// commitOperation

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

// ---------------------------------------------------------------------------------------------
// transitionOwner

/** The members of an owner transition request (the page's "Owner transition request" table). */
const OWNER_REQUEST_MEMBERS = [
  'operation',
  'taskId',
  'projectRootIdentity',
  'expectedFence',
  'expectedOwner',
  'sessionDigest',
  'contextEpoch',
  'routeRevision',
  'targetSessionDigest',
  'handoffRefDigest',
  'takeoverRefDigest',
  'takeoverEvidence',
  'terminal',
  'terminalReceiptDigest',
] as const satisfies readonly (keyof OwnerTransitionRequest)[];

/** Step 2 for owner transitions. */
function checkTransitionShape(request: OwnerTransitionRequest): CommitRefusal | null {
  const invalid = (what: string) =>
    refuse(
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
      `The owner transition request is malformed (${what}); send every member of the request table.`,
    );
  if (!isOwnerOperation(request.operation))
    return invalid(`unknown operation ${JSON.stringify(request.operation)}`);
  // Every member of the request table and no other: `requestDigest` identifies exactly them.
  const members = Object.keys(request);
  const missing = OWNER_REQUEST_MEMBERS.filter((m) => !members.includes(m));
  if (missing.length) return invalid(`missing ${missing.join(', ')}`);
  const unknown = members.filter((m) => !(OWNER_REQUEST_MEMBERS as readonly string[]).includes(m));
  if (unknown.length) return invalid(`members outside the request table: ${unknown.slice(0, 5).join(', ')}`);
  if (!isHex(request.sessionDigest)) return invalid('sessionDigest');
  if (
    typeof request.contextEpoch !== 'string' ||
    request.contextEpoch.length < 1 ||
    request.contextEpoch.length > 256 ||
    hasLoneSurrogate(request.contextEpoch)
  ) {
    return invalid('contextEpoch');
  }
  if (!isHex(request.routeRevision)) return invalid('routeRevision');
  for (const key of [
    'targetSessionDigest',
    'handoffRefDigest',
    'takeoverRefDigest',
    'terminalReceiptDigest',
  ] as const) {
    if (request[key] !== null && !isHex(request[key])) return invalid(key);
  }
  if (request.takeoverEvidence !== null) {
    const t = request.takeoverEvidence;
    if (
      !isObject(t) ||
      !isHex(t.readbackContextDigest) ||
      !isHex(t.livenessEvidenceDigest) ||
      !isHex(t.reconcileReceiptDigest)
    ) {
      return invalid('takeoverEvidence');
    }
  }
  if (request.operation !== 'terminal') return null;
  const t = request.terminal as unknown;
  if (!isObject(t) || !TERMINAL_STATUSES.includes(t.terminalStatus as string)) {
    return refuse(
      'TASK_TERMINAL_INPUT_INVALID',
      'terminal.terminalStatus must be one of completed, rejected, cancelled, failed.',
    );
  }
  if (!isPositiveInt(t.lifecycleRevision) || !isHex(t.settledSetDigest) || !isHex(t.writeContextDigest)) {
    return refuse(
      'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
      'terminal needs lifecycleRevision, settledSetDigest and writeContextDigest; read the write context and send its values.',
    );
  }
  const items = t.evidence;
  if (
    !Array.isArray(items) ||
    !items.every(
      (i) =>
        isObject(i) &&
        typeof i.role === 'string' &&
        typeof i.path === 'string' &&
        isHex(i.sha256) &&
        isPositiveInt(i.bytes) &&
        Object.keys(i).length === 4,
    )
  ) {
    return refuse(
      'TASK_TERMINAL_INPUT_INVALID',
      'terminal.evidence must be an array of { role, path, sha256, bytes } items.',
    );
  }
  return null;
}

/** The pure evidence checks of terminal closeout, in the page's order. */
export function checkTerminalEvidence(evidence: readonly TaskTerminalEvidenceItemV1[]): TaskCheckResult {
  const roles = evidence.map((i) => i.role);
  if (roles.length !== 4 || roles.some((r, i) => r !== EVIDENCE_ROLES[i])) {
    return fail(
      'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
      `Evidence must be exactly one item per role, sorted: ${EVIDENCE_ROLES.join(', ')}; provide the missing evidence.`,
    );
  }
  if (new Set(evidence.map((i) => i.path)).size !== evidence.length) {
    return fail(
      'TASK_TERMINAL_EVIDENCE_DUPLICATE',
      'Two evidence items name the same path; one file per role.',
    );
  }
  for (const item of evidence) {
    if (item.path.length > 1024 || !EVIDENCE_PATH.test(item.path)) {
      return fail(
        'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
        `Evidence path ${JSON.stringify(item.path.slice(0, 200))} is not a normalised relative path of at most 1024 characters; use "/"-separated segments without "", "." or "..".`,
      );
    }
  }
  return { ok: true };
}

function buildLease(
  e: TaskRecoveryStateV5 | null,
  request: OwnerTransitionRequest,
  committedAt: string,
  env: CommitEnvironment,
  refs: Pick<FencedTaskWriteOwnerLeaseV2, 'handoffRef' | 'takeoverRef'>,
): FencedTaskWriteOwnerLeaseV2 {
  const row = OWNER_TRANSITION_TABLE[request.operation];
  const prev = e?.owner ?? null;
  const duration = Math.max(1, env.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS);
  let expiresAt = committedAt;
  if (row.expiresAt !== 'equals-issued') expiresAt = laterBy(committedAt, duration);
  if (row.expiresAt === 'after-current' && prev && compareTimestamps(expiresAt, prev.expiresAt) <= 0) {
    expiresAt = laterBy(prev.expiresAt, 1);
  }
  const transitionBody = {
    operation: request.operation,
    priorLeaseDigest: prev?.leaseDigest ?? null,
    requestDigest: digestOf(request),
    committedAt,
  };
  const lease = {
    schemaVersion: 'FencedTaskWriteOwnerLeaseV2' as const,
    taskId: request.taskId,
    projectRootIdentity: request.projectRootIdentity,
    sessionDigest: row.binding === 'requester' || !prev ? request.sessionDigest : prev.sessionDigest,
    contextEpoch: row.binding === 'kept' && prev ? prev.contextEpoch : request.contextEpoch,
    routeRevision: row.binding === 'kept' && prev ? prev.routeRevision : request.routeRevision,
    ownerGeneration: (prev?.ownerGeneration ?? 0) + row.deltas.ownerGeneration,
    ownerNonce: row.ownerNonce === 'kept' && prev ? prev.ownerNonce : env.mintNonce(),
    leaseRevision: (prev?.leaseRevision ?? 0) + row.deltas.leaseRevision,
    issuedAt: committedAt,
    expiresAt,
    handoffRef: refs.handoffRef,
    takeoverRef: refs.takeoverRef,
    transitionRef: { ...transitionBody, refDigest: refDigestOf(transitionBody) },
    reopenGeneration: (prev?.reopenGeneration ?? 0) + row.deltas.reopenGeneration,
    revocationEpoch: (prev?.revocationEpoch ?? 0) + row.deltas.revocationEpoch,
    status: row.to,
  };
  return { ...lease, leaseDigest: leaseDigestOf(lease) };
}

/**
 * Decide a `transitionOwner` request: steps 1 to 11 with the owner transition table (and, for
 * `terminal`, the terminal closeout checks) at step 8. The store builds the lease itself: fresh
 * nonce (except `renew`), counters per the row, `issuedAt` = `committedAt`, diagnostic
 * `expiresAt`. An exact replay of the latest transition returns `replayed` (with the stored
 * receipt for `terminal`). Lease expiry is never consulted.
 *
 * @example
 * const d = decideOwnerTransition(null, { operation: 'acquire', expectedFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 }, expectedOwner: { mode: 'absent' }, ...rest }, env);
 */
export function decideOwnerTransition(
  current: TaskRecoveryStateV5 | null,
  request: OwnerTransitionRequest,
  env: CommitEnvironment,
): CommitDecision {
  const early = checkRequest(request) ?? checkTransitionShape(request);
  if (early) return early;
  const read = checkRead(current, request);
  if (read) return read;
  const fence = fenceOf(current);
  if (current) {
    const ref = current.owner.transitionRef;
    let requestDigest: string;
    try {
      requestDigest = digestOf(request);
    } catch {
      return refuse(
        'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
        'The request is not plain JSON data.',
        fence,
      );
    }
    if (request.operation === ref.operation && requestDigest === ref.requestDigest) {
      return noWrite(current, 'replayed', request.operation === 'terminal' ? current.terminalReceipt : null);
    }
    const expected = request.expectedOwner as { leaseDigest?: unknown };
    if (
      request.operation === 'terminal' &&
      current.owner.status === 'terminal' &&
      ref.operation === 'terminal' &&
      expected?.leaseDigest === ref.priorLeaseDigest
    ) {
      return refuse(
        'TASK_TERMINAL_REPLAY_MISMATCH',
        'The task was already closed by a different terminal request; it stays closed as recorded, reopen to change it.',
        fence,
      );
    }
  }
  const failed = checkFenceAndOwner(
    current,
    request.expectedFence as TaskRecoveryCommitFenceV1,
    request.expectedOwner,
  );
  if (failed) return failed;
  const row = OWNER_TRANSITION_TABLE[request.operation];
  const status = current?.owner.status ?? null;
  const no = (code: string, message: string) => refuse(code, message, fence);
  if (!row.from.includes(status)) {
    if (request.operation === 'terminal' && status !== null && status !== 'terminal') {
      return no(
        'TASK_TERMINAL_OWNER_MISMATCH',
        `The lease is ${status}, not active; only the current holder closes a task.`,
      );
    }
    return no(
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
      `${request.operation} is not allowed from ${status ?? 'no envelope'}; read the lease and pick an operation its status allows.`,
    );
  }
  const e = current;
  const committedAt = committedAtFor(e, env.clock);
  const holder = e?.owner.sessionDigest;
  const unresolved = e?.operations.unresolved ?? null;
  let handoffRef: FencedTaskWriteOwnerLeaseV2['handoffRef'] = null;
  let takeoverRef: FencedTaskWriteOwnerLeaseV2['takeoverRef'] = null;
  const notHolder = () =>
    no(
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
      'The requester is not the holder; only the holder may do this, another session needs a handoff or a takeover.',
    );
  switch (request.operation) {
    case 'renew':
      if (request.sessionDigest !== holder) return notHolder();
      break;
    case 'release':
      if (request.sessionDigest !== holder) return notHolder();
      if (unresolved)
        return no(
          'TASK_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; resolve it first, or let the next holder take over explicitly.`,
        );
      break;
    case 'handoff-prepare': {
      if (request.sessionDigest !== holder) return notHolder();
      if (request.targetSessionDigest === null || request.targetSessionDigest === holder) {
        return no(
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
          'handoff-prepare needs a targetSessionDigest other than the holder; prepare the handoff to the right session.',
        );
      }
      if (unresolved)
        return no(
          'TASK_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; resolve it first, or let the next holder take over explicitly.`,
        );
      const body = {
        fromLeaseDigest: (e as TaskRecoveryStateV5).owner.leaseDigest,
        targetSessionDigest: request.targetSessionDigest,
        preparedAt: committedAt,
      };
      handoffRef = { ...body, refDigest: refDigestOf(body) };
      break;
    }
    case 'handoff-accept': {
      const pending = (e as TaskRecoveryStateV5).owner.handoffRef;
      if (
        !pending ||
        request.sessionDigest !== pending.targetSessionDigest ||
        request.handoffRefDigest !== pending.refDigest
      ) {
        return no(
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
          'Only the handoff target may accept, with the pending handoffRef.refDigest.',
        );
      }
      break;
    }
    case 'takeover-prepare': {
      const evidence = request.takeoverEvidence;
      if (
        evidence === null ||
        request.targetSessionDigest !== request.sessionDigest ||
        evidence.readbackContextDigest !==
          writeContextDigestOf(e as TaskRecoveryStateV5, env.runtimeGeneration)
      ) {
        return no(
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
          'takeover-prepare needs takeoverEvidence, the requester as target, and the contextDigest of a fresh readWriteContext; read the write context again, gather the evidence, prepare again.',
        );
      }
      const body = {
        fromLeaseDigest: (e as TaskRecoveryStateV5).owner.leaseDigest,
        targetSessionDigest: request.sessionDigest,
        readbackContextDigest: evidence.readbackContextDigest,
        livenessEvidenceDigest: evidence.livenessEvidenceDigest,
        reconcileReceiptDigest: evidence.reconcileReceiptDigest,
        preparedAt: committedAt,
      };
      takeoverRef = { ...body, refDigest: refDigestOf(body) };
      break;
    }
    case 'takeover-accept': {
      const pending = (e as TaskRecoveryStateV5).owner.takeoverRef;
      if (
        !pending ||
        request.sessionDigest !== pending.targetSessionDigest ||
        request.takeoverRefDigest !== pending.refDigest
      ) {
        return no(
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
          'Only the takeover target may accept, with the pending takeoverRef.refDigest.',
        );
      }
      break;
    }
    case 'reopen':
      if (request.terminalReceiptDigest !== (e as TaskRecoveryStateV5).terminalReceipt?.receiptDigest) {
        return no(
          'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
          'terminalReceiptDigest is not the current terminal receipt; re-read the task.',
        );
      }
      break;
    case 'terminal': {
      const t = request.terminal as NonNullable<OwnerTransitionRequest['terminal']>;
      const cur = e as TaskRecoveryStateV5;
      if (request.sessionDigest !== holder) {
        return no(
          'TASK_TERMINAL_OWNER_MISMATCH',
          'The requester is not the holder; only the current holder closes a task.',
        );
      }
      if (unresolved) {
        return no(
          'TASK_TERMINAL_OPERATION_UNSETTLED',
          `Operation ${unresolved.operationId} is unresolved; settle, reconcile or abort it first.`,
        );
      }
      const contextDigest = writeContextDigestOf(cur, env.runtimeGeneration);
      if (
        t.lifecycleRevision !== cur.lifecycleRevision ||
        t.settledSetDigest !== cur.operations.settledSetDigest ||
        t.writeContextDigest !== contextDigest
      ) {
        return no(
          'TASK_TERMINAL_STATE_CAS_MISMATCH',
          `The closeout does not match the current state (lifecycleRevision ${cur.lifecycleRevision}, settledSetDigest ${cur.operations.settledSetDigest}, writeContextDigest ${contextDigest}); re-read the write context and re-check the closeout.`,
        );
      }
      const pure = checkTerminalEvidence(t.evidence);
      if (!pure.ok) return no(pure.code, pure.message);
      const files = env.verifyEvidence
        ? env.verifyEvidence(t.evidence)
        : fail(
            'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
            'This store has no project root to read evidence from; configure it, then close.',
          );
      if (!files.ok) return no(files.code, files.message);
      break;
    }
    default:
      break;
  }
  const owner = buildLease(e, request, committedAt, env, { handoffRef, takeoverRef });
  const checked = checkOwnerTransition(e?.owner ?? null, owner, request.operation);
  if (!checked.ok) return no(checked.code, checked.message);
  let terminalReceipt = e?.terminalReceipt ?? null;
  let terminalLineage = e?.terminalLineage ?? [];
  let receipt: WorkflowTaskTerminalReceiptV1 | null = null;
  if (request.operation === 'terminal' && e) {
    const t = request.terminal as NonNullable<OwnerTransitionRequest['terminal']>;
    const body = {
      schemaVersion: 'WorkflowTaskTerminalReceiptV1' as const,
      taskId: e.taskId,
      projectRootIdentity: e.projectRootIdentity,
      terminalStatus: t.terminalStatus,
      lifecycleRevision: t.lifecycleRevision,
      expectedStateSequence: e.sequence,
      expectedWriterGeneration: e.writerGeneration,
      writeContextDigest: t.writeContextDigest,
      priorOwnerLeaseDigest: e.owner.leaseDigest,
      terminalOwnerLeaseDigest: owner.leaseDigest,
      ownerGeneration: e.owner.ownerGeneration,
      terminalGeneration: e.owner.ownerGeneration + 1,
      holderSession: e.owner.sessionDigest,
      settledSetDigest: t.settledSetDigest,
      evidence: t.evidence.map((i) => ({ role: i.role, path: i.path, sha256: i.sha256, bytes: i.bytes })),
      issuedAt: committedAt,
    };
    receipt = { ...body, receiptDigest: receiptDigestOf(body) };
    terminalReceipt = receipt;
    terminalLineage = [
      ...terminalLineage,
      {
        lifecycleRevision: receipt.lifecycleRevision,
        terminalStatus: receipt.terminalStatus,
        receiptDigest: receipt.receiptDigest,
        terminalAt: receipt.issuedAt,
      },
    ].slice(-TERMINAL_LINEAGE_WINDOW);
  }
  if (request.operation === 'reopen') terminalReceipt = null;
  const envelope = buildEnvelope(e, request, {
    commitKind: row.commitKind,
    committedAt,
    owner,
    operations: e?.operations ?? emptyOperationSet(),
    terminalReceipt,
    terminalLineage,
    state: e?.state ?? {},
  });
  return write(e, envelope, env, receipt, row.deltas.ownerGeneration);
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
