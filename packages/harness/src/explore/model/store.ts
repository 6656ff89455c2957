// The model of the `store.*` methods for exploration: the reference engines of the
// TaskContinuityWriteGate (`decideStateCommit`, `decideOperationCommit`, `decideOwnerTransition`,
// the write context and the stored-envelope checks) over an in-memory append-only log. It is the
// commit path of the reference TaskStore (packages/store) without a storage backend: the kit
// cannot depend on the store package, which brings a native driver, and needs none (a log in
// memory that no other process shares has no storage failure and no race to lose). Several
// model "processes" share one log, each with its own runtime generation, as implementation
// processes share one state location.
import { createHash } from 'node:crypto';
import { DigestError } from '@agent-contracts/digest';
import {
  buildWriteContext,
  type Clock,
  type CommitDecision,
  type CommitEnvironment,
  type CommitRefusal,
  checkStoredEnvelope,
  checkTaskKey,
  decideOperationCommit,
  decideOwnerTransition,
  decideStateCommit,
  fenceOf,
  type OperationCommitRequest,
  type OwnerTransitionRequest,
  priorRecordFromHistory,
  priorRecordNeeded,
  type StateCommitRequest,
  type TaskCheckResult,
  timestampOf,
} from '@agent-contracts/engines';
import { Refusal } from '@agent-contracts/protocol';
import type {
  TaskOperationRecordV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';

/** The task log every model process of one exploration run shares (the state location). */
export class ModelLog {
  readonly #tasks = new Map<string, TaskRecoveryStateV5[]>();
  history(key: TaskKey): TaskRecoveryStateV5[] {
    return [...(this.#tasks.get(keyText(key)) ?? [])];
  }
  latest(key: TaskKey): TaskRecoveryStateV5 | null {
    return this.#tasks.get(keyText(key))?.at(-1) ?? null;
  }
  append(key: TaskKey, envelope: TaskRecoveryStateV5): void {
    const k = keyText(key);
    this.#tasks.set(k, [...(this.#tasks.get(k) ?? []), envelope]);
  }
}

interface TaskKey {
  readonly projectRootIdentity: string;
  readonly taskId: string;
}
const keyText = (k: TaskKey) => `${k.projectRootIdentity}/${k.taskId}`;

/**
 * The conformance project root of docs/protocol.md#terminal-evidence, as data: the four files
 * every implementation ships, and `closeout/outside.md`, the link that leads out of it.
 */
export const CONFORMANCE_PROJECT: Readonly<Record<string, string>> = {
  'closeout/change-record.md': 'Change record: the conformance task wrote only its own store entries.\n',
  'closeout/completion.md': 'Completion: every step of the conformance task finished.\n',
  'closeout/memory.md': 'Memory: nothing from the conformance task needs to be remembered.\n',
  'closeout/report.md': 'Report: the conformance task is complete.\n',
};
const OUTSIDE_LINK = 'closeout/outside.md';
const MAX_EVIDENCE_BYTES = 64 * 1024 * 1024;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The file-system checks of terminal evidence (packages/store/src/evidence.ts) against the
 * conformance project as data, in the same order: scope, existence, declared length, limit,
 * digest and length.
 */
function verifyEvidence(items: readonly TaskTerminalEvidenceItemV1[]): TaskCheckResult {
  for (const item of items) {
    const segments = item.path.split('/');
    if (segments.some((s) => s === '..') || item.path.startsWith('/') || item.path === OUTSIDE_LINK)
      return { ok: false, code: 'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID', message: `${item.path} is outside` };
    const text = CONFORMANCE_PROJECT[item.path];
    if (text === undefined)
      return { ok: false, code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID', message: `${item.path} is missing` };
    if (!Number.isSafeInteger(item.bytes) || item.bytes < 1)
      return { ok: false, code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH', message: `${item.path}: bytes` };
    if (item.bytes > MAX_EVIDENCE_BYTES)
      return { ok: false, code: 'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE', message: `${item.path}: too large` };
    if (sha256(text) !== item.sha256 || Buffer.byteLength(text) !== item.bytes)
      return { ok: false, code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH', message: `${item.path}: digest` };
  }
  return { ok: true };
}

/** What one model world chooses where an implementation chooses (docs/protocol.md#store-v1-capability-store). */
export interface StoreChoices {
  /** Seed of the owner nonces this process mints. */
  readonly nonceSeed: string;
  /** The runtime generation of this process (a new one at every start). */
  readonly runtimeGeneration: string;
  /** The diagnostic lease duration. */
  readonly leaseDurationMs: number;
}

/** A refusal as the protocol carries it: -32000 whose `data` is the refusal object but its message. */
function refused(r: CommitRefusal): never {
  const { code, message, ...rest } = r;
  throw new Refusal(code, message, rest);
}

function keyOf(params: unknown): TaskKey {
  const task = (params as { task?: unknown }).task;
  const key = checkTaskKey(task);
  if (!key.ok) throw new Refusal(key.code, key.message);
  const { projectRootIdentity, taskId } = task as TaskKey;
  return { projectRootIdentity, taskId };
}

/**
 * One model process of the store: the reference commit path over `log`, at `clock`.
 *
 * @example
 * const store = new ModelStore(new ModelLog(), clock, { nonceSeed: 'a', runtimeGeneration: 'runtime-a', leaseDurationMs: 300_000 });
 */
export class ModelStore {
  readonly #log: ModelLog;
  readonly #clock: Clock;
  readonly #choices: StoreChoices;
  #nonces = 0;

  constructor(log: ModelLog, clock: Clock, choices: StoreChoices) {
    this.#log = log;
    this.#clock = clock;
    this.#choices = choices;
  }

  #now = () => timestampOf(this.#clock.now());

  #env(priorRecords?: ReadonlyMap<string, TaskOperationRecordV1>): CommitEnvironment {
    return {
      clock: this.#clock,
      runtimeGeneration: this.#choices.runtimeGeneration,
      leaseDurationMs: this.#choices.leaseDurationMs,
      mintNonce: () =>
        `owner-${createHash('sha1')
          .update(`${this.#choices.nonceSeed}:${this.#nonces++}`)
          .digest('hex')}`,
      verifyEvidence,
      ...(priorRecords ? { priorRecords } : {}),
    };
  }

  /** Answer one `store.*` request as the reference implementation does. */
  handle(method: string, params: unknown): unknown {
    switch (method) {
      case 'store.read': {
        const key = keyOf(params);
        const envelope = this.#log.latest(key);
        if (envelope === null) return { ok: true, status: 'missing', envelope: null, fence: fenceOf(null) };
        const valid = checkStoredEnvelope(envelope);
        if (!valid.ok) refused({ ...valid, currentFence: fenceOf(envelope) });
        return { ok: true, status: 'found', envelope, fence: fenceOf(envelope) };
      }
      case 'store.readWriteContext': {
        const key = keyOf(params);
        const envelope = this.#log.latest(key);
        if (envelope === null)
          refused({
            ok: false,
            code: 'LIFECYCLE_STATE_UNAVAILABLE',
            message: 'never written',
            currentFence: fenceOf(null),
          });
        return {
          ok: true,
          writeContext: buildWriteContext(envelope, this.#choices.runtimeGeneration, this.#now()),
        };
      }
      case 'store.commitState':
      case 'store.commitOperation':
      case 'store.transitionOwner':
        return this.#commit(method, (params as { request: Record<string, unknown> }).request);
      case 'store.replay': {
        const key = keyOf(params);
        const envelopes = this.#log.history(key);
        const last = envelopes.at(-1) ?? null;
        return {
          ok: true,
          envelopes,
          fence: fenceOf(last),
          writeContext: last ? buildWriteContext(last, this.#choices.runtimeGeneration, this.#now()) : null,
        };
      }
      case 'store.history':
        return this.#log.history(keyOf(params));
      default:
        throw new Error(`the store model has no method ${method}`);
    }
  }

  #commit(method: string, request: Record<string, unknown>): unknown {
    const key = checkTaskKey(request);
    if (!key.ok) refused({ ok: false, code: key.code, message: key.message });
    const task: TaskKey = {
      projectRootIdentity: request.projectRootIdentity as string,
      taskId: request.taskId as string,
    };
    const current = this.#log.latest(task);
    let decision: CommitDecision;
    try {
      if (method === 'store.commitState')
        decision = decideStateCommit(current, request as unknown as StateCommitRequest, this.#env());
      else if (method === 'store.transitionOwner')
        decision = decideOwnerTransition(current, request as unknown as OwnerTransitionRequest, this.#env());
      else {
        const op = request as unknown as OperationCommitRequest;
        let prior: Map<string, TaskOperationRecordV1> | undefined;
        const needed = priorRecordNeeded(current, op);
        if (needed !== null) {
          const record = priorRecordFromHistory(this.#log.history(task), needed);
          if (record) prior = new Map([[needed, record]]);
        }
        decision = decideOperationCommit(current, op, this.#env(prior));
      }
    } catch (e) {
      if (e instanceof DigestError)
        refused({
          ok: false,
          code: 'TASK_CONTINUITY_SCHEMA_INVALID',
          message: 'no digest',
          currentFence: fenceOf(current),
        });
      throw e;
    }
    if (!decision.ok) refused(decision);
    if (decision.status !== 'committed') {
      const fresh = this.#log.latest(task) as TaskRecoveryStateV5;
      return {
        ok: true,
        status: decision.status,
        fence: fenceOf(fresh),
        writeContext: buildWriteContext(fresh, this.#choices.runtimeGeneration, this.#now()),
        receipt: decision.receipt,
      };
    }
    const candidate = decision.envelope;
    const v = validate(candidate, { contract: 'TaskRecoveryStateV5' });
    if (!v.ok)
      refused({
        ok: false,
        code: 'TASK_CONTINUITY_SCHEMA_INVALID',
        message: 'the envelope fails its contract',
        currentFence: fenceOf(current),
      });
    this.#log.append(task, candidate);
    return {
      ok: true,
      status: 'committed',
      fence: fenceOf(candidate),
      writeContext: buildWriteContext(candidate, this.#choices.runtimeGeneration, this.#now()),
      receipt: decision.receipt,
    };
  }
}
