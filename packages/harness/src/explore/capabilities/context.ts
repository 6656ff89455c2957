// Exploration of `context.plan`, `context.receipt`, `context.observe`, `context.reuse` and
// `context.ledger`: two plans at a time (slots `a` and `b`) of canonical and non-canonical
// intents, in one of two epochs, with hidden and baseline reads while planning; receipts opened in
// every verification mode; PreToolUse and PostToolUse of every source of the catalogue, correlated
// or with one correlation field changed, cache hits, wrong and missing bodies; drifts (replayable
// or not), blocks and consumes; reuse of the other slot's plan and receipt (of the same or another
// epoch); ledger writes of snapshots taken earlier (older than the stored set) or now, and
// replays; with the clock moved. Values a later request needs (plan ids, epochs, plans, receipts)
// are captured from each side's own replies; a snapshot is built from what the model captured.
import { ManualClock } from '@agent-contracts/engines';
import type { ContextReadPlanV2, ContextReadReceiptV2 } from '@agent-contracts/schemas';
import fc from 'fast-check';
import {
  type CapabilityExplorer,
  clockCommands,
  command,
  hex,
  iso,
  type LazyStep,
  phases,
} from '../command.js';
import {
  CONTEXT_MEMORY_REF,
  CONTEXT_ROOT,
  contextCatalogueWith,
  contextDocument,
  contextRef,
} from '../context-catalogue.js';
import { contextSnapshot } from '../model/context.js';
import type { ExploreSession } from '../session.js';

/** The shared catalogue with two more documents, one of them local to the profile. */
const MORE_DOCUMENTS = [
  contextDocument('security.md', ['security']),
  contextDocument('notes.local.md', ['docs'], { kind: 'profile-local' }),
];
const CATALOGUE = contextCatalogueWith(...MORE_DOCUMENTS);
/** The catalogue with a document the store holds but the index does not list: the plan is blocked. */
const UNCLASSIFIED = contextCatalogueWith(
  ...MORE_DOCUMENTS,
  contextDocument('draft.md', ['docs'], { catalogued: false }),
);
const SOURCES = [
  'memory:status',
  'profile:testing.md',
  'profile:release.md',
  'profile:security.md',
  'profile:README.md',
  'profile:config.json',
];
const SESSIONS = ['sess-0001', 'sess-0002'];
const slot = fc.constantFrom<string>('a', 'b');
const other = (s: string) => (s === 'a' ? 'b' : 'a');

interface Shape {
  readonly semantic: string | null;
  /** The seed's other keys (`ContextSeedInput`): see {@link seedOf}. */
  readonly seed: SeedExtras;
  readonly changeTypes: readonly string[];
  readonly confidence: number;
  readonly riskHint: string;
  /** Absent (undefined), null, empty or the user's words. */
  readonly fullReadRequest: string | null | undefined;
  /** The request's other members (`ContextPlanParams`): see {@link askOf}. */
  readonly ask: Ask;
  /** The cache artifacts supplied: none (absent), a hit, empty, a name no plan holds. */
  readonly cache: string;
  readonly unclassified: boolean;
}
/**
 * The seed input's keys beside `semantic`, as a runtime may send them (docs/spec/
 * context-acquisition-gate.md#producing-a-seed, D-CTX-55): the `intent` alias equal to
 * `semantic`, another intent, null or empty; a target hint (trimmed, empty, null, too long); a
 * continuation hint; `createdAt` now, earlier or malformed; `schemaVersion` right or wrong; the
 * epoch given, derived (absent) or empty. Mostly what a runtime sends, so that plans still bind.
 */
