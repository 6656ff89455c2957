// @module-tag unit
// Every document the reference context engines write (seed, plan, receipt revisions, ledger
// snapshots, reuse decisions, replayed receipts) is valid under the reference validator, alone
// and as a context-acquisition-chain bundle.
import {
  type ContextCatalogue,
  type ContextDocumentInput,
  type ContextEvent,
  type ContextPlanRequest,
  decideReuse,
  formIntentSeed,
  ManualClock,
  observeReceipt,
  openReceipt,
  planContext,
  receiptByReuse,
  replayReceipt,
  writeLedger,
} from '@agent-contracts/engines';
import type {
  ContextReadPlanV2,
  ContextReadReceiptV2,
  ContextSourceObservationLedgerV1,
  IntentSeedV1,
} from '@agent-contracts/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate, validateBundle } from '../src/index.ts';

const T0 = Date.parse('2026-12-02T05:00:00.000Z');
const ROOT = '/srv/work/acme-api';
const PROJECT = 'acme-api';
const dir = `${ROOT}/.agent/profile`;
const ref = (file: string, size: number, exists = true) => ({
  path: `${dir}/${file}`,
  layer: 'profile',
  exists,
  size: exists ? size : null,
  mtimeMs: exists ? 1795770410123.7 : null,
});
const doc = (file: string, over: Partial<ContextDocumentInput> = {}): ContextDocumentInput => ({
  file,
  catalogued: true,
  inventoried: true,
  kind: 'profile',
  readable: true,
  requiredToExist: false,
  serves: [],
  refs: [ref(file, 100 + file.length)],
  ...over,
});
const catalogue = (extra: ContextDocumentInput[] = []): ContextCatalogue => ({
  activeRoot: ROOT,
  project: PROJECT,
  index: { file: 'README.md', refs: [ref('README.md', 12)], body: { text: '# acme-api\n' } },
  config: {
    file: 'config.json',
    refs: [ref('config.json', 20)],
    body: { value: { mode: 'team' }, contractVersion: 'profile-config@1' },
  },
  documents: [
    doc('architecture.md', { serves: ['architecture', 'source-code'] }),
    doc('testing.md', { serves: ['testing'] }),
    doc('docs.md', { serves: ['docs'] }),
    doc('config.local.json', { kind: 'profile-local', serves: ['config'] }),
    doc('glossary.csv', { readable: false }),
    ...extra,
  ],
});

const expectValid = (d: unknown) => {
  const r = validate(d);
  expect(r.ok ? [] : r.issues).toEqual([]);
};
const expectChain = (documents: unknown[]) => {
  const r = validateBundle({ kind: 'context-acquisition-chain', documents });
  expect(r.ok ? [] : r.issues).toEqual([]);
};

