// The golden cases of the TaskContinuityWriteGate store, driven through the `store.*` protocol
// methods (conformance/cases/store/). Every expectation is computed here by running the reference
// engines on a memory TaskStore, never written by hand: each scenario runs in two worlds that
// differ in everything an implementation may choose (owner nonces, runtime generation, lease
// duration), and a step's `match` keeps exactly the members that agree in both, so nonces and the
// digests that cover them are left out and passed between steps with `capture` / `$var`. Each
// step also states what it means (committed, replayed, a refusal code); the generator fails when
// the engine disagrees, so a scenario can never silently test something else.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CommitRefusal, checkTaskKey, ManualClock } from '@agent-contracts/engines';
import { type Case, paramsViolation, type Step } from '@agent-contracts/harness';
import { targetSetDigestOf } from '@agent-contracts/schemas';
import { createMemoryBackend, type TaskKey, TaskStore } from '@agent-contracts/store';
import { requirementsOf } from './requirements.ts';

const PAGE = 'docs/spec/task-continuity-write-gate.md';
const GATE = 'TaskContinuityWriteGate';
const T0 = '2026-11-30T06:00:00.000Z';

/**
 * The conformance project root (docs/protocol.md#terminal-evidence): terminal evidence paths of
 * every store case are resolved against a directory holding exactly these bytes, plus
 * `closeout/outside.md`, a symbolic link to a regular file outside that directory.
 */
