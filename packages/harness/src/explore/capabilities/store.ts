// Exploration of `store.*`: two writers (two sessions, on two implementation processes where the
// session has two) acquiring, committing state and operations, handing off, taking over, closing
// and reopening one task, each from its own last read (captured, as a golden case captures), with
// stale, zero, mutated and foreign fences and owner refs, bindings with one member mutated,
// evidence with one item wrong, clock moves, and (with two processes) a writer killed and
// started again, or frozen with a request in its pipe while the other writes.

import fc from 'fast-check';
import {
  action,
  type CapabilityExplorer,
  clockCommands,
  command,
  type ExploreCommand,
  hex,
  type LazyStep,
  type RunContext,
} from '../command.js';
import type { ExploreSession, ExploreStep } from '../session.js';
import {
  CONFORMANCE_EVIDENCE,
  capturedOwner,
  commitFence,
  operationBinding,
  ownerTransitionRequest,
  prepareEvent,
  STORE_OPERATION_EVENTS,
  STORE_OWNER_OPERATIONS,
  storeReadCapture,
  storeVar,
  writeContextCapture,
  writeRequestBase,
} from '../store-requests.js';

const SESSIONS = [hex('explore session 0'), hex('explore session 1')];
const ROUTE = hex('explore route');
const TARGETS = [['src/app.ts'], ['src/app.ts', 'src/util.ts'], ['docs/notes.md']];
const BEFORE = hex('explore before');
const STATES = [{ step: 'a' }, { step: 'b' }, {}, { step: 'a', n: 1 }];

type FenceChoice = 'view' | 'stale' | 'zero' | 'null' | { stateSequence: number; writerGeneration: number };
type OwnerChoice = 'view' | 'other' | 'absent' | 'bumped';

const task = (ctx: RunContext) => ({ projectRootIdentity: ctx.projectRootIdentity, taskId: ctx.taskId });
const or = (s: ExploreSession, name: string, fallback: unknown) =>
  s.bound(name) ? storeVar(name) : fallback;
const ZERO = commitFence(0, 0);

function fenceOf(s: ExploreSession, w: number, c: FenceChoice): unknown {
  if (c === 'zero') return ZERO;
  // The schema lets a writer name no fence at all (null), as a writer that never read the task does.
  if (c === 'null') return null;
  if (c === 'view') return or(s, `w${w}.fence`, ZERO);
  if (c === 'stale') return or(s, `w${w}.stale`, ZERO);
  return commitFence(c.stateSequence, c.writerGeneration);
}

function ownerOf(s: ExploreSession, w: number, c: OwnerChoice): unknown {
  const who = c === 'other' ? 1 - w : w;
  if (c === 'absent' || !s.bound(`w${who}.nonce`)) return { mode: 'absent' };
  const owner = capturedOwner(`w${who}.`);
  return c === 'bumped' ? { ...owner, leaseRevision: 99 } : owner;
}

/** The view of writer `w`: what its next write names (the previous fence stays as its stale one). */
function readSteps(ctx: RunContext, w: number, proc: number, s: ExploreSession): ExploreStep[] {
  const p = `w${w}`;
  void s;
  return [
    {
      method: 'store.read',
      params: { task: task(ctx) },
      proc,
      capture: {
        ...storeReadCapture(`${p}.`),
        [`${p}.lrev`]: '/envelope/lifecycleRevision',
        [`${p}.handoff`]: '/envelope/owner/handoffRef/refDigest',
        [`${p}.takeover`]: '/envelope/owner/takeoverRef/refDigest',
        [`${p}.receipt`]: '/envelope/terminalReceipt/receiptDigest',
      },
    },
    {
      method: 'store.readWriteContext',
      params: { task: task(ctx) },
      proc,
      capture: writeContextCapture(`${p}.`),
    },
  ];
}

/**
 * A write of writer `w`, after a fresh read of its view when `fresh` (a careful client) or on the
 * view it has (a racing or stale one); a committed write moves the writer's fence.
 */
