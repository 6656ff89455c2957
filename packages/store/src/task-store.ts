import { randomBytes, randomUUID } from 'node:crypto';
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
  refusal,
  type StateCommitRequest,
  systemClock,
  type TaskCheckResult,
  timestampOf,
} from '@agent-contracts/engines';
import type {
  CanonicalTaskWriteContextV1,
  TaskOperationRecordV1,
  TaskRecoveryCommitFenceV1,
  TaskRecoveryStateV5,
  TaskTerminalEvidenceItemV1,
  WorkflowTaskTerminalReceiptV1,
} from '@agent-contracts/schemas';
import { validate } from '@agent-contracts/validators';
import type { StorageBackend, TaskKey } from './backend.js';
import { evidenceVerifier } from './evidence.js';

/** Options of a {@link TaskStore}. */
export interface TaskStoreOptions {
  /** The clock for timestamps and diagnostics (never decisions). Default: the system clock. */
  readonly clock?: Clock;
  /**
   * This runtime's generation id (bound into write contexts). Default: a fresh `runtime-<uuid>`.
   * One out of `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$` (a lone surrogate, a space) makes every
   * commit, `readWriteContext` and `replay` a `TASK_CONTINUITY_SCHEMA_INVALID` refusal: nothing is
   * written.
   */
  readonly runtimeGeneration?: string;
  /** Diagnostic lease duration in ms. Default 5 minutes. */
  readonly leaseDurationMs?: number;
  /**
   * The project root terminal evidence paths are resolved against, per task (or one directory for
   * all). Without it every `terminal` is refused with `TASK_TERMINAL_EVIDENCE_FILE_INVALID`.
   */
  readonly projectRoot?: string | ((key: TaskKey) => string);
  /**
   * The documented size limit of one terminal evidence file in bytes
   * (`TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE`). Default `DEFAULT_MAX_EVIDENCE_BYTES` (64 MiB).
   */
  readonly maxEvidenceBytes?: number;
  /** Replaces the file-system evidence checks (tests, hosts with their own file access). */
  readonly verifyEvidence?: (key: TaskKey, items: readonly TaskTerminalEvidenceItemV1[]) => TaskCheckResult;
  /** Documented envelope size limit in bytes (`LIFECYCLE_STATE_PAYLOAD_EXCEEDED`). Default: none. */
  readonly maxEnvelopeBytes?: number;
  /** Nonce source. Default: 160 random bits from `node:crypto`. */
  readonly mintNonce?: () => string;
}

/** The result of a write operation that was not refused. */
export interface CommitResult {
  /** Always `true`. */
  readonly ok: true;
  /** `committed` (one envelope written), `semantic-noop` or `replayed` (nothing written). */
  readonly status: 'committed' | 'semantic-noop' | 'replayed';
  /** The fence of the envelope read back: the caller's next `expectedFence`. */
  readonly fence: TaskRecoveryCommitFenceV1;
  /** Built from a fresh read of storage, never from the request or the candidate in memory. */
  readonly writeContext: CanonicalTaskWriteContextV1;
  /** For `terminal` (committed or replayed), the receipt; else `null`. */
  readonly receipt: WorkflowTaskTerminalReceiptV1 | null;
}

/** Result of `read`. */
export type ReadResult =
  | {
      readonly ok: true;
      readonly status: 'found';
      readonly envelope: TaskRecoveryStateV5;
      readonly fence: TaskRecoveryCommitFenceV1;
    }
  | {
      readonly ok: true;
      readonly status: 'missing';
      readonly envelope: null;
      readonly fence: TaskRecoveryCommitFenceV1;
    }
  | CommitRefusal;

/** Result of `replay`: the verified history, read-only. */
export type ReplayResult =
  | {
      readonly ok: true;
      readonly envelopes: TaskRecoveryStateV5[];
      readonly fence: TaskRecoveryCommitFenceV1;
      readonly writeContext: CanonicalTaskWriteContextV1 | null;
    }
  | CommitRefusal;

const keyOf = (r: { taskId: string; projectRootIdentity: string }): TaskKey => ({
  projectRootIdentity: r.projectRootIdentity,
  taskId: r.taskId,
});

/** Step 1 for the key, before any storage call: a refusal without a fence, or `null`. */
function keyRefusal(key: unknown): CommitRefusal | null {
  const r = checkTaskKey(key);
  return r.ok ? null : refusal(r.code, r.message);
}

