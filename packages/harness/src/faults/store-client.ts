// The harness's side of the store methods (docs/protocol.md#store-methods): request builders and
// a per-task "actor" that plays one runtime session against one implementation process. Nothing
// here decides a rule; it only sends what a runtime would send and returns what came back, with
// spec refusals (-32000) as values so that scenarios can check their codes.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Fence } from '@agent-contracts/engines';
import type {
  StorageFailureData,
  StoreBoundEvent,
  StoreCommitResult,
  StoreOwnerRef,
  StoreReadFound,
  StoreRefusalData,
  StoreTaskKey,
} from '@agent-contracts/protocol';
import type { TaskRecoveryCommitFenceV1 } from '@agent-contracts/schemas';
import type { MalformedRequest } from '../cases.js';
import type { CallOptions, Implementation } from '../implementation.js';
import { resultOf } from '../wire/reply.js';
import { checkDifferences, FaultCheckFailure } from './check.js';

// The wire shapes are the protocol's (docs/protocol.md#store-v1-capability-store): none is
// copied here.

/** A task key. */
export type TaskKey = StoreTaskKey;

/** A stored envelope (`TaskRecoveryStateV5`), as `store.read` and `store.history` return it. */
export type Envelope = StoreReadFound['envelope'];

/** An unresolved operation record of an envelope. */
export type OperationRecord = NonNullable<Envelope['operations']['unresolved']>;

/** The five-field binding every operation event but `prepare` carries. */
export type Binding = Omit<StoreBoundEvent, 'event'>;

/** A successful write (`committed`, `semantic-noop`, `replayed`): a `store.*` commit result. */
export type Written = StoreCommitResult;

/** A spec refusal: JSON-RPC -32000 with `data.code` (and `data.currentFence`). */
export interface Refused {
  readonly ok: false;
  readonly code: string;
  /** Its fence numbers: the engines' `Fence`, the one type of the two numbers a commit compares. */
  readonly currentFence: Fence | null;
  /** The refusal's `data` (`StoreRefusalData`, `StorageFailureData`). */
  readonly data: StoreRefusalData | StorageFailureData;
}

export type WriteOutcome = Written | Refused;

/** What a requester read: the fence and owner ref of the latest envelope. */
export interface View {
  readonly fence: TaskRecoveryCommitFenceV1;
  readonly owner: StoreOwnerRef;
  readonly envelope: Envelope | null;
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** A fresh task key (random, so scenarios never collide on a shared state location). */
export const newTaskKey = (): TaskKey => ({
  projectRootIdentity: randomBytes(32).toString('hex'),
  taskId: randomUUID(),
});

export const fence = (stateSequence: number, writerGeneration: number): View['fence'] => ({
  schemaVersion: 'TaskRecoveryCommitFenceV1',
  stateSequence,
  writerGeneration,
});

export function viewOf(e: Envelope | null): View {
  return {
    fence: fence(e?.sequence ?? 0, e?.writerGeneration ?? 0),
    owner: e
      ? {
          ownerGeneration: e.owner.ownerGeneration,
          ownerNonce: e.owner.ownerNonce,
          leaseRevision: e.owner.leaseRevision,
          leaseDigest: e.owner.leaseDigest,
        }
      : { mode: 'absent' },
    envelope: e,
  };
}

/**
 * Send a store method; a -32000 refusal comes back as a {@link Refused} value. The reply is read
 * by the one reader the golden cases use (wire/reply.ts): a result that breaks the method's result
 * schema (a `{ ok: false, code }` sent as a result among them) fails the scenario, and so does an
 * error that is not a spec refusal.
 */
export async function callStore(
  impl: Implementation,
  method: string,
  params: unknown,
  options: CallOptions = {},
): Promise<{ ok: true; value: Record<string, unknown> } | Refused> {
  const reply = await impl.call(method, params, options);
  // The reader checked the data against the method's refusal schemas.
  if ('error' in reply && reply.refusal !== null)
    return refusalOf(reply.error.data as StoreRefusalData | StorageFailureData);
  return { ok: true, value: resultOf(method, reply) as Record<string, unknown> };
}

function refusalOf(data: StoreRefusalData | StorageFailureData): Refused {
  const f = 'currentFence' in data ? data.currentFence : undefined;
  return {
    ok: false,
    code: data.code,
    currentFence: f ? { stateSequence: f.stateSequence, writerGeneration: f.writerGeneration } : null,
    data,
  };
}

/** A commit's outcome; the result was checked against `StoreCommitResult` by the reader. */
function asWritten(r: { ok: true; value: Record<string, unknown> } | Refused): WriteOutcome {
  return r.ok ? (r.value as unknown as Written) : r;
}

/** A read the implementation refused with a spec code (a failure unless the scenario allows it). */
export class ReadRefused extends FaultCheckFailure {
  constructor(
    readonly method: string,
    readonly code: string,
  ) {
    super(`${method} was refused with ${code}`);
  }
}

/** `store.read`: the latest envelope (or null). */
export async function readEnvelope(impl: Implementation, task: TaskKey): Promise<Envelope | null> {
  const r = await callStore(impl, 'store.read', { task });
  if (!r.ok) throw new ReadRefused('store.read', r.code);
  return (r.value.envelope as Envelope | null) ?? null;
}

/** `store.history`: every envelope, oldest first (an array, checked against `StoreHistoryResult`). */
export async function readHistory(impl: Implementation, task: TaskKey): Promise<Envelope[]> {
  return (await impl.request('store.history', { task })) as Envelope[];
}

/** Extras of an owner transition request. */
export interface TransitionExtras {
  targetSessionDigest?: string | null;
  handoffRefDigest?: string | null;
  takeoverRefDigest?: string | null;
  takeoverEvidence?: {
    readbackContextDigest: string;
    livenessEvidenceDigest: string;
    reconcileReceiptDigest: string;
  } | null;
  terminal?: Record<string, unknown> | null;
  terminalReceiptDigest?: string | null;
}

/** Terminal evidence items (the four roles), for implementations that can check them. */
export type EvidenceItem = { role: string; path: string; sha256: string; bytes: number };

/**
 * One runtime session working on one task through one implementation process. Each call reads
 * the current view from that process unless a (possibly stale) view is given.
 */
export class Actor {
  readonly session: string;
  constructor(
    public impl: Implementation,
    readonly task: TaskKey,
    name: string,
  ) {
    this.session = sha256(`session:${name}:${task.taskId}`);
  }