export const CONFORMANCE_EVIDENCE: Readonly<Record<string, string>> = {
  'closeout/change-record.md': 'Change record: the conformance task wrote only its own store entries.\n',
  'closeout/completion.md': 'Completion: every step of the conformance task finished.\n',
  'closeout/memory.md': 'Memory: nothing from the conformance task needs to be remembered.\n',
  'closeout/report.md': 'Report: the conformance task is complete.\n',
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A fixed SHA-256 hex value named by `label` (sessions, routes, evidence digests). */
const H = (label: string) => sha256(`agent-contracts conformance: ${label}`);
const PROJECT = H('project root');

/** A UUIDv8 derived from the case id, so that every case writes its own task. */
function taskIdOf(caseId: string): string {
  const h = sha256(caseId);
  const variant = ((Number.parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;
type EvidenceItem = { role: string; path: string; sha256: string; bytes: number };
const EVIDENCE: EvidenceItem[] = EVIDENCE_ROLES.map((role) => {
  const path = `closeout/${role}.md`;
  const text = CONFORMANCE_EVIDENCE[path] as string;
  return { role, path, sha256: sha256(text), bytes: Buffer.byteLength(text) };
});

// ---------------------------------------------------------------------------------------------
// Two worlds: the reference store on memory, with everything an implementation chooses varied.

type Reply = { result: unknown } | { code: string; data: Record<string, unknown> };

/**
 * Codes that steps 1 and 2 of the commit algorithm give before storage is read
 * (docs/spec/task-continuity-write-gate.md#commit-algorithm, TCW-507): such a refusal may carry
 * no `currentFence`, so a case never requires one (some of them are also given after the read).
 */
const BEFORE_THE_READ = new Set([
  'LIFECYCLE_TASK_IDENTITY_REQUIRED',
  'LIFECYCLE_STATE_FENCE_REQUIRED',
  'TASK_TERMINAL_INPUT_INVALID',
  'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
  'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
  'TASK_OPERATION_TRANSITION_INVALID',
  'LIFECYCLE_STATE_SHAPE_INVALID',
]);
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

class World {
  readonly clock = new ManualClock(Date.parse(T0));
  readonly store: TaskStore;
  constructor(seed: string, leaseDurationMs: number, projectRoot: string) {
    let n = 0;
    this.store = new TaskStore(createMemoryBackend(), {
      clock: this.clock,
      runtimeGeneration: `runtime-${seed}`,
      leaseDurationMs,
      projectRoot,
      mintNonce: () => `owner-${createHash('sha1').update(`${seed}:${n++}`).digest('hex')}`,
    });
  }

  async call(method: string, params: Record<string, unknown>): Promise<Reply> {
    const s = this.store;
    const task = params.task as TaskKey;
    const out = (r: { ok: boolean }): Reply => {
      if (r.ok) return { result: json(r) };
      const { code, ...data } = json(r as CommitRefusal);
      return { code, data: { ...data, code } };
    };
    switch (method) {
      case 'clock.set':
        this.clock.set(Date.parse(params.now as string));
        return { result: { now: new Date(this.clock.now()).toISOString() } };
      case 'clock.advance':
        this.clock.advance(params.ms as number);
        return { result: { now: new Date(this.clock.now()).toISOString() } };
      case 'store.read':
        return out(await s.read(task));
      case 'store.readWriteContext':
        return out(await s.readWriteContext(task));
      case 'store.commitState':
        return out(await s.commitState(params.request as never));
      case 'store.commitOperation':
        return out(await s.commitOperation(params.request as never));
      case 'store.transitionOwner':
        return out(await s.transitionOwner(params.request as never));
      case 'store.replay':
        return out(await s.replay(task));
      case 'store.history': {
        // As the reference implementation answers it: a malformed key is refused (the library's
        // history of such a key is empty).
        const key = checkTaskKey(task);
        if (!key.ok) return { code: key.code, data: { code: key.code } };
        return { result: json(await s.history(task)) };
      }
      default:
        throw new Error(`the generator has no method ${method}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Expected values

/** The members of `a` and `b` that agree; `undefined` when nothing does. */
function agreed(a: unknown, b: unknown): unknown {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return undefined;
    const out = a.map((x, i) => agreed(x, b[i]));
    return out.some((x) => x === undefined) ? undefined : out;
  }
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(a)) {
      if (!Object.hasOwn(b, k)) continue;
      const m = agreed(v, (b as Record<string, unknown>)[k]);
      if (m !== undefined) out[k] = m;
    }
    return out;
  }
  return Object.is(a, b) ? a : undefined;
}

/** A projection: `true` keeps a member whole, an object keeps the listed members of it. */
type Shape = true | { readonly [key: string]: Shape };

function project(value: unknown, shape: Shape): unknown {
  if (shape === true || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => project(v, shape));
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape)) {
    if (Object.hasOwn(value, k)) out[k] = project((value as Record<string, unknown>)[k], s);
  }
  return out;
}

/** What a read after a step checks unless a case asks for the whole envelope. */
const READ_SUMMARY: Shape = {
  status: true,
  fence: true,
  envelope: {
    commitKind: true,
    lifecycleRevision: true,
    owner: {
      status: true,
      sessionDigest: true,
      ownerGeneration: true,
      leaseRevision: true,
      revocationEpoch: true,
      reopenGeneration: true,
    },
    operations: { unresolved: { operationId: true, phase: true }, settledTotal: true },
  },
};
/** What a write result checks unless a case asks for all of it. */
const WRITE_SUMMARY: Shape = {
  status: true,
  fence: true,
  writeContext: { stateSequence: true, writerGeneration: true, ownerStatus: true, holderSession: true },
};
const HISTORY_SUMMARY: Shape = {
  sequence: true,
  writerGeneration: true,
  lifecycleRevision: true,
  commitKind: true,
  stateDigest: true,
};

function pointerGet(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    if (pointer === '') break;
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, t)) return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  return node;
}

function substitute(value: unknown, vars: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$var') {
    const name = (value as { $var: string }).$var;
    if (!vars.has(name)) throw new Error(`no earlier step captured "${name}"`);
    return vars.get(name);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
}

/** `committed`, `replayed`, `semantic-noop`, `found`, `missing`, `ok`, or a refusal code. */
type Want = string;

interface StepOptions {
  readonly want?: Want;
  readonly capture?: Record<string, string>;
  readonly shape?: Shape;
}

/** One case being recorded: every step runs in both worlds as it is added. */
class Scenario {
  readonly steps: Step[] = [];
  readonly worlds: [World, World];
  readonly vars: [Map<string, unknown>, Map<string, unknown>] = [new Map(), new Map()];
  constructor(
    readonly id: string,
    projectRoot: string,
  ) {
    this.worlds = [new World('a', 300_000, projectRoot), new World('b', 90_000, projectRoot)];
  }

  has(name: string): boolean {
    return this.vars[0].has(name);
  }

  /** Run one request in both worlds and record it with the expectation they agree on. */
  async step(method: string, params: Record<string, unknown>, options: StepOptions = {}): Promise<unknown> {
    const [a, b] = await Promise.all(
      this.worlds.map((w, i) =>
        w.call(method, substitute(params, this.vars[i as 0 | 1]) as Record<string, unknown>),
      ),
    );
    const where = `${this.id} step ${this.steps.length} (${method})`;
    if (!a || !b) throw new Error(where);
    const want = options.want ?? 'ok';
    let expect: Step['expect'];
    if ('code' in a || 'code' in b) {
      if (!('code' in a) || !('code' in b) || a.code !== b.code)
        throw new Error(`${where}: the two worlds disagree: ${JSON.stringify([a, b]).slice(0, 400)}`);
      if (want !== a.code) throw new Error(`${where}: wanted ${want}, the engine refused with ${a.code}`);
      // docs/protocol.md, store: a refusal's data carries `currentFence`, the fence the store read
      // (absent only for a refusal before the read); compared where both worlds agree (the nonces
      // are each store's own), and only for codes the commit algorithm gives after its read.
      const fence = agreed(
        (a.data as { currentFence?: unknown }).currentFence,
        (b.data as { currentFence?: unknown }).currentFence,
      );
      expect =
        fence === undefined || BEFORE_THE_READ.has(a.code)
          ? { error: a.code }
          : { error: a.code, data: { currentFence: fence } };
    } else {
      if (/^[A-Z][A-Z_]+$/.test(want))
        throw new Error(`${where}: wanted ${want}, got ${JSON.stringify(a.result).slice(0, 300)}`);
      const status = (a.result as { status?: unknown } | null)?.status;
      if (want !== 'ok' && status !== want)
        throw new Error(`${where}: wanted ${want}, got status ${String(status)}`);
      expect = method.startsWith('clock.')
        ? { result: a.result }
        : { match: project(agreed(a.result, b.result) ?? {}, options.shape ?? true) };
    }
    // A request that breaks its params schema is sent on purpose only to be refused (D-GEN-10);
    // the case says where it breaks it, and the harness checks that it breaks it exactly there.
    const broken = paramsViolation(method, substitute(params, this.vars[0])) ?? null;
    if (broken && !('error' in expect))
      throw new Error(
        `${where}: the request breaks ${broken.schema} at ${broken.pointer} but is not refused`,
      );
    const step: Step = {
      method,
      params,
      ...(broken ? { malformed: { pointer: broken.pointer, keyword: broken.keyword } } : {}),
      expect,
    };
    if (options.capture) {
      for (const [name, pointer] of Object.entries(options.capture)) {
        for (const [i, r] of [a, b].entries()) {
          const v = pointerGet('code' in r ? r.data : r.result, pointer);
          if (v === undefined) throw new Error(`${where}: nothing at ${pointer} to capture as ${name}`);
          this.vars[i as 0 | 1].set(name, v);
        }
      }
      this.steps.push({ ...step, capture: options.capture });
    } else this.steps.push(step);
    return 'code' in a ? a.data : a.result;
  }
}

// ---------------------------------------------------------------------------------------------
// The task under test, its sessions, and the requests of the spec.

interface Session {
  readonly digest: string;
  readonly epoch: string;
  readonly route: string;
}
const session = (n: number, epoch = 1): Session => ({
  digest: H(`session ${n}`),
  epoch: `epoch-${n}.${epoch}`,
  route: H(`route ${n}.${epoch}`),
});
const S1 = session(1);
const S2 = session(2);
const S3 = session(3);
const FENCE = (stateSequence: number, writerGeneration: number) => ({
  schemaVersion: 'TaskRecoveryCommitFenceV1',
  stateSequence,
  writerGeneration,
});
const v = (name: string) => ({ $var: name });

type OwnerOp =
  | 'acquire'
  | 'renew'
  | 'release'
  | 'reacquire'
  | 'handoff-prepare'
  | 'handoff-accept'
  | 'takeover-prepare'
  | 'takeover-accept'
  | 'terminal'
  | 'reopen';
const OWNER_OPS: OwnerOp[] = [
  'acquire',
  'renew',
  'release',
  'reacquire',
  'handoff-prepare',
  'handoff-accept',
  'takeover-prepare',
  'takeover-accept',
  'terminal',
  'reopen',
];

interface Operation {
  readonly operationId: string;
  readonly idempotencyKey: string;
  readonly kind: string;
  readonly exactTargets: readonly string[];
  readonly beforeDigest: string;
}
const OP1: Operation = {
  operationId: 'op-1',
  idempotencyKey: 'idem-1',
  kind: 'write-file',
  exactTargets: ['src/app.ts', 'src/util.ts'],
  beforeDigest: H('before op-1'),
};
const OP2: Operation = {
  operationId: 'op-2',
  idempotencyKey: 'idem-2',
  kind: 'run-command',
  exactTargets: ['build/'],
  beforeDigest: H('before op-2'),
};
const binding = (op: Operation, writerGeneration = 1) => ({
  operationId: op.operationId,
  idempotencyKey: op.idempotencyKey,
  writerGeneration,
  targetSetDigest: targetSetDigestOf(op.exactTargets),
  beforeDigest: op.beforeDigest,
});
type EventName = 'prepare' | 'dispatch' | 'observe' | 'settle' | 'mark-reconcile' | 'reconcile' | 'abort';
const EVENTS: EventName[] = [
  'prepare',
  'dispatch',
  'observe',
  'settle',
  'mark-reconcile',
  'reconcile',
  'abort',
];
function event(name: EventName, op: Operation = OP1, gen = 1, extra: Record<string, unknown> = {}) {
  if (name === 'prepare') return { event: 'prepare', ...op, exactTargets: [...op.exactTargets], ...extra };
  const b = { event: name, ...binding(op, gen) };
  if (name === 'observe') return { ...b, resultDigest: H(`result of ${op.operationId}`), ...extra };
  if (name === 'settle' || name === 'reconcile')
    return { ...b, effect: 'known-applied', evidenceDigest: H(`evidence of ${op.operationId}`), ...extra };
  return { ...b, ...extra };
}

/** The task of one case, with the fence and owner ref last read kept as variables. */
class Task {
  readonly key: TaskKey;
  constructor(readonly sc: Scenario) {
    this.key = { projectRootIdentity: PROJECT, taskId: taskIdOf(sc.id) };
  }

  fence(prefix = '') {
    return this.sc.has(`${prefix}fence`) ? v(`${prefix}fence`) : FENCE(0, 0);
  }

  owner(prefix = '') {
    if (!this.sc.has(`${prefix}nonce`)) return { mode: 'absent' };
    return {
      ownerGeneration: v(`${prefix}og`),
      ownerNonce: v(`${prefix}nonce`),
      leaseRevision: v(`${prefix}lr`),
      leaseDigest: v(`${prefix}lease`),
    };
  }

  /** `store.read`, capturing the fence, the owner ref and any pending ref or receipt. */
  async read(options: { as?: string; full?: boolean; want?: Want } = {}): Promise<unknown> {
    const p = options.as ?? '';
    const probe = (await this.sc.worlds[0].store.read(this.key)) as {
      envelope?: Record<string, unknown> | null;
    };
    const owner = (probe.envelope?.owner ?? null) as Record<string, unknown> | null;
    const capture: Record<string, string> = { [`${p}fence`]: '/fence' };
    if (owner) {
      Object.assign(capture, {
        [`${p}og`]: '/envelope/owner/ownerGeneration',
        [`${p}nonce`]: '/envelope/owner/ownerNonce',
        [`${p}lr`]: '/envelope/owner/leaseRevision',
        [`${p}lease`]: '/envelope/owner/leaseDigest',
      });
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
            capture: {
              [`${as}ctx`]: '/writeContext/contextDigest',
              [`${as}settled`]: '/writeContext/settledSetDigest',
            },
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
    return {
      operation: op,
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: first ? FENCE(0, 0) : this.fence(prefix),
      expectedOwner: first ? { mode: 'absent' } : this.owner(prefix),
      sessionDigest: who.digest,
      contextEpoch: who.epoch,
      routeRevision: who.route,
      targetSessionDigest: null,
      handoffRefDigest: null,
      takeoverRefDigest: null,
      takeoverEvidence: null,
      terminal: null,
      terminalReceiptDigest: null,
      ...extra,
    };
  }

  terminalMember(extra: Record<string, unknown> = {}, lifecycleRevision = 1) {
    return {
      terminalStatus: 'completed',
      lifecycleRevision,
      settledSetDigest: this.sc.has('settled') ? v('settled') : H('no settled set'),
      writeContextDigest: this.sc.has('ctx') ? v('ctx') : H('no write context'),
      evidence: EVIDENCE,
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
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: this.fence(),
      expectedOwner: this.owner(),
      sessionDigest: who.digest,
      state,
      ...extra,
    };
  }

  commitState(state: Record<string, unknown>, want: Want = 'committed', extra: Record<string, unknown> = {}) {
    return this.write('store.commitState', this.stateRequest(state, S1, extra), want);
  }

  opRequest(ev: Record<string, unknown>, who: Session = S1, prefix = '') {
    return {
      taskId: this.key.taskId,
      projectRootIdentity: this.key.projectRootIdentity,
      expectedFence: this.fence(prefix),
      expectedOwner: this.owner(prefix),
      sessionDigest: who.digest,
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

// ---------------------------------------------------------------------------------------------
// Reaching a lease status or an operation phase

type Status = 'none' | 'active' | 'released' | 'handoff-pending' | 'takeover-pending' | 'terminal';
const STATUSES: Status[] = ['none', 'active', 'released', 'handoff-pending', 'takeover-pending', 'terminal'];

async function reach(t: Task, status: Status): Promise<void> {
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

type Phase =
  | 'prepared'
  | 'dispatched'
  | 'observed'
  | 'reconcile-required'
  | 'settled'
  | 'aborted-zero-effect';
const PHASES: Phase[] = [
  'prepared',
  'dispatched',
  'observed',
  'reconcile-required',
  'settled',
  'aborted-zero-effect',
];
const PATH: Record<Phase, EventName[]> = {
  prepared: ['prepare'],
  dispatched: ['prepare', 'dispatch'],
  observed: ['prepare', 'dispatch', 'observe'],
  'reconcile-required': ['prepare', 'dispatch', 'mark-reconcile'],
  settled: ['prepare', 'dispatch', 'observe', 'settle'],
  'aborted-zero-effect': ['prepare', 'abort'],
};

async function reachPhase(t: Task, phase: Phase, op: Operation = OP1): Promise<void> {
  for (const e of PATH[phase]) await t.operation(event(e, op));
}

/** A holder change by explicit takeover: S3 prepares (with a fresh write context) and accepts. */
async function takeOver(t: Task): Promise<void> {
  await t.context();
  await t.transition('takeover-prepare');
  await t.transition('takeover-accept');
}

// ---------------------------------------------------------------------------------------------
// The cases

interface Def {
  readonly file: string;
  readonly id: string;
  readonly title: string;
  readonly subject: string;
  readonly anchor: string;
  readonly run: (t: Task) => Promise<void>;
}
const defs: Def[] = [];
const def = (
  file: string,
  id: string,
  subject: string,
  anchor: string,
  title: string,
  run: (t: Task) => Promise<void>,
) => defs.push({ file, id: `store/${id}`, title, subject, anchor, run });

const LEASE = 'FencedTaskWriteOwnerLeaseV2';
const RECORD = 'TaskOperationRecordV1';
const FENCE_C = 'TaskRecoveryCommitFenceV1';
const STATE = 'TaskRecoveryStateV5';
const RECEIPT = 'WorkflowTaskTerminalReceiptV1';
const CONTEXT = 'CanonicalTaskWriteContextV1';

// Owner transition table: every row positive, with its exact replay.
const ROWS: Array<[string, Status, OwnerOp, (t: Task) => Promise<void>]> = [
  ['acquire', 'none', 'acquire', async () => {}],
  ['renew', 'active', 'renew', async (t) => void (await t.sc.step('clock.advance', { ms: 60_000 }))],
  ['release', 'active', 'release', async () => {}],
  ['reacquire', 'released', 'reacquire', async () => {}],
  ['handoff-prepare', 'active', 'handoff-prepare', async () => {}],
  ['handoff-accept', 'handoff-pending', 'handoff-accept', async () => {}],
  ['takeover-prepare-from-active', 'active', 'takeover-prepare', async (t) => void (await t.context())],
  [
    'takeover-prepare-from-handoff-pending',
    'handoff-pending',
    'takeover-prepare',
    async (t) => void (await t.context()),
  ],
  [
    'takeover-prepare-from-takeover-pending',
    'takeover-pending',
    'takeover-prepare',
    async (t) => void (await t.context()),
  ],
  ['takeover-accept', 'takeover-pending', 'takeover-accept', async () => {}],
  ['terminal', 'active', 'terminal', async (t) => void (await t.context())],
  ['reopen', 'terminal', 'reopen', async () => {}],
];
for (const [name, from, op, prepare] of ROWS) {
  def(
    'owner',
    `owner/row/${name}`,
    LEASE,
    'owner-transition-table',
    `${op} from ${from === 'none' ? 'no envelope' : from}: one envelope along its row (status, counters, session binding); the identical request again is replayed and writes nothing`,
    async (t) => {
      await reach(t, from);
      await prepare(t);
      const request =
        op === 'takeover-prepare' && from === 'takeover-pending'
          ? t.ownerRequest(op, S2, {
              targetSessionDigest: S2.digest,
              takeoverEvidence: {
                readbackContextDigest: v('ctx'),
                livenessEvidenceDigest: H('liveness: no live turn'),
                reconcileReceiptDigest: H('reconcile receipt'),
              },
            })
          : t.defaultRequest(op);
      await t.sc.step('store.transitionOwner', { request }, { want: 'committed' });
      await t.sc.step('store.transitionOwner', { request }, { want: 'replayed', shape: WRITE_SUMMARY });
      await t.read({ full: true });
      await t.history();
    },
  );
}

// Owner transition table: every unlisted (status, operation) pair.
for (const from of STATUSES) {
  for (const op of OWNER_OPS) {
    const listed =
      (from === 'none' && op === 'acquire') ||
      (from === 'active' &&
        ['renew', 'release', 'handoff-prepare', 'takeover-prepare', 'terminal'].includes(op)) ||
      (from === 'released' && op === 'reacquire') ||
      (from === 'handoff-pending' && ['handoff-accept', 'takeover-prepare'].includes(op)) ||
      (from === 'takeover-pending' && ['takeover-prepare', 'takeover-accept'].includes(op)) ||
      (from === 'terminal' && op === 'reopen');
    if (listed) continue;
    // D-TCW-27: terminal on a lease that exists but is not active is the terminal owner check.
    const code =
      op === 'terminal' && from !== 'none' && from !== 'terminal'
        ? 'TASK_TERMINAL_OWNER_MISMATCH'
        : 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';
    def(
      'owner',
      `owner/unlisted/${from === 'none' ? 'no-envelope' : from}/${op}`,
      LEASE,
      'owner-transition-table',
      `${op} from ${from === 'none' ? 'no envelope' : from} is not a row of the table: ${code}, nothing written`,
      async (t) => {
        await reach(t, from);
        await t.refused('store.transitionOwner', t.defaultRequest(op), code);
      },
    );
  }
}

// Owner transition guards.
const guard = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('owner', `owner/guard/${name}`, LEASE, 'owner-transition-table', title, run);

guard(
  'acquire-stale-fence',
  'acquire of a new task with a fence other than (0, 0): LIFECYCLE_STATE_FENCE_MISMATCH',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), expectedFence: FENCE(1, 1) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
);
guard(
  'acquire-owner-not-absent',
  'acquire of a new task with an owner ref other than { mode: "absent" }: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      {
        ...t.ownerRequest('acquire', S1),
        expectedOwner: {
          ownerGeneration: 1,
          ownerNonce: `owner-${'0'.repeat(40)}`,
          leaseRevision: 1,
          leaseDigest: H('lease'),
        },
      },
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
guard(
  'stale-owner-ref',
  'a transition with the current fence but the owner ref of the lease before renew: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await t.transition('renew');
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('release', S1), expectedOwner: t.owner('old') },
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
for (const op of ['renew', 'release', 'handoff-prepare'] as const) {
  guard(
    `${op}-by-non-holder`,
    `${op} requested by a session that is not the holder: TASK_WRITE_OWNER_SESSION_MISMATCH`,
    async (t) => {
      await t.transition('acquire');
      const extra = op === 'handoff-prepare' ? { targetSessionDigest: S3.digest } : {};
      await t.refused(
        'store.transitionOwner',
        t.ownerRequest(op, S2, extra),
        'TASK_WRITE_OWNER_SESSION_MISMATCH',
      );
    },
  );
}
for (const op of ['release', 'handoff-prepare'] as const) {
  guard(
    `${op}-with-unresolved-operation`,
    `${op} while an operation is unresolved: TASK_OPERATION_UNSETTLED`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused('store.transitionOwner', t.defaultRequest(op), 'TASK_OPERATION_UNSETTLED');
    },
  );
}
guard(
  'handoff-prepare-without-target',
  'handoff-prepare with targetSessionDigest null: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S1),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-prepare-to-the-holder',
  "handoff-prepare naming the holder's own session as target: TASK_WRITE_OWNER_HANDOFF_INVALID",
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S1, { targetSessionDigest: S1.digest }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-accept-by-another-session',
  'handoff-accept by a session other than the target: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await reach(t, 'handoff-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S3, { handoffRefDigest: v('href') }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'handoff-accept-with-another-ref',
  'handoff-accept by the target with another handoffRefDigest: TASK_WRITE_OWNER_HANDOFF_INVALID',
  async (t) => {
    await reach(t, 'handoff-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S2, { handoffRefDigest: H('another handoff') }),
      'TASK_WRITE_OWNER_HANDOFF_INVALID',
    );
  },
);
guard(
  'takeover-prepare-without-evidence',
  'takeover-prepare with takeoverEvidence null: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-prepare', S3, { targetSessionDigest: S3.digest }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-prepare-for-another-session',
  "takeover-prepare whose targetSessionDigest is not the requester's: TASK_WRITE_OWNER_TAKEOVER_INVALID",
  async (t) => {
    await t.transition('acquire');
    await t.context();
    const r = t.defaultRequest('takeover-prepare');
    await t.refused(
      'store.transitionOwner',
      { ...r, targetSessionDigest: S2.digest },
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-prepare-with-stale-readback',
  'takeover-prepare whose readbackContextDigest is of an older envelope: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.commitState({ step: 1 });
    await t.refused(
      'store.transitionOwner',
      t.defaultRequest('takeover-prepare'),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-accept-by-another-session',
  'takeover-accept by a session other than the target: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await reach(t, 'takeover-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-accept', S1, { takeoverRefDigest: v('tref') }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'takeover-accept-with-another-ref',
  'takeover-accept by the target with another takeoverRefDigest: TASK_WRITE_OWNER_TAKEOVER_INVALID',
  async (t) => {
    await reach(t, 'takeover-pending');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('takeover-accept', S3, { takeoverRefDigest: H('another takeover') }),
      'TASK_WRITE_OWNER_TAKEOVER_INVALID',
    );
  },
);
guard(
  'reopen-naming-another-receipt',
  'reopen with a terminalReceiptDigest that is not the current receipt: FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  async (t) => {
    await reach(t, 'terminal');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('reopen', S1, { terminalReceiptDigest: H('another receipt') }),
      'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
    );
  },
);
guard(
  'prepare-revokes-the-holder',
  'after takeover-prepare the previous holder is revoked at once: its commit with its fence is LIFECYCLE_STATE_FENCE_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await t.context();
    await t.transition('takeover-prepare');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 'late' }), expectedFence: v('oldfence'), expectedOwner: t.owner('old') },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
);
guard(
  'old-fence-after-takeover',
  'after an accepted takeover the old holder (fence and owner ref of its lease) is refused; the new holder commits',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'old' });
    await takeOver(t);
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 'late' }), expectedFence: v('oldfence'), expectedOwner: t.owner('old') },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.write('store.commitState', t.stateRequest({ step: 'new holder' }, S3), 'committed');
  },
);

// Fence rules.
const fence = (name: string, title: string, run: (t: Task) => Promise<void>, anchor = 'commit-algorithm') =>
  def('fence', `fence/${name}`, FENCE_C, anchor, title, run);

fence(
  'missing-on-new-task-acquire',
  'acquire without expectedFence (null): LIFECYCLE_STATE_FENCE_REQUIRED, also for a first write',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), expectedFence: null },
      'LIFECYCLE_STATE_FENCE_REQUIRED',
    );
  },
);
fence(
  'missing-on-new-task-state',
  'a state commit without expectedFence on a task never written: LIFECYCLE_STATE_FENCE_REQUIRED',
  async (t) => {
    const { expectedFence: _, ...request } = t.stateRequest({ step: 1 });
    await t.refused('store.commitState', request, 'LIFECYCLE_STATE_FENCE_REQUIRED');
  },
);
for (const [name, method] of [
  ['state', 'store.commitState'],
  ['operation', 'store.commitOperation'],
  ['transition', 'store.transitionOwner'],
] as const) {
  fence(
    `missing-on-existing-task-${name}`,
    `${method} without expectedFence on an existing task: LIFECYCLE_STATE_FENCE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      const request =
        name === 'state'
          ? t.stateRequest({ step: 1 })
          : name === 'operation'
            ? t.opRequest(event('prepare'))
            : t.defaultRequest('renew');
      const { expectedFence: _, ...rest } = request;
      await t.refused(
        method,
        name === 'transition' ? { ...rest, expectedFence: null } : rest,
        'LIFECYCLE_STATE_FENCE_REQUIRED',
      );
    },
  );
}
for (const [name, bad] of [
  [
    'wrong-schema-version',
    { schemaVersion: 'TaskRecoveryCommitFenceV0', stateSequence: 1, writerGeneration: 1 },
  ],
  [
    'negative-sequence',
    { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: -1, writerGeneration: 1 },
  ],
  [
    'fractional-generation',
    { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: 1.5 },
  ],
] as const) {
  fence(
    `malformed-${name}`,
    `a state commit whose expectedFence is not a valid fence (${name}): LIFECYCLE_STATE_FENCE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: 1 }), expectedFence: bad },
        'LIFECYCLE_STATE_FENCE_REQUIRED',
      );
    },
  );
}
for (const force of [false, true]) {
  for (const [name, seq, gen] of [
    ['sequence-minus-one', 1, 1],
    ['sequence-plus-one', 3, 1],
    ['generation-minus-one', 2, 0],
    ['generation-plus-one', 2, 2],
  ] as const) {
    fence(
      `stale/${name}${force ? '-with-force' : ''}`,
      `a state commit with fence (${seq}, ${gen}) on (2, 1)${force ? ' and force: true' : ''}: LIFECYCLE_STATE_FENCE_MISMATCH carrying the current fence, nothing written; retried with that fence it commits`,
      async (t) => {
        await t.transition('acquire');
        await t.commitState({ step: 1 });
        await t.refused(
          'store.commitState',
          {
            ...t.stateRequest({ step: 2 }, S1, force ? { force: true } : {}),
            expectedFence: FENCE(seq, gen),
          },
          'LIFECYCLE_STATE_FENCE_MISMATCH',
          { current: '/currentFence' },
        );
        await t.history();
        await t.write(
          'store.commitState',
          { ...t.stateRequest({ step: 2 }, S1, force ? { force: true } : {}), expectedFence: v('current') },
          'committed',
        );
      },
    );
  }
}
/** A 16 KiB state with nesting, long strings and arrays: kept whole or refused, never cut. */
const LARGE_STATE = {
  step: 1,
  notes: Array.from({ length: 64 }, (_, i) => `note ${i}: ${'x'.repeat(200)}`),
  nested: { level1: { level2: { level3: { text: 'y'.repeat(2048), list: [1, 2, 3, { deep: true }] } } } },
};
fence(
  'large-state-kept-whole',
  'a 16 KiB state with nesting is committed and read back whole: never truncated, compacted or dropped in part',
  async (t) => {
    await t.transition('acquire');
    await t.commitState(LARGE_STATE);
    await t.read({ full: true });
  },
  'operation-events',
);
fence(
  'unchanged-state-is-a-semantic-noop',
  'a state commit with the current fence and unchanged state: semantic-noop, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.commitState({ step: 1 }, 'semantic-noop');
    await t.history();
  },
);
fence(
  'force-writes-unchanged-state',
  'force: true with the current fence writes an unchanged state as a new envelope and bypasses no check',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.commitState({ step: 1 }, 'committed', { force: true });
    await t.history();
  },
);
fence(
  'force-bypasses-no-owner-check',
  'force: true by a session that is not the holder: TASK_WRITE_OWNER_SESSION_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      t.stateRequest({ step: 1 }, S2, { force: true }),
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
    );
  },
);
fence(
  'generation-changes-only-with-owner-transitions',
  'writerGeneration moves by exactly the delta of each owner row (release, reacquire, prepares, terminal, reopen +1; renew and accepts 0) and never on state or operation commits',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.operation(event('prepare'));
    await t.operation(event('abort'));
    await t.transition('renew');
    await t.transition('release');
    await t.transition('reacquire');
    await t.write('store.commitState', t.stateRequest({ step: 2 }, S2), 'committed');
    await t.write(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S2, { targetSessionDigest: S1.digest }),
      'committed',
    );
    await t.write(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S1, { handoffRefDigest: v('href') }),
      'committed',
    );
    await t.history();
  },
);
fence(
  'next-generation-without-transition',
  'a state commit that claims the next writerGeneration without an owner transition: LIFECYCLE_STATE_FENCE_MISMATCH; the generation stays',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 1 }), expectedFence: FENCE(1, 2) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.history();
  },
);
fence(
  'task-identity-required',
  'a commit without taskId: LIFECYCLE_TASK_IDENTITY_REQUIRED',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 1 }), taskId: '' },
      'LIFECYCLE_TASK_IDENTITY_REQUIRED',
    );
  },
  'store-operations',
);
fence(
  'read-identity-required',
  'store.read without projectRootIdentity: LIFECYCLE_TASK_IDENTITY_REQUIRED',
  async (t) => {
    await t.sc.step(
      'store.read',
      { task: { ...t.key, projectRootIdentity: '' } },
      { want: 'LIFECYCLE_TASK_IDENTITY_REQUIRED' },
    );
  },
  'store-operations',
);
fence(
  'state-write-needs-active-lease',
  'a state commit on a released lease: TASK_WRITE_OWNER_MISSING',
  async (t) => {
    await reach(t, 'released');
    await t.refused('store.commitState', t.stateRequest({ step: 1 }), 'TASK_WRITE_OWNER_MISSING');
  },
);

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

const opCase = (
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
const { operationId: _omitted, ...prepareWithoutId } = event('prepare');
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

// Late and duplicate receipts.
const receipt = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('receipts', `receipts/${name}`, RECORD, 'late-and-duplicate-receipts', title, run);

const MUTATIONS: Array<[string, Record<string, unknown>]> = [
  ['operationId', { operationId: 'op-9' }],
  ['idempotencyKey', { idempotencyKey: 'idem-9' }],
  ['writerGeneration', { writerGeneration: 2 }],
  ['targetSetDigest', { targetSetDigest: H('other targets') }],
  ['beforeDigest', { beforeDigest: H('other before') }],
];
for (const [field, change] of MUTATIONS) {
  receipt(
    `observe-with-mutated-${field}`,
    `an observe receipt whose ${field} differs from the unresolved record: TASK_OPERATION_CAS_MISMATCH, nothing written; the true receipt then commits`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused(
        'store.commitOperation',
        t.opRequest(event('observe', OP1, 1, change)),
        'TASK_OPERATION_CAS_MISMATCH',
      );
      await t.history();
      await t.operation(event('observe'));
    },
  );
  receipt(
    `duplicate-dispatch-with-mutated-${field}`,
    `a duplicate dispatch whose ${field} differs: not a replay, TASK_OPERATION_CAS_MISMATCH, nothing written`,
    async (t) => {
      await t.transition('acquire');
      await reachPhase(t, 'dispatched');
      await t.refused(
        'store.commitOperation',
        t.opRequest(event('dispatch', OP1, 1, change)),
        'TASK_OPERATION_CAS_MISMATCH',
      );
      await t.history();
    },
  );
}
for (const name of ['dispatch', 'observe', 'settle'] as const) {
  receipt(
    `duplicate-${name}-with-its-first-fence`,
    `an identical ${name} retried with the fence it was first sent with: replayed, nothing written`,
    async (t) => {
      await t.transition('acquire');
      const before = PATH[name === 'dispatch' ? 'prepared' : name === 'observe' ? 'dispatched' : 'observed'];
      for (const e of before) await t.operation(event(e));
      await t.read({ as: 'first' });
      const request = t.opRequest(event(name), S1, 'first');
      await t.write('store.commitOperation', request, 'committed');
      await t.sc.step('store.commitOperation', { request }, { want: 'replayed' });
      await t.history();
    },
  );
}
receipt(
  'late-observe-after-settle',
  'an observe receipt arriving after the operation settled: TASK_OPERATION_CAS_MISMATCH, the settled record unchanged',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'settled');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe', OP1, 1, { resultDigest: H('late result') })),
      'TASK_OPERATION_CAS_MISMATCH',
    );
    await t.history();
  },
);
receipt(
  'observe-with-another-result',
  'a second observe with another resultDigest: TASK_OPERATION_REPLAY_MISMATCH; durable observed evidence is never replaced',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'observed');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe', OP1, 1, { resultDigest: H('another result') })),
      'TASK_OPERATION_REPLAY_MISMATCH',
    );
  },
);
receipt(
  'settle-with-another-outcome',
  'a settlement of a settled operation with another effect: TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'settled');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('settle', OP1, 1, { effect: 'known-not-applied' })),
      'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    );
  },
);
receipt(
  'old-generation-receipt-after-takeover',
  "after a takeover the old holder's observe is refused at the fence, and the same receipt from the new holder never advances the operation: it is reconciled instead",
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.read({ as: 'old' });
    await takeOver(t);
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe'), S1, 'old'),
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('observe'), S3),
      'TASK_OPERATION_CAS_MISMATCH',
    );
    await t.operation(event('mark-reconcile'), 'committed', S3);
    await t.operation(event('reconcile'), 'committed', S3);
    await t.history();
  },
);

// Terminal closeout preconditions.
const terminal = (name: string, title: string, run: (t: Task) => Promise<void>, subject = RECEIPT) =>
  def('terminal', `terminal/${name}`, subject, 'terminal-closeout', title, run);

/** Refused terminal, nothing written: the untouched task then closes with the same context. */
async function refusedTerminal(t: Task, request: Record<string, unknown>, code: string) {
  await t.refused('store.transitionOwner', request, code);
  await t.history();
}

terminal(
  'closes-with-a-receipt',
  'terminal by the holder with the current write context and the four evidence files: committed with the receipt; state and operation commits are then TASK_WRITE_OWNER_MISSING',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 'done' });
    await t.context();
    await t.transition('terminal');
    await t.read({ full: true });
    await t.refused('store.commitState', t.stateRequest({ step: 'after' }), 'TASK_WRITE_OWNER_MISSING');
    await t.refused('store.commitOperation', t.opRequest(event('prepare')), 'TASK_WRITE_OWNER_MISSING');
  },
);
terminal(
  'replay-returns-the-stored-receipt',
  'the identical terminal request again: replayed with the stored receipt, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    const request = t.defaultRequest('terminal');
    await t.sc.step('store.transitionOwner', { request }, { want: 'committed' });
    await t.history();
    await t.sc.step('store.transitionOwner', { request }, { want: 'replayed' });
    await t.history();
  },
);
terminal(
  'replay-with-another-status',
  'a terminal request for the closed lease with another terminalStatus: TASK_TERMINAL_REPLAY_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.read({ as: 'open' });
    await t.transition('terminal');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ terminalStatus: 'failed' }) }, 'open'),
      'TASK_TERMINAL_REPLAY_MISMATCH',
    );
  },
);
terminal('unknown-status', 'terminal with terminalStatus "done": TASK_TERMINAL_INPUT_INVALID', async (t) => {
  await t.transition('acquire');
  await t.context();
  await refusedTerminal(
    t,
    t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ terminalStatus: 'done' }) }),
    'TASK_TERMINAL_INPUT_INVALID',
  );
});
for (const member of ['lifecycleRevision', 'settledSetDigest', 'writeContextDigest'] as const) {
  terminal(
    `without-${member}`,
    `terminal without ${member}: TASK_TERMINAL_EXPECTED_STATE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      await t.context();
      const { [member]: _, ...rest } = t.terminalMember();
      await refusedTerminal(
        t,
        t.ownerRequest('terminal', S1, { terminal: rest }),
        'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
      );
    },
  );
}
terminal('stale-fence', 'terminal with a stale fence: LIFECYCLE_STATE_FENCE_MISMATCH', async (t) => {
  await t.transition('acquire');
  await t.context();
  await refusedTerminal(
    t,
    { ...t.defaultRequest('terminal'), expectedFence: FENCE(2, 1) },
    'LIFECYCLE_STATE_FENCE_MISMATCH',
  );
});
terminal(
  'by-non-holder',
  'terminal requested by a session that is not the holder: TASK_TERMINAL_OWNER_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S2, { terminal: t.terminalMember() }),
      'TASK_TERMINAL_OWNER_MISMATCH',
    );
  },
);
terminal(
  'with-unresolved-operation',
  'terminal while an operation is unresolved: TASK_TERMINAL_OPERATION_UNSETTLED',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.context();
    await refusedTerminal(t, t.defaultRequest('terminal'), 'TASK_TERMINAL_OPERATION_UNSETTLED');
  },
);
terminal(
  'stale-lifecycle-revision',
  'terminal naming another lifecycleRevision: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ lifecycleRevision: 2 }) }),
      'TASK_TERMINAL_STATE_CAS_MISMATCH',
    );
  },
);
terminal(
  'stale-settled-set',
  'terminal naming a settled set digest other than the current one: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context('empty');
    await reachPhase(t, 'settled');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ settledSetDigest: v('emptysettled') }) }),
      'TASK_TERMINAL_STATE_CAS_MISMATCH',
    );
  },
);
terminal(
  'stale-write-context',
  'terminal with the contextDigest of a write context read before the last commit: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.commitState({ step: 'after the context was read' });
    await refusedTerminal(t, t.defaultRequest('terminal'), 'TASK_TERMINAL_STATE_CAS_MISMATCH');
  },
);
const EVIDENCE_FAULTS: Array<[string, string, EvidenceItem[]]> = [
  ['three-items', 'TASK_TERMINAL_EVIDENCE_INCOMPLETE', EVIDENCE.slice(0, 3)],
  [
    'unsorted-roles',
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    [EVIDENCE[1], EVIDENCE[0], EVIDENCE[2], EVIDENCE[3]] as EvidenceItem[],
  ],
  [
    'role-twice',
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    [
      EVIDENCE[0],
      EVIDENCE[1],
      EVIDENCE[2],
      { ...(EVIDENCE[2] as EvidenceItem), path: 'closeout/report.md' },
    ] as EvidenceItem[],
  ],
  [
    'duplicate-path',
    'TASK_TERMINAL_EVIDENCE_DUPLICATE',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/memory.md' } : e)),
  ],
  [
    'parent-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: '../closeout/report.md' } : e)),
  ],
  [
    'absolute-path',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: '/closeout/report.md' } : e)),
  ],
  [
    'empty-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout//report.md' } : e)),
  ],
  [
    'dot-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/./report.md' } : e)),
  ],
  [
    'backslash',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout\\report.md' } : e)),
  ],
  [
    'link-out-of-the-root',
    'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/outside.md' } : e)),
  ],
  [
    'missing-file',
    'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/missing.md' } : e)),
  ],
  [
    'directory',
    'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout' } : e)),
  ],
  [
    'other-sha256',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, sha256: H('other bytes') } : e)),
  ],
  [
    'other-length',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, bytes: e.bytes + 1 } : e)),
  ],
];
for (const [name, code, evidence] of EVIDENCE_FAULTS) {
  terminal(
    `evidence-${name}`,
    `terminal whose evidence has ${name.replace(/-/g, ' ')}: ${code}, nothing written; the untouched task then closes with the same write context`,
    async (t) => {
      await t.transition('acquire');
      await t.context();
      await refusedTerminal(
        t,
        t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ evidence }) }),
        code,
      );
      await t.transition('terminal');
    },
  );
}
terminal(
  'reopen-invalidates-the-old-fence',
  'reopen: lifecycleRevision +1 and writerGeneration +1, the receipt kept only in the lineage; the fences of before the reopen are refused',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'open' });
    await t.context();
    await t.transition('terminal');
    await t.read({ as: 'closed' });
    await t.transition('reopen');
    await t.read({ full: true });
    for (const p of ['open', 'closed']) {
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: `with the ${p} fence` }), expectedFence: v(`${p}fence`) },
        'LIFECYCLE_STATE_FENCE_MISMATCH',
      );
    }
    await t.commitState({ step: 'after reopen' });
  },
  STATE,
);
terminal(
  'close-again-after-reopen',
  'a reopened task closes again against lifecycle revision 2: two lineage entries',
  async (t) => {
    await reach(t, 'terminal');
    await t.transition('reopen');
    await t.context();
    await t.write('store.transitionOwner', t.defaultRequest('terminal', 2), 'committed');
    await t.read({ full: true });
  },
  STATE,
);

