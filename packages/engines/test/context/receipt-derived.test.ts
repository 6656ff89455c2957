// @module-tag unit
// The receipt engine against docs/spec/context-acquisition-gate.md, ContextReadReceiptV2: each
// `create` row of the state machine, each refusal with its code and path, each flag of a result
// record from the event that carried it (Observation records), and each derived field (Derived
// fields: the lists, `sourceIdentities`, `delivery`, `status`, `completedAt`, `consumedAt`). The
// golden cases reach these through a few fixed plans; here every clause is pinned on its own.
import type { ContextReadPlanV2, ContextReadReceiptV2 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  type ContextCatalogue,
  type ContextEvent,
  type ContextPlanRequest,
  contentIdentityOf,
  deriveReceipt,
  draftOf,
  formIntentSeed,
  ManualClock,
  observeReceipt,
  openReceipt,
  planContext,
  type ReceiptOpen,
} from '../../src/index.ts';
import { catalogueOf, documentOf, ROOT, ref } from './helpers/catalogue.ts';

const T0 = Date.parse('2026-12-02T05:00:00.000Z');
const MEMORY = 'memory:status';
const TESTING = 'profile:testing.md';
const testingDoc = documentOf('testing.md');
const CATALOGUE: ContextCatalogue = catalogueOf([testingDoc]);
const d64 = (n: number) => n.toString(16).padStart(64, '0');

interface Setup {
  readonly clock: ManualClock;
  readonly plan: ContextReadPlanV2;
  readonly receipt: ContextReadReceiptV2;
}
function planOf(catalogue: ContextCatalogue, request: Partial<ContextPlanRequest>, clock: ManualClock) {
  const s = formIntentSeed({ intent: 'fix', contextEpoch: 'ctx-rcpt' }, clock);
  if (!s.ok) throw new Error(s.message);
  clock.advance(10);
  const p = planContext(
    catalogue,
    {
      seed: s.seed,
      host: 'standalone',
      invocationNonce: 'nonce-receipt-0123456789',
      changeTypes: ['testing'],
      ...request,
    },
    clock,
  );
  if (!p.ok) throw new Error(`${p.code}: ${p.message}`);
  return p.plan;
}
function setup(
  opts: {
    catalogue?: ContextCatalogue;
    request?: Partial<ContextPlanRequest>;
    open?: Partial<ReceiptOpen>;
    plan?: (p: ContextReadPlanV2) => ContextReadPlanV2;
  } = {},
): Setup {
  const clock = new ManualClock(T0);
  const made = planOf(opts.catalogue ?? CATALOGUE, opts.request ?? {}, clock);
  const plan = opts.plan ? opts.plan(made) : made;
  clock.advance(10);
  const r = openReceipt(
    plan,
    {
      verificationMode: 'structured-plan',
      hostSessionId: 'sess-1',
      planCall: { toolCallId: 'plan-call', attemptedAt: plan.plannedAt },
      ...opts.open,
    },
    clock,
  );
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return { clock, plan, receipt: r.receipt };
}
const binding = (plan: ContextReadPlanV2) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: ROOT,
});
const pre = (
  plan: ContextReadPlanV2,
  sourceIds: string | string[],
  call: string,
  over: object = {},
): ContextEvent =>
  ({
    event: 'PreToolUse',
    toolCallId: call,
    sourceIds: typeof sourceIds === 'string' ? [sourceIds] : sourceIds,
    actionClass: 'context-read',
    hostSessionId: 'sess-1',
    ...binding(plan),
    ...over,
  }) as ContextEvent;
const post = (plan: ContextReadPlanV2, sourceId: string, call: string, over: object = {}): ContextEvent =>
  ({
    event: 'PostToolUse',
    toolCallId: call,
    sourceId,
    hostSessionId: 'sess-1',
    sourceLayer: sourceId.startsWith('memory:') ? 'memory-query' : 'profile',
    liveRefs: sourceId.startsWith('memory:')
      ? [{ path: 'memory://acme/status', layer: 'memory-query', exists: true, size: null, mtimeMs: null }]
      : [ref(sourceId.slice(8))],
    toolResult: { text: 'body' },
    body: { text: 'body' },
    schemaMatch: true,
    targetMatch: true,
    ...binding(plan),
    ...over,
  }) as ContextEvent;
/** One event 5 ms after the last; the engine's answer, refusals included. */
function step(s: Setup, receipt: ContextReadReceiptV2, e: ContextEvent) {
  s.clock.advance(5);
  return observeReceipt(receipt, s.plan, e, s.clock);
}
function fold(s: Setup, events: ContextEvent[], from: ContextReadReceiptV2 = s.receipt) {
  let r = from;
  for (const e of events) {
    const x = step(s, r, e);
    if (!x.ok) throw new Error(`${x.code}: ${x.message}`);
    r = x.receipt;
  }
  return r;
}
/** The selected sources read, each by its own call (`c0`, `c1`). */
const readAll = (s: Setup, over: object = {}) =>
  [MEMORY, TESTING].flatMap((id, i) => [pre(s.plan, id, `c${i}`), post(s.plan, id, `c${i}`, over)]);
