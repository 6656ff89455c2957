// Model-based and interleaving properties of the store, parameterised by backend factory so every
// backend runs them: defineStoreModelProperties('sqlite', () => createSqliteBackend(path), cleanup).
import { ManualClock } from '@agent-contracts/engines';
import type { FencedTaskWriteOwnerStatus, TaskOperationPhase } from '@agent-contracts/schemas';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { StorageBackend } from '../../src/backend.js';
import { TaskStore } from '../../src/task-store.js';
import {
  evidenceRoot,
  fence,
  newKey,
  prepareEvent,
  type Result,
  S1,
  S2,
  S3,
  sha,
  TaskDriver,
  viewOf,
} from './driver.js';
import { expectValidHistory } from './suite.js';

interface Model {
  seq: number;
  gen: number;
  lifecycle: number;
  status: FencedTaskWriteOwnerStatus | null;
  holder: string | null;
  target: string | null;
  phase: TaskOperationPhase | 'none';
  stateCounter: number;
}

interface Real {
  task: TaskDriver;
  clock: ManualClock;
  evidence: ReturnType<typeof evidenceRoot>['evidence'];
}

const SESSIONS = [S1, S2, S3];
const sessionArb = fc.constantFrom(...SESSIONS);
const name = (s: string) => `S${SESSIONS.indexOf(s) + 1}`;

function outcome(r: Result): string {
  return r.ok ? r.status : r.code;
}

/** Checks that storage agrees with the model after every command. */
async function agree(m: Model, real: Real): Promise<void> {
  const e = await real.task.store.backend.load(real.task.key);
  expect(viewOf(e).fence).toEqual(fence(m.seq, m.gen));
  if (!e) return;
  expect(e.owner.status).toBe(m.status);
  expect(e.lifecycleRevision).toBe(m.lifecycle);
  expect(e.operations.unresolved?.phase ?? 'none').toBe(m.phase);
  if (m.status === 'active') expect(e.owner.sessionDigest).toBe(m.holder);
}

type Cmd = fc.AsyncCommand<Model, Real>;

class StateCommit implements Cmd {
  constructor(
    readonly session: string,
    readonly stale: boolean,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const v = await real.task.view();
    const view = this.stale ? { ...v, fence: fence(v.fence.stateSequence - 1, v.fence.writerGeneration) } : v;
    m.stateCounter += 1;
    const r = await real.task.state(this.session, { n: m.stateCounter }, { view });
    const expected =
      m.status === null && !this.stale
        ? 'TASK_WRITE_OWNER_MISSING'
        : this.stale
          ? m.seq === 0
            ? 'LIFECYCLE_STATE_FENCE_REQUIRED'
            : 'LIFECYCLE_STATE_FENCE_MISMATCH'
          : m.status !== 'active'
            ? 'TASK_WRITE_OWNER_MISSING'
            : this.session !== m.holder
              ? 'TASK_WRITE_OWNER_SESSION_MISMATCH'
              : 'committed';
    expect(outcome(r)).toBe(expected);
    if (expected === 'committed') m.seq += 1;
    await agree(m, real);
  }
  toString = () => `state(${name(this.session)}${this.stale ? ', stale' : ''})`;
}