function written(
  ctx: RunContext,
  s: ExploreSession,
  w: number,
  fresh: boolean,
  write: () => ExploreStep,
): LazyStep[] {
  const reads = fresh ? readSteps(ctx, w, w % s.processes, s) : [];
  // The params name the view as it is after the reads: they are built once the reads are bound.
  return [
    ...reads,
    () => {
      const step = write();
      return { ...step, capture: { ...(step.capture ?? {}), [`w${w}.fence`]: '/fence' } };
    },
  ];
}

const base = (ctx: RunContext, s: ExploreSession, w: number, fence: FenceChoice, owner: OwnerChoice) =>
  writeRequestBase(
    ctx.taskId,
    ctx.projectRootIdentity,
    fenceOf(s, w, fence),
    ownerOf(s, w, owner),
    SESSIONS[w],
  );

const TERMINAL_STATUSES = ['completed', 'failed', 'cancelled', 'rejected'] as const;
type EvidenceFault = 'none' | 'sha' | 'bytes' | 'outside' | 'missing';

function evidenceWith(fault: EvidenceFault, i: number) {
  return CONFORMANCE_EVIDENCE.map((e, j) => {
    if (j !== i || fault === 'none') return e;
    if (fault === 'sha') return { ...e, sha256: hex('wrong evidence') };
    if (fault === 'bytes') return { ...e, bytes: e.bytes + 1 };
    if (fault === 'outside') return { ...e, path: 'closeout/outside.md' };
    return { ...e, path: 'closeout/missing.md' };
  });
}

const BINDING_FAULTS = [
  'none',
  'none',
  'none',
  'operationId',
  'idempotencyKey',
  'writerGeneration',
  'targetSetDigest',
  'beforeDigest',
] as const;

function binding(s: ExploreSession, op: number, fault: (typeof BINDING_FAULTS)[number]) {
  const b = operationBinding(
    {
      operationId: `op-${op}`,
      idempotencyKey: `idem-${op}`,
      exactTargets: TARGETS[op]!,
      beforeDigest: BEFORE,
    },
    or(s, `op${op}.wg`, 1),
  );
  if (fault === 'operationId') return { ...b, operationId: 'op-9' };
  if (fault === 'idempotencyKey') return { ...b, idempotencyKey: 'idem-9' };
  if (fault === 'writerGeneration') return { ...b, writerGeneration: 7 };
  if (fault === 'targetSetDigest') return { ...b, targetSetDigest: hex('other targets') };
  if (fault === 'beforeDigest') return { ...b, beforeDigest: hex('other before') };
  return b;
}

const fenceChoice: fc.Arbitrary<FenceChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('view' as const) },
  { weight: 1, arbitrary: fc.constantFrom('stale' as const, 'zero' as const, 'null' as const) },
  {
    weight: 1,
    arbitrary: fc.record({
      stateSequence: fc.integer({ min: 0, max: 6 }),
      writerGeneration: fc.integer({ min: 0, max: 3 }),
    }),
  },
);
const ownerChoice: fc.Arbitrary<OwnerChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('view' as const) },
  { weight: 1, arbitrary: fc.constantFrom('other' as const, 'absent' as const, 'bumped' as const) },
);

