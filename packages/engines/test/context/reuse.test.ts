// @module-tag unit
// The reuse decision, check by check (docs/spec/context-acquisition-gate.md, "Ordered checks",
// CAG-025): each case fails exactly one check of a decision that would otherwise grant delivery,
// and the first failing check sets both reason codes; the decision records what it compared.
import { derivedId, digestOf } from '@agent-contracts/digest';
import {
  type ContextReadPlanV1,
  type ContextReadPlanV2,
  type ContextReadReceiptV2,
  observationIdOf,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  decideReuse,
  ManualClock,
  observeReceipt,
  planIdsRecompute,
  type ReuseInputs,
  receiptByReuse,
  receiptIdRecomputes,
} from '../../src/index.ts';
import { catalogueOf, fold, openOf, planOf, readAll, reseal, SESSION, T0, world } from './helpers/reuse.ts';

type World = ReturnType<typeof world>;
const decide = (w: World, over: Partial<ReuseInputs> = {}, plan: ContextReadPlanV2 = w.next) =>
  decideReuse(
    plan,
    {
      executionOptimizationMode: 'safe-auto',
      hostSessionId: SESSION,
      currentSourceIdentities: w.prior.sourceIdentities,
      priorPlan: w.plan,
      priorReceipt: w.prior,
      ...over,
    },
    w.clock,
  );
const codes = (d: ReturnType<typeof decideReuse>) => [
  d.computation.reuse,
  d.computation.reasonCode,
  d.delivery.reuse,
  d.delivery.reasonCode,
];
const refused = (c: string, d = c) => [false, c, false, d];
const deliveryRefused = (d: string) => [true, 'content-identity-match', false, d];
const GRANTED = [true, 'content-identity-match', true, 'same-session-epoch-content-observed'];

describe('planIdsRecompute and receiptIdRecomputes', () => {
  const w = world();
  const tampered: [string, (p: ContextReadPlanV2) => object][] = [
    // Each change breaks one comparison only: the others still recompute.
    [
      'planContentId (and the binding with it)',
      (p) => ({
        planContentId: `plan-content-${'0'.repeat(64)}`,
        contextBinding: { ...p.contextBinding, planContentId: `plan-content-${'0'.repeat(64)}` },
      }),
    ],
    ['identityInputs', (p) => ({ identityInputs: { ...p.identityInputs, extra: true } })],
    [
      'planId (and the binding with it)',
      (p) => ({
        planId: 'plan-000000000000000000000000',
        contextBinding: { ...p.contextBinding, planId: 'plan-000000000000000000000000' },
      }),
    ],
    ['contextBinding.planId', (p) => ({ contextBinding: { ...p.contextBinding, planId: w.plan.planId } })],
    [
      'contextBinding.planContentId',
      (p) => ({ contextBinding: { ...p.contextBinding, planContentId: `plan-content-${'1'.repeat(64)}` } }),
    ],
    [
      'contextBinding.contextEpoch',
      (p) => ({ contextBinding: { ...p.contextBinding, contextEpoch: 'ctx-two' } }),
    ],
    [
      'contextBinding.activeRoot',
      (p) => ({ contextBinding: { ...p.contextBinding, activeRoot: '/srv/other' } }),
    ],
    ['contextBinding.project', (p) => ({ contextBinding: { ...p.contextBinding, project: 'other' } })],
  ];
  it('a plan recomputes; one changed in any of its ids or binding members does not', () => {
    expect(planIdsRecompute(w.next)).toBe(true);
    for (const [name, change] of tampered)
      expect(planIdsRecompute({ ...w.next, ...change(w.next) } as ContextReadPlanV2), name).toBe(false);
  });
  it.each(tampered)('a current plan with another %s is current-plan-invalid (check 1)', (_name, change) => {
    const d = decide(w, {}, { ...w.next, ...change(w.next) } as ContextReadPlanV2);
    expect(codes(d)).toEqual(refused('current-plan-invalid'));
    expect(d.reuseFrom).toBeNull();
  });
  it('a plan or receipt whose digest cannot be computed does not recompute (false, not an exception)', () => {
    expect(planIdsRecompute({ ...w.next, baselineSources: null } as unknown as ContextReadPlanV2)).toBe(
      false,
    );
    expect(receiptIdRecomputes(w.prior)).toBe(true);
    expect(receiptIdRecomputes({ ...w.prior, replanCount: Number.NaN })).toBe(false);
    expect(receiptIdRecomputes({ ...w.prior, replanCount: 1 })).toBe(false);
  });
});