interface SeedExtras {
  readonly intent: string;
  readonly targetHint: string | null | undefined;
  readonly continuationHint: boolean | undefined;
  readonly createdAt: string;
  readonly schemaVersion: string | undefined;
  readonly epoch: string;
}
const PLAIN_SEED: SeedExtras = {
  intent: 'absent',
  targetHint: undefined,
  continuationHint: undefined,
  createdAt: 'absent',
  schemaVersion: undefined,
  epoch: 'given',
};
const seedExtras: fc.Arbitrary<SeedExtras> = fc.record({
  intent: fc.constantFrom('absent', 'absent', 'absent', 'same', 'same', 'other', 'null', 'empty', 'word'),
  targetHint: fc.constantFrom<string | null | undefined>(
    undefined,
    undefined,
    'packages/api',
    '  packages/api  ',
    '',
    null,
    'x'.repeat(257),
  ),
  continuationHint: fc.constantFrom<boolean | undefined>(undefined, undefined, true, false),
  createdAt: fc.constantFrom('absent', 'absent', 'now', 'earlier', 'malformed', 'empty'),
  schemaVersion: fc.constantFrom<string | undefined>(
    undefined,
    undefined,
    'IntentSeedV1',
    'IntentSeedV2',
    '',
  ),
  epoch: fc.constantFrom('given', 'given', 'given', 'given', 'derived', 'empty'),
});

/** The seed input of a plan: `semantic` and the other keys drawn, none sent as undefined. */
function seedOf(p: Shape, epoch: string, now: string): Record<string, unknown> {
  const x = p.seed;
  const intent = { same: p.semantic, other: 'audit', null: null, empty: '', word: 'bugfix' }[x.intent];
  const createdAt = {
    now,
    earlier: '2026-11-30T05:00:00.000Z',
    malformed: '2026-11-30 05:00:00',
    empty: '',
  }[x.createdAt];
  const seed: Record<string, unknown> = {
    ...(x.schemaVersion === undefined ? {} : { schemaVersion: x.schemaVersion }),
    semantic: p.semantic,
    ...(intent === undefined ? {} : { intent }),
    ...(x.epoch === 'derived' ? {} : { contextEpoch: x.epoch === 'empty' ? '' : epoch }),
    confidence: p.confidence,
    riskHint: p.riskHint,
    ...(x.targetHint === undefined ? {} : { targetHint: x.targetHint }),
    ...(x.continuationHint === undefined ? {} : { continuationHint: x.continuationHint }),
    ...(createdAt === undefined ? {} : { createdAt }),
  };
  return seed;
}

/**
 * What else a plan request may carry, each mostly absent: the contract asked for (V2, the V1 a
 * writer may not write, an unknown one), a planner, explicit selectors (a catalogued, a local, an
 * uncatalogued and an unknown document), caller triggers (supplied, derived, replan), local
 * sources, a read budget.
 */
interface Ask {
  readonly contract: string | undefined;
  readonly planner: string | undefined;
  readonly explicitSelectors: readonly string[] | undefined;
  readonly triggers: readonly string[] | undefined;
  readonly localSourcesRequested: boolean | undefined;
  readonly budget: string | undefined;
}
const PLAIN_ASK: Ask = {
  contract: undefined,
  planner: undefined,
  explicitSelectors: undefined,
  triggers: undefined,
  localSourcesRequested: undefined,
  budget: undefined,
};
const BUDGETS: Record<string, unknown> = {
  none: { bytes: null, chars: null, tokens: null, latencyMs: null, enforcement: 'advisory' },
  hard: { bytes: 4096, chars: 4096, tokens: 0, latencyMs: 2000, enforcement: 'hard' },
};
const ask: fc.Arbitrary<Ask> = fc.record({
  contract: fc.constantFrom<string | undefined>(
    undefined,
    undefined,
    undefined,
    'ContextReadPlanV2',
    'ContextReadPlanV1',
    'ContextReadPlanV3',
  ),
  planner: fc.constantFrom<string | undefined>(
    undefined,
    undefined,
    undefined,
    'acme-planner@2',
    'acme-planner',
  ),
  explicitSelectors: fc.constantFrom<readonly string[] | undefined>(
    undefined,
    undefined,
    undefined,
    [],
    ['release.md'],
    ['notes.local.md'],
    ['draft.md'],
    ['missing.md'],
  ),
  triggers: fc.constantFrom<readonly string[] | undefined>(
    undefined,
    undefined,
    undefined,
    [],
    ['cross-service'],
    ['compact'],
    ['low-confidence'],
  ),
  localSourcesRequested: fc.constantFrom<boolean | undefined>(undefined, undefined, true, false),
  budget: fc.constantFrom<string | undefined>(undefined, undefined, 'none', 'hard'),
});