const refusalOf = (r: ReturnType<typeof observeReceipt>) => (r.ok ? null : [r.code, r.path]);
/** The last record of a receipt: the result the last PostToolUse appended. */
const lastRecord = (r: ContextReadReceiptV2) => r.observations.at(-1)!;
const resultFor = (s: Setup, over: object, id = TESTING) =>
  lastRecord(fold(s, [pre(s.plan, id, 'c9'), post(s.plan, id, 'c9', over)]));

describe('openReceipt: the create rows of the state machine', () => {
  it('a structured plan call delivering the baseline: baseline-ready, its baseline sources satisfied', () => {
    const s = setup();
    const r = s.receipt;
    expect(r.status).toBe('baseline-ready');
    expect(r.satisfiedSourceIds).toEqual(['profile:README.md', 'profile:config.json']);
    expect(r.missingSourceIds).toEqual([MEMORY, TESTING]);
    expect(r.observations.map((o) => [o.sourceId, o.outcome])).toEqual([
      ['profile:README.md', 'baseline-ready'],
      ['profile:config.json', 'baseline-ready'],
    ]);
    expect(r.sourceIdentities.map((i) => i.sourceId)).toEqual(['profile:README.md', 'profile:config.json']);
    expect(r.delivery).toEqual({
      bodyObserved: false,
      reused: false,
      eligible: false,
      reasonCode: 'body-read-required',
    });
    expect([r.completedAt, r.consumedAt, r.lastError, r.replanCount]).toEqual([null, null, null, 0]);
  });
  it('a plan call whose result did not deliver the baseline: planned, nothing satisfied', () => {
    const s = setup({ open: { baselineDelivered: false } });
    expect([s.receipt.status, s.receipt.observations, s.receipt.satisfiedSourceIds]).toEqual([
      'planned',
      [],
      [],
    ]);
    expect(s.receipt.missingSourceIds).toEqual(s.plan.mandatorySourceIds);
    const delivered = setup({ open: { baselineDelivered: true } });
    expect(delivered.receipt.status).toBe('baseline-ready');
  });
  it('a full-read plan: escalated-full until every mandatory source is read, its planned escalations copied', () => {
    const s = setup({ request: { fullReadRequest: 'read the whole profile' } });
    expect(s.plan.fullRead).toBe(true);
    expect(s.receipt.status).toBe('escalated-full');
    expect(s.receipt.escalations).toEqual(
      s.plan.triggeredEscalations.map((trigger) => ({
        trigger,
        reasonCode: trigger,
        observedAt: s.receipt.createdAt,
        action: 'planned',
      })),
    );
    expect(s.receipt.escalations.map((e) => e.trigger)).toContain('explicit-full');
    expect(fold(s, [pre(s.plan, MEMORY, 'c0')]).status).toBe('escalated-full');
    expect(fold(s, readAll(s)).status).toBe('relevant-complete');
  });
  it('a blocked plan: blocked, no record, nothing satisfied, CONTEXT_RECEIPT_BLOCKED_PLAN, and it stays so', () => {
    const s = setup({
      catalogue: {
        ...CATALOGUE,
        documents: [
          testingDoc,
          { ...testingDoc, file: 'stray.md', catalogued: false, refs: [ref('stray.md')] },
        ],
      },
    });
    expect(s.plan.exitCondition).toBe('blocked');
    const r = s.receipt;
    expect([r.status, r.observations, r.satisfiedSourceIds]).toEqual(['blocked', [], []]);
    expect(r.missingSourceIds).toEqual(s.plan.mandatorySourceIds);
    expect(r.planObservation?.toolCallId).toBe('plan-call');
    expect(r.lastError?.code).toBe('CONTEXT_RECEIPT_BLOCKED_PLAN');
    expect(r.lastError?.nextStep).toEqual(expect.any(String));
    expect(r.delivery.reasonCode).toBe('receipt-blocked');
    expect(r.escalations.map((e) => [e.trigger, e.action])).toEqual(
      s.plan.triggeredEscalations.map((t) => [t, 'planned']),
    );
    expect(r.escalations.map((e) => e.trigger)).toContain('profile-catalog-drift');
    const x = step(s, r, pre(s.plan, MEMORY, 'c0'));
    expect(x.ok && [x.changed, x.receipt]).toEqual([false, r]);
  });
  it('a fallback receipt: unverified, no plan observation and no record, whatever its plan call', () => {
    for (const verificationMode of ['instruction-only', 'path-observable'] as const) {
      const clock = new ManualClock(T0);
      const plan = planOf(CATALOGUE, {}, clock);
      const late = { toolCallId: 'plan-call', attemptedAt: new Date(T0 + 60_000).toISOString() };
      const r = openReceipt(plan, { verificationMode, hostSessionId: 'sess-1', planCall: late }, clock);
      if (!r.ok) throw new Error(r.code);
      expect([r.changed, r.receipt.status, r.receipt.planObservation, r.receipt.observations]).toEqual([
        true,
        'unverified',
        null,
        [],
      ]);
      expect([r.receipt.satisfiedSourceIds, r.receipt.delivery.reasonCode]).toEqual([
        [],
        'receipt-unverified',
      ]);
    }
  });
  it('opening is a change: changed is true, and createdAt is the plan observation', () => {
    const s = setup();
    const again = openReceipt(
      s.plan,
      {
        verificationMode: 'structured-plan',
        hostSessionId: 'sess-1',
        planCall: { toolCallId: 'plan-call', attemptedAt: s.plan.plannedAt },
      },
      s.clock,
    );
    expect(again.ok && again.changed).toBe(true);
    expect(s.receipt.createdAt).toBe(s.receipt.planObservation?.observedAt);
  });
  it('a plan without mandatory sources never completes (M is not empty)', () => {
    const s = setup({ plan: (p) => ({ ...p, mandatorySourceIds: [] }) });
    expect([s.receipt.status, s.receipt.completedAt]).toEqual(['baseline-ready', null]);
    const none = setup({
      plan: (p) => ({ ...p, mandatorySourceIds: [] }),
      open: { baselineDelivered: false },
    });
    expect(none.receipt.status).toBe('planned');
  });
});

