// The task under test: its sessions, the requests of the spec, the task helper that keeps the
// fence and owner ref last read, and reaching a lease status or an operation phase.
import {
  CONFORMANCE_EVIDENCE,
  capturedOwner,
  commitFence,
  operationBinding,
  ownerTransitionRequest,
  prepareEvent,
  STORE_OPERATION_EVENTS,
  STORE_OWNER_OPERATIONS,
  type StoreOperation,
  type StoreOperationEvent,
  type StoreOwnerOperation,
  storeReadCapture,
  storeVar,
  writeContextCapture,
  writeRequestBase,
} from '@agent-contracts/harness/explore';
import type { TaskKey } from '@agent-contracts/store';
import { H, PROJECT, taskIdOf } from './names.ts';
import {
  HISTORY_SUMMARY,
  READ_SUMMARY,
  type Scenario,
  type Shape,
  type Want,
  WRITE_SUMMARY,
} from './scenario.ts';

// The task under test, its sessions, and the requests of the spec.

interface Session {
  readonly digest: string;
  readonly epoch: string;
  readonly route: string;
}
export const session = (n: number, epoch = 1): Session => ({
  digest: H(`session ${n}`),
  epoch: `epoch-${n}.${epoch}`,
  route: H(`route ${n}.${epoch}`),
});
export const S1 = session(1);
export const S2 = session(2);
export const S3 = session(3);
export const FENCE = commitFence;
export const v = storeVar;

export type OwnerOp = StoreOwnerOperation;
export const OWNER_OPS: OwnerOp[] = [...STORE_OWNER_OPERATIONS];

type Operation = StoreOperation;
export const OP1: Operation = {
  operationId: 'op-1',
  idempotencyKey: 'idem-1',
  kind: 'write-file',
  exactTargets: ['src/app.ts', 'src/util.ts'],
  beforeDigest: H('before op-1'),
};
export const OP2: Operation = {
  operationId: 'op-2',
  idempotencyKey: 'idem-2',
  kind: 'run-command',
  exactTargets: ['build/'],
  beforeDigest: H('before op-2'),
};
export const binding = (op: Operation, writerGeneration = 1) => operationBinding(op, writerGeneration);
export type EventName = StoreOperationEvent;
export const EVENTS: EventName[] = [...STORE_OPERATION_EVENTS];
export function event(name: EventName, op: Operation = OP1, gen = 1, extra: Record<string, unknown> = {}) {
  if (name === 'prepare') return { ...prepareEvent(op), ...extra };
  const b = { event: name, ...binding(op, gen) };
  if (name === 'observe') return { ...b, resultDigest: H(`result of ${op.operationId}`), ...extra };
  if (name === 'settle' || name === 'reconcile')
    return { ...b, effect: 'known-applied', evidenceDigest: H(`evidence of ${op.operationId}`), ...extra };
  return { ...b, ...extra };
}

/** The task of one case, with the fence and owner ref last read kept as variables. */
export class Task {
  readonly key: TaskKey;
  constructor(readonly sc: Scenario) {
    this.key = { projectRootIdentity: PROJECT, taskId: taskIdOf(sc.id) };
  }

  fence(prefix = '') {
    return this.sc.has(`${prefix}fence`) ? v(`${prefix}fence`) : FENCE(0, 0);
  }

  owner(prefix = '') {
    if (!this.sc.has(`${prefix}nonce`)) return { mode: 'absent' };
    return capturedOwner(prefix);
  }

