// The backend-generic contract suite of the TaskContinuityWriteGate store. Every backend runs it:
// defineStoreContractSuite('sqlite', () => createSqliteBackend(path), cleanup).
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkOwnerTransition,
  ManualClock,
  OPERATION_EDGES,
  type OperationBinding,
  type OperationEventInput,
  OWNER_OPERATIONS,
  OWNER_TRANSITION_TABLE,
  type TaskOperationEvent,
} from '@agent-contracts/engines';
import type { FencedTaskWriteOwnerStatus, TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { validate, validateBundle } from '@agent-contracts/validators';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StorageBackend, TaskKey } from '../../src/backend.js';
import { TaskStore, type TaskStoreOptions } from '../../src/task-store.js';
import {
  evidenceRoot,
  fence,
  newKey,
  prepareEvent,
  ROOT,
  refused,
  S1,
  S2,
  S3,
  sha,
  succeeded,
  TaskDriver,
  viewOf,
} from './driver.js';

const START = Date.parse('2026-11-30T06:00:00.000Z');

/** Every envelope schema- and rule-valid, and the whole history a valid envelope-sequence. */
export function expectValidHistory(history: readonly TaskRecoveryStateV5[]): void {
  for (const e of history) {
    const r = validate(e);
    expect(
      r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}: ${i.message}`),
      `envelope ${e.sequence}`,
    ).toEqual([]);
  }
  if (history.length > 0) {
    const b = validateBundle({ kind: 'envelope-sequence', documents: [...history] });
    expect(b.ok ? [] : b.issues.map((i) => `${i.code} ${i.path}: ${i.message}`)).toEqual([]);
  }
}

/**
 * Define the contract suite for one backend. `makeBackend` is called once per test and must
 * return an empty or shared backend (tasks are keyed by fresh random ids, so sharing is fine);
 * `cleanup` runs after the suite.
 */
export function defineStoreContractSuite(
  name: string,
  makeBackend: () => Promise<StorageBackend>,
  cleanup: () => Promise<void>,
): void {
  describe(`TaskStore contract: ${name}`, () => {
    const evidence = evidenceRoot();
    const backends: StorageBackend[] = [];
    const touched: Array<{ store: TaskStore; key: TaskKey }> = [];
    let clock: ManualClock;

    async function setup(options: TaskStoreOptions = {}) {
      const backend = await makeBackend();
      backends.push(backend);
      clock = new ManualClock(START);
      const store = new TaskStore(backend, { clock, projectRoot: evidence.root, ...options });
      const task = new TaskDriver(store, newKey());
      touched.push({ store, key: task.key });
      return { store, task, backend };
    }

    /** A task acquired by S1. */
    async function acquired(options: TaskStoreOptions = {}) {
      const s = await setup(options);
      succeeded(await s.task.transition('acquire', S1));
      return s;
    }

    const historyText = async (store: TaskStore, key: TaskKey) => JSON.stringify(await store.history(key));

    afterEach(async () => {
      for (const { store, key } of touched.splice(0)) expectValidHistory(await store.history(key));
    });
    afterAll(async () => {
      for (const b of backends) await b.close();
      rmSync(evidence.root, { recursive: true, force: true });
      await cleanup();
    });

    describe('fence', () => {
      it('the first commit is acquire with fence (0, 0) and yields fence (1, 1)', async () => {
        const { task } = await setup();
        const r = succeeded(await task.transition('acquire', S1));
        expect(r.fence).toEqual(fence(1, 1));
        expect(r.writeContext.stateSequence).toBe(1);
        expect(r.writeContext.ownerStatus).toBe('active');
      });

      it('a request without a fence is refused on a new and on an existing task', async () => {
        const { task, store } = await setup();
        const req = { ...task.request('acquire', S1, await task.view()), expectedFence: null };
        refused(await store.transitionOwner(req), 'LIFECYCLE_STATE_FENCE_REQUIRED');
        succeeded(await task.transition('acquire', S1));
        const v = await task.view();
        const r = await store.commitState({
          ...task.key,
          expectedFence: undefined,
          expectedOwner: v.owner,
          sessionDigest: S1,
          state: { a: 1 },
        });
        refused(r, 'LIFECYCLE_STATE_FENCE_REQUIRED');
        refused(
          await task.state(S1, { a: 1 }, { view: { ...v, fence: { ...v.fence, stateSequence: -1 } } }),
          'LIFECYCLE_STATE_FENCE_REQUIRED',
        );
      });

      it('a request without the full task key is refused', async () => {
        const { task, store } = await acquired();
        const v = await task.view();
        const r = await store.commitState({
          taskId: '',
          projectRootIdentity: task.key.projectRootIdentity,
          expectedFence: v.fence,
          expectedOwner: v.owner,
          sessionDigest: S1,
          state: {},
        });
        refused(r, 'LIFECYCLE_TASK_IDENTITY_REQUIRED');
      });

      for (const force of [false, true]) {
        it(`a stale fence (sequence or generation +-1) is refused with the current fence, force=${force}`, async () => {
          const { task, store } = await acquired();
          succeeded(await task.state(S1, { step: 1 }));
          const v = await task.view();
          const before = await historyText(store, task.key);
          for (const [ds, dg] of [
            [1, 0],
            [-1, 0],
            [0, 1],
            [0, -1],
          ] as const) {
            const stale = { ...v, fence: fence(v.fence.stateSequence + ds, v.fence.writerGeneration + dg) };
            const r = refused(
              await task.state(S1, { step: 2 }, { force, view: stale }),
              'LIFECYCLE_STATE_FENCE_MISMATCH',
            );
            expect(r.currentFence).toEqual(v.fence);
          }
          expect(await historyText(store, task.key)).toBe(before);
        });
      }

      it('an unchanged state is a semantic no-op; force writes it as a new envelope', async () => {
        const { task, store } = await acquired();
        succeeded(await task.state(S1, { a: 1 }));
        const before = await historyText(store, task.key);
        const noop = succeeded(await task.state(S1, { a: 1 }), 'semantic-noop');
        expect(noop.fence).toEqual(fence(2, 1));
        expect(await historyText(store, task.key)).toBe(before);
        const forced = succeeded(await task.state(S1, { a: 1 }, { force: true }));
        expect(forced.fence).toEqual(fence(3, 1));
      });

      it('a state commit never changes writerGeneration', async () => {
        const { task } = await acquired();
        for (let i = 0; i < 3; i++)
          expect(succeeded(await task.state(S1, { i })).fence.writerGeneration).toBe(1);
      });

      it('N writers racing on one fence: exactly one commits, the others see the winner fence', async () => {
        const { task } = await acquired();
        const v = await task.view();
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => task.state(S1, { writer: i }, { view: v })),
        );
        const won = results.filter((r) => r.ok);
        expect(won).toHaveLength(1);
        for (const r of results.filter((x) => !x.ok)) {
          expect(refused(r, 'LIFECYCLE_STATE_FENCE_MISMATCH').currentFence).toEqual(fence(2, 1));
        }
        expect((await task.envelope()).sequence).toBe(2);
      });

      it('the returned write context equals one built from an independent read', async () => {
        const { task, store } = await acquired();
        const r = succeeded(await task.state(S1, { x: 1 }));
        const ctx = await store.readWriteContext(task.key);
        expect(ctx.ok && ctx.writeContext.contextDigest).toBe(r.writeContext.contextDigest);
        expect(r.writeContext.envelopeDigest).toBe((await task.envelope()).envelopeDigest);
      });

      it('a non-holder cannot commit state; a released task has no writer', async () => {
        const { task } = await acquired();
        refused(await task.state(S2, { x: 1 }), 'TASK_WRITE_OWNER_SESSION_MISMATCH');
        succeeded(await task.transition('release', S1));
        refused(await task.state(S1, { x: 1 }), 'TASK_WRITE_OWNER_MISSING');
      });

      it('a stale owner ref is refused even with the right fence', async () => {
        const { task } = await acquired();
        const v = await task.view();
        const wrong = {
          ...v,
          owner: { ...(v.owner as { leaseDigest: string }), leaseDigest: sha('x') },
        } as typeof v;
        refused(await task.state(S1, { x: 1 }, { view: wrong }), 'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH');
      });

      it('lease expiry grants nothing: the paused holder commits after expiry and after a backwards jump', async () => {
        const { task, store } = await acquired();
        const before = await historyText(store, task.key);
        clock.advance(3_600_000);
        expect(await historyText(store, task.key)).toBe(before);
        refused(await task.transition('takeover-accept', S2), 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
        refused(
          await task.transition('takeover-prepare', S2, { targetSessionDigest: S2 }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        succeeded(await task.state(S1, { after: 'expiry' }));
        clock.advance(-7_200_000);
        const r = succeeded(await task.state(S1, { after: 'jump back' }));
        expect(r.fence.writerGeneration).toBe(1);
        const e = await task.envelope();
        expect(Date.parse(e.committedAt)).toBeGreaterThanOrEqual(START + 3_600_000);
      });

      it('after an explicit takeover the paused holder is refused and the generation is exactly one higher', async () => {
        const { task } = await acquired();
        const old = await task.view();
        clock.advance(3_600_000);
        const evidenceDigests = await task.takeoverEvidence();
        const p = succeeded(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: evidenceDigests,
          }),
        );
        expect(p.fence.writerGeneration).toBe(2);
        refused(await task.state(S1, { late: true }, { view: old }), 'LIFECYCLE_STATE_FENCE_MISMATCH');
      });
    });

    describe('owner transition table', () => {
      const statuses: Array<FencedTaskWriteOwnerStatus | null> = [
        null,
        'active',
        'released',
        'handoff-pending',
        'takeover-pending',
        'terminal',
      ];

      async function reach(status: FencedTaskWriteOwnerStatus | null) {
        const s = status === null ? await setup() : await acquired();
        const t = s.task;
        if (status === 'released') succeeded(await t.transition('release', S1));
        if (status === 'handoff-pending')
          succeeded(await t.transition('handoff-prepare', S1, { targetSessionDigest: S2 }));
        if (status === 'takeover-pending') {
          succeeded(
            await t.transition('takeover-prepare', S2, {
              targetSessionDigest: S2,
              takeoverEvidence: await t.takeoverEvidence(),
            }),
          );
        }
        if (status === 'terminal') {
          succeeded(
            await t.transition('terminal', S1, { terminal: await t.terminalMember(evidence.evidence) }),
          );
        }
        return s;
      }

      /** The requester and extras that satisfy the row's guards from the current envelope. */
      async function validArgs(t: TaskDriver, op: (typeof OWNER_OPERATIONS)[number]) {
        const e = await t.store.backend.load(t.key);
        switch (op) {
          case 'acquire':
          case 'renew':
          case 'release':
            return { session: S1, extras: {} };
          case 'reacquire':
            return { session: S3, extras: {} };
          case 'handoff-prepare':
            return { session: S1, extras: { targetSessionDigest: S2 } };
          case 'handoff-accept':
            return {
              session: S2,
              extras: { handoffRefDigest: e?.owner.handoffRef?.refDigest ?? sha('none') },
            };
          case 'takeover-prepare':
            return {
              session: S3,
              extras: {
                targetSessionDigest: S3,
                takeoverEvidence: await t.takeoverEvidence().catch(() => null),
              },
            };
          case 'takeover-accept':
            return {
              session: S2,
              extras: { takeoverRefDigest: e?.owner.takeoverRef?.refDigest ?? sha('none') },
            };
          case 'terminal':
            return {
              session: S1,
              extras: { terminal: e ? await t.terminalMember(evidence.evidence) : null },
            };
          case 'reopen':
            return {
              session: S3,
              extras: { terminalReceiptDigest: e?.terminalReceipt?.receiptDigest ?? sha('none') },
            };
        }
      }

      for (const status of statuses) {
        for (const op of OWNER_OPERATIONS) {
          const row = OWNER_TRANSITION_TABLE[op];
          const allowed = row.from.includes(status);
          it(`${status ?? 'no envelope'} --${op}--> ${allowed ? row.to : 'refused'}`, async () => {
            const { task, store } = await reach(status);
            const prev = await store.backend.load(task.key);
            const { session, extras } = await validArgs(task, op);
            const before = await historyText(store, task.key);
            const r = await task.transition(op, session, extras as never);
            if (!allowed) {
              const code =
                op === 'terminal' && status !== null && status !== 'terminal'
                  ? 'TASK_TERMINAL_OWNER_MISMATCH'
                  : op === 'terminal' && status === null
                    ? 'TASK_TERMINAL_INPUT_INVALID'
                    : 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID';
              refused(r, code);
              expect(await historyText(store, task.key)).toBe(before);
              return;
            }
            succeeded(r);
            const next = await task.envelope();
            expect(next.commitKind).toBe(row.commitKind);
            expect(checkOwnerTransition(prev?.owner ?? null, next.owner, op)).toEqual({ ok: true });
            expect(next.writerGeneration - (prev?.writerGeneration ?? 0)).toBe(row.deltas.ownerGeneration);
            expect(next.owner.leaseRevision - (prev?.owner.leaseRevision ?? 0)).toBe(
              row.deltas.leaseRevision,
            );
            expect(next.owner.revocationEpoch - (prev?.owner.revocationEpoch ?? 0)).toBe(
              row.deltas.revocationEpoch,
            );
            expect(next.lifecycleRevision - (prev?.lifecycleRevision ?? 1)).toBe(row.deltas.reopenGeneration);
            expect(next.owner.status).toBe(row.to);
            if (prev) expect(next.state).toEqual(prev.state);
          });
        }
      }

      it('renew keeps the nonce, extends expiresAt and may rebind epoch and route', async () => {
        const { task } = await acquired();
        const prev = await task.envelope();
        succeeded(
          await task.transition('renew', S1, { contextEpoch: 'epoch-2', routeRevision: sha('route-2') }),
        );
        const next = await task.envelope();
        expect(next.owner.ownerNonce).toBe(prev.owner.ownerNonce);
        expect(next.owner.contextEpoch).toBe('epoch-2');
        expect(Date.parse(next.owner.expiresAt)).toBeGreaterThan(Date.parse(prev.owner.expiresAt));
        expect(next.writerGeneration).toBe(prev.writerGeneration);
      });

      it('guards: renew, release and handoff-prepare need the holder', async () => {
        const { task } = await acquired();
        refused(await task.transition('renew', S2), 'TASK_WRITE_OWNER_SESSION_MISMATCH');
        refused(await task.transition('release', S2), 'TASK_WRITE_OWNER_SESSION_MISMATCH');
        refused(
          await task.transition('handoff-prepare', S2, { targetSessionDigest: S3 }),
          'TASK_WRITE_OWNER_SESSION_MISMATCH',
        );
      });

      it('guards: release and handoff-prepare refuse an unresolved operation; takeover allows it', async () => {
        const { task } = await acquired();
        succeeded(await task.op(S1, prepareEvent()));
        refused(await task.transition('release', S1), 'TASK_OPERATION_UNSETTLED');
        refused(
          await task.transition('handoff-prepare', S1, { targetSessionDigest: S2 }),
          'TASK_OPERATION_UNSETTLED',
        );
        succeeded(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: await task.takeoverEvidence(),
          }),
        );
      });

      it('guards: handoff-prepare needs another target; handoff-accept needs the target and the ref digest', async () => {
        const { task } = await acquired();
        refused(await task.transition('handoff-prepare', S1), 'TASK_WRITE_OWNER_HANDOFF_INVALID');
        refused(
          await task.transition('handoff-prepare', S1, { targetSessionDigest: S1 }),
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
        );
        succeeded(await task.transition('handoff-prepare', S1, { targetSessionDigest: S2 }));
        const ref = (await task.envelope()).owner.handoffRef?.refDigest ?? '';
        refused(
          await task.transition('handoff-accept', S3, { handoffRefDigest: ref }),
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
        );
        refused(
          await task.transition('handoff-accept', S2, { handoffRefDigest: sha('other') }),
          'TASK_WRITE_OWNER_HANDOFF_INVALID',
        );
        refused(await task.state(S1, { x: 1 }), 'TASK_WRITE_OWNER_MISSING');
        const r = succeeded(await task.transition('handoff-accept', S2, { handoffRefDigest: ref }));
        expect(r.writeContext.holderSession).toBe(S2);
        expect(r.fence.writerGeneration).toBe(2);
      });

      it('guards: takeover-prepare needs evidence, the requester as target and a fresh readback', async () => {
        const { task } = await acquired();
        const ev = await task.takeoverEvidence();
        refused(
          await task.transition('takeover-prepare', S2, { targetSessionDigest: S2 }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        refused(
          await task.transition('takeover-prepare', S2, { targetSessionDigest: S3, takeoverEvidence: ev }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        refused(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: { ...ev, readbackContextDigest: sha('stale') },
          }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        // A context read by another runtime generation does not match.
        const other = new TaskStore(task.store.backend, { runtimeGeneration: 'runtime-other' });
        const foreign = await other.readWriteContext(task.key);
        refused(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: {
              ...ev,
              readbackContextDigest: foreign.ok ? foreign.writeContext.contextDigest : '',
            },
          }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        succeeded(
          await task.transition('takeover-prepare', S2, { targetSessionDigest: S2, takeoverEvidence: ev }),
        );
        const ref = (await task.envelope()).owner.takeoverRef?.refDigest ?? '';
        refused(
          await task.transition('takeover-accept', S3, { takeoverRefDigest: ref }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        refused(
          await task.transition('takeover-accept', S2, { takeoverRefDigest: sha('x') }),
          'TASK_WRITE_OWNER_TAKEOVER_INVALID',
        );
        succeeded(await task.transition('takeover-accept', S2, { takeoverRefDigest: ref }));
      });

      it('a second takeover-prepare supersedes a pending one: +1 generation per prepare', async () => {
        const { task } = await acquired();
        succeeded(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: await task.takeoverEvidence(),
          }),
        );
        const r = succeeded(
          await task.transition('takeover-prepare', S3, {
            targetSessionDigest: S3,
            takeoverEvidence: await task.takeoverEvidence(),
          }),
        );
        expect(r.fence.writerGeneration).toBe(3);
      });

      it('an exact replay of the latest transition is replayed and writes nothing; an older one is stale', async () => {
        const { task, store } = await acquired();
        const v1 = await task.view();
        succeeded(await task.transition('renew', S1, {}, v1));
        const v2 = await task.view();
        const req = task.request('release', S1, v2);
        succeeded(await store.transitionOwner(req));
        const before = await historyText(store, task.key);
        const replay = succeeded(await store.transitionOwner(req), 'replayed');
        expect(replay.fence).toEqual(fence(3, 2));
        refused(await task.transition('renew', S1, {}, v1), 'LIFECYCLE_STATE_FENCE_MISMATCH');
        expect(await historyText(store, task.key)).toBe(before);
      });

      it('a stale owner ref on a transition is refused', async () => {
        const { task } = await acquired();
        const v = await task.view();
        refused(
          await task.transition('renew', S1, {}, { ...v, owner: { mode: 'absent' } }),
          'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
        );
      });
    });

    describe('operation edge table', () => {
      type Phase = 'none' | 'prepared' | 'dispatched' | 'observed' | 'reconcile-required';
      const RESULT = sha('result');
      const EVIDENCE = sha('evidence');

      async function reachPhase(phase: Phase) {
        const s = await acquired();
        if (phase === 'none') return s;
        succeeded(await s.task.op(S1, prepareEvent()));
        if (phase === 'prepared') return s;
        succeeded(await s.task.op(S1, { event: 'dispatch', ...(await s.task.binding()) }));
        if (phase === 'dispatched') return s;
        if (phase === 'reconcile-required') {
          succeeded(await s.task.op(S1, { event: 'mark-reconcile', ...(await s.task.binding()) }));
          return s;
        }
        succeeded(
          await s.task.op(S1, { event: 'observe', ...(await s.task.binding()), resultDigest: RESULT }),
        );
        return s;
      }

      function eventFor(ev: TaskOperationEvent, binding: OperationBinding): OperationEventInput {
        switch (ev) {
          case 'prepare':
            return prepareEvent();
          case 'observe':
            return { event: 'observe', ...binding, resultDigest: RESULT };
          case 'settle':
          case 'reconcile':
            return { event: ev, ...binding, effect: 'known-applied', evidenceDigest: EVIDENCE };
          default:
            return { event: ev, ...binding } as OperationEventInput;
        }
      }

      const expected: Record<Phase, Record<TaskOperationEvent, string>> = {
        none: {
          prepare: 'committed',
          dispatch: 'TASK_OPERATION_CAS_MISMATCH',
          observe: 'TASK_OPERATION_CAS_MISMATCH',
          settle: 'TASK_OPERATION_CAS_MISMATCH',
          'mark-reconcile': 'TASK_OPERATION_CAS_MISMATCH',
          reconcile: 'TASK_OPERATION_CAS_MISMATCH',
          abort: 'TASK_OPERATION_CAS_MISMATCH',
        },
        prepared: {
          prepare: 'TASK_OPERATION_IN_FLIGHT',
          dispatch: 'committed',
          observe: 'TASK_OPERATION_TRANSITION_INVALID',
          settle: 'TASK_OPERATION_TRANSITION_INVALID',
          'mark-reconcile': 'TASK_OPERATION_TRANSITION_INVALID',
          reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
          abort: 'committed',
        },
        dispatched: {
          prepare: 'TASK_OPERATION_IN_FLIGHT',
          dispatch: 'replayed',
          observe: 'committed',
          settle: 'TASK_OPERATION_TRANSITION_INVALID',
          'mark-reconcile': 'committed',
          reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
          abort: 'TASK_OPERATION_ABORT_INVALID',
        },
        observed: {
          prepare: 'TASK_OPERATION_IN_FLIGHT',
          dispatch: 'TASK_OPERATION_TRANSITION_INVALID',
          observe: 'replayed',
          settle: 'committed',
          'mark-reconcile': 'committed',
          reconcile: 'TASK_OPERATION_RECONCILE_CAS_MISMATCH',
          abort: 'TASK_OPERATION_ABORT_INVALID',
        },
        'reconcile-required': {
          prepare: 'TASK_OPERATION_IN_FLIGHT',
          dispatch: 'TASK_OPERATION_TRANSITION_INVALID',
          observe: 'TASK_OPERATION_TRANSITION_INVALID',
          settle: 'TASK_OPERATION_TRANSITION_INVALID',
          'mark-reconcile': 'replayed',
          reconcile: 'committed',
          abort: 'TASK_OPERATION_ABORT_INVALID',
        },
      };

      for (const phase of Object.keys(expected) as Phase[]) {
        for (const ev of Object.keys(OPERATION_EDGES) as TaskOperationEvent[]) {
          const want = expected[phase][ev];
          it(`${phase} --${ev}--> ${want}`, async () => {
            const { task, store } = await reachPhase(phase);
            const e = await task.envelope();
            const binding: OperationBinding = e.operations.unresolved
              ? await task.binding()
              : {
                  operationId: 'ghost',
                  idempotencyKey: 'ghost',
                  writerGeneration: 1,
                  targetSetDigest: sha('t'),
                  beforeDigest: sha('b'),
                };
            const before = await historyText(store, task.key);
            const r = await task.op(S1, eventFor(ev, binding));
            if (want === 'committed' || want === 'replayed') {
              succeeded(r, want);
              if (want === 'replayed') expect(await historyText(store, task.key)).toBe(before);
              const next = await task.envelope();
              if (want === 'committed') expect(next.commitKind).toBe(OPERATION_EDGES[ev].commitKind);
            } else {
              const refusal = refused(r, want);
              expect(refusal.currentFence).toEqual(viewOf(e).fence);
              expect(await historyText(store, task.key)).toBe(before);
            }
          });
        }
      }

      it('the full happy path ends with one settled ref and nothing unresolved', async () => {
        const { task } = await reachPhase('observed');
        const r = succeeded(
          await task.op(S1, {
            event: 'settle',
            ...(await task.binding()),
            effect: 'known-not-applied',
            evidenceDigest: EVIDENCE,
          }),
        );
        const e = await task.envelope();
        expect(e.operations.unresolved).toBeNull();
        expect(e.operations.settledTotal).toBe(1);
        expect(e.operations.settled[0]?.effect).toBe('known-not-applied');
        expect(r.writeContext.settledSetDigest).toBe(e.operations.settledSetDigest);
      });

      it('a settlement needs a known effect and evidence', async () => {
        const { task } = await reachPhase('observed');
        const b = await task.binding();
        refused(
          await task.op(S1, { event: 'settle', ...b, effect: 'unknown', evidenceDigest: EVIDENCE }),
          'TASK_OPERATION_TRANSITION_INVALID',
        );
        refused(
          await task.op(S1, { event: 'settle', ...b, effect: 'known-applied', evidenceDigest: null }),
          'TASK_OPERATION_TRANSITION_INVALID',
        );
      });

      it('prepare guards: replay, conflicting duplicate, already settled, reused key, targets', async () => {
        const { task, store } = await acquired();
        const p = prepareEvent(['a.ts', 'b.ts']) as Extract<OperationEventInput, { event: 'prepare' }>;
        succeeded(await task.op(S1, p));
        const before = await historyText(store, task.key);
        succeeded(await task.op(S1, p), 'replayed');
        expect(await historyText(store, task.key)).toBe(before);
        refused(await task.op(S1, { ...p, exactTargets: ['a.ts'] }), 'TASK_OPERATION_REPLAY_MISMATCH');
        succeeded(await task.op(S1, { event: 'dispatch', ...(await task.binding()) }));
        refused(await task.op(S1, p), 'TASK_OPERATION_REPLAY_MISMATCH');
        succeeded(await task.op(S1, { event: 'mark-reconcile', ...(await task.binding()) }));
        succeeded(
          await task.op(S1, {
            event: 'reconcile',
            ...(await task.binding()),
            effect: 'known-applied',
            evidenceDigest: EVIDENCE,
          }),
        );
        refused(
          await task.op(S1, { ...prepareEvent(), operationId: p.operationId }),
          'TASK_OPERATION_ALREADY_SETTLED',
        );
        refused(
          await task.op(S1, { ...prepareEvent(), idempotencyKey: p.idempotencyKey }),
          'TASK_OPERATION_IDEMPOTENCY_KEY_REUSED',
        );
        for (const targets of [
          [],
          ['b', 'a'],
          ['a', 'a'],
          ['a\\b'],
          [' a'],
          ['ﬁle'],
          Array.from({ length: 257 }, (_, i) => `t${String(i).padStart(3, '0')}`),
        ]) {
          refused(await task.op(S1, prepareEvent(targets)), 'TASK_OPERATION_TARGETS_INVALID');
        }
      });

      it('late and duplicate receipts: each of the five binding fields mutated is refused, nothing written', async () => {
        const { task, store } = await reachPhase('dispatched');
        const b = await task.binding();
        const before = await historyText(store, task.key);
        const mutations: OperationBinding[] = [
          { ...b, operationId: `${b.operationId}x` },
          { ...b, idempotencyKey: `${b.idempotencyKey}x` },
          { ...b, writerGeneration: b.writerGeneration + 1 },
          { ...b, targetSetDigest: sha('other-targets') },
          { ...b, beforeDigest: sha('other-before') },
        ];
        for (const m of mutations) {
          refused(
            await task.op(S1, { event: 'observe', ...m, resultDigest: RESULT }),
            'TASK_OPERATION_CAS_MISMATCH',
          );
        }
        expect(await historyText(store, task.key)).toBe(before);
        succeeded(await task.op(S1, { event: 'observe', ...b, resultDigest: RESULT }));
        const observed = await historyText(store, task.key);
        succeeded(await task.op(S1, { event: 'observe', ...b, resultDigest: RESULT }), 'replayed');
        refused(
          await task.op(S1, { event: 'observe', ...b, resultDigest: sha('other') }),
          'TASK_OPERATION_REPLAY_MISMATCH',
        );
        expect(await historyText(store, task.key)).toBe(observed);
      });

      it('after settlement: an identical settle is replayed, another outcome refused, other events stale', async () => {
        const { task, store } = await reachPhase('observed');
        const b = await task.binding();
        const settle = {
          event: 'settle' as const,
          ...b,
          effect: 'known-applied' as const,
          evidenceDigest: EVIDENCE,
        };
        succeeded(await task.op(S1, settle));
        const before = await historyText(store, task.key);
        succeeded(await task.op(S1, settle), 'replayed');
        refused(
          await task.op(S1, { ...settle, effect: 'known-not-applied' }),
          'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
        );
        refused(
          await task.op(S1, { ...settle, beforeDigest: sha('other') }),
          'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
        );
        refused(
          await task.op(S1, { event: 'observe', ...b, resultDigest: RESULT }),
          'TASK_OPERATION_CAS_MISMATCH',
        );
        refused(await task.op(S1, { event: 'dispatch', ...b }), 'TASK_OPERATION_CAS_MISMATCH');
        expect(await historyText(store, task.key)).toBe(before);
      });

      it('an identical abort replay is replayed', async () => {
        const { task, store } = await reachPhase('prepared');
        const abort = { event: 'abort' as const, ...(await task.binding()) };
        succeeded(await task.op(S1, abort));
        const before = await historyText(store, task.key);
        succeeded(await task.op(S1, abort), 'replayed');
        expect(await historyText(store, task.key)).toBe(before);
      });

      it('old generation: after a takeover only the recovery edges apply to the old operation', async () => {
        const { task } = await reachPhase('dispatched');
        const b = await task.binding();
        succeeded(
          await task.transition('takeover-prepare', S2, {
            targetSessionDigest: S2,
            takeoverEvidence: await task.takeoverEvidence(),
          }),
        );
        const ref = (await task.envelope()).owner.takeoverRef?.refDigest ?? '';
        succeeded(await task.transition('takeover-accept', S2, { takeoverRefDigest: ref }));
        refused(
          await task.op(S1, { event: 'observe', ...b, resultDigest: RESULT }),
          'TASK_WRITE_OWNER_SESSION_MISMATCH',
        );
        refused(
          await task.op(S2, { event: 'observe', ...b, resultDigest: RESULT }),
          'TASK_OPERATION_CAS_MISMATCH',
        );
        refused(await task.op(S2, { event: 'abort', ...b }), 'TASK_OPERATION_ABORT_INVALID');
        succeeded(await task.op(S2, { event: 'mark-reconcile', ...b }));
        refused(
          await task.op(S2, { event: 'settle', ...b, effect: 'known-applied', evidenceDigest: EVIDENCE }),
          'TASK_OPERATION_CAS_MISMATCH',
        );
        succeeded(
          await task.op(S2, { event: 'reconcile', ...b, effect: 'known-applied', evidenceDigest: EVIDENCE }),
        );
      });

      it('crash between dispatch and observe: after a restart the op is never aborted or retried, terminal waits for reconcile', async () => {
        const { task, backend } = await reachPhase('dispatched');
        const restarted = new TaskDriver(
          new TaskStore(backend, { clock, projectRoot: evidence.root }),
          task.key,
        );
        const b = await restarted.binding();
        refused(await restarted.op(S1, { event: 'abort', ...b }), 'TASK_OPERATION_ABORT_INVALID');
        refused(
          await restarted.op(S1, { event: 'dispatch', ...b, idempotencyKey: `${b.idempotencyKey}-retry` }),
          'TASK_OPERATION_CAS_MISMATCH',
        );
        refused(
          await restarted.transition('terminal', S1, {
            terminal: await restarted.terminalMember(evidence.evidence),
          }),
          'TASK_TERMINAL_OPERATION_UNSETTLED',
        );
        succeeded(await restarted.op(S1, { event: 'mark-reconcile', ...b }));
        expect((await restarted.envelope()).operations.unresolved?.phase).toBe('reconcile-required');
        succeeded(
          await restarted.op(S1, {
            event: 'reconcile',
            ...b,
            effect: 'known-applied',
            evidenceDigest: EVIDENCE,
          }),
        );
        succeeded(
          await restarted.transition('terminal', S1, {
            terminal: await restarted.terminalMember(evidence.evidence),
          }),
        );
      });

      it('operation commits need the holder', async () => {
        const { task } = await acquired();
        refused(await task.op(S2, prepareEvent()), 'TASK_WRITE_OWNER_SESSION_MISMATCH');
      });
    });

    describe('terminal, replay and reopen', () => {
      it('refuses with an unresolved op, a stale fence, a stale context, a non-holder; envelope unchanged', async () => {
        const { task, store } = await acquired();
        succeeded(await task.op(S1, prepareEvent()));
        const before = await historyText(store, task.key);
        refused(
          await task.transition('terminal', S1, { terminal: await task.terminalMember(evidence.evidence) }),
          'TASK_TERMINAL_OPERATION_UNSETTLED',
        );
        succeeded(await task.op(S1, { event: 'abort', ...(await task.binding()) }));
        const staleView = viewOf(JSON.parse(before).at(-1));
        refused(
          await task.transition(
            'terminal',
            S1,
            { terminal: await task.terminalMember(evidence.evidence) },
            staleView,
          ),
          'LIFECYCLE_STATE_FENCE_MISMATCH',
        );
        const member = await task.terminalMember(evidence.evidence);
        succeeded(await task.state(S1, { moved: true }));
        refused(
          await task.transition('terminal', S1, { terminal: member }),
          'TASK_TERMINAL_STATE_CAS_MISMATCH',
        );
        refused(
          await task.transition('terminal', S1, {
            terminal: { ...(await task.terminalMember(evidence.evidence)), lifecycleRevision: 2 },
          }),
          'TASK_TERMINAL_STATE_CAS_MISMATCH',
        );
        refused(
          await task.transition('terminal', S2, { terminal: await task.terminalMember(evidence.evidence) }),
          'TASK_TERMINAL_OWNER_MISMATCH',
        );
      });

      it('refuses malformed requests and each evidence fault with its code', async () => {
        const { task, store } = await acquired();
        const m = await task.terminalMember(evidence.evidence);
        const ev = evidence.evidence;
        const before = await historyText(store, task.key);
        const cases: Array<[unknown, string]> = [
          [{ ...m, terminalStatus: 'done' }, 'TASK_TERMINAL_INPUT_INVALID'],
          [{ ...m, settledSetDigest: undefined }, 'TASK_TERMINAL_EXPECTED_STATE_REQUIRED'],
          [{ ...m, writeContextDigest: null }, 'TASK_TERMINAL_EXPECTED_STATE_REQUIRED'],
          [{ ...m, evidence: ev.slice(1) }, 'TASK_TERMINAL_EVIDENCE_INCOMPLETE'],
          [{ ...m, evidence: [ev[1], ev[0], ev[2], ev[3]] }, 'TASK_TERMINAL_EVIDENCE_INCOMPLETE'],
          [
            { ...m, evidence: ev.map((i) => ({ ...i, path: 'docs/same.md' })) },
            'TASK_TERMINAL_EVIDENCE_DUPLICATE',
          ],
          [
            { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, path: '../outside.md' } : i)) },
            'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
          ],
          [
            { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, path: '/etc/passwd' } : i)) },
            'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
          ],
          [
            { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, path: 'docs/missing.md' } : i)) },
            'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
          ],
          [
            { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, bytes: i.bytes + 1 } : i)) },
            'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          ],
          [
            { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, sha256: sha('x') } : i)) },
            'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          ],
        ];
        const outside = mkdtempSync(join(tmpdir(), 'agent-contracts-outside-'));
        writeFileSync(join(outside, 'x.md'), 'outside\n');
        symlinkSync(join(outside, 'x.md'), join(evidence.root, `link-${task.key.taskId}.md`));
        writeFileSync(join(evidence.root, `empty-${task.key.taskId}.md`), '');
        cases.push([
          { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, path: `link-${task.key.taskId}.md` } : i)) },
          'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
        ]);
        cases.push([
          { ...m, evidence: ev.map((i, n) => (n === 0 ? { ...i, path: `empty-${task.key.taskId}.md` } : i)) },
          'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
        ]);
        for (const [terminal, code] of cases)
          refused(await task.transition('terminal', S1, { terminal: terminal as never }), code);
        expect(await historyText(store, task.key)).toBe(before);
        rmSync(outside, { recursive: true, force: true });
      });

      it('closes correctly, replays the stored receipt without writing, refuses another status', async () => {
        const { task, store } = await acquired();
        const req = task.request('terminal', S1, await task.view(), {
          terminal: await task.terminalMember(evidence.evidence),
        });
        const r = succeeded(await store.transitionOwner(req));
        const e = await task.envelope();
        expect(r.receipt).toEqual(e.terminalReceipt);
        expect(r.receipt?.terminalGeneration).toBe(2);
        expect(e.terminalLineage).toHaveLength(1);
        const before = await historyText(store, task.key);
        const replay = succeeded(await store.transitionOwner(req), 'replayed');
        expect(replay.receipt).toEqual(r.receipt);
        refused(
          await store.transitionOwner({
            ...req,
            terminal: { ...(req.terminal as object), terminalStatus: 'failed' } as never,
          }),
          'TASK_TERMINAL_REPLAY_MISMATCH',
        );
        expect(await historyText(store, task.key)).toBe(before);
        refused(await task.state(S1, { after: 'close' }), 'TASK_WRITE_OWNER_MISSING');
        refused(await task.op(S1, prepareEvent()), 'TASK_WRITE_OWNER_MISSING');
        refused(await task.transition('renew', S1), 'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID');
      });

      it('a write context from before a runtime restart no longer closes the task', async () => {
        const { task, backend } = await acquired();
        const member = await task.terminalMember(evidence.evidence);
        const restarted = new TaskDriver(
          new TaskStore(backend, { clock, projectRoot: evidence.root }),
          task.key,
        );
        refused(
          await restarted.transition('terminal', S1, { terminal: member }),
          'TASK_TERMINAL_STATE_CAS_MISMATCH',
        );
        succeeded(
          await restarted.transition('terminal', S1, {
            terminal: await restarted.terminalMember(evidence.evidence),
          }),
        );
      });

      it('reopen raises lifecycleRevision and writerGeneration by one and invalidates the old fence', async () => {
        const { task } = await acquired();
        succeeded(
          await task.transition('terminal', S1, { terminal: await task.terminalMember(evidence.evidence) }),
        );
        const closed = await task.envelope();
        const old = viewOf(closed);
        refused(
          await task.transition('reopen', S2, { terminalReceiptDigest: sha('forged') }),
          'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
        );
        const r = succeeded(
          await task.transition('reopen', S2, {
            terminalReceiptDigest: closed.terminalReceipt?.receiptDigest ?? '',
          }),
        );
        const e = await task.envelope();
        expect(e.lifecycleRevision).toBe(closed.lifecycleRevision + 1);
        expect(e.writerGeneration).toBe(closed.writerGeneration + 1);
        expect(e.terminalReceipt).toBeNull();
        expect(e.terminalLineage).toEqual(closed.terminalLineage);
        expect(r.writeContext.holderSession).toBe(S2);
        refused(await task.state(S1, { old: true }, { view: old }), 'LIFECYCLE_STATE_FENCE_MISMATCH');
        // The exact retry of the reopen is a replay; anyone else's reopen on the old fence is stale.
        succeeded(
          await task.transition(
            'reopen',
            S2,
            { terminalReceiptDigest: closed.terminalReceipt?.receiptDigest ?? '' },
            old,
          ),
          'replayed',
        );
        refused(
          await task.transition(
            'reopen',
            S3,
            { terminalReceiptDigest: closed.terminalReceipt?.receiptDigest ?? '' },
            old,
          ),
          'LIFECYCLE_STATE_FENCE_MISMATCH',
        );
        succeeded(await task.state(S2, { reopened: true }));
        succeeded(
          await task.transition('terminal', S2, {
            terminal: await task.terminalMember(evidence.evidence, 'cancelled'),
          }),
        );
        expect((await task.envelope()).terminalLineage.map((l) => l.lifecycleRevision)).toEqual([1, 2]);
      });

      it('the terminal lineage keeps the latest 64 closed revisions: the 65th close drops the first', async () => {
        const { task } = await acquired();
        const sessions = [S1, S2];
        for (let i = 0; i < 65; i++) {
          const holder = sessions[i % 2] as string;
          succeeded(
            await task.transition('terminal', holder, {
              terminal: await task.terminalMember(evidence.evidence),
            }),
          );
          const closed = await task.envelope();
          expect(closed.terminalLineage.at(-1)?.receiptDigest).toBe(closed.terminalReceipt?.receiptDigest);
          if (i === 64) break;
          succeeded(
            await task.transition('reopen', sessions[(i + 1) % 2] as string, {
              terminalReceiptDigest: closed.terminalReceipt?.receiptDigest ?? '',
            }),
          );
        }
        const lineage = (await task.envelope()).terminalLineage.map((l) => l.lifecycleRevision);
        expect(lineage).toHaveLength(64);
        expect(lineage).toEqual(Array.from({ length: 64 }, (_, i) => i + 2));
      });

      it('read, readWriteContext, replay and replayed requests change no stored byte', async () => {
        const { task, store } = await acquired();
        succeeded(await task.state(S1, { a: 1 }));
        succeeded(await task.op(S1, prepareEvent()));
        const before = await historyText(store, task.key);
        await store.read(task.key);
        await store.readWriteContext(task.key);
        const replay = await store.replay(task.key);
        expect(replay.ok && replay.envelopes).toHaveLength(3);
        expect(replay.ok && replay.fence).toEqual(fence(3, 1));
        await store.read(newKey());
        expect(await historyText(store, task.key)).toBe(before);
      });
    });

    describe('hostile requests (issue 8, finding 7): refused with one code on every backend, nothing written', () => {
      const UUID = '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6';
      const HOSTILE_TASK_IDS: ReadonlyArray<readonly [string, string]> = [
        ['an SQL fragment', "'; DROP TABLE tasks; --"],
        ['a path traversal', '../../etc/passwd'],
        ['__proto__', '__proto__'],
        ['a NUL byte', `${UUID}\u0000`],
        ['a 10 MB string', `${UUID}${'a'.repeat(10 * 1024 * 1024)}`],
        ['a lone surrogate', `${UUID.slice(0, -1)}\ud800`],
        ['an upper-case UUID', UUID.toUpperCase()],
      ];
      const HOSTILE_ROOTS: ReadonlyArray<readonly [string, string]> = [
        ['a path traversal', '../../../../../../../../etc/passwd'],
        ['a NUL byte', `${ROOT.slice(0, -1)}\u0000`],
        ['upper-case hex', ROOT.toUpperCase()],
      ];

      /** The backend, with every call that names a task recorded. */
      async function spied() {
        const { backend } = await setup();
        const calls: string[] = [];
        const spy: StorageBackend = {
          kind: backend.kind,
          load: (key) => {
            calls.push('load');
            return backend.load(key);
          },
          loadAt: (key, sequence) => {
            calls.push('loadAt');
            return backend.loadAt(key, sequence);
          },
          history: (key) => {
            calls.push('history');
            return backend.history(key);
          },
          compareAndAppend: (key, expected, next) => {
            calls.push('compareAndAppend');
            return backend.compareAndAppend(key, expected, next);
          },
          close: async () => {},
        };
        return { calls, store: new TaskStore(spy, { clock, projectRoot: evidence.root }) };
      }

      for (const [member, cases] of [
        ['taskId', HOSTILE_TASK_IDS],
        ['projectRootIdentity', HOSTILE_ROOTS],
      ] as const) {
        for (const [what, value] of cases) {
          it(`a ${member} that is ${what}: LIFECYCLE_TASK_IDENTITY_REQUIRED from every method, storage never asked`, async () => {
            const { calls, store } = await spied();
            const key = { ...newKey(), [member]: value } as TaskKey;
            const driver = new TaskDriver(store, key);
            const code = 'LIFECYCLE_TASK_IDENTITY_REQUIRED';
            const none = viewOf(null);
            const acquire = refused(await driver.transition('acquire', S1, {}, none), code);
            expect(acquire.currentFence).toBeUndefined();
            expect(acquire.message.length).toBeLessThan(1000);
            refused(await driver.state(S1, { x: 1 }, { view: none }), code);
            refused(await driver.op(S1, prepareEvent(), none), code);
            refused((await store.read(key)) as never, code);
            refused((await store.readWriteContext(key)) as never, code);
            refused((await store.replay(key)) as never, code);
            expect(await store.history(key)).toEqual([]);
            expect(calls).toEqual([]);
          });
        }
      }

      it('a contextEpoch with a lone surrogate: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written', async () => {
        const { task } = await setup();
        refused(
          await task.transition('acquire', S1, { contextEpoch: 'epoch-\ud800' }, viewOf(null)),
          'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
        );
        expect(await task.store.backend.history(task.key)).toEqual([]);
      });

      it('a state with a lone surrogate: LIFECYCLE_STATE_SHAPE_INVALID, nothing written', async () => {
        const { task } = await acquired();
        const before = await historyText(task.store, task.key);
        refused(await task.state(S1, { text: 'a\udc00b' }), 'LIFECYCLE_STATE_SHAPE_INVALID');
        refused(await task.state(S1, { '\ud800': 1 }), 'LIFECYCLE_STATE_SHAPE_INVALID');
        const v = await task.view();
        refused(
          await task.store.commitOperation({
            ...task.key,
            expectedFence: v.fence,
            expectedOwner: v.owner,
            sessionDigest: S1,
            event: prepareEvent(),
            state: { text: '\ud800' },
          }),
          'LIFECYCLE_STATE_SHAPE_INVALID',
        );
        expect(await historyText(task.store, task.key)).toBe(before);
      });

      // The request digest of step 4 (replay) sees it first: D-TCW-29's owner-request code.
      it('a terminal request whose evidence path holds a lone surrogate: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written', async () => {
        const { task } = await acquired();
        const before = await historyText(task.store, task.key);
        const items = evidence.evidence.map((i, n) => (n === 0 ? { ...i, path: 'docs/\ud800.md' } : i));
        refused(
          await task.transition('terminal', S1, { terminal: await task.terminalMember(items) }),
          'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
        );
        expect(await historyText(task.store, task.key)).toBe(before);
      });

      it('a candidate envelope that fails its schema is refused with TASK_CONTINUITY_SCHEMA_INVALID before the write', async () => {
        // A host's nonce source is the one input the engine takes on trust; a broken one would
        // build a lease that fails owner.ownerNonce's pattern.
        const { task } = await setup({ mintNonce: () => 'not-a-nonce' });
        const r = refused(
          await task.transition('acquire', S1, {}, viewOf(null)),
          'TASK_CONTINUITY_SCHEMA_INVALID',
        );
        expect(r.message).toContain('SCHEMA_PATTERN at /owner/ownerNonce');
        expect(r.currentFence).toEqual(fence(0, 0));
        expect(await task.store.backend.load(task.key)).toBeNull();
        expect(await task.store.backend.history(task.key)).toEqual([]);
      });

      it('a request the engine cannot digest is refused with TASK_CONTINUITY_SCHEMA_INVALID, not thrown', async () => {
        const { task } = await setup({ mintNonce: () => 'owner-\ud800' });
        const r = refused(
          await task.transition('acquire', S1, {}, viewOf(null)),
          'TASK_CONTINUITY_SCHEMA_INVALID',
        );
        expect(r.message).toContain('no RFC 8785 digest');
        expect(await task.store.backend.history(task.key)).toEqual([]);
      });
    });

    describe('storage faults', () => {
      it('a stored envelope that fails its invariants is refused, never built on', async () => {
        const { task, backend, store } = await acquired();
        const e = await task.envelope();
        const bad = {
          ...e,
          sequence: 2,
          previousEnvelopeDigest: e.envelopeDigest,
          commitKind: 'state' as const,
        };
        expect((await backend.compareAndAppend(task.key, viewOf(e).fence, bad)).ok).toBe(true);
        touched.pop();
        const v = await task.view();
        refused(await task.state(S1, { x: 1 }, { view: v }), 'LIFECYCLE_STATE_UNAVAILABLE');
        refused((await store.read(task.key)) as never, 'LIFECYCLE_STATE_UNAVAILABLE');
        refused((await store.replay(task.key)) as never, 'LIFECYCLE_STATE_UNAVAILABLE');
      });

      it('a commit another writer builds on before the readback is still committed, with its own fence', async () => {
        const { task, backend } = await acquired();
        const other = new TaskDriver(new TaskStore(backend, { clock }), task.key);
        let raced = false;
        const racing: StorageBackend = {
          kind: backend.kind,
          load: (key) => backend.load(key),
          loadAt: (key, sequence) => backend.loadAt(key, sequence),
          history: (key) => backend.history(key),
          close: async () => {},
          compareAndAppend: async (key, expected, next) => {
            const r = await backend.compareAndAppend(key, expected, next);
            // Another process commits on top between this append and its readback.
            if (r.ok && !raced) {
              raced = true;
              succeeded(await other.state(S1, { on: 'top' }));
            }
            return r;
          },
        };
        const driver = new TaskDriver(new TaskStore(racing, { clock }), task.key);
        const r = succeeded(await driver.state(S1, { x: 1 }, { view: await driver.view() }));
        expect(raced).toBe(true);
        expect(r.status).toBe('committed');
        expect(r.fence).toEqual(fence(2, 1));
        expect(r.writeContext.stateSequence).toBe(2);
        expect((await task.envelope()).sequence).toBe(3);
      });

      it('a fault between write and readback is never reported as committed', async () => {
        const { task, backend } = await acquired();
        let lie = false;
        const faulty: StorageBackend = {
          kind: backend.kind,
          load: async (key) => (lie ? null : backend.load(key)),
          loadAt: async (key, sequence) => (lie ? null : backend.loadAt(key, sequence)),
          compareAndAppend: async (key, expected, next) => {
            const r = await backend.compareAndAppend(key, expected, next);
            lie = true;
            return r;
          },
          history: (key) => backend.history(key),
          close: async () => {},
        };
        const driver = new TaskDriver(new TaskStore(faulty, { clock }), task.key);
        const v = await driver.view();
        refused(await driver.state(S1, { x: 1 }, { view: v }), 'LIFECYCLE_STATE_READBACK_MISMATCH');
      });
    });

    beforeAll(() => {
      expect(OWNER_OPERATIONS).toHaveLength(10);
    });
  });
}