describe('openReceipt refuses, recording nothing', () => {
  const open = (
    over: { planCall?: ReceiptOpen['planCall'] | undefined },
    at?: (plannedAt: number) => number,
  ) => {
    const clock = new ManualClock(T0);
    const plan = planOf(CATALOGUE, {}, clock);
    if (at) clock.set(at(Date.parse(plan.plannedAt)));
    const r = openReceipt(
      plan,
      {
        verificationMode: 'structured-plan',
        hostSessionId: 'sess-1',
        planCall: { toolCallId: 'plan-call', attemptedAt: plan.plannedAt },
        ...over,
      } as ReceiptOpen,
      clock,
    );
    return r.ok ? ['ok', r.receipt.status] : [r.code, r.path];
  };
  it('a structured-plan receipt without its plan call: CONTEXT_BINDING_REQUIRED at /planCall', () => {
    expect(open({ planCall: undefined })).toEqual(['CONTEXT_BINDING_REQUIRED', '/planCall']);
  });
  it('a plan call attempted after the plan was made: CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED at /planCall/attemptedAt', () => {
    const after = { toolCallId: 'plan-call', attemptedAt: new Date(T0 + 60_000).toISOString() };
    expect(open({ planCall: after }, (p) => p + 120_000)).toEqual([
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/planCall/attemptedAt',
    ]);
    const before = { toolCallId: 'plan-call', attemptedAt: new Date(T0 - 1).toISOString() };
    expect(open({ planCall: before })).toEqual(['ok', 'baseline-ready']);
  });
  it('a clock before the plan was made: CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED at /plannedAt; at the same instant it opens', () => {
    expect(open({}, (p) => p - 1)).toEqual(['CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED', '/plannedAt']);
    expect(open({}, (p) => p)).toEqual(['ok', 'baseline-ready']);
  });
});