/** The request members of {@link Ask}, none sent as undefined. */
function askOf(a: Ask): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries({ ...a, budget: a.budget === undefined ? undefined : BUDGETS[a.budget] }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

const STANDARD: Shape = {
  semantic: 'fix',
  seed: PLAIN_SEED,
  changeTypes: ['testing'],
  confidence: 1,
  riskHint: 'normal',
  fullReadRequest: undefined,
  ask: PLAIN_ASK,
  cache: 'none',
  unclassified: false,
};
/** What a plan asks for: mostly the same content (so that reuse across plans can match), else anything. */
const shape = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constant(STANDARD),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      semantic: fc.constantFrom<string | null>('fix', 'dev', 'audit', 'chat', 'refactor', null, ''),
      seed: seedExtras,
      changeTypes: fc.subarray(['testing', 'release', 'security', 'docs']),
      confidence: fc.constantFrom(1, 0.9, 0.4, 0, 1.5),
      riskHint: fc.constantFrom('normal', 'high', 'critical', ''),
      fullReadRequest: fc.constantFrom<string | null | undefined>(
        undefined,
        undefined,
        undefined,
        'read everything',
        null,
        '',
      ),
      ask,
      cache: fc.constantFrom('none', 'none', 'hit', 'hit', 'empty', 'Bad_Name'),
      unclassified: fc.constantFrom(false, false, false, true),
    }),
  },
);
/** How a runtime reads every mandatory source: one from a cache, one only attempted, a snapshot taken midway. */
const readOptions = fc.record({
  cacheOn: fc.constantFrom(-1, -1, 0, 1),
  skip: fc.constantFrom(-1, -1, -1, 0),
  takeAt: fc.constantFrom(-1, -1, 0),
});
type ReadOptions = typeof readOptions extends fc.Arbitrary<infer R> ? R : never;

const planOf = fc.record({
  slot,
  epoch: fc.constantFrom('ctx-epoch-one', 'ctx-epoch-two'),
  shape,
  readTrace: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'baseline', 'hidden'),
  nonce: fc.integer({ min: 1, max: 4 }),
  open: fc.constantFrom(
    'none',
    'structured-plan',
    'structured-plan',
    'path-observable',
    'read',
    'read',
    'read',
  ),
  read: readOptions,
  write: fc.boolean(),
});

/** A `context.plan` step for the slot, capturing the plan, its id, epoch and content id. */
function planStep(slotName: string, epoch: string, p: Shape, readTrace: string, nonce: string, now: string) {
  return {
    method: 'context.plan',
    params: {
      seed: seedOf(p, epoch, now),
      catalogue: p.unclassified ? UNCLASSIFIED : CATALOGUE,
      host: 'standalone',
      invocationNonce: `nonce-explore-${slotName}-${nonce}`,
      changeTypes: p.changeTypes,
      ...(p.fullReadRequest === undefined ? {} : { fullReadRequest: p.fullReadRequest }),
      ...askOf(p.ask),
      ...(p.cache === 'none'
        ? {}
        : { cacheArtifacts: p.cache === 'hit' ? ['summary-index'] : p.cache === 'empty' ? [] : [p.cache] }),
      ...(readTrace === 'none'
        ? {}
        : {
            readTrace:
              readTrace === 'baseline'
                ? [
                    { sourceId: 'profile:README.md', readAt: now },
                    { sourceId: 'profile:config.json', readAt: now },
                  ]
                : [{ sourceId: 'profile:testing.md', readAt: now }],
          }),
    },
    capture: {
      [`plan-${slotName}`]: '',
      [`planId-${slotName}`]: '/planId',
      [`epoch-${slotName}`]: '/contextBinding/contextEpoch',
      [`pcid-${slotName}`]: '/planContentId',
    },
  };
}