  /** `store.read`, capturing the fence, the owner ref and any pending ref or receipt. */
  async read(options: { as?: string; full?: boolean; want?: Want } = {}): Promise<unknown> {
    const p = options.as ?? '';
    const probe = (await this.sc.worlds[0].store.read(this.key)) as {
      envelope?: Record<string, unknown> | null;
    };
    const owner = (probe.envelope?.owner ?? null) as Record<string, unknown> | null;
    const capture = storeReadCapture(p, owner !== null);
    if (owner) {
      if (owner.handoffRef) capture[`${p}href`] = '/envelope/owner/handoffRef/refDigest';
      if (owner.takeoverRef) capture[`${p}tref`] = '/envelope/owner/takeoverRef/refDigest';
      if (probe.envelope?.terminalReceipt) capture[`${p}receipt`] = '/envelope/terminalReceipt/receiptDigest';
    }
    return this.sc.step(
      'store.read',
      { task: this.key },
      {
        want: options.want ?? (owner ? 'found' : 'missing'),
        capture,
        ...(options.full ? {} : { shape: READ_SUMMARY }),
      },
    );
  }

  /** `store.readWriteContext`, capturing its `contextDigest` as `ctx` (or `<as>ctx`). */
  context(as = '', want: Want = 'ok') {
    return this.sc.step(
      'store.readWriteContext',
      { task: this.key },
      want === 'ok'
        ? {
            want,
            capture: writeContextCapture(as),
          }
        : { want },
    );
  }

  history(shape: Shape = HISTORY_SUMMARY) {
    return this.sc.step('store.history', { task: this.key }, { shape });
  }

  /** An owner transition request with every member of the request table. */
  ownerRequest(op: OwnerOp, who: Session, extra: Record<string, unknown> = {}, prefix = '') {
    const first = op === 'acquire' && !this.sc.has(`${prefix}fence`);
    return ownerTransitionRequest(
      op,
      writeRequestBase(
        this.key.taskId,
        this.key.projectRootIdentity,
        first ? FENCE(0, 0) : this.fence(prefix),
        first ? { mode: 'absent' } : this.owner(prefix),
        who.digest,
      ),
      who.epoch,
      who.route,
      extra,
    );
  }

  terminalMember(extra: Record<string, unknown> = {}, lifecycleRevision = 1) {
    return {
      terminalStatus: 'completed',
      lifecycleRevision,
      settledSetDigest: this.sc.has('settled') ? v('settled') : H('no settled set'),
      writeContextDigest: this.sc.has('ctx') ? v('ctx') : H('no write context'),
      evidence: CONFORMANCE_EVIDENCE,
      ...extra,
    };
  }

  /** The request an operation's row expects by default (the plausible requester for it). */
  defaultRequest(op: OwnerOp, lifecycleRevision = 1): Record<string, unknown> {
    switch (op) {
      case 'acquire':
      case 'renew':
      case 'release':
        return this.ownerRequest(op, S1);
      case 'reacquire':
        return this.ownerRequest(op, S2);
      case 'handoff-prepare':
        return this.ownerRequest(op, S1, { targetSessionDigest: S2.digest });
      case 'handoff-accept':
        return this.ownerRequest(op, S2, { handoffRefDigest: this.sc.has('href') ? v('href') : null });
      case 'takeover-prepare':
        return this.ownerRequest(op, S3, {
          targetSessionDigest: S3.digest,
          takeoverEvidence: {
            readbackContextDigest: this.sc.has('ctx') ? v('ctx') : H('no write context'),
            livenessEvidenceDigest: H('liveness: no live turn'),
            reconcileReceiptDigest: H('reconcile receipt'),
          },
        });
      case 'takeover-accept':
        return this.ownerRequest(op, S3, { takeoverRefDigest: this.sc.has('tref') ? v('tref') : null });
      case 'terminal':
        return this.ownerRequest(op, S1, { terminal: this.terminalMember({}, lifecycleRevision) });
      case 'reopen':
        return this.ownerRequest(op, S1, {
          terminalReceiptDigest: this.sc.has('receipt') ? v('receipt') : H('no receipt'),
        });
    }
  }