describe('observeReceipt: refusals and no-ops', () => {
  it('a clock before the last revision: CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED at /updatedAt; the same instant is allowed', () => {
    const s = setup();
    s.clock.advance(-1);
    expect(refusalOf(observeReceipt(s.receipt, s.plan, pre(s.plan, MEMORY, 'c0'), s.clock))).toEqual([
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/updatedAt',
    ]);
    s.clock.advance(1);
    const same = observeReceipt(s.receipt, s.plan, pre(s.plan, MEMORY, 'c0'), s.clock);
    expect(same.ok && same.receipt.status).toBe('attempted');
  });
  it('an attempt on a complete receipt, a result on a completed one, a consume before completion: CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID at /event', () => {
    const s = setup();
    expect(refusalOf(step(s, s.receipt, { event: 'consume' }))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/event',
    ]);
    const complete = fold(s, readAll(s));
    expect(complete.status).toBe('relevant-complete');
    expect(refusalOf(step(s, complete, pre(s.plan, MEMORY, 'c5')))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/event',
    ]);
    const done = fold(s, [{ event: 'consume' }], complete);
    expect([done.status, done.consumedAt, done.completedAt]).toEqual([
      'completed',
      done.updatedAt,
      complete.completedAt,
    ]);
    expect(done.delivery).toEqual({
      bodyObserved: true,
      reused: false,
      eligible: true,
      reasonCode: 'current-session-content-observed',
    });
    expect(refusalOf(step(s, done, post(s.plan, MEMORY, 'c5')))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/event',
    ]);
    expect(refusalOf(step(s, done, { event: 'consume' }))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/event',
    ]);
  });
  it('an event the table does not know: CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID at /event', () => {
    const s = setup();
    const bogus = { event: 'Notification' } as unknown as ContextEvent;
    expect(refusalOf(step(s, s.receipt, bogus))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/event',
    ]);
  });
  it('a result for a source the plan does not have, or from a layer not of its source: CONTEXT_SOURCE_NOT_AUTHORIZED', () => {
    const s = setup();
    expect(refusalOf(step(s, s.receipt, post(s.plan, 'profile:other.md', 'c0')))).toEqual([
      'CONTEXT_SOURCE_NOT_AUTHORIZED',
      '/sourceId',
    ]);
    expect(
      refusalOf(step(s, s.receipt, post(s.plan, TESTING, 'c0', { sourceLayer: 'memory-query' }))),
    ).toEqual(['CONTEXT_SOURCE_NOT_AUTHORIZED', '/sourceLayer']);
  });
  it('the same PostToolUse delivered twice is one record: the second leaves the receipt unchanged', () => {
    const s = setup();
    const once = fold(s, [pre(s.plan, MEMORY, 'c0'), post(s.plan, MEMORY, 'c0')]);
    const again = step(s, once, post(s.plan, MEMORY, 'c0'));
    expect(again.ok && [again.changed, again.receipt]).toEqual([false, once]);
    expect(once.satisfiedSourceIds).toContain(MEMORY);
  });
});

describe('observeReceipt: an incompatible attempt makes the receipt stale (CAG-501, CAG-502)', () => {
  const staleBy = (over: (s: Setup) => ContextEvent) => {
    const s = setup();
    const x = step(s, s.receipt, over(s));
    if (!x.ok) throw new Error(x.code);
    const r = x.receipt;
    return [r.status, r.lastError?.code, r.escalations.at(-1)?.trigger, r.escalations.at(-1)?.reasonCode];
  };
  const STALE = ['stale', 'CONTEXT_RECEIPT_SCOPE_DRIFT', 'scope-drift', 'scope-drift'];
  it.each([
    ['another root', (s: Setup) => pre(s.plan, MEMORY, 'c0', { activeRoot: '/srv/other' })],
    ['a source the plan does not have', (s: Setup) => pre(s.plan, 'profile:other.md', 'c0')],
    [
      'a source list with a source the plan does not have',
      (s: Setup) => pre(s.plan, [MEMORY, 'memory:x'], 'c0'),
    ],
    ['no source at all', (s: Setup) => pre(s.plan, [], 'c0')],
    ['a risk above the ceiling', (s: Setup) => pre(s.plan, MEMORY, 'c0', { risk: 'high' })],
  ])('%s', (_name, event) => {
    expect(staleBy(event)).toEqual(STALE);
  });
  it('the stale receipt lists nothing satisfied and holds no completion', () => {
    const s = setup();
    const complete = fold(s, readAll(s));
    const r = fold(s, [pre(s.plan, MEMORY, 'c0', { activeRoot: '/srv/other' })], complete);
    expect([r.status, r.satisfiedSourceIds, r.completedAt, r.consumedAt, r.replanCount]).toEqual([
      'stale',
      [],
      null,
      null,
      1,
    ]);
    expect(r.missingSourceIds).toEqual(s.plan.mandatorySourceIds);
    expect(r.delivery.reasonCode).toBe('receipt-stale');
    expect(r.sourceIdentities).toEqual(complete.sourceIdentities);
  });
});

describe('observeReceipt: drift and block', () => {
  it.each([
    ['scope-drift', undefined, 'CONTEXT_RECEIPT_SCOPE_DRIFT'],
    ['profile-drift', undefined, 'CONTEXT_BASELINE_STALE'],
    ['compact', undefined, 'CONTEXT_BINDING_PLAN_EXPIRED'],
    ['compact', 'writer-drift', 'CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION'],
  ] as const)('drift %s (%s) is stale with %s', (trigger, reasonCode, code) => {
    const s = setup();
    const r = fold(s, [{ event: 'drift', trigger, ...(reasonCode ? { reasonCode } : {}) }]);
    expect([r.status, r.lastError?.code, r.escalations.at(-1)]).toEqual([
      'stale',
      code,
      { trigger, reasonCode: reasonCode ?? trigger, observedAt: r.updatedAt, action: 'replan-required' },
    ]);
  });
  it('block: blocked, nothing satisfied, completion cleared, CONTEXT_RECEIPT_BLOCKED_PLAN; absorbing', () => {
    const s = setup();
    const complete = fold(s, readAll(s));
    const x = step(s, complete, { event: 'block' });
    if (!x.ok) throw new Error(x.code);
    const r = x.receipt;
    expect([x.changed, r.status, r.satisfiedSourceIds, r.completedAt, r.consumedAt]).toEqual([
      true,
      'blocked',
      [],
      null,
      null,
    ]);
    expect(r.missingSourceIds).toEqual(s.plan.mandatorySourceIds);
    expect([r.lastError?.code, r.delivery.reasonCode, r.delivery.eligible]).toEqual([
      'CONTEXT_RECEIPT_BLOCKED_PLAN',
      'receipt-blocked',
      false,
    ]);
    expect(r.lastError?.message).toMatch(/\S/);
    expect(r.lastError?.nextStep).toMatch(/\S/);
    expect(
      fold(s, [{ event: 'block', message: 'an unclassified source appeared' }]).lastError?.message,
    ).toMatch(/\S/);
    const early = fold(s, [{ event: 'block' }]);
    expect([early.status, early.satisfiedSourceIds]).toEqual(['blocked', []]);
    const after = step(s, r, { event: 'consume' });
    expect(after.ok && after.changed).toBe(false);
  });
});