describe('the ordered checks', () => {
  it('the same content in the same session and epoch grants both, and the decision records its inputs', () => {
    const w = world();
    const d = decide(w);
    expect(codes(d)).toEqual(GRANTED);
    const digest = digestOf(w.prior.sourceIdentities);
    expect(d.currentSourceIdentitiesDigest).toBe(digest);
    expect(d.priorPlan).toEqual({
      schemaVersion: 'ContextReadPlanV2',
      planId: w.plan.planId,
      planContentId: w.plan.planContentId,
      contextEpoch: 'ctx-one',
      activeRoot: w.plan.identity.activeRoot,
      project: 'acme',
    });
    expect(d.priorReceipt).toEqual({
      schemaVersion: 'ContextReadReceiptV2',
      receiptId: w.prior.receiptId,
      planId: w.plan.planId,
      planContentId: w.plan.planContentId,
      contextEpoch: 'ctx-one',
      hostSessionId: SESSION,
      verificationMode: 'structured-plan',
      status: 'relevant-complete',
      sourceIdentitiesDigest: digest,
    });
    expect(d.reuseFrom).toEqual({
      planId: w.plan.planId,
      planContentId: w.plan.planContentId,
      receiptId: w.prior.receiptId,
      sourceIdentitiesDigest: digest,
    });
    const { decisionId, ...body } = d;
    expect(decisionId).toBe(derivedId('reuse-', body, 24));
  });
  it('the current source identities are digested in sourceId order, whatever order they come in', () => {
    const w = world();
    const d = decide(w, { currentSourceIdentities: [...w.prior.sourceIdentities].reverse() });
    expect(codes(d)).toEqual(GRANTED);
    expect(d.currentSourceIdentitiesDigest).toBe(digestOf(w.prior.sourceIdentities));
  });
  it('check 2: full-only refuses both', () => {
    const w = world();
    expect(codes(decide(w, { executionOptimizationMode: 'full-only' }))).toEqual(
      refused('execution-optimization-full-only'),
    );
  });
  it('check 3: no prior plan, a V1 one, or one whose ids do not recompute', () => {
    const w = world();
    const none = decide(w, { priorPlan: null, priorReceipt: null });
    expect(codes(none)).toEqual(refused('no-compatible-prior-plan', 'legacy-or-missing-prior-plan'));
    expect([none.priorPlan, none.priorReceipt, none.reuseFrom]).toEqual([null, null, null]);
    const v1 = { ...w.plan, schemaVersion: 'ContextReadPlanV1' } as unknown as ContextReadPlanV1;
    const legacy = decide(w, { priorPlan: v1 });
    expect(codes(legacy)).toEqual(refused('legacy-plan-no-content-identity', 'legacy-or-missing-prior-plan'));
    expect(legacy.priorPlan).toEqual({
      schemaVersion: 'ContextReadPlanV1',
      planId: w.plan.planId,
      planContentId: null,
      contextEpoch: 'ctx-one',
      activeRoot: w.plan.identity.activeRoot,
      project: 'acme',
    });
    const invalid = {
      ...w.plan,
      identityInputs: { ...w.plan.identityInputs, extra: 1 },
    } as ContextReadPlanV2;
    expect(codes(decide(w, { priorPlan: invalid }))).toEqual(
      refused('no-compatible-prior-plan', 'legacy-or-missing-prior-plan'),
    );
  });
  it('check 4: a prior plan of another root, or of another project, is target-mismatch', () => {
    for (const catalogue of [catalogueOf('/srv/other'), catalogueOf('/srv/acme', 'other')]) {
      const clock = new ManualClock(T0);
      const other = planOf(clock, { catalogue });
      expect(planIdsRecompute(other)).toBe(true);
      const w = world({ clock });
      expect(codes(decide(w, { priorPlan: other }))).toEqual(refused('target-mismatch'));
    }
  });
  it('check 5: a prior plan of other content for the same target is plan-content-mismatch', () => {
    const w = world();
    const clock = new ManualClock(T0);
    const other = planOf(clock, { catalogue: catalogueOf('/srv/acme', 'acme', ['testing.md', 'ci.md']) });
    expect(other.planContentId).not.toBe(w.plan.planContentId);
    const d = decide(w, { priorPlan: other });
    expect(codes(d)).toEqual(refused('plan-content-mismatch'));
    expect(d.reuseFrom).toBeNull();
  });
  it('check 6: no prior receipt grants computation only', () => {
    const w = world();
    const d = decide(w, { priorReceipt: null });
    expect(codes(d)).toEqual(deliveryRefused('legacy-or-missing-receipt'));
    expect(d.reuseFrom).toEqual({
      planId: w.plan.planId,
      planContentId: w.plan.planContentId,
      receiptId: null,
      sourceIdentitiesDigest: null,
    });
  });
  it('check 7: a prior receipt whose id does not recompute is prior-receipt-invalid', () => {
    const w = world();
    expect(codes(decide(w, { priorReceipt: { ...w.prior, replanCount: 1 } }))).toEqual(
      deliveryRefused('prior-receipt-invalid'),
    );
  });
  it("check 8: a prior receipt of another plan id, or another content id, than the prior plan's", () => {
    const w = world();
    // The second plan's own receipt: the prior plan's content, another plan id.
    const own = fold(openOf(w.next, w.clock), w.next, readAll(w.next), w.clock);
    expect(codes(decide(w, { priorReceipt: own }))).toEqual(deliveryRefused('prior-receipt-plan-mismatch'));
    const content = reseal(w.prior, (r) => ({
      binding: { ...r.binding, planContentId: `plan-content-${'0'.repeat(64)}` },
    }));
    expect(codes(decide(w, { priorReceipt: content }))).toEqual(
      deliveryRefused('prior-receipt-plan-mismatch'),
    );
  });
  it('check 9: no session, another session, or a prior receipt without one', () => {
    const w = world();
    expect(codes(decide(w, { hostSessionId: null }))).toEqual(deliveryRefused('host-session-mismatch'));
    expect(codes(decide(w, { hostSessionId: 'sess-2' }))).toEqual(deliveryRefused('host-session-mismatch'));
    // Both unobservable: still refused, a null session is never "the same".
    const unobserved = reseal(w.prior, () => ({ hostSessionId: null }));
    expect(codes(decide(w, { hostSessionId: null, priorReceipt: unobserved }))).toEqual(
      deliveryRefused('host-session-mismatch'),
    );
  });
  it("check 10: the prior receipt's epoch must equal the prior plan's as well as the current one", () => {
    const w = world();
    const other = reseal(w.prior, (r) => ({ binding: { ...r.binding, contextEpoch: 'ctx-two' } }));
    expect(codes(decide(w, { priorReceipt: other }))).toEqual(deliveryRefused('context-epoch-mismatch'));
  });
  it('check 11: a receipt not of structured-plan, or not complete, is prior-receipt-incomplete; a completed one is reused', () => {
    const w = world();
    const mode = reseal(w.prior, () => ({ verificationMode: 'path-observable' }));
    expect(codes(decide(w, { priorReceipt: mode }))).toEqual(deliveryRefused('prior-receipt-incomplete'));
    const partial = fold(
      w.opened,
      w.plan,
      readAll(w.plan).slice(0, 3),
      new ManualClock(Date.parse(w.opened.updatedAt)),
    );
    expect(partial.status).toBe('attempted');
    expect(codes(decide(w, { priorReceipt: partial }))).toEqual(deliveryRefused('prior-receipt-incomplete'));
    const consumed = observeReceipt(w.prior, w.plan, { event: 'consume' }, w.clock);
    if (!consumed.ok) throw new Error(consumed.message);
    expect(consumed.receipt.status).toBe('completed');
    const d = decide(w, {
      priorReceipt: consumed.receipt,
      currentSourceIdentities: consumed.receipt.sourceIdentities,
    });
    expect(codes(d)).toEqual(GRANTED);
  });
  describe('check 12: the identities', () => {
    const w = world();
    const ids = w.prior.sourceIdentities;
    it('none supplied', () => {
      const d = decide(w, { currentSourceIdentities: null });
      expect(codes(d)).toEqual(deliveryRefused('source-identity-mismatch'));
      expect(d.currentSourceIdentitiesDigest).toBeNull();
    });
    it('the same sources with another body', () => {
      const changed = ids.map((i, k) =>
        k === 0 ? { ...i, contentIdentity: { ...i.contentIdentity, digest: 'f'.repeat(64) } } : i,
      );
      expect(codes(decide(w, { currentSourceIdentities: changed }))).toEqual(
        deliveryRefused('source-identity-mismatch'),
      );
    });
    // Both sets are the prior receipt's (the digests match): what is left is whether they cover
    // exactly the current plan's mandatory sources.
    const covering: [string, ContextReadReceiptV2['sourceIdentities']][] = [
      ['one source fewer', ids.slice(1)],
      ['one source more', [...ids, { ...ids[0]!, sourceId: 'profile:zz.md' }]],
      ['one source replaced by another', [...ids.slice(1), { ...ids[0]!, sourceId: 'profile:zz.md' }]],
    ];
    it.each(covering)('identity sets with %s than the mandatory sources', (_name, set) => {
      const prior = reseal(w.prior, () => ({ sourceIdentities: set }));
      expect(codes(decide(w, { priorReceipt: prior, currentSourceIdentities: set }))).toEqual(
        deliveryRefused('source-identity-mismatch'),
      );
    });
  });
  describe('check 13: every mandatory source proven by a satisfying record of this session', () => {
    const w = world();
    it("a source whose only record is of another session's is unproven, even when the others are proven", () => {
      const prior = reseal(w.prior, (r) => ({
        observations: r.observations.map((o) =>
          o.sourceId === 'profile:testing.md' ? { ...o, hostSessionId: 'sess-2' } : o,
        ),
      }));
      expect(codes(decide(w, { priorReceipt: prior }))).toEqual(deliveryRefused('body-observation-unproven'));
    });
    it('a source whose latest record does not satisfy (a computation-cache hit) is unproven', () => {
      const prior = reseal(w.prior, (r) => ({
        observations: r.observations.map((o) =>
          o.sourceId === 'memory:status' && o.hookEvent === 'PostToolUse' ? { ...o, cache: true } : o,
        ),
      }));
      expect(codes(decide(w, { priorReceipt: prior }))).toEqual(deliveryRefused('body-observation-unproven'));
    });
  });
});