// What the pages leave to no guess (issue 23 §3, items 1, 9, 11): members a request must not
// have, a malformed owner ref, which malformed members are judged before the read and which after
// the fence, a replayed prepare with another state, targets with a control character, and the
// order of the evidence checks.
def(
  'owner',
  'owner/malformed/member-outside-the-table',
  LEASE,
  'owner-transition-request',
  'an owner transition request with a member outside the request table: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.transitionOwner',
      { ...t.defaultRequest('renew'), leaseDurationMs: 60_000 },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
    await t.transition('renew');
  },
);
def(
  'owner',
  'owner/malformed/member-missing',
  LEASE,
  'owner-transition-request',
  'an owner transition request without one of its members (terminal): FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    const { terminal: _, ...request } = t.defaultRequest('renew');
    await t.refused('store.transitionOwner', request, 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
  },
);
for (const [name, what, owner] of [
  ['not-an-object', 'a string', 'the holder'],
  ['extra-member', 'an owner ref with a fifth member', null],
] as const) {
  fence(
    `owner-ref-malformed/${name}`,
    `a state commit whose expectedOwner is ${what}: it matches no owner, FENCED_TASK_WRITE_OWNER_CAS_MISMATCH with the current fence`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: 1 }), expectedOwner: owner ?? { ...t.owner(), status: 'active' } },
        'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
      );
    },
    'details-of-the-steps',
  );
}
opCase(
  'malformed/result-digest-before-the-fence',
  'an observe whose resultDigest is not 64 lowercase hex, sent with a stale fence: TASK_OPERATION_TRANSITION_INVALID before the read, not the fence mismatch',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.refused(
      'store.commitOperation',
      { ...t.opRequest(event('observe', OP1, 1, { resultDigest: 'result' })), expectedFence: FENCE(1, 1) },
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'malformed/effect-after-the-fence',
  'a settle with effect "maybe" and a stale fence: LIFECYCLE_STATE_FENCE_MISMATCH (effect and evidenceDigest are judged after the fence, check 11)',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'observed');
    await t.refused(
      'store.commitOperation',
      { ...t.opRequest(event('settle', OP1, 1, { effect: 'maybe' })), expectedFence: FENCE(1, 1) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('settle', OP1, 1, { effect: 'maybe' })),
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'malformed/member-outside-the-event',
  'a dispatch with a member its row does not list (resultDigest): TASK_OPERATION_TRANSITION_INVALID before the read, nothing written',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'prepared');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('dispatch', OP1, 1, { resultDigest: H('result of op-1') })),
      'TASK_OPERATION_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