describe('observeReceipt: correlation of a result with its attempt (invariant 7, D-RCP-03)', () => {
  const correlated = (attemptArgs: string | null, resultArgs: string | null) => {
    const s = setup();
    const r = fold(s, [
      pre(s.plan, MEMORY, 'c0', { argsDigest: attemptArgs }),
      post(s.plan, MEMORY, 'c0', { argsDigest: resultArgs }),
    ]);
    const rec = lastRecord(r);
    return [rec.hookEvent === 'PostToolUse' && rec.correlationValid, r.satisfiedSourceIds.includes(MEMORY)];
  };
  it('the two argsDigest values equal, or one of them null: correlated', () => {
    expect(correlated(d64(1), d64(1))).toEqual([true, true]);
    expect(correlated(null, d64(1))).toEqual([true, true]);
    expect(correlated(d64(1), null)).toEqual([true, true]);
    expect(correlated(null, null)).toEqual([true, true]);
  });
  it('two different argsDigest values: not correlated, invalid', () => {
    expect(correlated(d64(1), d64(2))).toEqual([false, false]);
  });
  it('two attempts the result matches: no unique match is guessed, the result is uncorrelated', () => {
    const s = setup();
    const r = fold(s, [
      pre(s.plan, MEMORY, 'c0', { argsDigest: d64(1) }),
      pre(s.plan, MEMORY, 'c0', { argsDigest: d64(2) }),
      post(s.plan, MEMORY, 'c0', { argsDigest: null }),
    ]);
    const rec = lastRecord(r);
    expect(rec.hookEvent === 'PostToolUse' && [rec.correlationValid, rec.outcome]).toEqual([
      false,
      'invalid',
    ]);
    expect(r.missingSourceIds).toContain(MEMORY);
  });
  it('one call requesting two sources: each result is correlated to its own attempt, and the two are no conflict', () => {
    const s = setup();
    const r = fold(s, [
      pre(s.plan, [MEMORY, TESTING], 'c0'),
      post(s.plan, MEMORY, 'c0'),
      post(s.plan, TESTING, 'c0'),
    ]);
    expect(r.observations.filter((o) => o.hookEvent === 'PostToolUse' && o.correlationValid)).toHaveLength(4);
    expect([r.status, r.lastError]).toEqual(['relevant-complete', null]);
  });
  it.each([
    ['the epoch', { contextEpoch: 'ctx-other' }],
    ['the plan id', { planId: 'plan-000000000000000000000000' }],
  ])('an attempt and its result that both carry another %s: the result is uncorrelated', (_name, over) => {
    const s = setup();
    const r = fold(s, [pre(s.plan, MEMORY, 'c0', over), post(s.plan, MEMORY, 'c0', over)]);
    const rec = lastRecord(r);
    expect(rec.hookEvent === 'PostToolUse' && [rec.correlationValid, rec.outcome]).toEqual([
      false,
      'invalid',
    ]);
    expect(r.missingSourceIds).toContain(MEMORY);
  });
  it('a result without any attempt is recorded uncorrelated, and the receipt is attempted', () => {
    const s = setup();
    const r = fold(s, [post(s.plan, MEMORY, 'c0')]);
    const rec = lastRecord(r);
    expect(rec.hookEvent === 'PostToolUse' && [rec.correlationValid, rec.outcome]).toEqual([
      false,
      'invalid',
    ]);
    expect(r.status).toBe('attempted');
  });
});

