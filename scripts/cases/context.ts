// The golden scenarios of the ContextAcquisitionGate engine (`context.plan`, `context.receipt`,
// `context.observe`, `context.reuse`, `context.ledger`), as multi-step cases
// (conformance/cases/context/). Every expectation is computed here by running the reference
// context engine (packages/engines) at the case's clock, through the model exploration runs
// (ModelContext) and against the catalogue it plans against (CONTEXT_CATALOGUE, both of
// @agent-contracts/harness/explore), never written by hand; each step also
// states what it means (a status, a reuse reason, a refusal code), and the generator fails when
// the engine disagrees, so a scenario can never silently test something else. The families and
// the rules they check are listed on docs/spec/context-acquisition-gate.md#protocol-scenarios.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { digestOf } from '@agent-contracts/digest';
import {
  type ContextCatalogue,
  type ContextEvent,
  type decideReuse,
  foldOf,
  ManualClock,
  observeReceipt,
  openReceipt,
  type ReceiptOpen,
} from '@agent-contracts/engines';
import type { Case, Step } from '@agent-contracts/harness';
import {
  CONTEXT_CATALOGUE,
  CONTEXT_MEMORY_REF,
  CONTEXT_ROOT,
  contextCatalogueWith,
  contextCatalogueWithRefs,
  contextDocument,
  contextRef,
  contextSnapshot,
  ModelContext,
} from '@agent-contracts/harness/explore';
import { Refusal } from '@agent-contracts/protocol';
import {
  type ContextReadPlanV2,
  type ContextReadReceiptV1,
  type ContextReadReceiptV2,
  type ContextSourceObservationLedgerV1,
  observationIdOf,
} from '@agent-contracts/schemas';
import { requirementsOf } from './requirements.ts';

const T0 = '2026-12-02T05:00:00.000Z';
const PAGE = 'docs/spec/context-acquisition-gate.md';
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const V1_RECEIPT_FIXTURE = 'ContextReadReceiptV1/valid/legacy-relevant-complete.json';
const fixturesDir = fileURLToPath(new URL('../../conformance/fixtures/', import.meta.url));

const TESTING_BODY = '# Testing\n\nRun `pnpm test` before every commit.\n';
const SESSION = 'sess-0001';
const PLAN_CALL = 'toolu-plan-0001';

/** The params of a plan request, as the case sends them. */
interface PlanParams {
  readonly seed: Record<string, unknown>;
  readonly catalogue: ContextCatalogue;
  readonly host: string;
  readonly invocationNonce: string;
  readonly [key: string]: unknown;
}
const planParams = (over: Partial<PlanParams> = {}, seed: Record<string, unknown> = {}): PlanParams => ({
  seed: { semantic: 'fix', contextEpoch: 'ctx-epoch-one', ...seed },
  catalogue: CONTEXT_CATALOGUE,
  host: 'standalone',
  invocationNonce: 'nonce-0000-0000-0001',
  changeTypes: ['testing'],
  ...over,
});

/**
 * The reference's session as the generator runs it: each request goes to the model of the
 * `context.*` methods that exploration runs too (ModelContext, @agent-contracts/harness/explore),
 * and the step that checks its answer is recorded.
 */
class Model {
  readonly clock = new ManualClock(Date.parse(T0));
  readonly context = new ModelContext(this.clock);
  readonly steps: Step[] = [{ method: 'clock.set', params: { now: T0 }, expect: { result: { now: T0 } } }];
  /** Each plan made, with its receipt as last answered. */
  readonly plans = new Map<string, { plan: ContextReadPlanV2; receipt: ContextReadReceiptV2 | null }>();
  constructor(readonly name: string) {}

  private fail(what: string): never {
    throw new Error(`context/${this.name}: ${what}`);
  }
  /** The model's answer to a request: its result, or the code it refuses it with. */
  private call<T>(method: string, params: unknown): { ok: true; result: T } | { ok: false; code: string } {
    try {
      return { ok: true, result: this.context.handle(method, json(params) as Record<string, unknown>) as T };
    } catch (e) {
      if (e instanceof Refusal) return { ok: false, code: e.code };
      throw e;
    }
  }
  private refused(method: string, params: unknown, code: string, means: string): void {
    if (code !== means) this.fail(`${method} is refused with ${code}, not ${means}`);
    this.steps.push({ method, params: json(params), expect: { error: code } });
  }
  private held(planId: string) {
    return this.plans.get(planId) ?? this.fail(`no plan ${planId}`);
  }

  advance(ms = 1000): void {
    this.clock.advance(ms);
    const now = new Date(this.clock.now()).toISOString();
    this.steps.push({ method: 'clock.advance', params: { ms }, expect: { result: { now } } });
  }

  /** `context.plan`: the plan the engine makes, with the planning telemetry docs/protocol.md defines. */
  plan(params: PlanParams, means: 'plan' | string = 'plan'): ContextReadPlanV2 {
    const r = this.call<ContextReadPlanV2>('context.plan', params);
    if (!r.ok) {
      this.refused('context.plan', params, r.code, means);
      return undefined as never;
    }
    if (means !== 'plan') this.fail(`context.plan makes a plan, not ${means}`);
    const plan = r.result;
    this.steps.push({ method: 'context.plan', params: json(params), expect: { result: json(plan) } });
    this.plans.set(plan.planId, { plan, receipt: null });
    return plan;
  }

  open(planId: string, open: ReceiptOpen, means: string): ContextReadReceiptV2 {
    const h = this.held(planId);
    const params = { planId, open };
    const r = this.call<ContextReadReceiptV2>('context.receipt', params);
    if (!r.ok) {
      this.refused('context.receipt', params, r.code, means);
      return undefined as never;
    }
    if (r.result.status !== means) this.fail(`the receipt opens ${r.result.status}, not ${means}`);
    this.steps.push({ method: 'context.receipt', params: json(params), expect: { result: json(r.result) } });
    h.receipt = r.result;
    return r.result;
  }

