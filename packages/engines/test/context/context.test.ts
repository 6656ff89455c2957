// @module-tag unit
// The context engines' behaviour rules (docs/spec/context-acquisition-gate.md): a seed never takes
// a message word as its intent, planning refuses a hidden full read, only a correlated PostToolUse
// with the body's identity satisfies a source, reuse never crosses an epoch, and the ledger keeps
// every delivered record.
import { describe, expect, it } from 'vitest';
import {
  type ContextCatalogue,
  type ContextEvent,
  decideReuse,
  formIntentSeed,
  ManualClock,
  observeReceipt,
  openReceipt,
  planContext,
  writeLedger,
} from '../../src/index.ts';
import { catalogueOf, ROOT, ref } from './helpers/catalogue.ts';

const T0 = Date.parse('2026-12-02T05:00:00.000Z');
const catalogue: ContextCatalogue = catalogueOf();
function setup(epoch = 'ctx-one') {
  const clock = new ManualClock(T0);
  const s = formIntentSeed({ intent: 'fix', contextEpoch: epoch }, clock);
  if (!s.ok) throw new Error(s.message);
  clock.advance(10);
  const p = planContext(
    catalogue,
    {
      seed: s.seed,
      host: 'standalone',
      invocationNonce: `nonce-${epoch}-0123456789`,
      changeTypes: ['testing'],
    },
    clock,
  );
  if (!p.ok) throw new Error(p.message);
  clock.advance(10);
  const r = openReceipt(
    p.plan,
    {
      verificationMode: 'structured-plan',
      hostSessionId: 'sess-1',
      planCall: { toolCallId: 'plan-call', attemptedAt: p.plan.plannedAt },
    },
    clock,
  );
  if (!r.ok) throw new Error(r.message);
  return { clock, seed: s.seed, plan: p.plan, receipt: r.receipt };
}
const b = (plan: { planId: string; contextBinding: { contextEpoch: string } }) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: ROOT,
});
const pre = (plan: Parameters<typeof b>[0], sourceId: string, call: string): ContextEvent => ({
  event: 'PreToolUse',
  toolCallId: call,
  sourceIds: [sourceId],
  actionClass: 'context-read',
  hostSessionId: 'sess-1',
  ...b(plan),
});
const post = (
  plan: Parameters<typeof b>[0],
  sourceId: string,
  call: string,
  over: object = {},
): ContextEvent => ({
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
  ...b(plan),
  ...over,
});
function fold(s: ReturnType<typeof setup>, events: ContextEvent[]) {
  let r = s.receipt;
  for (const e of events) {
    s.clock.advance(5);
    const x = observeReceipt(r, s.plan, e, s.clock);
    if (!x.ok) throw new Error(`${x.code}: ${x.message}`);
    r = x.receipt;
  }
  return r;
}
const readAll = (s: ReturnType<typeof setup>, over: object = {}) =>
  ['memory:status', 'profile:testing.md'].flatMap((id, i) => [
    pre(s.plan, id, `c${i}`),
    post(s.plan, id, `c${i}`, over),
  ]);