  async view(): Promise<View> {
    return viewOf(await readEnvelope(this.impl, this.task));
  }

  async envelope(): Promise<Envelope> {
    const e = await readEnvelope(this.impl, this.task);
    if (!e) throw new FaultCheckFailure('store.read found no envelope for a task that was written');
    return e;
  }

  transitionRequest(operation: string, view: View, extras: TransitionExtras = {}) {
    return {
      operation,
      ...this.task,
      expectedFence: view.fence,
      expectedOwner: view.owner,
      sessionDigest: this.session,
      contextEpoch: 'epoch-faults',
      routeRevision: sha256('route:faults'),
      targetSessionDigest: extras.targetSessionDigest ?? null,
      handoffRefDigest: extras.handoffRefDigest ?? null,
      takeoverRefDigest: extras.takeoverRefDigest ?? null,
      takeoverEvidence: extras.takeoverEvidence ?? null,
      terminal: extras.terminal ?? null,
      terminalReceiptDigest: extras.terminalReceiptDigest ?? null,
    };
  }

  async transition(operation: string, extras: TransitionExtras = {}, view?: View): Promise<WriteOutcome> {
    const v = view ?? (await this.view());
    return asWritten(
      await callStore(this.impl, 'store.transitionOwner', {
        request: this.transitionRequest(operation, v, extras),
      }),
    );
  }

  stateRequest(state: Record<string, unknown>, view: View, force?: boolean) {
    return {
      ...this.task,
      expectedFence: view.fence,
      expectedOwner: view.owner,
      sessionDigest: this.session,
      state,
      ...(force === undefined ? {} : { force }),
    };
  }

  async commitState(
    state: Record<string, unknown>,
    options: { force?: boolean; view?: View; timeoutMs?: number; malformed?: MalformedRequest } = {},
  ): Promise<WriteOutcome> {
    const v = options.view ?? (await this.view());
    return asWritten(
      await callStore(
        this.impl,
        'store.commitState',
        { request: this.stateRequest(state, v, options.force) },
        {
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.malformed ? { malformed: options.malformed } : {}),
        },
      ),
    );
  }

  operationRequest(event: Record<string, unknown>, view: View) {
    return {
      ...this.task,
      expectedFence: view.fence,
      expectedOwner: view.owner,
      sessionDigest: this.session,
      event,
    };
  }