opCase(
  'replayed-prepare-with-another-state',
  'the identical prepare again with another state: replayed, and the state of the first prepare stands (a replay writes nothing)',
  async (t) => {
    await t.transition('acquire');
    await t.write(
      'store.commitOperation',
      { ...t.opRequest(event('prepare')), state: { step: 'a' } },
      'committed',
    );
    await t.write(
      'store.commitOperation',
      { ...t.opRequest(event('prepare')), state: { step: 'b' } },
      'replayed',
    );
    await t.read({ full: true });
  },
  'late-and-duplicate-receipts',
);
opCase(
  'targets-with-a-control-character',
  'prepare whose target holds a control character inside it (allowed by the exactTargets pattern, unlike a sourceKey): committed',
  async (t) => {
    await t.transition('acquire');
    await t.operation(event('prepare', { ...OP1, exactTargets: ['command:printf\ta\u0007'] }));
    await t.read({ full: true });
  },
  'operation-events',
);
opCase(
  'targets-with-a-lone-surrogate',
  'prepare whose target holds a lone UTF-16 surrogate: not a valid target, TASK_OPERATION_TARGETS_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitOperation',
      t.opRequest(event('prepare', { ...OP1, exactTargets: ['file:a\ud800'] })),
      'TASK_OPERATION_TARGETS_INVALID',
    );
  },
  'details-of-the-steps',
);
for (const [name, title, code, evidence] of [
  [
    'list-checks-before-file-checks',
    'the first item has another sha256 and the last a path with a ".." segment: TASK_TERMINAL_EVIDENCE_PATH_INVALID (the list checks run over every item before any file is read)',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) =>
      i === 0 ? { ...e, sha256: H('other bytes') } : i === 3 ? { ...e, path: '../closeout/report.md' } : e,
    ),
  ],
  [
    'file-checks-item-by-item',
    'the first item has another sha256 and the last names a missing file: TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH (the file checks run item by item, in role order)',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) =>
      i === 0 ? { ...e, sha256: H('other bytes') } : i === 3 ? { ...e, path: 'closeout/missing.md' } : e,
    ),
  ],
] as const) {
  terminal(`evidence-order/${name}`, `terminal whose ${title}`, async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ evidence: [...evidence] }) }),
      code,
    );
  });
}

