// @module-tag unit
// The observation ledger (docs/spec/context-acquisition-gate.md, "Merge rule" CAG-024 and
// "Replay" CAG-020, D-RCP-13, D-RCP-14, D-RCP-16, D-RCP-53): what a write carries, drops, orders,
// evicts and folds, and what a replay rebuilds from it.
import { digestOf } from '@agent-contracts/digest';
import {
  type ContextReadPlanV2,
  type ContextReadReceiptV2,
  type ContextSourceObservationLedgerV1,
  ledgerIdOf,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  decideReuse,
  foldOf,
  LEDGER_OBSERVATION_LIMIT,
  type LedgerWrite,
  ManualClock,
  type Observation,
  observeReceipt,
  receiptByReuse,
  replayReceipt,
  writeLedger,
} from '../../src/index.ts';
import {
  catalogueOf,
  fold,
  MEMORY_REF,
  openOf,
  planOf,
  post,
  pre,
  readAll,
  ref,
  SESSION,
  T0,
  world,
} from './helpers/reuse.ts';

const iso = (ms: number) => new Date(ms).toISOString();
/** `o` moved to event time `ms` (an observation id does not cover its times). */
const at = (o: Observation, ms: number): Observation =>
  o.hookEvent === 'PreToolUse'
    ? { ...o, attemptedAt: iso(ms) }
    : { ...o, attemptedAt: iso(ms), observedAt: iso(ms) };
