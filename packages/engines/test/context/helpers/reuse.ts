// A context world for the reuse and ledger tests: a catalogue, a plan of `fix`/`testing`, its
// structured receipt read to completion, and a second plan of the same content (the reuse
// candidate). Documents are changed only through `reseal`, which recomputes a receipt's id so that
// a test reaches the check after check 7 (docs/spec/context-acquisition-gate.md, "Ordered checks").
import { derivedId } from '@agent-contracts/digest';
import type { ContextReadPlanV2, ContextReadReceiptV2 } from '@agent-contracts/schemas';
import {
  type ContextCatalogue,
  type ContextEvent,
  type ContextPlanRequest,
  formIntentSeed,
  ManualClock,
  observeReceipt,
  openReceipt,
  planContext,
} from '../../../src/index.ts';
import { catalogueOf as catalogue, documentOf, ref as profileRef, ROOT } from './catalogue.ts';

export const T0 = Date.parse('2026-12-02T05:00:00.000Z');
export { ROOT };
export const SESSION = 'sess-1';

/** The reuse and ledger worlds' refs carry a fraction of a millisecond, which every digest truncates. */
const MTIME_MS = 1795770410000.5;

export const ref = (file: string, root = ROOT) => profileRef(file, {}, { root, mtimeMs: MTIME_MS });
export const MEMORY_REF = {
  path: 'memory://acme/status',
  layer: 'memory-query',
  exists: true,
  size: null,
  mtimeMs: null,
};

export function catalogueOf(root = ROOT, project = 'acme', files = ['testing.md']): ContextCatalogue {
  const at = { root, project, mtimeMs: MTIME_MS };
  return catalogue(
    files.map((file) => documentOf(file, {}, at)),
    at,
  );
}

export interface PlanOptions {
  readonly epoch?: string;
  readonly nonce?: string;
  readonly catalogue?: ContextCatalogue;
  readonly request?: Partial<ContextPlanRequest>;
}

/** A plan of `fix`/`testing` at the clock's time. */
export function planOf(clock: ManualClock, o: PlanOptions = {}): ContextReadPlanV2 {
  const s = formIntentSeed({ intent: 'fix', contextEpoch: o.epoch ?? 'ctx-one' }, clock);
  if (!s.ok) throw new Error(s.message);
  clock.advance(10);
  const p = planContext(
    o.catalogue ?? catalogueOf(),
    {
      seed: s.seed,
      host: 'standalone',
      invocationNonce: o.nonce ?? 'nonce-first-0123456789',
      changeTypes: ['testing'],
      ...o.request,
    },
    clock,
  );
  if (!p.ok) throw new Error(`${p.code}: ${p.message}`);
  return p.plan;
}

/** The structured receipt of `plan`, opened at its own plan call. */
export function openOf(
  plan: ContextReadPlanV2,
  clock: ManualClock,
  hostSessionId: string | null = SESSION,
  verificationMode: 'structured-plan' | 'instruction-only' = 'structured-plan',
): ContextReadReceiptV2 {
  clock.advance(10);
  const r = openReceipt(
    plan,
    verificationMode === 'structured-plan'
      ? {
          verificationMode,
          hostSessionId,
          planCall: { toolCallId: 'plan-call', attemptedAt: plan.plannedAt },
        }
      : { verificationMode, hostSessionId },
    clock,
  );
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.receipt;
}

const bindingOf = (plan: ContextReadPlanV2) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: plan.identity.activeRoot,
});
export const pre = (
  plan: ContextReadPlanV2,
  sourceId: string,
  call: string,
  over: object = {},
): ContextEvent =>
  ({
    event: 'PreToolUse',
    toolCallId: call,
    sourceIds: [sourceId],
    actionClass: 'context-read',
    hostSessionId: SESSION,
    ...bindingOf(plan),
    ...over,
  }) as ContextEvent;
export const post = (
  plan: ContextReadPlanV2,
  sourceId: string,
  call: string,
  over: object = {},
): ContextEvent =>
  ({
    event: 'PostToolUse',
    toolCallId: call,
    sourceId,
    hostSessionId: SESSION,
    sourceLayer: sourceId.startsWith('memory:') ? 'memory-query' : 'profile',
    liveRefs: sourceId.startsWith('memory:')
      ? [MEMORY_REF]
      : [ref(sourceId.slice('profile:'.length), plan.identity.activeRoot)],
    toolResult: { text: `body of ${sourceId}` },
    body: { text: `body of ${sourceId}` },
    schemaMatch: true,
    targetMatch: true,
    ...bindingOf(plan),
    ...over,
  }) as ContextEvent;

/** Fold `events` into `receipt`, 5 ms apart. */
export function fold(
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  events: readonly ContextEvent[],
  clock: ManualClock,
): ContextReadReceiptV2 {
  let r = receipt;
  for (const e of events) {
    clock.advance(5);
    const x = observeReceipt(r, plan, e, clock);
    if (!x.ok) throw new Error(`${x.code}: ${x.message}`);
    r = x.receipt;
  }
  return r;
}

/** An attempt and a correlated result with the body for each of the plan's non-baseline sources. */
export const readAll = (plan: ContextReadPlanV2, prefix = 'c'): ContextEvent[] =>
  plan.selectedSources.flatMap((s, i) => [
    pre(plan, s.sourceId, `${prefix}${i}`),
    post(plan, s.sourceId, `${prefix}${i}`),
  ]);

/** `receipt` with `change` applied and its `receiptId` recomputed. */
export function reseal(
  receipt: ContextReadReceiptV2,
  change: (r: ContextReadReceiptV2) => object,
): ContextReadReceiptV2 {
  const { receiptId: _id, ...changed } = { ...receipt, ...change(receipt) } as ContextReadReceiptV2;
  const { updatedAt: _u, ...rest } = changed;
  return { receiptId: derivedId('receipt-', rest, 24), ...changed } as ContextReadReceiptV2;
}

/** A plan, its completed receipt, and a second plan of the same content made 100 ms later. */
export function world(o: { first?: PlanOptions; second?: PlanOptions; clock?: ManualClock } = {}) {
  const clock = o.clock ?? new ManualClock(T0);
  const plan = planOf(clock, o.first);
  const opened = openOf(plan, clock);
  const prior = fold(opened, plan, readAll(plan), clock);
  if (prior.status !== 'relevant-complete') throw new Error(`the prior receipt is ${prior.status}`);
  clock.advance(100);
  const next = planOf(clock, { ...o.first, nonce: 'nonce-second-0123456789', ...o.second });
  return { clock, plan, opened, prior, next };
}