describe('seed and plan', () => {
  it('a keyword of the message is never an intent', () => {
    const r = formIntentSeed({ intent: 'refactor the billing module' }, new ManualClock(T0));
    expect(r.ok ? null : [r.code, r.path]).toEqual(['CONTEXT_INTENT_INVALID', '/intent']);
    const u = formIntentSeed({ semantic: 'fix', planId: 'plan-x' }, new ManualClock(T0));
    expect(u.ok ? null : u.code).toBe('CONTEXT_PLAN_INVALID');
  });
  it('a cache artifact the plan could not hold is refused with CONTEXT_PLAN_INVALID, a valid one is a hit (D-RCP-55)', () => {
    const s = setup();
    const ask = (cacheArtifacts: string[]) =>
      planContext(
        catalogue,
        {
          seed: s.seed,
          host: 'standalone',
          invocationNonce: 'nonce-0123456789abc',
          changeTypes: ['testing'],
          cacheArtifacts,
        },
        s.clock,
      );
    for (const [names, path] of [
      [['artifact:summary'], '/cacheArtifacts/0'],
      [['summary', 'Summary'], '/cacheArtifacts/1'],
      [['a'.repeat(65)], '/cacheArtifacts/0'],
      [[''], '/cacheArtifacts/0'],
      [Array.from({ length: 33 }, (_, i) => `artifact-${i}`), '/cacheArtifacts'],
    ] as const) {
      const r = ask([...names]);
      expect(r.ok ? null : [r.code, r.path], names.join(',')).toEqual(['CONTEXT_PLAN_INVALID', path]);
    }
    const most = ask([
      ...Array.from({ length: 31 }, (_, i) => `artifact-${i}`),
      'artifact-0',
      'a'.repeat(64),
    ]);
    expect(most.ok, 'at most 32 distinct names, 64 characters each').toBe(true);
    const hit = ask(['summary', 'summary']);
    expect(
      hit.ok ? [hit.plan.cacheDecision.status, hit.plan.cacheDecision.reusedArtifacts] : hit.code,
    ).toEqual(['hit', ['summary']]);
  });
  it('a body other than the baseline read while planning is a hidden full read', () => {
    const s = setup();
    const r = planContext(
      catalogue,
      {
        seed: s.seed,
        host: 'standalone',
        invocationNonce: 'nonce-0123456789abc',
        changeTypes: ['testing'],
        readTrace: [
          { sourceId: 'profile:README.md', readAt: s.plan.plannedAt },
          { sourceId: 'profile:testing.md', readAt: s.plan.plannedAt },
        ],
      },
      s.clock,
    );
    expect(r.ok ? null : [r.code, r.path]).toEqual(['CONTEXT_HIDDEN_FULL_READ', '/readTrace/1']);
    const early = planContext(
      catalogue,
      {
        seed: s.seed,
        host: 'standalone',
        invocationNonce: 'nonce-0123456789abc',
        changeTypes: ['testing'],
        readTrace: [{ sourceId: 'profile:README.md', readAt: '2026-12-01T00:00:00.000Z' }],
      },
      s.clock,
    );
    expect(early.ok ? null : early.code).toBe('CONTEXT_SEED_AFTER_CONTEXT_READ');
    const v1 = planContext(
      catalogue,
      {
        seed: s.seed,
        host: 'standalone',
        invocationNonce: 'nonce-0123456789abc',
        contract: 'ContextReadPlanV1',
      },
      s.clock,
    );
    expect(v1.ok ? null : v1.code).toBe('CONTEXT_PLAN_V1_WRITE_FORBIDDEN');
  });
});