function seedOf(clock: ManualClock, input: Record<string, unknown>): IntentSeedV1 {
  const r = formIntentSeed({ createdAt: new Date(clock.now()).toISOString(), ...input }, clock);
  if (!r.ok) throw new Error(r.message);
  return r.seed;
}
function planOf(
  clock: ManualClock,
  seed: IntentSeedV1,
  over: Partial<ContextPlanRequest> = {},
  extra: ContextDocumentInput[] = [],
) {
  const r = planContext(
    catalogue(extra),
    { seed, host: 'standalone', invocationNonce: `nonce-${clock.now()}-0123456789`, ...over },
    clock,
  );
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r.plan;
}
const binding = (plan: ContextReadPlanV2) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: ROOT,
});
const readOf = (plan: ContextReadPlanV2, sourceId: string, call: string): ContextEvent[] => {
  const source = plan.selectedSources.find((s) => s.sourceId === sourceId)!;
  const memory = source.kind === 'memory';
  return [
    {
      event: 'PreToolUse',
      toolCallId: call,
      sourceIds: [sourceId],
      actionClass: 'context-read',
      hostSessionId: 'sess-1',
      ...binding(plan),
    },
    {
      event: 'PostToolUse',
      toolCallId: call,
      sourceId,
      hostSessionId: 'sess-1',
      sourceLayer: source.sourceLayer,
      liveRefs: source.sourceRefs.map(({ metadataDigest: _d, ...r }) => r),
      toolResult: { content: `body of ${sourceId}` },
      body: { text: `body of ${sourceId}` },
      ...(memory ? { schemaMatch: true, targetMatch: true } : {}),
      ...binding(plan),
    },
  ];
};
/** Fold events into the receipt, writing the ledger before each revision (records reach the ledger first). */
function run(
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  events: ContextEvent[],
  clock: ManualClock,
  ledgers: ContextSourceObservationLedgerV1[] = [],
) {
  const revisions = [receipt];
  for (const e of events) {
    clock.advance(7);
    const r = observeReceipt(revisions.at(-1)!, plan, e, clock);
    if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
    if (r.changed) {
      revisions.push(r.receipt);
      ledgers.push(ledgerOf(plan, r.receipt, ledgers.at(-1) ?? null, clock));
    }
  }
  return revisions;
}
function ledgerOf(
  plan: ContextReadPlanV2,
  receipt: ContextReadReceiptV2,
  stored: ContextSourceObservationLedgerV1 | null,
  clock: ManualClock,
) {
  const w = writeLedger(
    stored,
    {
      binding: plan.contextBinding,
      records: receipt.observations,
      mandatorySourceIds: plan.mandatorySourceIds,
    },
    clock,
  );
  if (!w.ok) throw new Error(w.message);
  return w.ledger;
}
const open = (plan: ContextReadPlanV2, clock: ManualClock, hostSessionId: string | null = 'sess-1') => {
  const attemptedAt = plan.plannedAt;
  clock.advance(3);
  const r = openReceipt(
    plan,
    {
      verificationMode: 'structured-plan',
      hostSessionId,
      planCall: { toolCallId: 'call-plan', attemptedAt },
    },
    clock,
  );
  if (!r.ok) throw new Error(r.message);
  return r.receipt;
};