describe('observeReceipt: the flags of a result record are facts of its event', () => {
  const flagsOf = (r: ReturnType<typeof lastRecord>) =>
    r.hookEvent === 'PostToolUse'
      ? {
          outcome: r.outcome,
          observable: r.observable,
          transportSuccess: r.transportSuccess,
          sourceRefsMatch: r.sourceRefsMatch,
          schemaMatch: r.schemaMatch,
          targetMatch: r.targetMatch,
          successful: r.successful,
          bodyObserved: r.bodyObserved,
        }
      : null;
  it('no tool-result member: unobservable, no digest, no bytes', () => {
    for (const over of [{ toolResult: undefined }, { body: null, toolResult: undefined }]) {
      const rec = resultFor(setup(), over);
      expect(
        rec.hookEvent === 'PostToolUse' && [
          rec.outcome,
          rec.observable,
          rec.resultDigest,
          rec.bytes,
          rec.chars,
        ],
      ).toEqual(['unobservable', false, null, null, null]);
    }
  });
  it('a failure marker at any depth of the result: no transport success, failed (D-RCP-57)', () => {
    let toolResult: unknown = { isError: true };
    for (let i = 0; i < 80; i++) toolResult = i % 2 ? [toolResult] : { content: toolResult };
    const rec = resultFor(setup(), { toolResult });
    expect(rec.hookEvent === 'PostToolUse' && [rec.observable, rec.transportSuccess, rec.outcome]).toEqual([
      true,
      false,
      'failed',
    ]);
    const top = resultFor(setup(), { toolResult: { ok: false, text: 'body' } });
    expect(top.hookEvent === 'PostToolUse' && [top.transportSuccess, top.outcome]).toEqual([false, 'failed']);
  });
  it('a tool result JCS cannot canonicalize: unobservable', () => {
    const rec = resultFor(setup(), { toolResult: { n: Number.NaN } });
    expect(
      rec.hookEvent === 'PostToolUse' && [rec.outcome, rec.observable, rec.resultDigest, rec.bytes],
    ).toEqual(['unobservable', false, null, null]);
  });
  it('an observable result: its digest, bytes and characters are those of its JCS form', () => {
    const rec = resultFor(setup(), { toolResult: { text: 'é' } });
    expect(rec.hookEvent === 'PostToolUse' && [rec.observable, rec.bytes, rec.chars]).toEqual([true, 13, 12]);
  });
  it('a result without the body or its identity: not body-observed, not successful, failed', () => {
    expect(flagsOf(resultFor(setup(), { body: null }))).toMatchObject({
      outcome: 'failed',
      bodyObserved: false,
      successful: false,
    });
    const rec = resultFor(setup(), { body: null });
    expect(rec.hookEvent === 'PostToolUse' && rec.contentIdentity).toBeNull();
  });
  it('a source that reported failure: not successful, failed, even with the body', () => {
    expect(flagsOf(resultFor(setup(), { sourceOk: false }))).toMatchObject({
      outcome: 'failed',
      bodyObserved: true,
      successful: false,
    });
    expect(flagsOf(resultFor(setup(), { sourceOk: true }))).toMatchObject({ outcome: 'observed-success' });
  });
  it("an identity the tool claimed: kept (with its contract version) when it is the body's, dropped when digest or size differ", () => {
    const key = 'profile://acme/testing.md';
    const own = contentIdentityOf(key, { text: 'body' });
    const claimed = { ...own, contractVersion: 'profile-doc@2' };
    const s = setup();
    const r = fold(s, [
      pre(s.plan, TESTING, 'c9'),
      post(s.plan, TESTING, 'c9', { contentIdentity: claimed }),
    ]);
    const rec = lastRecord(r);
    expect(rec.hookEvent === 'PostToolUse' && [rec.bodyObserved, rec.contentIdentity]).toEqual([
      true,
      claimed,
    ]);
    expect(r.sourceIdentities.find((i) => i.sourceId === TESTING)?.contentIdentity).toEqual(claimed);
    for (const wrong of [
      { ...claimed, bytes: own.bytes + 1 },
      { ...claimed, digest: 'f'.repeat(64) },
    ]) {
      const bad = resultFor(setup(), { contentIdentity: wrong });
      expect(bad.hookEvent === 'PostToolUse' && [bad.bodyObserved, bad.contentIdentity, bad.outcome]).toEqual(
        [false, null, 'failed'],
      );
    }
  });
  it('an identity claimed without the body is taken as the body observed', () => {
    const own = contentIdentityOf('profile://acme/testing.md', { text: 'body' });
    const rec = resultFor(setup(), { body: undefined, contentIdentity: own });
    expect(rec.hookEvent === 'PostToolUse' && [rec.bodyObserved, rec.contentIdentity, rec.outcome]).toEqual([
      true,
      own,
      'observed-success',
    ]);
  });
  it('a profile source: schema and target match unless the host says they do not', () => {
    expect(flagsOf(resultFor(setup(), { schemaMatch: undefined, targetMatch: undefined }))).toMatchObject({
      outcome: 'observed-success',
      schemaMatch: true,
      targetMatch: true,
    });
    expect(flagsOf(resultFor(setup(), { schemaMatch: false }))).toMatchObject({
      outcome: 'invalid',
      schemaMatch: false,
      targetMatch: true,
    });
    expect(flagsOf(resultFor(setup(), { targetMatch: false }))).toMatchObject({
      outcome: 'invalid',
      schemaMatch: true,
      targetMatch: false,
    });
  });
  it('a memory source: schema and target match only when the host states them true', () => {
    const memory = (over: object) => flagsOf(resultFor(setup(), over, MEMORY));
    expect(memory({ schemaMatch: undefined, targetMatch: undefined })).toMatchObject({
      outcome: 'invalid',
      schemaMatch: false,
      targetMatch: false,
    });
    expect(memory({ schemaMatch: true, targetMatch: undefined })).toMatchObject({
      outcome: 'invalid',
      schemaMatch: true,
      targetMatch: false,
    });
    expect(memory({ schemaMatch: undefined, targetMatch: true })).toMatchObject({
      outcome: 'invalid',
      schemaMatch: false,
      targetMatch: true,
    });
    expect(memory({})).toMatchObject({ outcome: 'observed-success', schemaMatch: true, targetMatch: true });
  });
  it("the source's metadata: matched in any order, not matched when not re-observed or when a ref is missing", () => {
    const two = {
      ...CATALOGUE,
      documents: [
        {
          ...testingDoc,
          refs: [ref('testing.md'), { ...ref('testing.md'), path: `${ROOT}/docs/testing.md` }],
        },
      ],
    };
    const refs = two.documents[0]!.refs;
    for (const liveRefs of [refs, [...refs].reverse()]) {
      const rec = resultFor(setup({ catalogue: two }), { liveRefs });
      expect(flagsOf(rec), JSON.stringify(liveRefs.map((r) => r.path))).toMatchObject({
        outcome: 'observed-success',
        sourceRefsMatch: true,
      });
    }
    for (const liveRefs of [undefined, refs.slice(0, 1), [...refs, refs[0]!]]) {
      expect(flagsOf(resultFor(setup({ catalogue: two }), { liveRefs }))).toMatchObject({
        outcome: 'invalid',
        sourceRefsMatch: false,
      });
    }
  });
});