describe('receipt', () => {
  it('completes only from correlated PostToolUse results carrying the body', () => {
    const s = setup();
    expect(s.receipt.status).toBe('baseline-ready');
    expect(fold(s, readAll(s)).status).toBe('relevant-complete');
  });
  it('PreToolUse alone satisfies nothing, and a duplicate is idempotent', () => {
    const s = setup();
    const r = fold(s, [
      pre(s.plan, 'memory:status', 'c0'),
      pre(s.plan, 'memory:status', 'c0'),
      pre(s.plan, 'profile:testing.md', 'c1'),
    ]);
    expect(r.status).toBe('attempted');
    expect(r.observations.filter((o) => o.hookEvent === 'PreToolUse')).toHaveLength(2);
    expect(r.missingSourceIds).toEqual(['memory:status', 'profile:testing.md']);
  });
  it.each([
    ['a computation-cache hit', { cache: true }],
    ['a result without the body', { body: null }],
    ['a result of another plan', { planId: 'plan-000000000000000000000000' }],
    ['a result of another epoch', { contextEpoch: 'ctx-old' }],
    ['a result from another root', { activeRoot: '/srv/other' }],
    ['a result for another plan content', { planContentId: `plan-content-${'0'.repeat(64)}` }],
    ['a result about another target', { project: 'other' }],
    [
      'a body whose claimed identity is not its own',
      {
        contentIdentity: {
          schemaVersion: 'ContentIdentityV1',
          algorithm: 'sha256',
          sourceKey: 'profile://acme/testing.md',
          contractVersion: '1',
          digest: 'f'.repeat(64),
          bytes: 4,
        },
      },
    ],
    ['a tool result with a failure marker', { toolResult: { isError: true, text: 'body' } }],
    ['a source whose metadata changed', { liveRefs: [{ ...ref('testing.md'), size: 11 }] }],
  ])('%s never completes a receipt', (_name, over) => {
    const s = setup();
    const r = fold(s, readAll(s, over));
    expect(r.status).not.toBe('relevant-complete');
    expect(r.completedAt).toBeNull();
  });
  it('a fallback receipt stays unverified', () => {
    const s = setup();
    const f = openReceipt(s.plan, { verificationMode: 'instruction-only', hostSessionId: 'sess-1' }, s.clock);
    if (!f.ok) throw new Error(f.message);
    const r = observeReceipt(f.receipt, s.plan, post(s.plan, 'memory:status', 'c0'), s.clock);
    expect(r.ok && [r.changed, r.receipt.status]).toEqual([false, 'unverified']);
  });
  it('an attempt outside the envelope makes the receipt stale once', () => {
    const s = setup();
    const wide = {
      ...(pre(s.plan, 'profile:testing.md', 'c9') as object),
      actionClass: 'dangerous',
    } as ContextEvent;
    const r = fold(s, [wide, wide]);
    expect([r.status, r.replanCount, r.lastError?.code]).toEqual(['stale', 1, 'CONTEXT_RECEIPT_SCOPE_DRIFT']);
  });
  it('conflicting PostToolUse results for one call make it unverified', () => {
    const s = setup();
    const r = fold(s, [
      pre(s.plan, 'memory:status', 'c0'),
      post(s.plan, 'memory:status', 'c0'),
      post(s.plan, 'memory:status', 'c0', { toolResult: { text: 'other' } }),
    ]);
    expect([r.status, r.lastError?.code]).toEqual(['unverified', 'CONTEXT_POST_TOOL_USE_CONFLICT']);
  });
});

describe('reuse and ledger', () => {
  it('delivery is never reused across epochs, sessions or with full-only', () => {
    const s = setup('ctx-one');
    const prior = fold(s, readAll(s));
    const other = setup('ctx-two');
    const ids = prior.sourceIdentities.filter((i) => other.plan.mandatorySourceIds.includes(i.sourceId));
    const d = decideReuse(
      other.plan,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: 'sess-1',
        currentSourceIdentities: ids,
        priorPlan: s.plan,
        priorReceipt: prior,
      },
      other.clock,
    );
    expect([d.computation.reuse, d.delivery]).toEqual([
      true,
      { reuse: false, reasonCode: 'context-epoch-mismatch' },
    ]);
    const same = decideReuse(
      s.plan,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: 'sess-1',
        currentSourceIdentities: ids,
        priorPlan: s.plan,
        priorReceipt: prior,
      },
      s.clock,
    );
    expect(same.delivery.reuse).toBe(true);
    const full = decideReuse(
      s.plan,
      {
        executionOptimizationMode: 'full-only',
        hostSessionId: 'sess-1',
        currentSourceIdentities: ids,
        priorPlan: s.plan,
        priorReceipt: prior,
      },
      s.clock,
    );
    expect([full.computation, full.delivery]).toEqual([
      { reuse: false, reasonCode: 'execution-optimization-full-only' },
      { reuse: false, reasonCode: 'execution-optimization-full-only' },
    ]);
  });
  it('a write from an older snapshot keeps every delivered record', () => {
    const s = setup();
    const done = fold(s, readAll(s));
    const a = writeLedger(
      null,
      {
        binding: s.plan.contextBinding,
        records: done.observations,
        mandatorySourceIds: s.plan.mandatorySourceIds,
      },
      s.clock,
    );
    if (!a.ok) throw new Error(a.message);
    const b2 = writeLedger(
      a.ledger,
      {
        binding: s.plan.contextBinding,
        records: done.observations.slice(0, 1),
        mandatorySourceIds: s.plan.mandatorySourceIds,
      },
      s.clock,
    );
    if (!b2.ok) throw new Error(b2.message);
    expect(b2.ledger.observations).toEqual(a.ledger.observations);
    expect(b2.ledger.fold?.missingSourceIds).toEqual([]);
  });
});