  async operation(event: Record<string, unknown>, view?: View): Promise<WriteOutcome> {
    const v = view ?? (await this.view());
    return asWritten(
      await callStore(this.impl, 'store.commitOperation', { request: this.operationRequest(event, v) }),
    );
  }

  /** The binding of the task's unresolved operation. */
  async binding(): Promise<Binding> {
    const u = (await this.envelope()).operations.unresolved;
    if (!u) throw new FaultCheckFailure('the task has no unresolved operation');
    return bindingOf(u);
  }

  /** `store.readWriteContext` from this actor's process. */
  async writeContext(): Promise<{ contextDigest: string; [k: string]: unknown }> {
    const r = await callStore(this.impl, 'store.readWriteContext', { task: this.task });
    if (!r.ok) throw new FaultCheckFailure(`store.readWriteContext was refused with ${r.code}`);
    return r.value.writeContext as { contextDigest: string };
  }

  /** Acquire the task (fence (0, 0), no owner). */
  async acquire(): Promise<Written> {
    const r = await this.transition('acquire', {}, viewOf(null));
    return expectWritten(r, 'acquire');
  }

  /** An explicit, fenced takeover: `takeover-prepare` with fresh evidence, then `takeover-accept`. */
  async takeover(): Promise<Written> {
    const ctx = await this.writeContext();
    const prepared = await this.transition('takeover-prepare', {
      targetSessionDigest: this.session,
      takeoverEvidence: {
        readbackContextDigest: ctx.contextDigest,
        livenessEvidenceDigest: sha256('liveness: the holder has no live turn'),
        reconcileReceiptDigest: sha256('reconcile receipt'),
      },
    });
    expectWritten(prepared, 'takeover-prepare');
    const e = await this.envelope();
    const ref = e.owner.takeoverRef?.refDigest;
    if (!ref) throw new FaultCheckFailure('after takeover-prepare the lease carries no takeoverRef');
    return expectWritten(
      await this.transition('takeover-accept', { takeoverRefDigest: ref }),
      'takeover-accept',
    );
  }

  /** The terminal member a holder would send now. */
  async terminalMember(evidence: readonly EvidenceItem[]): Promise<Record<string, unknown>> {
    const ctx = await this.writeContext();
    return {
      terminalStatus: 'completed',
      lifecycleRevision: ctx.lifecycleRevision,
      settledSetDigest: ctx.settledSetDigest,
      writeContextDigest: ctx.contextDigest,
      evidence,
    };
  }
}

export const bindingOf = (u: OperationRecord): Binding => ({
  operationId: u.operationId,
  idempotencyKey: u.idempotencyKey,
  writerGeneration: u.writerGeneration,
  targetSetDigest: u.targetSetDigest,
  beforeDigest: u.beforeDigest,
});

/** A `prepare` event for a fresh operation. */
export function prepareEvent(name: string): Record<string, unknown> {
  return {
    event: 'prepare',
    operationId: `op-${name}-${randomBytes(4).toString('hex')}`,
    idempotencyKey: `idem-${name}-${randomBytes(8).toString('hex')}`,
    kind: 'file-write',
    exactTargets: [`src/${name}.ts`],
    beforeDigest: sha256(`before:${name}`),
  };
}

/** Throws unless `r` is a success with `status` (default `committed`). */
export function expectWritten(
  r: WriteOutcome,
  what: string,
  status: Written['status'] = 'committed',
): Written {
  if (!r.ok)
    throw new FaultCheckFailure(`${what}: expected ${status}, was refused with ${r.code}`, [
      ...checkDifferences(`${what} status`, status, undefined),
      ...checkDifferences(`${what} refusal`, undefined, r.code),
    ]);
  if (r.status !== status)
    throw new FaultCheckFailure(
      `${what}: expected ${status}, got ${r.status}`,
      checkDifferences(`${what} status`, status, r.status),
    );
  return r;
}

/** Throws unless `r` is a refusal with one of `codes`. */
export function expectRefused(r: WriteOutcome, what: string, ...codes: string[]): Refused {
  const wanted = codes.join(' or ');
  if (r.ok)
    throw new FaultCheckFailure(`${what}: expected refusal ${wanted}, got ${r.status}`, [
      ...checkDifferences(`${what} refusal`, wanted, undefined),
      ...checkDifferences(`${what} status`, undefined, r.status),
    ]);
  if (codes.length && !codes.includes(r.code))
    throw new FaultCheckFailure(
      `${what}: expected refusal ${wanted}, got ${r.code}`,
      checkDifferences(`${what} refusal`, wanted, r.code),
    );
  return r;
}