describe('context engines write valid documents', () => {
  it('a dev plan read to completion: plan, every receipt revision, ledger, chain', () => {
    const clock = new ManualClock(T0);
    const seed = seedOf(clock, { intent: 'dev', targetHint: PROJECT, confidence: 0.9 });
    clock.advance(100);
    const plan = planOf(clock, seed, { changeTypes: ['source-code', 'testing'] });
    expectValid(seed);
    expectValid(plan);
    expect(plan.exitCondition).toBe('relevant-complete');
    expect(plan.selectedSources.map((s) => s.sourceId)).toEqual([
      'memory:status',
      'profile:architecture.md',
      'profile:testing.md',
    ]);
    const receipt = open(plan, clock);
    expect(receipt.status).toBe('baseline-ready');
    const events = plan.selectedSources.flatMap((s, i) => readOf(plan, s.sourceId, `call-${i}`));
    const ledgers: ContextSourceObservationLedgerV1[] = [ledgerOf(plan, receipt, null, clock)];
    const revisions = run(receipt, plan, [...events, { event: 'consume' }], clock, ledgers);
    for (const r of revisions) expectValid(r);
    for (const l of ledgers) expectValid(l);
    const last = revisions.at(-1)!;
    expect(last.status).toBe('completed');
    expect(last.missingSourceIds).toEqual([]);
    expect(ledgers.at(-1)!.fold?.missingSourceIds).toEqual([]);
    expectChain([seed, plan, ...ledgers, ...revisions]);
  });

  it('random event sequences keep every revision and ledger snapshot valid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('dev', 'resume', 'chat', 'audit', 'analyze'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(
          fc.record({
            kind: fc.constantFrom(
              'pre',
              'post',
              'post-cache',
              'post-foreign',
              'post-no-body',
              'drift',
              'consume',
              'pre-wide',
            ),
            source: fc.nat(5),
            call: fc.nat(3),
          }),
          { maxLength: 14 },
        ),
        (intent, confidence, steps) => {
          const clock = new ManualClock(T0);
          const seed = seedOf(clock, { intent, confidence });
          clock.advance(10);
          const plan = planOf(clock, seed, {
            changeTypes: intent === 'chat' || intent === 'resume' ? [] : ['docs'],
          });
          expectValid(plan);
          let receipt = open(plan, clock);
          const revisions = [receipt];
          const ledgers = [ledgerOf(plan, receipt, null, clock)];
          const sources = plan.selectedSources;
          for (const st of steps) {
            const s = sources[st.source % sources.length]!;
            const [pre, post] = readOf(plan, s.sourceId, `call-${st.call}`) as [
              ContextEvent,
              Extract<ContextEvent, { event: 'PostToolUse' }>,
            ];
            const event: ContextEvent =
              st.kind === 'pre'
                ? pre
                : st.kind === 'pre-wide'
                  ? { ...(pre as Extract<ContextEvent, { event: 'PreToolUse' }>), actionClass: 'dangerous' }
                  : st.kind === 'post'
                    ? post
                    : st.kind === 'post-cache'
                      ? { ...post, cache: true }
                      : st.kind === 'post-foreign'
                        ? { ...post, planId: 'plan-000000000000000000000000' }
                        : st.kind === 'post-no-body'
                          ? { ...post, body: null }
                          : st.kind === 'drift'
                            ? { event: 'drift', trigger: 'profile-drift' }
                            : { event: 'consume' };
            clock.advance(5);
            const r = observeReceipt(receipt, plan, event, clock);
            if (!r.ok) continue;
            if (r.changed) {
              receipt = r.receipt;
              revisions.push(receipt);
              ledgers.push(ledgerOf(plan, receipt, ledgers.at(-1)!, clock));
              expectValid(receipt);
              expectValid(ledgers.at(-1));
            }
          }
          expectChain([seed, plan, ...ledgers, ...revisions]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('plans of every intent and option are valid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('dev', 'fix', 'analyze', 'audit', 'self-fix', 'chat', 'resume', 'other'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.subarray([
          'docs',
          'source-code',
          'release',
          'security',
          'config',
          'public-contract',
          'destructive',
        ] as const),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('normal', 'high', 'critical'),
        (intent, confidence, changeTypes, local, explicitFull, uncatalogued, riskHint) => {
          const clock = new ManualClock(T0);
          const seed = seedOf(clock, { intent, confidence, riskHint });
          const mut = ['dev', 'fix', 'self-fix', 'other', 'analyze', 'audit'].includes(intent);
          const r = planContext(
            catalogue(uncatalogued ? [doc('notes.md', { catalogued: false })] : []),
            {
              seed,
              host: 'standalone',
              invocationNonce: 'nonce-0123456789abcdef',
              changeTypes: mut ? (changeTypes.length ? [...changeTypes] : ['docs']) : [],
              localSourcesRequested: local,
              fullReadRequest: explicitFull ? 'read everything please' : null,
            },
            clock,
          );
          if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
          expectValid(r.plan);
          if (uncatalogued) expect(r.plan.exitCondition).toBe('blocked');
        },
      ),
      { numRuns: 120 },
    );
  });

  it('fallback and blocked receipts, reuse decisions, a reuse receipt, ledger merges and a replay', () => {
    const clock = new ManualClock(T0);
    const seed = seedOf(clock, { intent: 'fix', confidence: 0.8 });
    clock.advance(10);
    const plan = planOf(clock, seed, { changeTypes: ['source-code'] });
    const fallback = openReceipt(
      plan,
      { verificationMode: 'path-observable', hostSessionId: 'sess-1' },
      clock,
    );
    if (!fallback.ok) throw new Error(fallback.message);
    expectValid(fallback.receipt);
    expect(fallback.receipt.status).toBe('unverified');
    const blockedPlan = planOf(clock, seed, { changeTypes: ['source-code'] }, [
      doc('notes.md', { catalogued: false }),
    ]);
    const blocked = open(blockedPlan, clock);
    expectValid(blocked);
    expect(blocked.status).toBe('blocked');

    const first = open(plan, clock);
    const priorLedgers = [ledgerOf(plan, first, null, clock)];
    const priorRevisions = run(
      first,
      plan,
      plan.selectedSources.flatMap((s, i) => readOf(plan, s.sourceId, `c${i}`)),
      clock,
      priorLedgers,
    );
    const prior = priorRevisions.at(-1)!;
    expect(prior.status).toBe('relevant-complete');
    clock.advance(50);
    const again = planOf(clock, seed, {
      changeTypes: ['source-code'],
      invocationNonce: 'nonce-second-0123456789',
    });
    expect(again.planContentId).toBe(plan.planContentId);
    expect(again.planId).not.toBe(plan.planId);
    const decision = decideReuse(
      again,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: 'sess-1',
        currentSourceIdentities: prior.sourceIdentities.filter((i) =>
          again.mandatorySourceIds.includes(i.sourceId),
        ),
        priorPlan: plan,
        priorReceipt: prior,
      },
      clock,
    );
    expectValid(decision);
    expect(decision.delivery).toEqual({ reuse: true, reasonCode: 'same-session-epoch-content-observed' });
    clock.advance(5);
    const reused = receiptByReuse(
      again,
      decision,
      prior,
      { toolCallId: 'call-plan-2', attemptedAt: again.plannedAt },
      clock,
    );
    if (!reused.ok) throw new Error(reused.message);
    expectValid(reused.receipt);
    expect(reused.receipt.status).toBe('relevant-complete');
    // A plan call attempted after the plan was made opens nothing (D-RCP-53): the receipt would
    // break the chain's order (invariant 24).
    const late = receiptByReuse(
      again,
      decision,
      prior,
      { toolCallId: 'call-plan-2', attemptedAt: new Date(Date.parse(again.plannedAt) + 1).toISOString() },
      clock,
    );
    expect(late.ok ? null : [late.code, late.path]).toEqual([
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/planCall/attemptedAt',
    ]);
    expectChain([seed, again, reused.receipt, decision, plan, prior]);
    for (const [mode, session] of [
      ['full-only', 'sess-1'],
      ['safe-auto', 'sess-2'],
      ['safe-auto', null],
    ] as const) {
      const d = decideReuse(
        again,
        {
          executionOptimizationMode: mode,
          hostSessionId: session,
          currentSourceIdentities: null,
          priorPlan: plan,
          priorReceipt: prior,
        },
        clock,
      );
      expectValid(d);
      expect(d.delivery.reuse).toBe(false);
    }

    // Two writers: the second holds an older snapshot; nothing delivered is lost.
    const stored = priorLedgers.at(-1)!;
    clock.advance(5);
    const older = writeLedger(
      stored,
      {
        binding: plan.contextBinding,
        records: prior.observations.slice(0, 2),
        mandatorySourceIds: plan.mandatorySourceIds,
      },
      clock,
    );
    if (!older.ok) throw new Error(older.message);
    expectValid(older.ledger);
    expect(older.ledger.observations.map((o) => o.observationId)).toEqual(
      stored.observations.map((o) => o.observationId),
    );
    expect(older.ledger.revision).toBe(stored.revision + 1);
    const c = { ledger: older.ledger };
    clock.advance(5);
    const stale = observeReceipt(
      prior,
      plan,
      { event: 'drift', trigger: 'compact', reasonCode: 'writer-drift' },
      clock,
    );
    if (!stale.ok) throw new Error(stale.message);
    expectValid(stale.receipt);
    clock.advance(5);
    const live = Object.fromEntries(
      plan.selectedSources
        .concat()
        .map((s) => [s.sourceId, s.sourceRefs.map(({ metadataDigest: _d, ...r }) => r)]),
    );
    for (const s of plan.baselineSources)
      live[s.sourceId] = s.sourceRefs.map(({ metadataDigest: _d, ...r }) => r);
    const replay = replayReceipt(c.ledger, stale.receipt, plan, live, clock);
    if (!replay.ok) throw new Error(replay.message);
    expectValid(replay.receipt);
    expect(replay.receipt.status).toBe('relevant-complete');
    const ledgerIds = new Set(c.ledger.observations.map((o) => o.observationId));
    expect(replay.replayed.every((id) => ledgerIds.has(id))).toBe(true);
    expectChain([seed, plan, ...priorLedgers, c.ledger, ...priorRevisions, stale.receipt, replay.receipt]);
  });
});