class Owner implements Cmd {
  constructor(
    readonly op:
      | 'acquire'
      | 'renew'
      | 'release'
      | 'reacquire'
      | 'takeover-prepare'
      | 'takeover-accept'
      | 'terminal'
      | 'reopen',
    readonly session: string,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const t = real.task;
    const e = await t.store.backend.load(t.key);
    let extras = {};
    if (this.op === 'takeover-prepare' && e)
      extras = { targetSessionDigest: this.session, takeoverEvidence: await t.takeoverEvidence() };
    if (this.op === 'takeover-accept')
      extras = { takeoverRefDigest: e?.owner.takeoverRef?.refDigest ?? sha('none') };
    if (this.op === 'terminal' && e) extras = { terminal: await t.terminalMember(real.evidence) };
    if (this.op === 'reopen')
      extras = { terminalReceiptDigest: e?.terminalReceipt?.receiptDigest ?? sha('none') };
    const r = await t.transition(this.op, this.session, extras);
    const holder = this.session === m.holder;
    let expected = 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';
    let apply: (() => void) | null = null;
    switch (this.op) {
      case 'acquire':
        if (m.status === null) {
          expected = 'committed';
          apply = () => Object.assign(m, { gen: 1, status: 'active', holder: this.session, lifecycle: 1 });
        }
        break;
      case 'renew':
        if (m.status === 'active') expected = holder ? 'committed' : 'TASK_WRITE_OWNER_SESSION_MISMATCH';
        break;
      case 'release':
        if (m.status === 'active') {
          expected = !holder
            ? 'TASK_WRITE_OWNER_SESSION_MISMATCH'
            : m.phase !== 'none'
              ? 'TASK_OPERATION_UNSETTLED'
              : 'committed';
          apply = () => Object.assign(m, { gen: m.gen + 1, status: 'released' });
        }
        break;
      case 'reacquire':
        if (m.status === 'released') {
          expected = 'committed';
          apply = () => Object.assign(m, { gen: m.gen + 1, status: 'active', holder: this.session });
        }
        break;
      case 'takeover-prepare':
        if (m.status === 'active' || m.status === 'takeover-pending') {
          expected = 'committed';
          apply = () =>
            Object.assign(m, { gen: m.gen + 1, status: 'takeover-pending', target: this.session });
        }
        break;
      case 'takeover-accept':
        if (m.status === 'takeover-pending') {
          expected = this.session === m.target ? 'committed' : 'TASK_WRITE_OWNER_TAKEOVER_INVALID';
          apply = () => Object.assign(m, { status: 'active', holder: this.session, target: null });
        }
        break;
      case 'terminal':
        if (m.status === null) expected = 'TASK_TERMINAL_INPUT_INVALID';
        else if (m.status === 'active') {
          expected = !holder
            ? 'TASK_TERMINAL_OWNER_MISMATCH'
            : m.phase !== 'none'
              ? 'TASK_TERMINAL_OPERATION_UNSETTLED'
              : 'committed';
          apply = () => Object.assign(m, { gen: m.gen + 1, status: 'terminal' });
        } else if (m.status !== 'terminal') expected = 'TASK_TERMINAL_OWNER_MISMATCH';
        break;
      case 'reopen':
        if (m.status === 'terminal') {
          expected = 'committed';
          apply = () =>
            Object.assign(m, {
              gen: m.gen + 1,
              lifecycle: m.lifecycle + 1,
              status: 'active',
              holder: this.session,
            });
        }
        break;
    }
    expect(outcome(r)).toBe(expected);
    if (expected === 'committed') {
      m.seq += 1;
      apply?.();
    }
    await agree(m, real);
  }
  toString = () => `${this.op}(${name(this.session)})`;
}

const OP_NEXT: Record<string, Partial<Record<TaskOperationPhase | 'none', TaskOperationPhase | 'none'>>> = {
  dispatch: { prepared: 'dispatched' },
  observe: { dispatched: 'observed' },
  'mark-reconcile': { dispatched: 'reconcile-required', observed: 'reconcile-required' },
  settle: { observed: 'none' },
  reconcile: { 'reconcile-required': 'none' },
  abort: { prepared: 'none' },
};

class Operation implements Cmd {
  constructor(
    readonly event: 'prepare' | 'dispatch' | 'observe' | 'mark-reconcile' | 'settle' | 'reconcile' | 'abort',
  ) {}
  check = (m: Readonly<Model>) => m.status === 'active';
  async run(m: Model, real: Real) {
    const t = real.task;
    const u = (await t.envelope()).operations.unresolved;
    const binding = u
      ? {
          operationId: u.operationId,
          idempotencyKey: u.idempotencyKey,
          writerGeneration: u.writerGeneration,
          targetSetDigest: u.targetSetDigest,
          beforeDigest: u.beforeDigest,
        }
      : {
          operationId: 'ghost',
          idempotencyKey: 'ghost',
          writerGeneration: 1,
          targetSetDigest: sha('t'),
          beforeDigest: sha('b'),
        };
    const ev =
      this.event === 'prepare'
        ? prepareEvent()
        : this.event === 'observe'
          ? { event: 'observe' as const, ...binding, resultDigest: sha('r') }
          : this.event === 'settle' || this.event === 'reconcile'
            ? { event: this.event, ...binding, effect: 'known-applied' as const, evidenceDigest: sha('ev') }
            : ({ event: this.event, ...binding } as const);
    const r = await t.op(m.holder as string, ev);
    let next: TaskOperationPhase | 'none' | undefined;
    if (this.event === 'prepare') next = m.phase === 'none' ? 'prepared' : undefined;
    else next = OP_NEXT[this.event]?.[m.phase];
    // Same-generation edges need the generation that prepared the operation.
    const sameGen = ['dispatch', 'observe', 'settle'].includes(this.event);
    if (next !== undefined && sameGen && u && u.writerGeneration !== m.gen) next = undefined;
    if (next !== undefined) {
      expect(outcome(r)).toBe('committed');
      m.seq += 1;
      m.phase = next;
    } else {
      expect(r.ok ? r.status : 'refused').not.toBe('committed');
    }
    await agree(m, real);
  }
  toString = () => this.event;
}

class ClockJump implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const before = JSON.stringify(await real.task.store.history(real.task.key));
    real.clock.advance(this.ms);
    expect(JSON.stringify(await real.task.store.history(real.task.key))).toBe(before);
    await agree(m, real);
  }
  toString = () => `clock(${this.ms})`;
}

const commands = [
  fc.tuple(sessionArb, fc.boolean()).map(([s, stale]) => new StateCommit(s, stale)),
  fc
    .tuple(
      fc.constantFrom(
        'acquire',
        'renew',
        'release',
        'reacquire',
        'takeover-prepare',
        'takeover-accept',
        'terminal',
        'reopen' as const,
      ),
      sessionArb,
    )
    .map(([op, s]) => new Owner(op, s)),
  fc
    .constantFrom('prepare', 'dispatch', 'observe', 'mark-reconcile', 'settle', 'reconcile', 'abort' as const)
    .map((e) => new Operation(e)),
  fc.integer({ min: -3_600_000, max: 3_600_000 }).map((ms) => new ClockJump(ms)),
];