function storeCommands(processes: number): fc.Arbitrary<ExploreCommand>[] {
  const writer = fc.integer({ min: 0, max: 1 });
  const procOf = (w: number) => w % processes;
  const label = (w: number, f: FenceChoice, o: OwnerChoice) =>
    `w${w}${f === 'view' ? '' : ` fence=${typeof f === 'string' ? f : `${f.stateSequence}/${f.writerGeneration}`}`}${o === 'view' ? '' : ` owner=${o}`}`;
  const ownerTransition = fc
    .record({
      w: writer,
      op: fc.constantFrom(...STORE_OWNER_OPERATIONS),
      fresh: fc.boolean(),
      fence: fenceChoice,
      owner: ownerChoice,
      status: fc.constantFrom(...TERMINAL_STATUSES),
      evidence: fc.oneof(
        { weight: 6, arbitrary: fc.constant('none' as EvidenceFault) },
        { weight: 1, arbitrary: fc.constantFrom<EvidenceFault>('sha', 'bytes', 'outside', 'missing') },
      ),
      item: fc.integer({ min: 0, max: 3 }),
    })
    .map((c) =>
      command(
        `transitionOwner ${c.op}${c.fresh ? ' after a read' : ''} ${label(c.w, c.fence, c.owner)}`,
        (ctx, s) =>
          written(ctx, s, c.w, c.fresh, () => {
            const p = `w${c.w}`;
            const request = ownerTransitionRequest(
              c.op,
              base(ctx, s, c.w, c.fence, c.owner),
              'epoch-1.1',
              ROUTE,
              {
                targetSessionDigest:
                  c.op === 'handoff-prepare'
                    ? SESSIONS[1 - c.w]
                    : c.op === 'takeover-prepare'
                      ? SESSIONS[c.w]
                      : null,
                handoffRefDigest:
                  c.op === 'handoff-accept' ? or(s, `w${c.w}.handoff`, hex('no handoff')) : null,
                takeoverRefDigest:
                  c.op === 'takeover-accept' ? or(s, `w${c.w}.takeover`, hex('no takeover')) : null,
                takeoverEvidence:
                  c.op === 'takeover-prepare'
                    ? {
                        readbackContextDigest: or(s, `${p}.ctx`, hex('no context')),
                        livenessEvidenceDigest: hex('explore liveness evidence'),
                        reconcileReceiptDigest: hex('explore reconcile receipt'),
                      }
                    : null,
                terminal:
                  c.op === 'terminal'
                    ? {
                        terminalStatus: c.status,
                        lifecycleRevision: or(s, `${p}.lrev`, 1),
                        settledSetDigest: or(s, `${p}.settled`, hex('no settled set')),
                        writeContextDigest: or(s, `${p}.ctx`, hex('no context')),
                        evidence: evidenceWith(c.evidence, c.item),
                      }
                    : null,
                terminalReceiptDigest: c.op === 'reopen' ? or(s, `${p}.receipt`, hex('no receipt')) : null,
              },
            );
            return { method: 'store.transitionOwner', params: { request }, proc: procOf(c.w) };
          }),
      ),
    );
  const commitStateOf = (writers: fc.Arbitrary<number>) =>
    fc
      .record({
        w: writers,
        state: fc.integer({ min: 0, max: STATES.length - 1 }),
        force: fc.boolean(),
        fresh: fc.boolean(),
        fence: fenceChoice,
        owner: ownerChoice,
      })
      .map((c) =>
        command(
          `commitState ${JSON.stringify(STATES[c.state])}${c.force ? ' force' : ''}${c.fresh ? ' after a read' : ''} ${label(c.w, c.fence, c.owner)}`,
          (ctx, s) =>
            written(ctx, s, c.w, c.fresh, () => ({
              method: 'store.commitState',
              params: {
                request: {
                  ...base(ctx, s, c.w, c.fence, c.owner),
                  state: STATES[c.state],
                  ...(c.force ? { force: true } : {}),
                },
              },
              proc: procOf(c.w),
            })),
        ),
      );
  const commitState = commitStateOf(writer);
  const commitOperation = fc
    .record({
      w: writer,
      event: fc.constantFrom(...STORE_OPERATION_EVENTS),
      op: fc.integer({ min: 0, max: 2 }),
      fault: fc.constantFrom(...BINDING_FAULTS),
      result: fc.integer({ min: 0, max: 1 }),
      effect: fc.constantFrom('known-applied', 'known-not-applied'),
      withState: fc.boolean(),
      fresh: fc.boolean(),
      fence: fenceChoice,
      owner: ownerChoice,
    })
    .map((c) =>
      command(
        `commitOperation ${c.event} op-${c.op}${c.fault === 'none' ? '' : ` ${c.fault}*`} ${c.fresh ? ' after a read' : ''} ${label(c.w, c.fence, c.owner)}`,
        (ctx, s) =>
          written(ctx, s, c.w, c.fresh, () => {
            const event =
              c.event === 'prepare'
                ? prepareEvent({
                    operationId: c.fault === 'operationId' ? 'op-0' : `op-${c.op}`,
                    idempotencyKey: c.fault === 'idempotencyKey' ? 'idem-0' : `idem-${c.op}`,
                    kind: 'write-file',
                    exactTargets: TARGETS[c.op]!,
                    beforeDigest: BEFORE,
                  })
                : {
                    event: c.event,
                    ...binding(s, c.op, c.fault),
                    ...(c.event === 'observe' ? { resultDigest: hex(`result ${c.result}`) } : {}),
                    ...(c.event === 'settle' || c.event === 'reconcile'
                      ? { effect: c.effect, evidenceDigest: hex(`evidence ${c.result}`) }
                      : {}),
                  };
            return {
              method: 'store.commitOperation',
              params: {
                request: {
                  ...base(ctx, s, c.w, c.fence, c.owner),
                  event,
                  ...(c.withState ? { state: STATES[1] } : {}),
                },
              },
              proc: procOf(c.w),
              ...(c.event === 'prepare' ? { capture: { [`op${c.op}.wg`]: '/fence/writerGeneration' } } : {}),
            };
          }),
      ),
    );
  const reads = fc
    .record({ w: writer, what: fc.constantFrom('read', 'read', 'read', 'replay', 'history', 'stale') })
    .map((c) =>
      command(`${c.what} w${c.w}`, (ctx, s) => {
        const proc = procOf(c.w);
        if (c.what === 'read') return readSteps(ctx, c.w, proc, s);
        if (c.what === 'stale')
          return {
            method: 'store.read',
            params: { task: task(ctx) },
            proc,
            capture: { [`w${c.w}.stale`]: '/fence' },
          };
        return { method: `store.${c.what}`, params: { task: task(ctx) }, proc };
      }),
    );
  const list: fc.Arbitrary<ExploreCommand>[] = [
    ...Array.from({ length: 4 }, () => reads),
    ...Array.from({ length: 4 }, () => ownerTransition),
    ...Array.from({ length: 3 }, () => commitState),
    ...Array.from({ length: 5 }, () => commitOperation),
    ...clockCommands(),
  ];
  if (processes > 1) {
    // The second writer's process (the first stays up for the whole exploration): killed and
    // started again on the same state, or frozen with a commit in its pipe while the first writes.
    list.push(
      // At most one kill a run: a start costs a second of CPU.
      fc.constant(
        action('kill -9 process 1, start it again', async (_ctx, s) => {
          if (s.memo.has('killed')) return;
          s.memo.set('killed', true);
          await s.kill(1);
        }),
      ),
      fc.tuple(commitStateOf(fc.constant(1)), fc.integer({ min: 1, max: 3 })).map(([inner, later]) =>
        action(
          `freeze process 1 with ${inner.toString()} in its pipe, thaw ${later} steps later`,
          async (ctx, s) => {
            s.freezeNext(1, later);
            await inner.run(ctx, s);
          },
        ),
      ),
    );
  }
  return list;
}

export const storeExplorer: CapabilityExplorer = {
  name: 'store',
  gate: 'TaskContinuityWriteGate',
  subject: 'TaskRecoveryStateV5',
  spec: 'docs/spec/task-continuity-write-gate.md#commit-algorithm',
  requires: ['store', 'clock'],
  processes: 2,
  setup: (ctx) => [{ method: 'clock.set', params: { now: new Date(ctx.t0).toISOString() } }],
  commands: storeCommands,
};