  /** `context.receipt` of an unknown plan. */
  unknownPlan(planId: string): void {
    const r = this.call('context.receipt', { planId });
    if (r.ok) this.fail(`context.receipt answers for the unknown plan ${planId}`);
    this.refused('context.receipt', { planId }, r.code, 'CONTEXT_BINDING_PLAN_NOT_FOUND');
  }

  observe(planId: string, event: ContextEvent, means: string): ContextReadReceiptV2 {
    const h = this.held(planId);
    const params = { planId, event };
    const r = this.call<{ receipt: ContextReadReceiptV2; changed: boolean }>('context.observe', params);
    if (!r.ok) {
      this.refused('context.observe', params, r.code, means);
      return h.receipt!;
    }
    if (r.result.receipt.status !== means)
      this.fail(`${event.event} leaves the receipt ${r.result.receipt.status}, not ${means}`);
    this.steps.push({ method: 'context.observe', params: json(params), expect: { result: json(r.result) } });
    h.receipt = r.result.receipt;
    return r.result.receipt;
  }

  reuse(
    planId: string,
    inputs: Omit<Parameters<typeof decideReuse>[1], 'priorReceipt'> & {
      priorReceipt: ContextReadReceiptV2 | ContextReadReceiptV1 | { $fixture: string } | null;
    },
    means: string,
    planCall?: { toolCallId: string; attemptedAt: string },
    refusedWith?: string,
  ): void {
    const h = this.held(planId);
    const prior =
      inputs.priorReceipt && '$fixture' in inputs.priorReceipt
        ? (JSON.parse(
            readFileSync(`${fixturesDir}${inputs.priorReceipt.$fixture}`, 'utf8'),
          ) as ContextReadReceiptV1)
        : inputs.priorReceipt;
    const params = { planId, ...inputs, ...(planCall ? { planCall } : {}) };
    const r = this.call<{ decision: ReturnType<typeof decideReuse>; receipt: ContextReadReceiptV2 | null }>(
      'context.reuse',
      { ...params, priorReceipt: prior },
    );
    if (!r.ok) {
      if (!refusedWith) this.fail(`context.reuse is refused: ${r.code}`);
      this.refused('context.reuse', params, r.code, refusedWith);
      return;
    }
    if (refusedWith) this.fail(`context.reuse is not refused with ${refusedWith}`);
    const { decision, receipt } = r.result;
    if (decision.delivery.reasonCode !== means)
      this.fail(`the reuse decision's delivery is ${decision.delivery.reasonCode}, not ${means}`);
    if (receipt) h.receipt = receipt;
    this.steps.push({ method: 'context.reuse', params: json(params), expect: { result: json(r.result) } });
  }

  /** A writer's snapshot of the plan's ledger, made from `records` (the writer's own slice). */
  snapshotOf(
    planId: string,
    records: ContextReadReceiptV2['observations'],
  ): ContextSourceObservationLedgerV1 {
    const r = contextSnapshot(this.held(planId).plan, records, this.clock);
    if (!r.ok) this.fail(`the snapshot cannot be made: ${r.code}`);
    return r.ledger;
  }

  /**
   * A writer's snapshot holding `records` as the writer has them, records the merge rule drops
   * included (contextSnapshot merges, and so drops them itself): its fold and digest derived.
   */
  snapshotHolding(
    planId: string,
    records: ContextReadReceiptV2['observations'],
  ): ContextSourceObservationLedgerV1 {
    const plan = this.held(planId).plan;
    const { ledgerDigest: _d, ...empty } = this.snapshotOf(planId, []);
    const body = {
      ...empty,
      observations: records,
      fold: foldOf(plan.contextBinding, records, plan.mandatorySourceIds),
    };
    return { ...body, ledgerDigest: digestOf(body) };
  }

  /** The plan's receipt as last answered. */
  receiptOf(planId: string): ContextReadReceiptV2 {
    return this.held(planId).receipt ?? this.fail(`no receipt of ${planId}`);
  }

  /**
   * The records another writer of the plan holds: its own view of the plan's receipt, opened at
   * the plan call and reading `sources` (each an attempt and a result with the body), at the
   * session's clock. Nothing is sent to the implementation: the records reach it in a snapshot.
   */
  writerRecords(planId: string, sources: readonly string[]): ContextReadReceiptV2['observations'] {
    const plan = this.held(planId).plan;
    const clock = new ManualClock(this.clock.now());
    const opened = openReceipt(
      plan,
      {
        verificationMode: 'structured-plan',
        hostSessionId: SESSION,
        planCall: { toolCallId: PLAN_CALL, attemptedAt: plan.plannedAt },
      },
      clock,
    );
    if (!opened.ok) this.fail(`the writer's receipt cannot be opened: ${opened.code}`);
    let receipt = opened.receipt;
    for (const [i, s] of sources.entries()) {
      for (const event of [pre(plan, s, `toolu-writer-${i}`), post(plan, s, `toolu-writer-${i}`)]) {
        clock.advance(10);
        const r = observeReceipt(receipt, plan, event, clock);
        if (!r.ok) this.fail(`the writer's read of ${s} is refused: ${r.code}`);
        receipt = r.receipt;
      }
    }
    return receipt.observations;
  }

  write(planId: string, snapshot: ContextSourceObservationLedgerV1, means: 'written' | string): void {
    this.held(planId);
    const params = { op: 'write', planId, snapshot };
    const r = this.call('context.ledger', params);
    if (!r.ok) {
      this.refused('context.ledger', params, r.code, means);
      return;
    }
    if (means !== 'written') this.fail(`the write is accepted, not ${means}`);
    this.steps.push({ method: 'context.ledger', params: json(params), expect: { result: json(r.result) } });
  }