/**
 * The last check before the write (D-TCW-33): the candidate is validated as a TaskRecoveryStateV5
 * document (schema, digests, single-envelope rules) by the reference validators, so that no
 * backend ever holds an envelope the spec calls invalid, whatever member of a request the
 * engine's own checks did not cover.
 */
function candidateRefusal(
  candidate: TaskRecoveryStateV5,
  currentFence: TaskRecoveryCommitFenceV1,
): CommitRefusal | null {
  const r = validate(candidate, { contract: 'TaskRecoveryStateV5' });
  if (r.ok) return null;
  const errors = r.issues.filter((i) => i.severity === 'error');
  const shown = errors
    .slice(0, 3)
    .map((i) => `${i.code} at ${i.path || '/'}`)
    .join(', ');
  return refusal(
    'TASK_CONTINUITY_SCHEMA_INVALID',
    `The envelope this request would write fails its contract (${shown}${errors.length > 3 ? ', ...' : ''}); fix the request member at that path. Nothing was written.`,
    { currentFence },
  );
}

/** A decision that could not digest the request (a string with a lone surrogate): a refusal. */
/** `CanonicalTaskWriteContextV1.runtimeGeneration`'s pattern (docs/spec/task-continuity-write-gate.md). */
const RUNTIME_GENERATION = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * A runtime generation that no write context may carry (a lone surrogate has no digest, a space is
 * out of the pattern): a commit is refused before its append, since the write context of its
 * read-back could not be built, and a read of a write context is refused as well.
 */
function generationRefusal(runtimeGeneration: string): CommitRefusal | null {
  if (RUNTIME_GENERATION.test(runtimeGeneration)) return null;
  return refusal(
    'TASK_CONTINUITY_SCHEMA_INVALID',
    `This store's runtimeGeneration ${JSON.stringify(runtimeGeneration)} does not match ${RUNTIME_GENERATION.source} (CanonicalTaskWriteContextV1); construct the store with a valid one or none. Nothing was written.`,
  );
}

function undigestable(error: DigestError): CommitRefusal {
  return refusal(
    'TASK_CONTINUITY_SCHEMA_INVALID',
    `The request holds a value that has no RFC 8785 digest (${error.message}); send well-formed Unicode (I-JSON) only. Nothing was written.`,
  );
}

/**
 * The reference TaskStore of the TaskContinuityWriteGate: every write is the pure engine's
 * decision (`decideStateCommit`, `decideOperationCommit`, `decideOwnerTransition`) followed by one
 * `compareAndAppend` against the fence of the envelope read, then a readback from storage from
 * which the returned write context is built. Racing writers in any process are serialised by the
 * backend's compare-and-append: exactly one wins per fence, the others get
 * `LIFECYCLE_STATE_FENCE_MISMATCH` with the current fence.
 *
 * @example
 * ```ts
 * import { createMemoryBackend, TaskStore } from '@agent-contracts/store';
 * const store = new TaskStore(createMemoryBackend());
 * const r = await store.read({ projectRootIdentity: 'a'.repeat(64), taskId: '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6' });
 * ```
 */
export class TaskStore {
  readonly backend: StorageBackend;
  readonly runtimeGeneration: string;
  readonly #options: TaskStoreOptions;
  readonly #clock: Clock;

  constructor(backend: StorageBackend, options: TaskStoreOptions = {}) {
    this.backend = backend;
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.runtimeGeneration = options.runtimeGeneration ?? `runtime-${randomUUID()}`;
  }

  #now(): string {
    return timestampOf(this.#clock.now());
  }