// Replays and reads write nothing.
const replay = (name: string, title: string, run: (t: Task) => Promise<void>, anchor = 'store-operations') =>
  def('replay', `replay/${name}`, STATE, anchor, title, run);

replay(
  'replay-writes-nothing',
  'store.replay returns the verified history and the current write context and writes nothing: history identical before and after, and the fence and owner ref read before it still commit',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await reachPhase(t, 'observed');
    await t.history(true);
    await t.sc.step('store.replay', { task: t.key });
    await t.sc.step('store.replay', { task: t.key });
    await t.history(true);
    await t.commitState({ step: 2 });
  },
);
replay(
  'reads-write-nothing',
  'store.read, store.readWriteContext and store.history change nothing: the history is identical and the fence read first still commits',
  async (t) => {
    await t.transition('acquire');
    await t.history(true);
    await t.context();
    await t.sc.step('store.read', { task: t.key }, { want: 'found' });
    await t.context();
    await t.history(true);
    await t.commitState({ step: 1 });
  },
);
replay(
  'missing-task',
  'a task never written: read is missing with fence (0, 0), history is empty, replay is empty with fence (0, 0) and no write context',
  async (t) => {
    await t.read();
    await t.history();
    await t.sc.step('store.replay', { task: t.key });
  },
);
replay(
  'owner-replay-before-fence',
  'an exact owner transition replay is recognised before the fence: the retry carries its original fence and is replayed, while a different request with that fence is refused',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'before' });
    const request = t.ownerRequest('renew', S1, {}, 'before');
    await t.write('store.transitionOwner', request, 'committed');
    await t.sc.step('store.transitionOwner', { request }, { want: 'replayed' });
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('release', S1, {}, 'before'),
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
  'replay-and-duplicates',
);
replay(
  'only-the-latest-transition-replays',
  'a retry of an older owner transition is refused at the fence, not replayed',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'first' });
    const renew = t.ownerRequest('renew', S1, {}, 'first');
    await t.write('store.transitionOwner', renew, 'committed');
    await t.transition('renew');
    await t.refused('store.transitionOwner', renew, 'LIFECYCLE_STATE_FENCE_MISMATCH');
  },
  'replay-and-duplicates',
);