describe('deriveReceipt: the derived fields from the records alone', () => {
  it('a complete receipt without a host session: not eligible for reuse, host-session-unobservable', () => {
    const s = setup({ open: { hostSessionId: null } });
    const r = fold(s, readAll(s, { hostSessionId: null }));
    expect([r.status, r.delivery]).toEqual([
      'relevant-complete',
      { bodyObserved: true, reused: false, eligible: false, reasonCode: 'host-session-unobservable' },
    ]);
  });
  it('an incomplete receipt without a host session: host-session-unobservable before body-read-required', () => {
    const s = setup({ open: { hostSessionId: null } });
    expect(s.receipt.delivery.reasonCode).toBe('host-session-unobservable');
  });
  it('a cached result with a reused record id satisfies nothing in a receipt without reuseFrom (clause 4)', () => {
    const s = setup();
    const complete = fold(s, readAll(s));
    const observations = complete.observations.map((o) =>
      o.hookEvent === 'PostToolUse' && o.sourceId === MEMORY
        ? { ...o, cache: true, reusedObservationId: 'obs-6a89d6e8ae43974627b66a68' }
        : o,
    );
    const d = deriveReceipt({ ...draftOf(complete), observations }, s.plan, complete.updatedAt);
    expect([d.status, d.missingSourceIds, d.completedAt]).toEqual(['attempted', [MEMORY], null]);
    expect(d.sourceIdentities.map((i) => i.sourceId)).not.toContain(MEMORY);
  });
  it('a fallback receipt lists nothing satisfied whatever its records hold', () => {
    const s = setup();
    const complete = fold(s, readAll(s));
    for (const verificationMode of ['instruction-only', 'path-observable'] as const) {
      const d = deriveReceipt(
        { ...draftOf(complete), verificationMode, status: 'unverified', completedAt: null, consumedAt: null },
        s.plan,
        complete.updatedAt,
      );
      expect([d.status, d.satisfiedSourceIds, d.missingSourceIds]).toEqual([
        'unverified',
        [],
        s.plan.mandatorySourceIds,
      ]);
      expect(d.delivery.reasonCode).toBe('receipt-unverified');
    }
  });
  it('status is derived only for a structured-plan receipt: a fallback draft keeps the status it was written with', () => {
    const s = setup();
    const attempted = fold(s, [pre(s.plan, MEMORY, 'c0')]);
    const d = deriveReceipt(
      { ...draftOf(attempted), verificationMode: 'path-observable', status: 'planned' },
      s.plan,
      attempted.updatedAt,
    );
    expect([d.status, d.satisfiedSourceIds]).toEqual(['planned', []]);
  });
  // An incomplete receipt holding reuse results: a mandatory source beyond those reused.
  const withReuse = (keepBaseline: boolean) => {
    const s = setup();
    const complete = fold(s, readAll(s));
    const observations = complete.observations.flatMap((o, i) =>
      o.hookEvent === 'PreToolUse' || (o.outcome === 'baseline-ready' && !keepBaseline)
        ? []
        : o.outcome === 'baseline-ready'
          ? [o]
          : [{ ...o, cache: true, reusedObservationId: `obs-${d64(i).slice(-24)}` }],
    );
    const reuseFrom = {
      planId: 'plan-000000000000000000000000',
      planContentId: s.plan.planContentId,
      receiptId: 'receipt-000000000000000000000000',
      sourceIdentitiesDigest: d64(0),
    };
    const plan = { ...s.plan, mandatorySourceIds: [...s.plan.mandatorySourceIds, 'profile:extra.md'] };
    return deriveReceipt({ ...draftOf(complete), observations, reuseFrom }, plan, complete.updatedAt);
  };
  it('a reuse result is no read result: with baseline results and reuse results only, an incomplete receipt is baseline-ready', () => {
    const d = withReuse(true);
    expect(d.satisfiedSourceIds).toEqual([
      'memory:status',
      'profile:README.md',
      'profile:config.json',
      TESTING,
    ]);
    expect([d.status, d.missingSourceIds, d.completedAt]).toEqual([
      'baseline-ready',
      ['profile:extra.md'],
      null,
    ]);
  });
  it('with reuse results only (no attempt, read result or baseline result), an incomplete receipt is planned', () => {
    const d = withReuse(false);
    expect([d.status, d.satisfiedSourceIds]).toEqual(['planned', [MEMORY, TESTING]]);
    expect(d.delivery).toMatchObject({ reused: true, reasonCode: 'same-session-epoch-content-observed' });
  });
  it('a status outside relevant-complete and completed holds no completedAt or consumedAt', () => {
    const s = setup();
    const done = fold(s, [...readAll(s), { event: 'consume' }]);
    for (const status of ['stale', 'blocked', 'unverified'] as const) {
      const d = deriveReceipt({ ...draftOf(done), status }, s.plan, done.updatedAt);
      expect([d.status, d.completedAt, d.consumedAt], status).toEqual([status, null, null]);
    }
  });
  it('a later result that un-satisfies a source clears the completion', () => {
    const s = setup();
    const complete = fold(s, readAll(s));
    const r = fold(s, [post(s.plan, MEMORY, 'c0', { toolResult: { text: 'other' } })], complete);
    expect([r.status, r.completedAt]).toEqual(['unverified', null]);
    // An attempt made before the receipt completed whose result arrives after it.
    const t = setup();
    const early = fold(t, [pre(t.plan, MEMORY, 'c7'), ...readAll(t)]);
    expect([early.status, early.completedAt]).toEqual(['relevant-complete', early.updatedAt]);
    const failed = fold(t, [post(t.plan, MEMORY, 'c7', { sourceOk: false })], early);
    expect([failed.status, failed.completedAt, failed.missingSourceIds]).toEqual([
      'attempted',
      null,
      [MEMORY],
    ]);
  });
});