/** Captures of a reply's receipt at `pointer`: the receipt and its source identities. */
const receiptCapture = (s: string, pointer: string) => ({
  [`receipt-${s}`]: pointer,
  [`identities-${s}`]: `${pointer}/sourceIdentities`,
});

const openOf = (
  s: string,
  mode: string,
  session: string | null,
  delivered: boolean,
  now: string,
  argsDigest?: string | null,
) => ({
  method: 'context.receipt',
  params: {
    planId: { $var: `planId-${s}` },
    open: {
      verificationMode: mode,
      hostSessionId: session,
      ...(mode === 'structured-plan'
        ? {
            planCall: {
              toolCallId: `toolu-plan-${s}`,
              attemptedAt: now,
              ...(argsDigest === undefined ? {} : { argsDigest }),
            },
          }
        : {}),
      ...(delivered ? {} : { baselineDelivered: false }),
    },
  },
  capture: receiptCapture(s, ''),
});

/** The correlation fields a hook event carries, one of them changed by `skew`. */
const bindingOf = (s: string, skew: string) => ({
  contextEpoch: skew === 'epoch' ? 'ctx-epoch-older' : { $var: `epoch-${s}` },
  planId: skew === 'plan-id' ? 'plan-0000000000000000deadbeef' : { $var: `planId-${s}` },
  activeRoot: skew === 'root' ? '/srv/other' : CONTEXT_ROOT,
  ...(skew === 'content-id' ? { planContentId: `pcid-${'0'.repeat(24)}` } : {}),
  ...(skew === 'named' ? { planContentId: { $var: `pcid-${s}` }, project: 'acme' } : {}),
  ...(skew === 'project' ? { project: 'other' } : {}),
});
const SKEWS = ['none', 'none', 'none', 'none', 'named', 'epoch', 'plan-id', 'root', 'content-id', 'project'];

const read = fc.record({
  slot,
  source: fc.constantFrom(...SOURCES),
  call: fc.integer({ min: 0, max: 2 }),
  session: fc.constantFrom(SESSIONS[0]!, SESSIONS[0]!, SESSIONS[0]!, SESSIONS[1]!, null),
  actionClass: fc.constantFrom(
    'context-read',
    'context-read',
    'context-read',
    'analysis-read',
    'source-mutation',
  ),
  risk: fc.constantFrom(undefined, undefined, undefined, undefined, 'high', 'critical'),
  skew: fc.constantFrom(...SKEWS),
  body: fc.constantFrom('right', 'right', 'right', 'other', 'none', 'claimed-other'),
  cache: fc.constantFrom(false, false, true),
  target: fc.constantFrom(true, true, true, false),
  liveRefs: fc.constantFrom('same', 'same', 'none', 'moved'),
  sourceOk: fc.constantFrom(true, true, true, false),
  post: fc.constantFrom('pair', 'pair', 'pair', 'pre', 'post'),
  /** The call's argument digest on both events: absent, a digest, null. */
  argsDigest: fc.constantFrom<string | null | undefined>(undefined, undefined, hex('read args'), null),
  /** The PostToolUse's telemetry: absent, measured, unknown (null). */
  telemetry: fc.constantFrom('none', 'none', 'measured', 'null'),
});
const TELEMETRY: Record<string, Record<string, unknown>> = {
  none: {},
  measured: { hostDeliveredBytes: 42, latencyMs: 12, tokens: 10 },
  null: { hostDeliveredBytes: null, latencyMs: null, tokens: null },
};
type Read = typeof read extends fc.Arbitrary<infer R> ? R : never;