const ids = (records: readonly { observationId: string }[]) => records.map((r) => r.observationId);
function write(
  stored: ContextSourceObservationLedgerV1 | null,
  w: Partial<LedgerWrite> & Pick<LedgerWrite, 'records'>,
  plan: ContextReadPlanV2,
  clock: ManualClock,
) {
  const r = writeLedger(
    stored,
    { binding: plan.contextBinding, mandatorySourceIds: plan.mandatorySourceIds, ...w },
    clock,
  );
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

describe('writeLedger: identity and what is carried', () => {
  const w = world();
  it('a first write is revision 1 of the epoch ledger, its fold and digest derived', () => {
    const r = write(null, { records: w.prior.observations }, w.plan, w.clock);
    const { ledgerDigest, ...body } = r.ledger;
    expect(r.ledger.ledgerId).toBe(ledgerIdOf('ctx-one'));
    expect([r.ledger.revision, r.ledger.identity, r.dropped]).toEqual([1, w.plan.contextBinding, []]);
    expect(ids(r.ledger.observations)).toEqual(ids(w.prior.observations));
    expect(ledgerDigest).toBe(digestOf(body));
    expect(r.ledger.fold).toEqual(
      foldOf(w.plan.contextBinding, r.ledger.observations, w.plan.mandatorySourceIds),
    );
    expect(r.ledger.fold?.satisfiedSourceIds).toEqual(w.plan.mandatorySourceIds);
  });
  it('a stored ledger of another epoch is refused and left as it was', () => {
    const other = world({ first: { epoch: 'ctx-two' } });
    const stored = write(null, { records: other.prior.observations }, other.plan, other.clock).ledger;
    const copy = structuredClone(stored);
    const r = writeLedger(stored, { binding: w.plan.contextBinding, records: w.prior.observations }, w.clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual([
      'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      '/ledgerId',
    ]);
    expect(stored).toEqual(copy);
  });
  it("a write of another plan of the epoch starts afresh: the old plan's records are not carried", () => {
    const stored = write(null, { records: w.prior.observations }, w.plan, w.clock).ledger;
    const next = fold(openOf(w.next, w.clock), w.next, [], w.clock);
    const r = write(stored, { records: next.observations }, w.next, w.clock);
    expect(r.ledger.revision).toBe(2);
    expect(r.ledger.identity).toEqual(w.next.contextBinding);
    expect(ids(r.ledger.observations)).toEqual(ids(next.observations));
  });
  it('each binding member counts: a binding differing in one member only is another identity', () => {
    const stored = write(null, { records: w.prior.observations }, w.plan, w.clock).ledger;
    // The same epoch and plan id (so no record is dropped), another content id.
    const binding = { ...w.plan.contextBinding, planContentId: `plan-content-${'0'.repeat(64)}` };
    const r = writeLedger(stored, { binding, records: w.prior.observations.slice(0, 1) }, w.clock);
    expect(r.ok && ids(r.ledger.observations)).toEqual(ids(w.prior.observations.slice(0, 1)));
  });
});

describe('writeLedger: dropped records', () => {
  const w = world();
  it('a record of another root is dropped unless it is a wrong-root result (ledger invariant 4)', () => {
    // observations: two baseline results, then an attempt and a result per read source.
    const [b0, b1, attempt, result, ...rest] = w.prior.observations;
    const other = '/srv/other';
    const wrongRoot = {
      ...result!,
      observationId: `obs-${'a'.repeat(24)}`,
      activeRoot: other,
      outcome: 'wrong-root',
    };
    const records = [
      b0!,
      b1!,
      { ...attempt!, activeRoot: other },
      { ...result!, activeRoot: other },
      wrongRoot,
      ...rest,
    ] as Observation[];
    const r = write(null, { records }, w.plan, w.clock);
    expect(r.dropped).toEqual([attempt!.observationId, result!.observationId]);
    expect(ids(r.ledger.observations)).toEqual(ids([b0!, b1!, wrongRoot, ...rest] as Observation[]));
  });
  it('records of another epoch, of another plan, and delivery-reuse results are dropped, in write order', () => {
    const [a, b, c, ...rest] = w.prior.observations;
    const records = [{ ...a!, contextEpoch: 'ctx-two' }, { ...b!, planId: w.next.planId }, c!, ...rest];
    const r = write(null, { records }, w.plan, w.clock);
    expect(r.dropped).toEqual([a!.observationId, b!.observationId]);
    expect(ids(r.ledger.observations)).toEqual(ids([c!, ...rest]));
    w.clock.advance(10);
    const d = decideReuse(
      w.next,
      {
        executionOptimizationMode: 'safe-auto',
        hostSessionId: SESSION,
        currentSourceIdentities: w.prior.sourceIdentities,
        priorPlan: w.plan,
        priorReceipt: w.prior,
      },
      w.clock,
    );
    const reused = receiptByReuse(
      w.next,
      d,
      w.prior,
      { toolCallId: 'plan-call-2', attemptedAt: w.next.plannedAt },
      w.clock,
    );
    if (!reused.ok) throw new Error(reused.message);
    const x = write(null, { records: reused.receipt.observations }, w.next, w.clock);
    expect(x.dropped).toEqual(ids(reused.receipt.observations));
    expect(x.ledger.observations).toEqual([]);
    expect(x.ledger.fold?.missingSourceIds).toEqual(w.next.mandatorySourceIds);
  });
});

describe('writeLedger: merge order and first write wins', () => {
  const w = world();
  const [b0, b1, a2, r3, a4, r5] = w.prior.observations as Observation[];
  const t = (k: number) => T0 + 1000 * k;
  it('new records go where their event time puts them among the stored ones, stored ones first on a tie', () => {
    const stored = write(
      null,
      { records: [at(b0!, t(1)), at(r3!, t(3)), at(r5!, t(5))] },
      w.plan,
      w.clock,
    ).ledger;
    const r = write(stored, { records: [at(a4!, t(5)), at(a2!, t(2)), at(b1!, t(1))] }, w.plan, w.clock);
    expect(ids(r.ledger.observations)).toEqual(ids([b0!, b1!, a2!, r3!, r5!, a4!]));
  });
  it('new records of one write are put in event order among themselves', () => {
    const r = write(
      null,
      { records: [at(r5!, t(5)), at(b0!, t(1)), at(r3!, t(3)), at(a2!, t(2)), at(a4!, t(4))] },
      w.plan,
      w.clock,
    );
    expect(ids(r.ledger.observations)).toEqual(ids([b0!, a2!, r3!, a4!, r5!]));
  });
  it('a record already stored is never rewritten, whatever times the later write gives it', () => {
    const stored = write(null, { records: [at(r3!, t(3))] }, w.plan, w.clock).ledger;
    const r = write(stored, { records: [at(r3!, t(9))] }, w.plan, w.clock);
    expect(r.ledger.observations).toEqual(stored.observations);
    expect(r.ledger.revision).toBe(2);
  });
  it('a write is never older than the stored ledger or a record it holds (D-RCP-53)', () => {
    const clock = new ManualClock(t(20));
    const stored = write(null, { records: [at(r3!, t(3))] }, w.plan, clock).ledger;
    expect(stored.updatedAt).toBe(iso(t(20)));
    clock.set(t(10));
    expect(write(stored, { records: [] }, w.plan, clock).ledger.updatedAt).toBe(iso(t(20)));
    expect(write(null, { records: [at(r3!, t(30))] }, w.plan, clock).ledger.updatedAt).toBe(iso(t(30)));
  });
});

describe('writeLedger: the bound of 128 records', () => {
  const w = world();
  const result = w.prior.observations.find(
    (o) => o.hookEvent === 'PostToolUse' && o.sourceId === 'memory:status',
  )!;
  /** `n` results of `n` distinct sources, each the latest record of its source. */
  const latest = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({
      ...result,
      observationId: `obs-${(from + i).toString(16).padStart(24, '0')}`,
      sourceId: `profile:doc-${from + i}.md`,
      observedAt: iso(T0 + from + i),
    })) as Observation[];
  it(`${LEDGER_OBSERVATION_LIMIT} records are kept; more that are all evidence make the write fail, the ledger unchanged`, () => {
    expect(LEDGER_OBSERVATION_LIMIT).toBe(128);
    const stored = write(null, { records: latest(128) }, w.plan, w.clock).ledger;
    expect(stored.observations).toHaveLength(128);
    const copy = structuredClone(stored);
    const r = writeLedger(stored, { binding: w.plan.contextBinding, records: latest(1, 128) }, w.clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual([
      'CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL',
      '/observations',
    ]);
    expect(stored).toEqual(copy);
  });
  it('over the bound, the oldest record that is not evidence is evicted', () => {
    const older = {
      ...latest(1)[0]!,
      observationId: `obs-${'f'.repeat(24)}`,
      toolCallId: 'older',
      observedAt: iso(T0 - 1),
    };
    const r = write(null, { records: [older as Observation, ...latest(128)] }, w.plan, w.clock);
    expect(ids(r.ledger.observations)).toEqual(ids(latest(128)));
  });
});

describe('writeLedger: the fold', () => {
  const w = world();
  const records = w.prior.observations;
  const stored = write(null, { records: records.slice(0, 2) }, w.plan, w.clock).ledger;
  it("without the plan's sources, a write folds by the stored fold's sources", () => {
    for (const sources of [{}, { mandatorySourceIds: null }]) {
      const r = writeLedger(stored, { binding: w.plan.contextBinding, records, ...sources }, w.clock);
      expect(r.ok && r.ledger.fold).toEqual(
        foldOf(w.plan.contextBinding, records, w.plan.mandatorySourceIds),
      );
    }
  });
  it('without them and without a stored fold of this binding, the fold is null', () => {
    const bare = write(
      null,
      { records: records.slice(0, 2), mandatorySourceIds: null },
      w.plan,
      w.clock,
    ).ledger;
    expect(bare.fold).toBeNull();
    const r = writeLedger(bare, { binding: w.plan.contextBinding, records }, w.clock);
    expect(r.ok && r.ledger.fold).toBeNull();
    const other = writeLedger(stored, { binding: w.next.contextBinding, records: [] }, w.clock);
    expect(other.ok && other.ledger.fold).toBeNull();
    const none = writeLedger(
      null,
      { binding: w.plan.contextBinding, records, mandatorySourceIds: [] },
      w.clock,
    );
    expect(none.ok && none.ledger.fold).toBeNull();
  });
  it("foldOf: each mandatory source's latest record, sorted and unique; no record, or a reuse record, is unsatisfied", () => {
    const f = foldOf(w.plan.contextBinding, records.slice(0, 4), [
      'profile:testing.md',
      'memory:status',
      'memory:status',
    ]);
    const status = records[3]!;
    expect(f.sources).toEqual([
      {
        sourceId: 'memory:status',
        observationId: status.observationId,
        resultDigest: (status as { resultDigest: string }).resultDigest,
        satisfied: true,
      },
      { sourceId: 'profile:testing.md', observationId: null, resultDigest: null, satisfied: false },
    ]);
    expect([f.satisfiedSourceIds, f.missingSourceIds]).toEqual([['memory:status'], ['profile:testing.md']]);
    const reuse = records.map((o) =>
      o.hookEvent === 'PostToolUse' ? { ...o, cache: true, reusedObservationId: o.observationId } : o,
    );
    expect(foldOf(w.plan.contextBinding, reuse, w.plan.mandatorySourceIds).satisfiedSourceIds).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Replay

/** The live refs of every Profile source of `plan` as the plan recorded them. */
const liveOf = (plan: ContextReadPlanV2) =>
  Object.fromEntries(
    [...plan.baselineSources, ...plan.selectedSources]
      .filter((s) => s.kind !== 'memory')
      .map((s) => [s.sourceId, s.sourceRefs.map(({ metadataDigest: _d, ...r }) => r)]),
  );
function staleOf(
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  clock: ManualClock,
  reasonCode = 'writer-drift',
) {
  clock.advance(5);
  const s = observeReceipt(
    receipt,
    plan,
    { event: 'drift', trigger: 'source-digest', reasonCode } as never,
    clock,
  );
  if (!s.ok) throw new Error(s.message);
  return s.receipt;
}
function replay(
  ledger: ContextSourceObservationLedgerV1,
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  clock: ManualClock,
  live: Record<string, unknown[]> = liveOf(plan),
) {
  clock.advance(5);
  const r = replayReceipt(ledger, receipt, plan, live as never, clock);
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
  return r;
}

describe('replayReceipt: when a replay is allowed', () => {
  const w = world();
  const ledger = write(null, { records: w.prior.observations }, w.plan, w.clock).ledger;
  it('a writer-drift stale receipt is rebuilt complete from the ledger', () => {
    const r = replay(ledger, staleOf(w.prior, w.plan, w.clock), w.plan, w.clock);
    expect(r.receipt.status).toBe('relevant-complete');
    expect(r.replayed).toEqual(ids(ledger.observations));
  });
  it('the ledger of another binding is refused', () => {
    const other = write(null, { records: [] }, w.next, w.clock).ledger;
    const r = replayReceipt(other, w.prior, w.plan, liveOf(w.plan) as never, w.clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual([
      'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      '/identity',
    ]);
  });
  it('a blocked receipt, and a receipt stale for a reason a replay cannot bypass, are refused', () => {
    const clock = new ManualClock(T0);
    const catalogue = catalogueOf();
    const blockedPlan = planOf(clock, {
      catalogue: {
        ...catalogue,
        documents: [
          ...catalogue.documents,
          { ...catalogue.documents[0]!, file: 'notes.md', catalogued: false, refs: [ref('notes.md')] },
        ],
      },
    });
    const blocked = openOf(blockedPlan, clock);
    expect(blocked.status).toBe('blocked');
    const bl = write(null, { records: [] }, blockedPlan, clock).ledger;
    const r = replayReceipt(bl, blocked, blockedPlan, {}, clock);
    expect(r.ok ? null : [r.code, r.path]).toEqual(['CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN', '/status']);
    const drifted = staleOf(w.prior, w.plan, w.clock, 'profile-drift');
    const s = replayReceipt(ledger, drifted, w.plan, liveOf(w.plan) as never, w.clock);
    expect(s.ok ? null : [s.code, s.path]).toEqual(['CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN', '/status']);
  });
});

describe('replayReceipt: which records are replayed', () => {
  const w = world();
  const ledger = write(null, { records: w.prior.observations }, w.plan, w.clock).ledger;
  const stale = staleOf(w.prior, w.plan, w.clock);
  it("a Profile source is fresh only when re-observed with the plan's metadata; a memory query unless re-observed otherwise", () => {
    const live = liveOf(w.plan);
    const changed = replay(ledger, stale, w.plan, w.clock, {
      ...live,
      'profile:testing.md': [{ ...ref('testing.md'), size: 11 }],
    });
    expect(changed.replayed).toEqual(
      ids(ledger.observations.filter((o) => o.sourceId !== 'profile:testing.md')),
    );
    const { 'profile:testing.md': _t, ...without } = live;
    const unobserved = replay(ledger, stale, w.plan, w.clock, without);
    expect(unobserved.replayed).toEqual(changed.replayed);
    const memory = replay(ledger, stale, w.plan, w.clock, { ...live, 'memory:status': [MEMORY_REF] });
    expect(memory.replayed).toEqual(ids(ledger.observations));
    const elsewhere = replay(ledger, stale, w.plan, w.clock, {
      ...live,
      'memory:status': [{ ...MEMORY_REF, path: 'memory://acme/other' }],
    });
    expect(elsewhere.replayed).toEqual(
      ids(ledger.observations.filter((o) => o.sourceId !== 'memory:status')),
    );
  });
  it('a source of two places is fresh whatever order its re-observed refs are listed in (D-RCP-53)', () => {
    const clock = new ManualClock(T0);
    const shared = {
      ...ref('testing.md'),
      path: '/srv/acme/.agent/shared/testing.md',
      layer: 'profile-shared',
    };
    const catalogue = catalogueOf();
    const plan = planOf(clock, {
      catalogue: {
        ...catalogue,
        documents: [{ ...catalogue.documents[0]!, refs: [ref('testing.md'), shared] }],
      },
    });
    const both = [ref('testing.md'), shared];
    const events = readAll(plan).map((e) =>
      e.event === 'PostToolUse' && e.sourceId === 'profile:testing.md' ? { ...e, liveRefs: both } : e,
    );
    const done = fold(openOf(plan, clock), plan, events as never, clock);
    expect(done.status).toBe('relevant-complete');
    const l = write(null, { records: done.observations }, plan, clock).ledger;
    const stale = staleOf(done, plan, clock);
    for (const order of [both, [...both].reverse()]) {
      const r = replay(l, stale, plan, clock, { ...liveOf(plan), 'profile:testing.md': order });
      expect(r.replayed).toEqual(ids(l.observations));
    }
  });
  it('a ledger record of a source the plan does not have is never replayed', () => {
    const foreign = {
      ...w.prior.observations[3]!,
      observationId: `obs-${'e'.repeat(24)}`,
      sourceId: 'profile:zz.md',
    };
    const l = write(null, { records: [...w.prior.observations, foreign] }, w.plan, w.clock).ledger;
    const r = replay(l, stale, w.plan, w.clock, { ...liveOf(w.plan), 'profile:zz.md': [ref('zz.md')] });
    expect(r.replayed).toEqual(ids(ledger.observations));
    const m = replay(l, stale, w.plan, w.clock);
    expect(m.replayed).toEqual(ids(ledger.observations));
  });
  it('records before the receipt was created are not replayed', () => {
    const later = openOf(w.plan, w.clock);
    const r = replay(ledger, later, w.plan, w.clock);
    expect(r.replayed).toEqual([]);
  });
  it('attempts before the plan observation are not replayed; one at its very time is', () => {
    const [, , a2, r3, a4, r5] = w.prior.observations;
    const observedAt = (a4 as { attemptedAt: string }).attemptedAt;
    const shifted = { ...stale, planObservation: { ...stale.planObservation!, observedAt } };
    const r = replay(ledger, shifted, w.plan, w.clock);
    expect(r.replayed).toEqual(ids(ledger.observations.filter((o) => o !== a2)));
    expect(r.replayed).toContain(a4!.observationId);
    expect(r.replayed).toContain(r3!.observationId);
    expect(r.replayed).toContain(r5!.observationId);
  });
  it('a fallback receipt (no plan observation) replays its attempts too and stays unverified', () => {
    const clock = new ManualClock(Date.parse(w.prior.updatedAt));
    const fallback = openOf(w.plan, clock, SESSION, 'instruction-only');
    expect(fallback.planObservation).toBeNull();
    const attempt = { ...w.prior.observations[2]!, attemptedAt: iso(clock.now() + 1) } as Observation;
    const l = write(null, { records: [attempt] }, w.plan, clock).ledger;
    const r = replay(l, fallback, w.plan, clock);
    expect([r.receipt.status, r.replayed]).toEqual(['unverified', [attempt.observationId]]);
  });
});

describe('replayReceipt: what the successor keeps', () => {
  it('only the planned escalations, with the drift dropped', () => {
    const w = world({ first: { request: { triggers: ['cross-service'] } } });
    const ledger = write(null, { records: w.prior.observations }, w.plan, w.clock).ledger;
    const stale = staleOf(w.prior, w.plan, w.clock);
    expect(stale.escalations.map((e) => e.action)).toEqual([
      'planned',
      expect.not.stringMatching(/^planned$/),
    ]);
    const r = replay(ledger, stale, w.plan, w.clock);
    expect(r.receipt.escalations).toEqual(stale.escalations.slice(0, 1));
    expect([r.receipt.replanCount, r.receipt.lastError, r.receipt.reuseFrom, r.receipt.consumedAt]).toEqual([
      0,
      null,
      null,
      null,
    ]);
  });
  it('a source read twice by two calls is no conflict; two results of one call are', () => {
    const clock = new ManualClock(T0);
    const plan = planOf(clock);
    const twice = fold(
      openOf(plan, clock),
      plan,
      [
        pre(plan, 'memory:status', 'c9'),
        post(plan, 'memory:status', 'c9', { body: { text: 'older' }, toolResult: { text: 'older' } }),
        ...readAll(plan),
      ],
      clock,
    );
    expect(twice.status).toBe('relevant-complete');
    const ledger = write(null, { records: twice.observations }, plan, clock).ledger;
    expect(replay(ledger, staleOf(twice, plan, clock), plan, clock).receipt.status).toBe('relevant-complete');
    const conflict = fold(
      openOf(plan, clock),
      plan,
      [
        ...readAll(plan),
        post(plan, 'memory:status', 'c0', { body: { text: 'other' }, toolResult: { text: 'other' } }),
      ],
      clock,
    );
    expect(conflict.status).toBe('unverified');
    const l2 = write(null, { records: conflict.observations }, plan, clock).ledger;
    const r = replay(l2, conflict, plan, clock);
    expect([r.receipt.status, r.receipt.lastError?.code]).toEqual([
      'unverified',
      'CONTEXT_POST_TOOL_USE_CONFLICT',
    ]);
  });
});