  #env(key: TaskKey, priorRecords?: ReadonlyMap<string, TaskOperationRecordV1>): CommitEnvironment {
    const o = this.#options;
    let verifyEvidence: CommitEnvironment['verifyEvidence'];
    if (o.verifyEvidence) {
      const v = o.verifyEvidence;
      verifyEvidence = (items) => v(key, items);
    } else if (o.projectRoot !== undefined) {
      verifyEvidence = evidenceVerifier(
        typeof o.projectRoot === 'string' ? o.projectRoot : o.projectRoot(key),
        o.maxEvidenceBytes === undefined ? {} : { maxBytes: o.maxEvidenceBytes },
      );
    }
    return {
      clock: this.#clock,
      runtimeGeneration: this.runtimeGeneration,
      mintNonce: o.mintNonce ?? (() => `owner-${randomBytes(20).toString('hex')}`),
      ...(o.leaseDurationMs === undefined ? {} : { leaseDurationMs: o.leaseDurationMs }),
      ...(o.maxEnvelopeBytes === undefined ? {} : { maxEnvelopeBytes: o.maxEnvelopeBytes }),
      ...(verifyEvidence ? { verifyEvidence } : {}),
      ...(priorRecords ? { priorRecords } : {}),
    };
  }

  /** `read`: the envelope and its fence, or `missing` with (0, 0). Writes nothing. */
  async read(key: TaskKey): Promise<ReadResult> {
    const refused = keyRefusal(key);
    if (refused) return refused;
    const envelope = await this.backend.load(key);
    if (envelope === null) return { ok: true, status: 'missing', envelope: null, fence: fenceOf(null) };
    const valid = checkStoredEnvelope(envelope);
    if (!valid.ok) return refusal(valid.code, valid.message, { currentFence: fenceOf(envelope) });
    return { ok: true, status: 'found', envelope, fence: fenceOf(envelope) };
  }

  /** `readWriteContext`: a `CanonicalTaskWriteContextV1` built from a fresh read. Writes nothing. */
  async readWriteContext(
    key: TaskKey,
  ): Promise<{ readonly ok: true; readonly writeContext: CanonicalTaskWriteContextV1 } | CommitRefusal> {
    const r = await this.read(key);
    if (!r.ok) return r;
    if (r.status === 'missing') {
      return refusal(
        'LIFECYCLE_STATE_UNAVAILABLE',
        'The task has never been written, so it has no write context; acquire it first.',
        { currentFence: r.fence },
      );
    }
    const generation = generationRefusal(this.runtimeGeneration);
    if (generation) return { ...generation, currentFence: r.fence };
    return { ok: true, writeContext: buildWriteContext(r.envelope, this.runtimeGeneration, this.#now()) };
  }

  /** `commitState`: one envelope with `commitKind: state`, or `semantic-noop`. */
  async commitState(request: StateCommitRequest): Promise<CommitResult | CommitRefusal> {
    const refused = keyRefusal(request);
    if (refused) return refused;
    const key = keyOf(request);
    const current = await this.backend.load(key);
    return this.#apply(key, current, () => decideStateCommit(current, request, this.#env(key)));
  }

  /** `commitOperation`: one envelope with `commitKind: operation-*`, or `replayed`. */
  async commitOperation(request: OperationCommitRequest): Promise<CommitResult | CommitRefusal> {
    const refused = keyRefusal(request);
    if (refused) return refused;
    const key = keyOf(request);
    const current = await this.backend.load(key);
    let prior: Map<string, TaskOperationRecordV1> | undefined;
    const needed = priorRecordNeeded(current, request);
    if (needed !== null) {
      const record = priorRecordFromHistory(await this.backend.history(key), needed);
      if (record) prior = new Map([[needed, record]]);
    }
    return this.#apply(key, current, () => decideOperationCommit(current, request, this.#env(key, prior)));
  }

  /** `transitionOwner`: one envelope with `commitKind: owner-*` (with the receipt for `terminal`), or `replayed`. */
  async transitionOwner(request: OwnerTransitionRequest): Promise<CommitResult | CommitRefusal> {
    const refused = keyRefusal(request);
    if (refused) return refused;
    const key = keyOf(request);
    const current = await this.backend.load(key);
    return this.#apply(key, current, () => decideOwnerTransition(current, request, this.#env(key)));
  }

  /**
   * `replay`: read the task's whole history and check it (each envelope valid, hash chain and
   * sequence unbroken), returning it with the current write context. Writes nothing; a broken
   * history is refused with `LIFECYCLE_STATE_UNAVAILABLE`.
   */
  async replay(key: TaskKey): Promise<ReplayResult> {
    const refused = keyRefusal(key);
    if (refused) return refused;
    const envelopes = await this.backend.history(key);
    let prev: TaskRecoveryStateV5 | null = null;
    for (const e of envelopes) {
      const valid = checkStoredEnvelope(e);
      const chained =
        e.sequence === (prev?.sequence ?? 0) + 1 &&
        e.previousEnvelopeDigest === (prev?.envelopeDigest ?? null);
      if (!valid.ok || !chained) {
        return refusal(
          'LIFECYCLE_STATE_UNAVAILABLE',
          `The stored history is broken at sequence ${e.sequence}; stop writing this task and repair it out of band.`,
          { currentFence: fenceOf(envelopes.at(-1) ?? null) },
        );
      }
      prev = e;
    }
    const generation = prev && generationRefusal(this.runtimeGeneration);
    if (generation) return { ...generation, currentFence: fenceOf(prev) };
    return {
      ok: true,
      envelopes,
      fence: fenceOf(prev),
      writeContext: prev ? buildWriteContext(prev, this.runtimeGeneration, this.#now()) : null,
    };
  }

  /**
   * Every envelope of a task, oldest first. Writes nothing. A malformed key (see
   * `checkTaskKey`) names no task any write can create: it has an empty history and storage is
   * not asked.
   */
  async history(key: TaskKey): Promise<TaskRecoveryStateV5[]> {
    if (keyRefusal(key)) return [];
    return this.backend.history(key);
  }

  /** Close the backend. */
  close(): Promise<void> {
    return this.backend.close();
  }

  /** `{ currentFence }` of a fresh read, or nothing when that read fails too. */
  async #latestFence(key: TaskKey): Promise<{ currentFence?: TaskRecoveryCommitFenceV1 }> {
    try {
      return { currentFence: fenceOf(await this.backend.load(key)) };
    } catch {
      return {};
    }
  }

  async #apply(
    key: TaskKey,
    current: TaskRecoveryStateV5 | null,
    decide: () => CommitDecision,
  ): Promise<CommitResult | CommitRefusal> {
    const generation = generationRefusal(this.runtimeGeneration);
    if (generation) return { ...generation, currentFence: fenceOf(current) };
    let decision: CommitDecision;
    try {
      decision = decide();
    } catch (error) {
      if (error instanceof DigestError) return { ...undigestable(error), currentFence: fenceOf(current) };
      throw error;
    }
    if (!decision.ok) return decision;
    if (decision.status !== 'committed') {
      // Replays and no-ops write nothing; the context still comes from a fresh read.
      const fresh = await this.backend.load(key);
      if (fresh === null) {
        return refusal(
          'LIFECYCLE_STATE_READBACK_MISMATCH',
          'The task vanished from storage during the read; read it again.',
        );
      }
      return {
        ok: true,
        status: decision.status,
        fence: fenceOf(fresh),
        writeContext: buildWriteContext(fresh, this.runtimeGeneration, this.#now()),
        receipt: decision.receipt,
      };
    }
    const candidate = decision.envelope;
    const invalid = candidateRefusal(candidate, fenceOf(current));
    if (invalid) return invalid;
    const appended = await this.backend.compareAndAppend(key, fenceOf(current), candidate);
    if (!appended.ok) {
      const { stateSequence, writerGeneration } = appended.current;
      return refusal(
        'LIFECYCLE_STATE_FENCE_MISMATCH',
        `Another commit won the fence; the current fence is (${stateSequence}, ${writerGeneration}). Re-read, re-validate the intent and only then retry with the new fence.`,
        { currentFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence, writerGeneration } },
      );
    }
    // The envelope at the sequence written, not the latest: another process may already have
    // committed on top, and that makes this commit no less durable (D-TCW-30).
    const readback = await this.backend.loadAt(key, candidate.sequence);
    if (
      readback === null ||
      readback.sequence !== candidate.sequence ||
      readback.writerGeneration !== candidate.writerGeneration ||
      readback.envelopeDigest !== candidate.envelopeDigest
    ) {
      return refusal(
        'LIFECYCLE_STATE_READBACK_MISMATCH',
        'Storage does not hold the envelope just written at its sequence; the outcome is unknown: read the task and decide, never re-dispatch an effect because of it.',
        await this.#latestFence(key),
      );
    }
    const writeContext = buildWriteContext(readback, this.runtimeGeneration, this.#now());
    if (writeContext.ownerLeaseDigest !== candidate.owner.leaseDigest) {
      return refusal(
        'TASK_WRITE_CONTEXT_READBACK_MISMATCH',
        'The lease read back is not the lease just committed; the outcome is unknown: read the task and do not write on the old context.',
        { currentFence: fenceOf(readback) },
      );
    }
    return {
      ok: true,
      status: 'committed',
      fence: fenceOf(readback),
      writeContext,
      receipt: decision.receipt,
    };
  }
}