const memory = (source: string) => source.startsWith('memory:');

function preOf(r: Read) {
  return {
    method: 'context.observe',
    params: {
      planId: { $var: `planId-${r.slot}` },
      event: {
        event: 'PreToolUse',
        toolCallId: `toolu-read-${r.call}`,
        sourceIds: [r.source],
        actionClass: r.actionClass,
        ...(r.risk ? { risk: r.risk } : {}),
        ...(r.argsDigest === undefined ? {} : { argsDigest: r.argsDigest }),
        hostSessionId: r.session,
        ...bindingOf(r.slot, r.skew === 'root' ? 'root' : 'none'),
      },
    },
    capture: receiptCapture(r.slot, '/receipt'),
  };
}

function postOf(r: Read) {
  const file = r.source.slice(r.source.indexOf(':') + 1);
  const body = memory(r.source)
    ? { value: { status: r.body === 'other' ? 'busy' : 'idle' }, contractVersion: '1' }
    : { text: r.body === 'other' ? `# ${file}\n\nAnother body.\n` : `# ${file}\n\nRun the checks.\n` };
  const liveRefs =
    r.liveRefs === 'none'
      ? {}
      : {
          liveRefs: memory(r.source)
            ? [CONTEXT_MEMORY_REF]
            : [
                {
                  ...contextRef(file),
                  ...(r.liveRefs === 'moved' ? { size: 43, mtimeMs: 1795770420000 } : {}),
                },
              ],
        };
  const claimed =
    r.body === 'claimed-other'
      ? {
          body: null,
          contentIdentity: {
            schemaVersion: 'ContentIdentityV1',
            algorithm: 'sha256',
            sourceKey: 'profile://acme/release.md',
            contractVersion: '1',
            digest: hex(`claimed ${file}`),
            bytes: 42,
          },
        }
      : r.body === 'none'
        ? {}
        : { body };
  return {
    method: 'context.observe',
    params: {
      planId: { $var: `planId-${r.slot}` },
      event: {
        event: 'PostToolUse',
        toolCallId: `toolu-read-${r.call}`,
        sourceId: r.source,
        hostSessionId: r.session,
        sourceLayer: memory(r.source) ? 'memory-query' : 'profile',
        ...liveRefs,
        toolResult: 'value' in body ? body.value : { content: body.text },
        ...claimed,
        schemaMatch: true,
        targetMatch: r.target,
        ...(r.sourceOk ? {} : { sourceOk: false }),
        ...(r.cache ? { cache: true } : {}),
        ...(r.argsDigest === undefined ? {} : { argsDigest: r.argsDigest }),
        ...TELEMETRY[r.telemetry],
        ...bindingOf(r.slot, r.skew),
      },
    },
    capture: receiptCapture(r.slot, '/receipt'),
  };
}

/** A writer's snapshot of the slot's ledger, from the receipt the model captured last. */
function snapshotOf(s: ExploreSession, slotName: string): unknown {
  const plan = s.captured(`plan-${slotName}`) as ContextReadPlanV2 | undefined;
  const receipt = s.captured(`receipt-${slotName}`) as ContextReadReceiptV2 | undefined;
  if (!plan || !receipt || receipt.binding.planId !== plan.planId) return undefined;
  const r = contextSnapshot(plan, receipt.observations, new ManualClock(Date.parse(receipt.updatedAt)));
  return r.ok ? r.ledger : undefined;
}