describe('a receipt opened by reuse is reused again', () => {
  it('its delivery-reuse records prove the sources because its reuseFrom is set, and only then', () => {
    const w = world();
    const d = decide(w);
    w.clock.advance(5);
    const r = receiptByReuse(
      w.next,
      d,
      w.prior,
      { toolCallId: 'plan-call-2', attemptedAt: w.next.plannedAt },
      w.clock,
    );
    if (!r.ok) throw new Error(r.message);
    const reused = r.receipt;
    expect(reused.reuseFrom).not.toBeNull();
    w.clock.advance(100);
    const third = planOf(w.clock, { nonce: 'nonce-third-0123456789' });
    const again = decideReuse(
      third,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: SESSION,
        currentSourceIdentities: reused.sourceIdentities,
        priorPlan: w.next,
        priorReceipt: reused,
      },
      w.clock,
    );
    expect(codes(again)).toEqual(GRANTED);
    // The same records in a receipt that says it was not opened by reuse prove nothing.
    const unmarked = reseal(reused, () => ({ reuseFrom: null }));
    const refusedAgain = decideReuse(
      third,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: SESSION,
        currentSourceIdentities: reused.sourceIdentities,
        priorPlan: w.next,
        priorReceipt: unmarked,
      },
      w.clock,
    );
    expect(codes(refusedAgain)).toEqual(deliveryRefused('body-observation-unproven'));
  });
});