// Write contexts.
const context = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('write-context', `write-context/${name}`, CONTEXT, 'derivation', title, run);

context(
  'commit-result-equals-readback',
  'the write context of a commit result is the one the store computes from storage now: its contextDigest closes the task',
  async (t) => {
    await t.transition('acquire');
    await t.write('store.commitState', t.stateRequest({ step: 1 }), 'committed', {
      capture: { ctx: '/writeContext/contextDigest', settled: '/writeContext/settledSetDigest' },
      full: true,
    });
    await t.transition('terminal');
  },
);
context(
  'derivation',
  'store.readWriteContext derives every member from the envelope read back, readAt from the clock',
  async (t) => {
    await t.transition('acquire');
    await t.sc.step('clock.advance', { ms: 1500 });
    await t.context();
  },
);
context(
  'missing-task',
  'store.readWriteContext of a task never written: LIFECYCLE_STATE_UNAVAILABLE',
  async (t) => {
    await t.context('', 'LIFECYCLE_STATE_UNAVAILABLE');
  },
);
context(
  'semantic-noop-has-a-fresh-context',
  'a semantic no-op returns the current fence and a write context read at the time of the request',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.sc.step('clock.advance', { ms: 2000 });
    await t.commitState({ step: 1 }, 'semantic-noop');
  },
);
context(
  'clock-backwards',
  'with the clock set back before the last commit, committedAt and readAt never go backwards',
  async (t) => {
    await t.transition('acquire');
    await t.sc.step('clock.set', { now: '2026-11-30T05:00:00.000Z' });
    await t.commitState({ step: 1 });
    await t.context();
  },
);