/** A PreToolUse and a correlated PostToolUse of every mandatory source of the slot's plan but the baseline. */
function readAll(s: ExploreSession, slotName: string, a: ReadOptions): LazyStep[] {
  const plan = s.captured(`plan-${slotName}`) as ContextReadPlanV2 | undefined;
  if (!plan || !s.bound(`planId-${slotName}`) || s.captured(`receipt-${slotName}`) == null) return [];
  const baseline = new Set(plan.baselineSources.map((b) => b.sourceId));
  return plan.mandatorySourceIds
    .filter((id) => !baseline.has(id))
    .flatMap((source, i): LazyStep[] => {
      const r: Read = {
        slot: slotName,
        source,
        call: i,
        session: SESSIONS[0]!,
        actionClass: 'context-read',
        risk: undefined,
        skew: 'none',
        body: 'right',
        cache: i === a.cacheOn,
        target: true,
        liveRefs: 'same',
        sourceOk: true,
        post: 'pair',
        argsDigest: undefined,
        telemetry: 'none',
      };
      const steps: LazyStep[] = i === a.skip ? [preOf(r)] : [preOf(r), postOf(r)];
      // A writer takes its snapshot here and writes it later (an older snapshot).
      return i === a.takeAt ? [...steps, () => take(s, slotName)] : steps;
    });
}

/** A writer takes its snapshot of the slot's ledger now, to write it later (an older snapshot); nothing is sent. */
function take(s: ExploreSession, slotName: string): null {
  const snap = snapshotOf(s, slotName);
  if (snap !== undefined) s.memo.set(`snapshot-${slotName}`, snap);
  return null;
}

/** A ledger write of the slot's snapshot taken now or earlier (or a snapshot taken now, nothing sent). */
function writeSteps(s: ExploreSession, slotName: string, which: string): LazyStep[] {
  if (!s.bound(`planId-${slotName}`)) return [];
  if (which === 'take') return [() => take(s, slotName)];
  const snap = which === 'now' ? snapshotOf(s, slotName) : s.memo.get(`snapshot-${slotName}`);
  if (snap === undefined) return [];
  return [
    {
      method: 'context.ledger',
      params: { op: 'write', planId: { $var: `planId-${slotName}` }, snapshot: snap },
    },
  ];
}