  replay(planId: string, liveRefs: Record<string, unknown[]>, means: string): void {
    const h = this.held(planId);
    const params = { op: 'replay', planId, liveRefs };
    const r = this.call<{
      ledger: ContextSourceObservationLedgerV1;
      receipt: ContextReadReceiptV2;
      replayed: string[];
    }>('context.ledger', params);
    if (!r.ok) {
      this.refused('context.ledger', params, r.code, means);
      return;
    }
    if (r.result.receipt.status !== means)
      this.fail(`the replayed receipt is ${r.result.receipt.status}, not ${means}`);
    const ledgerIds = new Set(r.result.ledger.observations.map((o) => o.observationId));
    if (r.result.replayed.some((id) => !ledgerIds.has(id)))
      this.fail('the replay made a record the ledger does not hold');
    h.receipt = r.result.receipt;
    this.steps.push({ method: 'context.ledger', params: json(params), expect: { result: json(r.result) } });
  }
}

// ---------------------------------------------------------------------------------------------
// The events of a read.

const binding = (plan: ContextReadPlanV2) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: CONTEXT_ROOT,
});
const pre = (plan: ContextReadPlanV2, sourceId: string, call: string, over: object = {}): ContextEvent => ({
  event: 'PreToolUse',
  toolCallId: call,
  sourceIds: [sourceId],
  actionClass: 'context-read',
  hostSessionId: SESSION,
  ...binding(plan),
  ...over,
});
const memory = (sourceId: string) => sourceId.startsWith('memory:');
const post = (plan: ContextReadPlanV2, sourceId: string, call: string, over: object = {}): ContextEvent => {
  const body = memory(sourceId)
    ? { value: { status: 'idle' }, contractVersion: '1' }
    : { text: TESTING_BODY };
  return {
    event: 'PostToolUse',
    toolCallId: call,
    sourceId,
    hostSessionId: SESSION,
    sourceLayer: memory(sourceId) ? 'memory-query' : 'profile',
    liveRefs: memory(sourceId) ? [CONTEXT_MEMORY_REF] : [contextRef(sourceId.slice('profile:'.length))],
    toolResult: 'value' in body ? body.value : { content: body.text },
    body,
    schemaMatch: true,
    targetMatch: true,
    ...binding(plan),
    ...over,
  };
};

/** A plan of `fix`/`testing` and its structured receipt, opened at the plan's own call. */
function opened(m: Model, over: Partial<PlanParams> = {}, seed: Record<string, unknown> = {}) {
  const plan = m.plan(planParams(over, seed));
  m.advance();
  const receipt = m.open(
    plan.planId,
    {
      verificationMode: 'structured-plan',
      hostSessionId: SESSION,
      planCall: { toolCallId: PLAN_CALL, attemptedAt: plan.plannedAt },
    },
    'baseline-ready',
  );
  return { plan, receipt };
}

/** Read both non-baseline mandatory sources (memory:status, profile:testing.md) through the plan. */
function readAll(m: Model, plan: ContextReadPlanV2): ContextReadReceiptV2 {
  let r: ContextReadReceiptV2 | undefined;
  for (const [i, s] of ['memory:status', 'profile:testing.md'].entries()) {
    m.advance();
    m.observe(plan.planId, pre(plan, s, `toolu-read-${i}`), 'attempted');
    m.advance();
    r = m.observe(plan.planId, post(plan, s, `toolu-read-${i}`), i === 1 ? 'relevant-complete' : 'attempted');
  }
  return r!;
}

/** The `context.reuse` params of a same-session delivery reuse of `prior`'s completed receipt. */
const reuseOfPrior = (prior: ContextReadPlanV2, complete: ContextReadReceiptV2) => ({
  executionOptimizationMode: 'safe-auto' as const,
  hostSessionId: SESSION,
  currentSourceIdentities: complete.sourceIdentities,
  priorPlan: prior,
  priorReceipt: complete,
});

// ---------------------------------------------------------------------------------------------
// The scenarios.

interface Scenario {
  readonly family: 'plan' | 'receipt' | 'reuse' | 'ledger';
  readonly name: string;
  readonly title: string;
  /** The section of the page the scenario checks. */
  readonly anchor: string;
  /** Requirements the scenario checks beyond its general one and its codes. */
  readonly requirements: readonly string[];
  readonly run: (m: Model) => void;
}

/** A PostToolUse that differs from the correlating one in one field. */
const UNCORRELATED: ReadonlyArray<[string, string, (plan: ContextReadPlanV2) => object]> = [
  ['plan-id', 'the plan id of another invocation', () => ({ planId: 'plan-0000000000000000deadbeef' })],
  ['content-id', 'another plan content id', () => ({ planContentId: `pcid-${'0'.repeat(24)}` })],
  ['epoch', 'another context epoch', () => ({ contextEpoch: 'ctx-epoch-older' })],
  ['root', 'another active root', () => ({ activeRoot: '/srv/other' })],
  [
    'source-identity',
    'a content identity of another source',
    (plan) => ({
      body: null,
      contentIdentity: {
        schemaVersion: 'ContentIdentityV1',
        algorithm: 'sha256',
        sourceKey: `profile://${plan.identity.project}/release.md`,
        contractVersion: '1',
        digest: 'a'.repeat(64),
        bytes: 42,
      },
    }),
  ],
  ['target', 'a result about another target', () => ({ targetMatch: false })],
];