// Hostile task keys (D-TCW-32): every store method refuses a key no valid envelope can carry
// with LIFECYCLE_TASK_IDENTITY_REQUIRED, on every backend, before storage sees it. The long id is
// 4096 characters (over PostgreSQL's 2704-byte index row limit, a sane size for a case file; the
// store's unit tests use 10 MB).
const identity = (
  name: string,
  title: string,
  run: (t: Task) => Promise<void>,
  anchor = 'commit-algorithm',
) => def('identity', `identity/${name}`, STATE, anchor, title, run);
const A_UUID = '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6';
const HOSTILE_TASK_IDS: Array<[string, string, string]> = [
  ['sql', 'an SQL fragment', "'; DROP TABLE tasks; --"],
  ['path-traversal', 'a path traversal', '../../etc/passwd'],
  ['proto', '__proto__', '__proto__'],
  ['nul', 'a UUID followed by a NUL character', `${A_UUID}\u0000`],
  ['long', 'a 4096-character string that starts with a UUID', `${A_UUID}${'a'.repeat(4096 - A_UUID.length)}`],
  ['lone-surrogate', 'a UUID ending in a lone UTF-16 surrogate', `${A_UUID.slice(0, -1)}\ud800`],
  ['uppercase', 'an upper-case UUID (taskId is lowercase, D-TCW-19)', A_UUID.toUpperCase()],
];
const HOSTILE_ROOTS: Array<[string, string, string]> = [
  ['path-traversal', 'a path traversal', '../../../../../../../../etc/passwd'],
  ['nul', '63 hex characters and a NUL character', `${PROJECT.slice(0, -1)}\u0000`],
];
/** Every store method on `key`: each refused with LIFECYCLE_TASK_IDENTITY_REQUIRED. */
async function hostileKey(t: Task, key: TaskKey): Promise<void> {
  const code = 'LIFECYCLE_TASK_IDENTITY_REQUIRED';
  const real = t.key;
  const forKey = (request: Record<string, unknown>) => ({ ...request, ...key });
  await t.sc.step(
    'store.transitionOwner',
    { request: forKey(t.ownerRequest('acquire', S1)) },
    { want: code },
  );
  await t.sc.step('store.commitState', { request: forKey(t.stateRequest({ step: 1 })) }, { want: code });
  await t.sc.step(
    'store.commitOperation',
    { request: forKey(t.opRequest(event('prepare'))) },
    { want: code },
  );
  for (const method of ['store.read', 'store.readWriteContext', 'store.replay', 'store.history'])
    await t.sc.step(method, { task: key }, { want: code });
  // The same requests on the well-formed key of the case are served as usual.
  if (real.taskId !== key.taskId || real.projectRootIdentity !== key.projectRootIdentity) await t.read();
}
for (const [name, what, taskId] of HOSTILE_TASK_IDS)
  identity(
    `hostile-task-id/${name}`,
    `a taskId that is ${what}: every store method refuses it with LIFECYCLE_TASK_IDENTITY_REQUIRED and nothing is written`,
    (t) => hostileKey(t, { projectRootIdentity: t.key.projectRootIdentity, taskId }),
  );