export const contextExplorer: CapabilityExplorer = {
  name: 'context',
  gate: 'ContextAcquisitionGate',
  subject: 'ContextReadReceiptV2',
  spec: 'docs/spec/context-acquisition-gate.md#protocol-scenarios',
  requires: ['context', 'clock'],
  setup: (ctx) => [{ method: 'clock.set', params: { now: iso(ctx.t0) } }],
  commands: () => [
    planOf.map(({ shape: p, ...q }) =>
      phases(
        `context.plan ${q.slot} ${q.epoch} ${JSON.stringify(p)} readTrace=${q.readTrace} then ${q.open}${q.open === 'read' ? ` ${JSON.stringify(q.read)}` : ''}${q.write ? ' then write' : ''}`,
        (ctx, s) => [
          planStep(q.slot, q.epoch, p, q.readTrace, `${q.nonce}-${ctx.run}`, s.now),
          () =>
            q.open !== 'none' && s.bound(`planId-${q.slot}`)
              ? openOf(q.slot, q.open === 'read' ? 'structured-plan' : q.open, SESSIONS[0]!, true, s.now)
              : null,
        ],
        (_c, s) => (q.open === 'read' ? readAll(s, q.slot, q.read) : []),
        (_c, s) => (q.write ? writeSteps(s, q.slot, 'now') : []),
      ),
    ),
    fc
      .record({
        slot,
        epoch: fc.constantFrom('ctx-epoch-one', 'ctx-epoch-two'),
        nonce: fc.integer({ min: 5, max: 8 }),
      })
      .map((r) =>
        // The same content planned again (in the same epoch or another) and the other slot's
        // receipt offered for reuse, as a runtime does on the next message.
        command(
          `context.plan ${r.slot} ${r.epoch} again, then context.reuse from ${other(r.slot)}`,
          (ctx, s) => {
            const o = other(r.slot);
            if (s.captured(`receipt-${o}`) == null || !s.bound(`identities-${o}`)) return [];
            return [
              planStep(r.slot, r.epoch, STANDARD, 'none', `${r.nonce}-${ctx.run}`, s.now),
              () =>
                s.bound(`planId-${r.slot}`)
                  ? {
                      method: 'context.reuse',
                      params: {
                        planId: { $var: `planId-${r.slot}` },
                        executionOptimizationMode: 'safe-auto',
                        hostSessionId: SESSIONS[0]!,
                        currentSourceIdentities: { $var: `identities-${o}` },
                        priorPlan: { $var: `plan-${o}` },
                        priorReceipt: { $var: `receipt-${o}` },
                        planCall: { toolCallId: `toolu-plan-${r.slot}`, attemptedAt: s.now },
                      },
                      capture: receiptCapture(r.slot, '/receipt'),
                    }
                  : null,
            ];
          },
        ),
      ),
    fc
      .record({
        slot,
        mode: fc.constantFrom('structured-plan', 'structured-plan', 'path-observable', 'instruction-only'),
        session: fc.constantFrom(...SESSIONS, null),
        delivered: fc.constantFrom(true, true, false),
        argsDigest: fc.constantFrom<string | null | undefined>(undefined, undefined, hex('plan args'), null),
      })
      .map((o) =>
        command(
          `context.receipt ${o.slot} open ${o.mode} ${o.session}${o.delivered ? '' : ' undelivered'}${o.argsDigest === undefined ? '' : ` argsDigest=${o.argsDigest}`}`,
          (_c, s) =>
            s.bound(`planId-${o.slot}`)
              ? [openOf(o.slot, o.mode, o.session, o.delivered, s.now, o.argsDigest)]
              : [],
        ),
      ),
    slot.map((sl) =>
      command(`context.receipt ${sl}`, (_c, s) =>
        s.bound(`planId-${sl}`)
          ? [
              {
                method: 'context.receipt',
                params: { planId: { $var: `planId-${sl}` } },
                capture: receiptCapture(sl, ''),
              },
            ]
          : [],
      ),
    ),
    read.map((r) =>
      command(
        `context.observe ${r.slot} ${r.post} ${r.source} ${JSON.stringify({ ...r, slot: undefined, source: undefined, post: undefined })}`,
        (_c, s) => {
          if (!s.bound(`planId-${r.slot}`)) return [];
          return r.post === 'pair' ? [preOf(r), postOf(r)] : r.post === 'pre' ? [preOf(r)] : [postOf(r)];
        },
      ),
    ),
    fc
      .record({ slot, read: readOptions })
      .map(({ slot: sl, read: a }) =>
        command(`context.observe ${sl} read every mandatory source ${JSON.stringify(a)}`, (_c, s) =>
          readAll(s, sl, a),
        ),
      ),
    fc
      .record({
        slot,
        event: fc.constantFrom(
          { event: 'drift', trigger: 'source-digest', reasonCode: 'writer-drift' },
          { event: 'drift', trigger: 'profile-drift' },
          { event: 'drift', trigger: 'compact' },
          { event: 'drift', trigger: 'config-digest' },
          { event: 'drift', trigger: 'source-digest' },
          { event: 'drift', trigger: 'scope-drift' },
          { event: 'drift', trigger: 'tool-schema-drift' },
          { event: 'drift', trigger: 'route-consumer-drift' },
          { event: 'drift', trigger: 'host-session-drift' },
          { event: 'drift', trigger: 'profile-catalog-drift' },
          { event: 'drift', trigger: 'cross-service' },
          { event: 'drift', trigger: 'profile-drift', reasonCode: 'projection-drift' },
          { event: 'drift', trigger: 'profile-drift', reasonCode: 'observation-orphaned' },
          { event: 'drift', trigger: 'profile-drift', reasonCode: 'observation-write-failed' },
          { event: 'drift', trigger: 'profile-drift', reasonCode: 'delivery-unobserved' },
          { event: 'block' },
          { event: 'consume' },
        ),
      })
      .map((e) =>
        command(`context.observe ${e.slot} ${JSON.stringify(e.event)}`, (_c, s) =>
          s.bound(`planId-${e.slot}`)
            ? [
                {
                  method: 'context.observe',
                  params: { planId: { $var: `planId-${e.slot}` }, event: e.event },
                  capture: receiptCapture(e.slot, '/receipt'),
                },
              ]
            : [],
        ),
      ),
    fc
      .record({
        slot,
        mode: fc.constantFrom('safe-auto', 'safe-auto', 'safe-auto', 'full-only'),
        session: fc.constantFrom(SESSIONS[0]!, SESSIONS[0]!, SESSIONS[1]!, null),
        identities: fc.constantFrom('prior', 'prior', 'none'),
        prior: fc.constantFrom('both', 'both', 'both', 'plan-only', 'none'),
        planCall: fc.constantFrom('none', 'given', 'given', 'digest', 'null-digest'),
      })
      .map((u) =>
        command(
          `context.reuse ${u.slot} from ${other(u.slot)} ${JSON.stringify({ ...u, slot: undefined })}`,
          (_c, s) => {
            const o = other(u.slot);
            if (!s.bound(`planId-${u.slot}`)) return [];
            const prior = s.bound(`plan-${o}`) ? u.prior : 'none';
            const withReceipt = prior === 'both' && s.captured(`receipt-${o}`) != null;
            const identities = withReceipt && u.identities === 'prior' && s.bound(`identities-${o}`);
            return [
              {
                method: 'context.reuse',
                params: {
                  planId: { $var: `planId-${u.slot}` },
                  executionOptimizationMode: u.mode,
                  hostSessionId: u.session,
                  currentSourceIdentities: identities ? { $var: `identities-${o}` } : null,
                  priorPlan: prior === 'none' ? null : { $var: `plan-${o}` },
                  priorReceipt: withReceipt ? { $var: `receipt-${o}` } : null,
                  ...(u.planCall === 'none'
                    ? {}
                    : {
                        planCall: {
                          toolCallId: `toolu-plan-${u.slot}`,
                          attemptedAt: s.now,
                          ...(u.planCall === 'digest'
                            ? { argsDigest: hex('plan args') }
                            : u.planCall === 'null-digest'
                              ? { argsDigest: null }
                              : {}),
                        },
                      }),
                },
              },
            ];
          },
        ),
      ),
    fc
      .record({ slot, which: fc.constantFrom('now', 'now', 'taken', 'taken', 'take') })
      .map((w) =>
        command(`context.ledger ${w.slot} write ${w.which}`, (_c, s) => writeSteps(s, w.slot, w.which)),
      ),
    fc.record({ slot, refs: fc.constantFrom('same', 'same', 'moved', 'none') }).map((r) =>
      command(`context.ledger ${r.slot} replay ${r.refs}`, (_c, s) => {
        if (!s.bound(`planId-${r.slot}`)) return [];
        const liveRefs =
          r.refs === 'none'
            ? {}
            : Object.fromEntries(
                SOURCES.filter((x) => !memory(x)).map((x) => {
                  const file = x.slice('profile:'.length);
                  return [
                    x,
                    [
                      {
                        ...contextRef(file),
                        ...(r.refs === 'moved' && file === 'testing.md' ? { size: 43 } : {}),
                      },
                    ],
                  ];
                }),
              );
        return [
          {
            method: 'context.ledger',
            params: { op: 'replay', planId: { $var: `planId-${r.slot}` }, liveRefs },
            capture: receiptCapture(r.slot, '/receipt'),
          },
        ];
      }),
    ),
    fc
      .constantFrom(1000, 1000, 60_000)
      .map((ms) => command(`clock.advance ${ms}`, () => ({ method: 'clock.advance', params: { ms } }))),
    ...clockCommands(),
  ],
};