const SCENARIOS: readonly Scenario[] = [
  // plan -------------------------------------------------------------------------------------
  {
    family: 'plan',
    name: 'plan/fix-testing',
    title:
      'a fix of the tests is planned from the seed the implementation forms: the baseline, memory:status and the testing document, the seed embedded verbatim',
    anchor: 'contextreadplanv2',
    requirements: ['CAG-001', 'CAG-002', 'CAG-006', 'CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams()),
  },
  {
    family: 'plan',
    name: 'plan/keyword-intent-refused',
    title: 'a keyword of the message ("refactor") is never an intent: the seed is refused, no plan is made',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-004', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: 'refactor' }), 'CONTEXT_INTENT_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/intent-differs-from-semantic',
    title: 'an intent alias that differs from the semantic intent is refused',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: 'fix', intent: 'chat' }), 'CONTEXT_INTENT_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/intent-null-beside-semantic',
    title:
      'an intent alias given as null beside the semantic intent is no intent given (D-CTX-55): the plan is made for the semantic intent',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { semantic: 'fix', intent: null })),
  },
  {
    family: 'plan',
    name: 'plan/semantic-empty-beside-intent',
    title:
      'an empty semantic intent beside the intent alias is no intent given (D-CTX-55): the plan is made for the alias',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'CAG-003', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { semantic: '', intent: 'fix' })),
  },
  {
    family: 'plan',
    name: 'plan/schema-version-before-intent',
    title:
      'a seed input of another schemaVersion is refused as that before its intent is read (D-CTX-55): CONTEXT_PLAN_INVALID, not CONTEXT_INTENT_INVALID',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'PROTO-008'],
    run: (m) =>
      void m.plan(
        planParams({}, { semantic: 'refactor', schemaVersion: 'IntentSeedV2' }),
        'CONTEXT_PLAN_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/target-hint-of-another-project',
    title:
      'a seed whose target hint names another project than the catalogue is refused (D-CTX-56): CONTEXT_ACTIVE_TARGET_MISMATCH, checked before the change types',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-006', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({ changeTypes: [] }, { targetHint: 'other-project' }),
        'CONTEXT_ACTIVE_TARGET_MISMATCH',
      ),
  },
  {
    family: 'plan',
    name: 'plan/target-hint-trimmed-is-the-project',
    title:
      "a seed whose target hint, trimmed, is the catalogue's project is planned (D-CTX-56): the seed keeps the trimmed hint",
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-002', 'CAG-006', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { targetHint: '  acme  ', continuationHint: true })),
  },
  {
    family: 'plan',
    name: 'plan/seed-created-after-planning',
    title:
      'a seed created after the planning time is refused before its target hint and the read trace are read (D-CTX-56): CONTEXT_PLAN_CHRONOLOGY_INVALID, not CONTEXT_SEED_AFTER_CONTEXT_READ',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-005', 'PROTO-009', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams(
          { readTrace: [{ sourceId: 'profile:README.md', readAt: T0 }] },
          { createdAt: '2026-12-02T06:00:00.000Z', targetHint: 'other-project' },
        ),
        'CONTEXT_PLAN_CHRONOLOGY_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/no-intent',
    title: 'a seed input without an intent is refused: classify the message first',
    anchor: 'producing-a-seed',
    requirements: ['CAG-002', 'PROTO-008'],
    run: (m) => void m.plan(planParams({}, { semantic: null }), 'CONTEXT_INTENT_REQUIRED'),
  },
  {
    family: 'plan',
    name: 'plan/hidden-full-read',
    title:
      'a body other than the two baseline sources read while planning (the testing document) is a hidden full read: refused',
    anchor: 'invariants-2',
    requirements: ['CAG-011', 'PROTO-009'],
    run: (m) =>
      void m.plan(
        planParams({ readTrace: [{ sourceId: 'profile:testing.md', readAt: T0 }] }),
        'CONTEXT_HIDDEN_FULL_READ',
      ),
  },
  {
    family: 'plan',
    name: 'plan/baseline-read-while-planning',
    title: 'reading the two baseline bodies while planning is no hidden full read: the plan is made',
    anchor: 'invariants-2',
    requirements: ['CAG-011', 'PROTO-009'],
    run: (m) =>
      void m.plan(
        planParams({
          readTrace: [
            { sourceId: 'profile:README.md', readAt: T0 },
            { sourceId: 'profile:config.json', readAt: T0 },
          ],
        }),
      ),
  },
  {
    family: 'plan',
    name: 'plan/seed-after-context-read',
    title: 'a Profile body read before the seed existed means the seed came after context: refused',
    anchor: 'invariants',
    requirements: ['CAG-005', 'PROTO-009'],
    run: (m) => {
      m.advance(60_000);
      m.plan(
        planParams(
          { readTrace: [{ sourceId: 'profile:README.md', readAt: T0 }] },
          { createdAt: '2026-12-02T05:00:30.000Z' },
        ),
        'CONTEXT_SEED_AFTER_CONTEXT_READ',
      );
    },
  },
  {
    family: 'plan',
    name: 'plan/v1-write-forbidden',
    title: 'a plan is never written as ContextReadPlanV1 (read-only): refused',
    anchor: 'contextreadplanv1-compatibility',
    requirements: ['CAG-013'],
    run: (m) => void m.plan(planParams({ contract: 'ContextReadPlanV1' }), 'CONTEXT_PLAN_V1_WRITE_FORBIDDEN'),
  },
  {
    family: 'plan',
    name: 'plan/contract-other-than-v2',
    title:
      'a plan contract other than ContextReadPlanV2 (here an unknown ContextReadPlanV3) is refused as a V1 write is (D-CTX-57): only V2 is ever written',
    anchor: 'contextreadplanv1-compatibility',
    requirements: ['CAG-013'],
    run: (m) => void m.plan(planParams({ contract: 'ContextReadPlanV3' }), 'CONTEXT_PLAN_V1_WRITE_FORBIDDEN'),
  },
  {
    family: 'plan',
    name: 'plan/planner-before-change-types',
    title:
      'a planner name without its major version is refused before the change types are read (D-CTX-57): CONTEXT_PLAN_INVALID, not CONTEXT_CHANGE_TYPES_REQUIRED',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams({ planner: 'acme-planner', changeTypes: [] }), 'CONTEXT_PLAN_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/explicit-selector-unknown',
    title:
      'an explicit selector naming no document of the catalogue or the inventory is refused (D-CTX-57): CONTEXT_SOURCE_DESCRIPTOR_INVALID, no plan is made',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(planParams({ explicitSelectors: ['missing.md'] }), 'CONTEXT_SOURCE_DESCRIPTOR_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/seed-before-contract',
    title:
      'the seed is formed before the contract asked for is read (D-CTX-57): a seed of another schemaVersion asking for a V1 plan is CONTEXT_PLAN_INVALID',
    anchor: 'planning-through-the-protocol',
    requirements: ['CAG-002', 'CAG-013'],
    run: (m) =>
      void m.plan(
        planParams({ contract: 'ContextReadPlanV1' }, { schemaVersion: 'IntentSeedV2' }),
        'CONTEXT_PLAN_INVALID',
      ),
  },
  {
    family: 'plan',
    name: 'plan/cache-artifact-name-invalid',
    title:
      'a cache artifact named outside the artifact pattern ("artifact:summary") is refused: no plan is written that its own contract refuses',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-027', 'PROTO-010'],
    run: (m) => void m.plan(planParams({ cacheArtifacts: ['artifact:summary'] }), 'CONTEXT_PLAN_INVALID'),
  },
  {
    family: 'plan',
    name: 'plan/cache-hit',
    title:
      'cache artifacts make a computation-cache hit: status hit, content-identity-match, the artifacts sorted and unique',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-027', 'PROTO-010'],
    run: (m) =>
      void m.plan(planParams({ cacheArtifacts: ['summary-index', 'profile-digest', 'summary-index'] })),
  },
  {
    family: 'plan',
    name: 'plan/low-confidence-full-read',
    title:
      'a low-confidence seed (0.4) is planned as a full read: every readable catalogued document is selected',
    anchor: 'invariants',
    requirements: ['CAG-007', 'CAG-026', 'PROTO-010'],
    run: (m) => void m.plan(planParams({}, { confidence: 0.4 })),
  },
  {
    family: 'plan',
    name: 'plan/fractional-mtime-truncated',
    title:
      'a catalogued ref whose modification time has a fraction of a millisecond is planned with it truncated to whole milliseconds, and its metadataDigest hashes the truncated time',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({
          catalogue: contextCatalogueWithRefs('testing.md', {
            ...contextRef('testing.md'),
            path: `${CONTEXT_ROOT}/.agent/shared/testing.md`,
            layer: 'profile-shared',
            mtimeMs: 1795770410000.875,
          }),
        }),
      ),
  },
  {
    family: 'plan',
    name: 'plan/duplicate-ref-first-kept',
    title:
      'a document whose refs list one place twice, with other metadata the second time, is planned with that place once, from its first listing (D-CTX-54)',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-026', 'PROTO-010'],
    run: (m) =>
      void m.plan(
        planParams({
          catalogue: contextCatalogueWithRefs('testing.md', {
            ...contextRef('testing.md'),
            size: 4096,
            mtimeMs: 1795770499000,
          }),
        }),
      ),
  },
  // receipt ----------------------------------------------------------------------------------
  {
    family: 'receipt',
    name: 'receipt/pre-tool-use-alone',
    title:
      'PreToolUse events alone never satisfy a source: the receipt stays attempted with both sources missing',
    anchor: 'state-machine',
    requirements: ['CAG-001', 'CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/correlated-reads-complete',
    title:
      'a correlated PostToolUse with the body of each mandatory source completes the receipt; consuming it makes it completed',
    anchor: 'state-machine',
    requirements: ['CAG-001', 'CAG-016', 'CAG-017', 'CAG-018', 'CAG-500'],
    run: (m) => {
      const { plan } = opened(m);
      readAll(m, plan);
      m.advance();
      m.observe(plan.planId, { event: 'consume' }, 'completed');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/fractional-live-mtime-fresh',
    title:
      "re-observed metadata whose modification time has a fraction of the plan's whole millisecond is truncated before hashing: the source is fresh and the receipt completes",
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', {
          liveRefs: [{ ...contextRef('testing.md'), mtimeMs: 1795770410000.5 }],
        }),
        'relevant-complete',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/failure-marker-deep-in-the-result',
    title:
      'a tool result with `isError: true` 80 levels down carries a failure marker (any level, D-RCP-57): no transport success, the testing document stays missing',
    anchor: 'observation-records',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      let toolResult: unknown = { isError: true, content: 'denied' };
      for (let i = 0; i < 80; i++) toolResult = i % 2 ? [toolResult] : { content: toolResult };
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', { toolResult }), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/error-null-is-a-failure-marker',
    title:
      'a tool result with an `error` member is a failure whatever its value, `null` included (D-RCP-59): no transport success, the testing document stays missing',
    anchor: 'receipts-through-the-protocol',
    requirements: ['CAG-018', 'PROTO-011'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', {
          toolResult: { content: TESTING_BODY, error: null },
        }),
        'attempted',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/cache-hit-never-completes',
    title:
      'a computation-cache hit (cache: true) with the right body satisfies nothing: the receipt never completes',
    anchor: 'observation-records',
    requirements: ['CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', { cache: true }), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/old-full-read-result-never-completes',
    title:
      'an old full-read tool result (a call of an earlier plan, never attempted under this one) satisfies nothing',
    anchor: 'observation-records',
    requirements: ['CAG-017', 'CAG-018'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-full-read-earlier'), 'attempted');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/fallback-text-never-completes',
    title:
      'an instruction-only receipt (fallback text saying the context was loaded) stays unverified whatever is observed',
    anchor: 'state-machine',
    requirements: ['CAG-022'],
    run: (m) => {
      const plan = m.plan(planParams());
      m.advance();
      m.open(plan.planId, { verificationMode: 'instruction-only', hostSessionId: SESSION }, 'unverified');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'unverified');
      m.advance();
      m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1'), 'unverified');
    },
  },
  ...UNCORRELATED.map(
    ([name, what, over]): Scenario => ({
      family: 'receipt',
      name: `receipt/uncorrelated/${name}`,
      title: `a PostToolUse that carries ${what} satisfies nothing: the testing document stays missing`,
      anchor: 'observation-records',
      requirements: ['CAG-017', 'CAG-018', ...(name === 'plan-id' ? ['CAG-015'] : [])],
      run: (m) => {
        const { plan } = opened(m);
        m.advance();
        m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
        m.advance();
        m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
        m.advance();
        m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
        m.advance();
        m.observe(plan.planId, post(plan, 'profile:testing.md', 'toolu-read-1', over(plan)), 'attempted');
      },
    }),
  ),
  {
    family: 'receipt',
    name: 'receipt/attempt-outside-envelope',
    title:
      'an attempt outside the action envelope (a release on a fix plan) makes the receipt stale with one replan; a second one keeps it at one',
    anchor: 'state-machine',
    requirements: ['CAG-502'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(
        plan.planId,
        pre(plan, 'profile:testing.md', 'toolu-act-0', { actionClass: 'release' }),
        'stale',
      );
      m.advance();
      m.observe(
        plan.planId,
        pre(plan, 'profile:testing.md', 'toolu-act-1', { actionClass: 'release' }),
        'stale',
      );
    },
  },
  {
    family: 'receipt',
    name: 'receipt/attempt-above-risk-ceiling',
    title:
      'an attempt whose risk is above the plan ceiling is incompatible: the receipt is stale (scope-drift)',
    anchor: 'state-machine',
    requirements: ['CAG-501', 'CAG-502'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-act-0', { risk: 'critical' }), 'stale');
    },
  },
  {
    family: 'receipt',
    name: 'receipt/unknown-plan',
    title: 'a receipt of a plan the session never made is refused',
    anchor: 'contextreadbindingv1',
    requirements: ['CAG-015'],
    run: (m) => m.unknownPlan('plan-000000000000000000000000'),
  },
  // reuse ------------------------------------------------------------------------------------
  ...(
    [
      [
        'reuse/same-session-epoch-granted',
        'the same content planned again in the same session and epoch reuses the delivered bodies: the receipt opens by reuse, relevant-complete',
        'ctx-epoch-one',
        'receipt',
        'same-session-epoch-content-observed',
        [],
      ],
      [
        'reuse/across-epoch-refused',
        'the same content planned in a new epoch never reuses the prior receipt: delivery is refused (context-epoch-mismatch), the bodies are read again',
        'ctx-epoch-two',
        'receipt',
        'context-epoch-mismatch',
        [],
      ],
      [
        'reuse/v1-receipt-refused',
        'a ContextReadReceiptV1 is never reused, in this epoch or another: delivery is refused (legacy-or-missing-receipt)',
        'ctx-epoch-two',
        'v1',
        'legacy-or-missing-receipt',
        ['CAG-019'],
      ],
      [
        'reuse/full-only-refused',
        'execution optimization full-only refuses computation and delivery reuse',
        'ctx-epoch-one',
        'full-only',
        'execution-optimization-full-only',
        [],
      ],
    ] as const
  ).map(
    ([name, title, epoch, prior, means, extra]): Scenario => ({
      family: 'reuse',
      name,
      title,
      anchor: 'ordered-checks',
      requirements: ['CAG-025', ...extra],
      run: (m) => {
        const first = opened(m);
        const complete = readAll(m, first.plan);
        m.advance();
        const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }, { contextEpoch: epoch }));
        m.advance();
        m.reuse(
          plan.planId,
          {
            executionOptimizationMode: prior === 'full-only' ? 'full-only' : 'safe-auto',
            hostSessionId: SESSION,
            currentSourceIdentities: complete.sourceIdentities,
            priorPlan: first.plan,
            priorReceipt: prior === 'v1' ? { $fixture: V1_RECEIPT_FIXTURE } : complete,
          },
          means,
          { toolCallId: 'toolu-plan-0002', attemptedAt: plan.plannedAt },
        );
      },
    }),
  ),
  {
    family: 'reuse',
    name: 'reuse/copies-the-latest-record',
    title:
      'a source read twice, its body changed in between, is reused from its latest record: the receipt opened by reuse proves the body the decision compared, not the older one',
    anchor: 'ordered-checks',
    requirements: ['CAG-025'],
    run: (m) => {
      const first = opened(m);
      const busy = {
        body: { value: { status: 'busy' }, contractVersion: '1' },
        toolResult: { status: 'busy' },
      };
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(first.plan.planId, post(first.plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'memory:status', 'toolu-read-2'), 'attempted');
      m.observe(first.plan.planId, post(first.plan, 'memory:status', 'toolu-read-2', busy), 'attempted');
      m.advance();
      m.observe(first.plan.planId, pre(first.plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      const complete = m.observe(
        first.plan.planId,
        post(first.plan, 'profile:testing.md', 'toolu-read-1'),
        'relevant-complete',
      );
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.reuse(plan.planId, reuseOfPrior(first.plan, complete), 'same-session-epoch-content-observed', {
        toolCallId: 'toolu-plan-0002',
        attemptedAt: plan.plannedAt,
      });
    },
  },
  {
    family: 'reuse',
    name: 'reuse/plan-call-after-plan-refused',
    title:
      'a granted delivery reuse whose plan call was attempted after the plan was made opens no receipt: refused (the plan is made inside its own tool call)',
    anchor: 'ordered-checks',
    requirements: ['CAG-025'],
    run: (m) => {
      const first = opened(m);
      const complete = readAll(m, first.plan);
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.advance();
      m.reuse(
        plan.planId,
        reuseOfPrior(first.plan, complete),
        'same-session-epoch-content-observed',
        {
          toolCallId: 'toolu-plan-0002',
          attemptedAt: new Date(Date.parse(plan.plannedAt) + 1000).toISOString(),
        },
        'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      );
    },
  },
  // ledger -----------------------------------------------------------------------------------
  {
    family: 'ledger',
    name: 'ledger/older-snapshot-keeps-delivered',
    title:
      'a writer holding an older snapshot (before the testing document was read) writes it last: the ledger keeps every delivered record',
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      const older = m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      const olderSnapshot = m.snapshotOf(plan.planId, older.observations);
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      m.advance();
      const complete = m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1'),
        'relevant-complete',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.write(plan.planId, olderSnapshot, 'written');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-re-executes-nothing',
    title:
      'a receipt gone stale because its own recording failed (writer-drift) is rebuilt from the ledger: every record of the successor is a ledger record, nothing is read again',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      m.replay(
        plan.planId,
        Object.fromEntries(
          [...plan.baselineSources, ...plan.selectedSources]
            .filter((s) => s.kind !== 'memory')
            .map((s) => [s.sourceId, s.sourceRefs.map(({ metadataDigest: _d, ...r }) => r)]),
        ),
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-refs-in-another-order',
    title:
      'a replay whose re-observed metadata lists a source’s two places in another order than the plan still finds the source fresh: its records are replayed',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const shared = {
        ...contextRef('testing.md'),
        path: `${CONTEXT_ROOT}/.agent/shared/testing.md`,
        layer: 'profile-shared',
      };
      const catalogue = contextCatalogueWithRefs('testing.md', shared);
      const { plan } = opened(m, { catalogue });
      const both = { liveRefs: [contextRef('testing.md'), shared] };
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, pre(plan, 'profile:testing.md', 'toolu-read-1'), 'attempted');
      const complete = m.observe(
        plan.planId,
        post(plan, 'profile:testing.md', 'toolu-read-1', both),
        'relevant-complete',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      m.replay(
        plan.planId,
        {
          'profile:README.md': [contextRef('README.md')],
          'profile:config.json': [contextRef('config.json')],
          'profile:testing.md': [contextRef('testing.md'), shared],
        },
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-fractional-mtime-fresh',
    title:
      "a replay whose re-observed metadata carries a fraction of the plan's whole millisecond finds the source fresh (the time is truncated before hashing): its records are replayed",
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(
        plan.planId,
        { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
        'stale',
      );
      m.advance();
      const fraction = (file: string) => [{ ...contextRef(file), mtimeMs: 1795770410000.25 }];
      m.replay(
        plan.planId,
        {
          'profile:README.md': fraction('README.md'),
          'profile:config.json': fraction('config.json'),
          'profile:testing.md': fraction('testing.md'),
        },
        'relevant-complete',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-keeps-a-conflict-unverified',
    title:
      'a receipt two different PostToolUse results of one call made unverified is rebuilt from the ledger unverified again, the conflict named: a replay never hides conflicting evidence',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      m.observe(plan.planId, post(plan, 'memory:status', 'toolu-read-0'), 'attempted');
      m.advance();
      const conflicted = m.observe(
        plan.planId,
        post(plan, 'memory:status', 'toolu-read-0', {
          body: { value: { status: 'busy' }, contractVersion: '1' },
          toolResult: { status: 'busy' },
        }),
        'unverified',
      );
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, conflicted.observations), 'written');
      m.advance();
      m.replay(plan.planId, {}, 'unverified');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/replay-never-heals-profile-drift',
    title: 'a receipt stale for profile-drift is never healed by a replay of the ledger: refused',
    anchor: 'replay',
    requirements: ['CAG-020', 'PROTO-014'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, complete.observations), 'written');
      m.advance();
      m.observe(plan.planId, { event: 'drift', trigger: 'profile-drift' }, 'stale');
      m.advance();
      m.replay(plan.planId, {}, 'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/reuse-records-dropped',
    title:
      "a writer's snapshot holding the delivery-reuse records of a receipt opened by reuse, and the prior plan's records, merges none of them: each is listed as dropped",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const first = opened(m);
      const complete = readAll(m, first.plan);
      m.advance();
      const plan = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0002' }));
      m.advance();
      m.reuse(plan.planId, reuseOfPrior(first.plan, complete), 'same-session-epoch-content-observed', {
        toolCallId: 'toolu-plan-0002',
        attemptedAt: plan.plannedAt,
      });
      const reused = m.receiptOf(plan.planId);
      if (reused.observations.some((o) => o.hookEvent !== 'PostToolUse' || o.reusedObservationId === null))
        throw new Error(
          'context/ledger/reuse-records-dropped: the receipt holds a record that is not a reuse result',
        );
      m.advance();
      m.write(
        plan.planId,
        m.snapshotHolding(plan.planId, [...complete.observations, ...reused.observations]),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/merge-in-event-order',
    title:
      'two writers each hold the records of one read; the one whose read came first writes last: its records are merged where their event times put them, before the stored later ones',
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      const complete = readAll(m, plan);
      const baseline = (o: ContextReadReceiptV2['observations'][number]) => o.toolCallId === PLAN_CALL;
      m.advance();
      m.write(
        plan.planId,
        m.snapshotOf(
          plan.planId,
          complete.observations.filter((o) => baseline(o) || o.sourceId === 'profile:testing.md'),
        ),
        'written',
      );
      m.advance();
      m.write(
        plan.planId,
        m.snapshotOf(
          plan.planId,
          complete.observations.filter((o) => baseline(o) || o.sourceId === 'memory:status'),
        ),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/record-of-another-root-dropped',
    title:
      "a writer's snapshot holding an attempt made in another root is merged without it (listed in dropped), while a wrong-root result, evidence that a read went elsewhere, is kept",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const { plan } = opened(m);
      m.advance();
      m.observe(plan.planId, pre(plan, 'memory:status', 'toolu-read-9'), 'attempted');
      m.advance();
      m.observe(
        plan.planId,
        post(plan, 'memory:status', 'toolu-read-9', { activeRoot: '/srv/elsewhere' }),
        'attempted',
      );
      const complete = readAll(m, plan);
      if (!complete.observations.some((o) => o.hookEvent === 'PostToolUse' && o.outcome === 'wrong-root'))
        throw new Error('context/ledger/record-of-another-root-dropped: no wrong-root result was recorded');
      // The writer also recorded a PreToolUse of another root, which the receipt refused as drift.
      m.advance();
      const attempt = complete.observations.find((o) => o.hookEvent === 'PreToolUse')!;
      const { observationId: _id, ...body } = {
        ...attempt,
        toolCallId: 'toolu-read-elsewhere',
        activeRoot: '/srv/elsewhere',
        attemptedAt: new Date(m.clock.now()).toISOString(),
      };
      const elsewhere = { observationId: observationIdOf(body as never), ...body };
      m.write(
        plan.planId,
        m.snapshotHolding(plan.planId, [...complete.observations, elsewhere] as never),
        'written',
      );
    },
  },
  {
    family: 'ledger',
    name: 'ledger/full-refused',
    title:
      "a write whose merge leaves more than 128 records that are each a source's latest record or its attempt is refused, and the stored ledger is unchanged: the next write is its next revision",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      // 66 mandatory sources: the two baseline ones (one record each, the plan call's result) and
      // 64 read ones (an attempt and a result each) make 130 records no eviction may remove.
      const documents = Array.from({ length: 62 }, (_, i) =>
        contextDocument(`guide-${String(i).padStart(2, '0')}.md`, ['testing']),
      );
      const { plan } = opened(m, { catalogue: contextCatalogueWith(...documents) });
      const read = plan.selectedSources.map((s) => s.sourceId);
      if (plan.mandatorySourceIds.length !== 66 || read.length !== 64)
        throw new Error('context/ledger/full-refused: the plan does not have 66 mandatory sources');
      m.advance();
      // One writer holds 15 of the reads, another the other 49 (its receipt's 100 records).
      const a = m.writerRecords(plan.planId, read.slice(0, 15));
      const b = m.writerRecords(plan.planId, read.slice(15));
      m.write(plan.planId, m.snapshotOf(plan.planId, a), 'written');
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, b), 'CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL');
      m.advance();
      m.write(plan.planId, m.snapshotOf(plan.planId, []), 'written');
    },
  },
  {
    family: 'ledger',
    name: 'ledger/snapshot-of-another-plan',
    title: "a snapshot of another plan's ledger is never merged into this plan's ledger: refused",
    anchor: 'merge-rule',
    requirements: ['CAG-024', 'PROTO-013'],
    run: (m) => {
      const other = m.plan(planParams({ invocationNonce: 'nonce-0000-0000-0009' }));
      const { plan } = opened(m);
      m.advance();
      m.write(plan.planId, m.snapshotOf(other.planId, []), 'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH');
    },
  },
];

/** The protocol requirements of each family (docs/protocol.md#context-v1-capability-context). */
const FAMILY: Readonly<Record<Scenario['family'], readonly string[]>> = {
  plan: [],
  receipt: ['PROTO-011'],
  reuse: ['PROTO-011', 'PROTO-012'],
  ledger: [],
};

function contextCase(s: Scenario): Case {
  const m = new Model(s.name);
  s.run(m);
  const id = `context/${s.name}`;
  const spec = `${PAGE}#${s.anchor}`;
  const steps = m.steps;
  return {
    id,
    title: s.title,
    gate: 'ContextAcquisitionGate',
    subject:
      s.family === 'plan'
        ? 'ContextReadPlanV2'
        : s.family === 'reuse'
          ? 'ContextReuseDecisionV1'
          : s.family === 'ledger'
            ? 'ContextSourceObservationLedgerV1'
            : 'ContextReadReceiptV2',
    spec,
    ...requirementsOf({ id, spec, steps }, 'operation', [...FAMILY[s.family], ...s.requirements]),
    requires: ['context', 'clock'],
    steps,
  };
}

/** The case groups this file writes under conformance/cases/. */
export const CONTEXT_CASE_GROUPS = ['context'] as const;

/** Build every case file: path under conformance/cases/ -> `{ $comment, cases }`. */
export function contextCaseFiles(): Map<string, { $comment: string; cases: Case[] }> {
  const comment =
    'Generated by scripts/cases/context.ts from the reference context engine (packages/engines/src/context) with a fixed clock; do not edit.';
  const byFamily = new Map<string, Case[]>();
  for (const s of SCENARIOS) {
    const list = byFamily.get(s.family) ?? [];
    list.push(contextCase(s));
    byFamily.set(s.family, list);
  }
  return new Map(
    [...byFamily].map(([family, cases]) => [`context/${family}.json`, { $comment: comment, cases }]),
  );
}