for (const [name, what, projectRootIdentity] of HOSTILE_ROOTS)
  identity(
    `hostile-project-root/${name}`,
    `a projectRootIdentity that is ${what}: every store method refuses it with LIFECYCLE_TASK_IDENTITY_REQUIRED and nothing is written`,
    (t) => hostileKey(t, { projectRootIdentity, taskId: t.key.taskId }),
  );
identity(
  'lone-surrogate-context-epoch',
  'acquire with a contextEpoch ending in a lone UTF-16 surrogate (no RFC 8785 digest): FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), contextEpoch: 'epoch-1.\ud800' },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
  },
  'owner-transition-request',
);
identity(
  'lone-surrogate-state',
  'a state commit whose state holds a lone UTF-16 surrogate (no RFC 8785 digest): LIFECYCLE_STATE_SHAPE_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      t.stateRequest({ note: 'half a pair: \udc00' }),
      'LIFECYCLE_STATE_SHAPE_INVALID',
    );
  },
);

identity(
  'malformed-context-epoch-too-long',
  'an owner transition whose contextEpoch has 257 characters: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), contextEpoch: 'e'.repeat(257) },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
identity(
  'malformed-state-not-an-object',
  'a state commit whose state is an array: LIFECYCLE_STATE_SHAPE_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({}), state: ['not', 'an', 'object'] },
      'LIFECYCLE_STATE_SHAPE_INVALID',
    );
  },
  'details-of-the-steps',
);

// ---------------------------------------------------------------------------------------------

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(fileURLToPath(new URL(`../../${page}`, import.meta.url)), 'utf8');
  return new Set(
    text
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) =>
        l
          .replace(/^#+ /, '')
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .trim()
          .replace(/ /g, '-'),
      ),
  );
}

/** The projectRoot layout of docs/protocol.md#terminal-evidence, in a temporary directory. */
function conformanceProjectRoot(): { root: string; remove: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'store-cases-'));
  const root = join(base, 'project');
  for (const [path, text] of Object.entries(CONFORMANCE_EVIDENCE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(base, 'outside.md'), 'outside the project root\n');
  symlinkSync('../../outside.md', join(root, 'closeout/outside.md'));
  return { root, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/** The case files of conformance/cases/store/, by path relative to conformance/cases. */
export async function storeCaseFiles(): Promise<Map<string, string>> {
  const anchors = anchorsOf(PAGE);
  const { root, remove } = conformanceProjectRoot();
  const byFile = new Map<string, Case[]>();
  try {
    for (const d of defs) {
      if (!anchors.has(d.anchor)) throw new Error(`${d.id}: ${PAGE} has no heading #${d.anchor}`);
      const sc = new Scenario(d.id, root);
      await sc.step('clock.set', { now: T0 });
      await d.run(new Task(sc));
      const spec = `${PAGE}#${d.anchor}`;
      const c: Case = {
        id: d.id,
        title: d.title,
        gate: GATE,
        subject: d.subject,
        spec,
        ...requirementsOf({ id: d.id, spec, steps: sc.steps }, 'operation'),
        requires: ['store', 'clock'],
        steps: sc.steps,
      };
      byFile.set(d.file, [...(byFile.get(d.file) ?? []), c]);
    }
  } finally {
    remove();
  }
  const out = new Map<string, string>();
  const comment =
    'Generated by scripts/cases/store.ts by running the reference engines on a memory TaskStore; do not edit. Ids are stable. One step per line.';
  for (const [file, cases] of byFile) {
    const text = cases.map((c) => {
      const { steps, ...head } = c;
      const fields = Object.entries(head).map(([k, x]) => `      ${JSON.stringify(k)}: ${JSON.stringify(x)}`);
      const lines = steps.map((st) => `        ${JSON.stringify(st)}`);
      return `    {\n${fields.join(',\n')},\n      "steps": [\n${lines.join(',\n')}\n      ]\n    }`;
    });
    out.set(
      `store/${file}.json`,
      `{\n  "$comment": ${JSON.stringify(comment)},\n  "cases": [\n${text.join(',\n')}\n  ]\n}\n`,
    );
  }
  return out;
}