/** A backend whose calls resolve in an order chosen by a fast-check scheduler. */
function scheduled(backend: StorageBackend, s: fc.Scheduler): StorageBackend {
  return {
    kind: backend.kind,
    load: s.scheduleFunction((key) => backend.load(key)),
    loadAt: s.scheduleFunction((key, sequence) => backend.loadAt(key, sequence)),
    compareAndAppend: s.scheduleFunction((key, expected, next) =>
      backend.compareAndAppend(key, expected, next),
    ),
    history: (key) => backend.history(key),
    close: async () => {},
  };
}

/**
 * Model-based (fc.commands) and interleaving (fc.scheduler) properties of a TaskStore on one
 * backend. `makeBackend` is called once per property; tasks use fresh keys.
 */
export function defineStoreModelProperties(
  label: string,
  makeBackend: () => Promise<StorageBackend>,
  cleanup: () => Promise<void>,
  options: { numRuns?: number } = {},
): void {
  const numRuns = options.numRuns ?? 40;
  describe(`TaskStore model: ${label}`, () => {
    const ev = evidenceRoot();
    const backends: StorageBackend[] = [];
    const open = async () => {
      const b = await makeBackend();
      backends.push(b);
      return b;
    };
    afterAll(async () => {
      for (const b of backends) await b.close();
      await cleanup();
    });

    it('every command sequence agrees with the fence/owner/operation model and leaves a valid history', async () => {
      const backend = await open();
      await fc.assert(
        fc.asyncProperty(
          fc.commands(commands, { maxCommands: 40, size: 'max' }),
          fc.boolean(),
          async (cmds, startAcquired) => {
            const clock = new ManualClock(Date.parse('2026-11-30T06:00:00.000Z'));
            const task = new TaskDriver(new TaskStore(backend, { clock, projectRoot: ev.root }), newKey());
            // Half the runs start on an acquired task so that long sequences reach every status.
            const model: Model = {
              seq: 0,
              gen: 0,
              lifecycle: 1,
              status: null,
              holder: null,
              target: null,
              phase: 'none',
              stateCounter: 0,
            };
            if (startAcquired) {
              expect(outcome(await task.transition('acquire', S1))).toBe('committed');
              Object.assign(model, { seq: 1, gen: 1, status: 'active', holder: S1 });
            }
            await fc.asyncModelRun(() => ({ model, real: { task, clock, evidence: ev.evidence } }), cmds);
            expectValidHistory(await task.store.history(task.key));
          },
        ),
        { numRuns },
      );
    });

    it('racing commits on one fence, in any interleaving: exactly one winner', async () => {
      const backend = await open();
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, writers) => {
          const setupStore = new TaskStore(backend);
          const task = new TaskDriver(setupStore, newKey());
          await task.transition('acquire', S1);
          const v = await task.view();
          const racing = new TaskDriver(
            new TaskStore(scheduled(backend, s), { runtimeGeneration: setupStore.runtimeGeneration }),
            task.key,
          );
          const attempts: Array<Promise<Result>> = [];
          for (let i = 0; i < writers; i++) attempts.push(racing.state(S1, { writer: i }, { view: v }));
          attempts.push(
            racing.transition(
              'takeover-prepare',
              S2,
              { targetSessionDigest: S2, takeoverEvidence: await task.takeoverEvidence() },
              v,
            ),
          );
          attempts.push(racing.transition('renew', S1, {}, v));
          const results = await s.waitFor(Promise.all(attempts));
          const winners = results.filter((r) => r.ok && r.status === 'committed');
          expect(winners).toHaveLength(1);
          for (const r of results) if (!r.ok) expect(r.code).toBe('LIFECYCLE_STATE_FENCE_MISMATCH');
          const history = await setupStore.history(task.key);
          expect(history).toHaveLength(2);
          expectValidHistory(history);
        }),
        { numRuns },
      );
    });

    it('a racing prepare and dispatch never leave two unresolved operations', async () => {
      const backend = await open();
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), async (s) => {
          const task = new TaskDriver(new TaskStore(backend), newKey());
          await task.transition('acquire', S1);
          const racing = new TaskDriver(new TaskStore(scheduled(backend, s)), task.key);
          const attempts = [
            racing.op(S1, prepareEvent()),
            racing.op(S1, prepareEvent()),
            racing.op(S1, prepareEvent()),
          ];
          const results = await s.waitFor(Promise.all(attempts));
          expect(results.filter((r) => r.ok)).toHaveLength(1);
          const e = await task.envelope();
          expect(e.sequence).toBe(2);
          expect(e.operations.unresolved?.phase).toBe('prepared');
        }),
        { numRuns },
      );
    });
  });
}