describe('receiptByReuse (create-by-reuse, D-RCP-53)', () => {
  const granted = (o: Parameters<typeof world>[0] = {}) => {
    const w = world(o);
    w.clock.advance(10);
    const d = decide(w);
    expect(codes(d)).toEqual(GRANTED);
    return { ...w, d };
  };
  const call = (plan: ContextReadPlanV2, attemptedAt = plan.plannedAt) => ({
    toolCallId: 'plan-call-2',
    attemptedAt,
  });
  it("copies each mandatory source's latest record with this plan's binding, the decision's session and the plan call", () => {
    const w = granted({ first: { request: { triggers: ['cross-service'] } } });
    expect(w.next.triggeredEscalations).toEqual(['cross-service']);
    w.clock.advance(5);
    const r = receiptByReuse(w.next, w.d, w.prior, call(w.next), w.clock);
    if (!r.ok) throw new Error(r.message);
    const now = new Date(w.clock.now()).toISOString();
    const receipt = r.receipt;
    expect(receiptIdRecomputes(receipt)).toBe(true);
    expect(receipt.observations.map((o) => o.sourceId)).toEqual(w.next.mandatorySourceIds);
    for (const o of receipt.observations) {
      const src = [...w.prior.observations]
        .reverse()
        .find((p) => p.hookEvent === 'PostToolUse' && p.sourceId === o.sourceId)!;
      const { observationId, ...copy } = o;
      expect(copy).toEqual({
        ...src,
        observationId: undefined,
        toolCallId: 'plan-call-2',
        contextEpoch: 'ctx-one',
        planId: w.next.planId,
        hostSessionId: SESSION,
        attemptedAt: w.next.plannedAt,
        observedAt: now,
        cache: true,
        reusedObservationId: src.observationId,
      } as never);
      expect(observationId).toBe(observationIdOf(copy as never));
    }
    expect(receipt).toMatchObject({
      binding: w.next.contextBinding,
      hostSessionId: SESSION,
      verificationMode: 'structured-plan',
      status: 'relevant-complete',
      planObservation: { toolCallId: 'plan-call-2', attemptedAt: w.next.plannedAt, observedAt: now },
      escalations: [
        { trigger: 'cross-service', reasonCode: 'cross-service', observedAt: now, action: 'planned' },
      ],
      replanCount: 0,
      lastError: null,
      sourceIdentities: w.prior.sourceIdentities,
      reuseFrom: {
        planId: w.plan.planId,
        planContentId: w.plan.planContentId,
        receiptId: w.prior.receiptId,
        sourceIdentitiesDigest: digestOf(w.prior.sourceIdentities),
      },
      createdAt: now,
      updatedAt: now,
      completedAt: now,
      consumedAt: null,
    });
  });
  it("a clock behind the decision opens the receipt at the decision's time", () => {
    const w = granted();
    w.clock.set(Date.parse(w.d.evaluatedAt) - 3);
    expect(w.clock.now()).toBeGreaterThanOrEqual(Date.parse(w.next.plannedAt));
    const r = receiptByReuse(w.next, w.d, w.prior, call(w.next), w.clock);
    expect(r.ok && [r.receipt.createdAt, r.receipt.observations[0]!.observedAt]).toEqual([
      w.d.evaluatedAt,
      w.d.evaluatedAt,
    ]);
  });
  it('a decision that does not grant delivery of this prior receipt for this plan opens nothing', () => {
    const w = granted();
    const other = fold(openOf(w.next, w.clock), w.next, readAll(w.next), w.clock);
    for (const [name, d, plan] of [
      [
        'delivery refused',
        { ...w.d, delivery: { reuse: false, reasonCode: 'host-session-mismatch' } },
        w.next,
      ],
      ['another receipt', { ...w.d, reuseFrom: { ...w.d.reuseFrom!, receiptId: other.receiptId } }, w.next],
      ['no reuseFrom', { ...w.d, reuseFrom: null }, w.next],
      ['another plan', w.d, planOf(w.clock, { nonce: 'nonce-fourth-0123456789' })],
    ] as const) {
      const r = receiptByReuse(plan, d as never, w.prior, call(plan), w.clock);
      expect(r.ok ? null : [r.code, r.path], name).toEqual(['CONTEXT_RECEIPT_REUSE_UNPROVEN', '/decision']);
    }
  });
  it('a plan call attempted after the plan was made, or a plan made after now, is backfilled (receipt invariant 24)', () => {
    const w = granted();
    const late = receiptByReuse(
      w.next,
      w.d,
      w.prior,
      call(w.next, new Date(Date.parse(w.next.plannedAt) + 1).toISOString()),
      w.clock,
    );
    expect(late.ok ? null : [late.code, late.path]).toEqual([
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/planCall/attemptedAt',
    ]);
    const early = { ...w.d, evaluatedAt: new Date(T0).toISOString() };
    w.clock.set(Date.parse(w.next.plannedAt) - 1);
    const before = receiptByReuse(w.next, early, w.prior, call(w.next, new Date(T0).toISOString()), w.clock);
    expect(before.ok ? null : [before.code, before.path]).toEqual([
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/plannedAt',
    ]);
    w.clock.set(Date.parse(w.next.plannedAt));
    const atOnce = receiptByReuse(w.next, early, w.prior, call(w.next), w.clock);
    expect(atOnce.ok && atOnce.receipt.createdAt).toBe(w.next.plannedAt);
  });
  it('a prior receipt without a satisfying latest record of a mandatory source opens nothing', () => {
    const w = granted();
    const missing = reseal(w.prior, (r) => ({
      observations: r.observations.filter((o) => o.sourceId !== 'profile:testing.md'),
    }));
    const d = { ...w.d, reuseFrom: { ...w.d.reuseFrom!, receiptId: missing.receiptId } };
    const r = receiptByReuse(w.next, d, missing, call(w.next), w.clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual(['CONTEXT_RECEIPT_REUSE_UNPROVEN', '/prior']);
  });
  it('a receipt opened by reuse is reused by its copies only while its reuseFrom is set', () => {
    const w = granted();
    w.clock.advance(5);
    const first = receiptByReuse(w.next, w.d, w.prior, call(w.next), w.clock);
    if (!first.ok) throw new Error(first.message);
    w.clock.advance(100);
    const third = planOf(w.clock, { nonce: 'nonce-third-0123456789' });
    const inputs = {
      executionOptimizationMode: 'safe-auto' as const,
      hostSessionId: SESSION,
      currentSourceIdentities: first.receipt.sourceIdentities,
      priorPlan: w.next,
      priorReceipt: first.receipt,
    };
    const d = decideReuse(third, inputs, w.clock);
    const second = receiptByReuse(third, d, first.receipt, call(third), w.clock);
    if (!second.ok) throw new Error(second.message);
    expect(
      second.receipt.observations.map((o) => o.hookEvent === 'PostToolUse' && o.reusedObservationId),
    ).toEqual(first.receipt.observations.map((o) => o.observationId));
    const unmarked = reseal(first.receipt, () => ({ reuseFrom: null }));
    const forced = { ...d, reuseFrom: { ...d.reuseFrom!, receiptId: unmarked.receiptId } };
    const r = receiptByReuse(third, forced, unmarked, call(third), w.clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual(['CONTEXT_RECEIPT_REUSE_UNPROVEN', '/prior']);
  });
});