  /**
   * A write. After an owner transition that was not refused the task is read again (new fence
   * and owner ref); after a state or operation commit the new fence comes from its result.
   */
  async write(
    method: string,
    request: Record<string, unknown>,
    want: Want,
    options: { capture?: Record<string, string>; full?: boolean } = {},
  ) {
    const refused = /^[A-Z]/.test(want);
    const capture = {
      ...(refused || method === 'store.transitionOwner' ? {} : { fence: '/fence' }),
      ...options.capture,
    };
    const r = await this.sc.step(
      method,
      { request },
      {
        want,
        ...(Object.keys(capture).length ? { capture } : {}),
        ...(options.full ? {} : { shape: WRITE_SUMMARY }),
      },
    );
    if (!refused && method === 'store.transitionOwner') await this.read();
    return r;
  }

  transition(op: OwnerOp, want: Want = 'committed', request?: Record<string, unknown>) {
    return this.write('store.transitionOwner', request ?? this.defaultRequest(op), want);
  }

  stateRequest(state: Record<string, unknown>, who: Session = S1, extra: Record<string, unknown> = {}) {
    return {
      ...writeRequestBase(
        this.key.taskId,
        this.key.projectRootIdentity,
        this.fence(),
        this.owner(),
        who.digest,
      ),
      state,
      ...extra,
    };
  }

  commitState(state: Record<string, unknown>, want: Want = 'committed', extra: Record<string, unknown> = {}) {
    return this.write('store.commitState', this.stateRequest(state, S1, extra), want);
  }

  opRequest(ev: Record<string, unknown>, who: Session = S1, prefix = '') {
    return {
      ...writeRequestBase(
        this.key.taskId,
        this.key.projectRootIdentity,
        this.fence(prefix),
        this.owner(prefix),
        who.digest,
      ),
      event: ev,
    };
  }

  operation(ev: Record<string, unknown>, want: Want = 'committed', who: Session = S1) {
    return this.write('store.commitOperation', this.opRequest(ev, who), want);
  }

  /** A refusal, then a read showing that nothing was written. */
  async refused(
    method: string,
    request: Record<string, unknown>,
    code: string,
    capture?: Record<string, string>,
  ) {
    await this.write(method, request, code, capture ? { capture } : {});
    await this.read();
  }
}

// Reaching a lease status or an operation phase

export type Status = 'none' | 'active' | 'released' | 'handoff-pending' | 'takeover-pending' | 'terminal';
export const STATUSES: Status[] = [
  'none',
  'active',
  'released',
  'handoff-pending',
  'takeover-pending',
  'terminal',
];

export async function reach(t: Task, status: Status): Promise<void> {
  if (status === 'none') return;
  await t.transition('acquire');
  if (status === 'released') await t.transition('release');
  if (status === 'handoff-pending') await t.transition('handoff-prepare');
  if (status === 'takeover-pending') {
    await t.context();
    await t.transition('takeover-prepare');
  }
  if (status === 'terminal') {
    await t.context();
    await t.transition('terminal');
  }
}

export type Phase =
  | 'prepared'
  | 'dispatched'
  | 'observed'
  | 'reconcile-required'
  | 'settled'
  | 'aborted-zero-effect';
export const PHASES: Phase[] = [
  'prepared',
  'dispatched',
  'observed',
  'reconcile-required',
  'settled',
  'aborted-zero-effect',
];
export const PATH: Record<Phase, EventName[]> = {
  prepared: ['prepare'],
  dispatched: ['prepare', 'dispatch'],
  observed: ['prepare', 'dispatch', 'observe'],
  'reconcile-required': ['prepare', 'dispatch', 'mark-reconcile'],
  settled: ['prepare', 'dispatch', 'observe', 'settle'],
  'aborted-zero-effect': ['prepare', 'abort'],
};

export async function reachPhase(t: Task, phase: Phase, op: Operation = OP1): Promise<void> {
  for (const e of PATH[phase]) await t.operation(event(e, op));
}

/** A holder change by explicit takeover: S3 prepares (with a fresh write context) and accepts. */
export async function takeOver(t: Task): Promise<void> {
  await t.context();
  await t.transition('takeover-prepare');
  await t.transition('takeover-accept');
}