describe('observeReceipt: at most 100 records (Limits)', () => {
  // Attempts of one call for one source that differ in their arguments: all are attempts of the
  // source's latest record once it is correlated to one of them, so eviction cannot drop them.
  function full(s: Setup) {
    const events: ContextEvent[] = [];
    for (let i = 1; i <= 96; i++) events.push(pre(s.plan, MEMORY, 'c0', { argsDigest: d64(i) }));
    events.push(post(s.plan, MEMORY, 'c0', { argsDigest: d64(1) }));
    const r = fold(s, events);
    expect(r.observations).toHaveLength(99);
    return r;
  }
  it('an attempt that would make 101 records none of which may be evicted: CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID at /observations', () => {
    const s = setup();
    const r = fold(s, [pre(s.plan, MEMORY, 'c0', { argsDigest: d64(97) })], full(s));
    expect(r.observations).toHaveLength(100);
    expect(refusalOf(step(s, r, pre(s.plan, MEMORY, 'c0', { argsDigest: d64(98) })))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/observations',
    ]);
  });
  it('a result that would make 101 records none of which may be evicted: the same refusal', () => {
    const s = setup();
    const r = fold(s, [pre(s.plan, TESTING, 'c1')], full(s));
    expect(r.observations).toHaveLength(100);
    expect(refusalOf(step(s, r, post(s.plan, TESTING, 'c1')))).toEqual([
      'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
      '/observations',
    ]);
  });
  it('an evictable record makes room: the oldest one goes', () => {
    const s = setup();
    const r = fold(s, [pre(s.plan, TESTING, 'c1'), pre(s.plan, TESTING, 'c2')], full(s));
    expect(r.observations).toHaveLength(100);
    expect(r.observations.filter((o) => o.sourceId === TESTING).map((o) => o.toolCallId)).toEqual(['c2']);
  });
});
