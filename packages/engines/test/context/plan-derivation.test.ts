// @module-tag unit
// The reference planner against docs/spec/context-acquisition-gate.md, ContextReadPlanV2: each
// derived field (Derivations: action envelope, full read, memory queries, derived triggers, exit
// condition), the classification of every document and its texts (Planning through the protocol,
// CAG-026, D-CTX-52), the candidate coverage, the limits, and the code and path of each refusal.
import { contextSourceRefDigest } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import {
  type ContextCatalogue,
  type ContextDocumentInput,
  type ContextPlanRequest,
  deriveActionEnvelope,
  formIntentSeed,
  fullReadReasonsOf,
  ManualClock,
  type PlanResult,
  planContext,
} from '../../src/index.ts';
import { catalogueOf, documentOf as doc, ROOT, ref } from './helpers/catalogue.ts';

const CREATED = '2026-12-02T05:00:00.000Z';
const T0 = Date.parse(CREATED);
const seedOf = (input: object = {}) => {
  const s = formIntentSeed(
    { semantic: 'fix', contextEpoch: 'ctx-one', createdAt: CREATED, ...input },
    new ManualClock(T0),
  );
  if (!s.ok) throw new Error(s.message);
  return s.seed;
};
/** Request members to change; `undefined` leaves a member out (`changeTypes: undefined`: none given). */
type Ask = { [K in Exclude<keyof ContextPlanRequest, 'seed'>]?: ContextPlanRequest[K] | undefined } & {
  seed?: object;
  at?: number;
};
/** Plan `documents` (or a whole catalogue) for a `fix` seed with change types `testing`, 10 ms after the seed. */
function ask(documents: ContextDocumentInput[] | ContextCatalogue, over: Ask = {}): PlanResult {
  const { seed, at, ...request } = over;
  const catalogue = Array.isArray(documents) ? catalogueOf(documents) : documents;
  const given = Object.entries({
    host: 'standalone',
    invocationNonce: 'nonce-0123456789abcdef',
    changeTypes: ['testing'],
    ...request,
  }).filter(([, v]) => v !== undefined);
  return planContext(
    catalogue,
    { ...(Object.fromEntries(given) as Omit<ContextPlanRequest, 'seed'>), seed: seedOf(seed) },
    new ManualClock(at ?? T0 + 10),
  );
}
const planned = (r: PlanResult) => {
  if (!r.ok) throw new Error(`${r.code} at ${r.path}: ${r.message}`);
  return r.plan;
};
const refused = (r: PlanResult) => (r.ok ? 'planned' : [r.code, r.path]);
type Plan = ReturnType<typeof planned>;
/** Each source of the three candidate buckets: bucket, reason code and the text the page fixes. */
const buckets = (p: Plan) =>
  Object.fromEntries([
    ...p.selectedSources.map((s) => [s.sourceId, ['selected', s.reasonCode, s.reason]]),
    ...p.excludedSources.map((s) => [s.sourceId, ['excluded', s.reasonCode, s.skipReason]]),
    ...p.unclassifiedSources.map((s) => [s.sourceId, ['unclassified', s.reasonCode]]),
  ]);
const resolution = (p: Plan) => ({
  fullRead: p.fullRead,
  fullReadReason: p.fullReadReason,
  fullReadNote: p.fullReadNote,
  triggers: p.triggeredEscalations,
  exit: p.exitCondition,
});

describe('action envelope (Derivations, "Action envelope"; invariant 7)', () => {
  const READ = ['analysis-read', 'context-read'];
  const WORK = ['analysis-read', 'context-read', 'test-execution', 'workflow-closeout'];
  it.each([
    ['chat', [], READ, false],
    ['chat', ['docs', 'source-code'], READ, false],
    ['chat', ['release'], [...READ, 'release'], true],
    ['chat', ['destructive'], ['analysis-read', 'context-read', 'dangerous'], true],
    ['analyze', ['docs', 'public-contract', 'source-code'], WORK, true],
    ['audit', ['docs'], WORK, true],
    ['resume', [], WORK, true],
    [
      'analyze',
      ['release', 'destructive'],
      [...WORK.slice(0, 2), 'dangerous', 'release', ...WORK.slice(2)],
      true,
    ],
  ] as const)('%s with %j allows %j', (intent, types, classes, mutation) => {
    expect(deriveActionEnvelope(intent, types, 'high')).toEqual({
      allowedActionClasses: classes,
      mutationExpected: mutation,
      riskCeiling: 'high',
    });
  });
  it.each(['dev', 'fix', 'self-fix', 'other'])(
    'the mutation intent %s mutates docs and sources by its change types',
    (intent) => {
      const classes = (types: Parameters<typeof deriveActionEnvelope>[1]) =>
        deriveActionEnvelope(intent, types, 'normal').allowedActionClasses.filter((c) =>
          c.endsWith('-mutation'),
        );
      expect(classes(['docs'])).toEqual(['docs-mutation']);
      expect(classes(['public-contract'])).toEqual(['docs-mutation', 'source-mutation']);
      expect(classes(['testing'])).toEqual(['source-mutation']);
      expect(classes(['docs', 'testing'])).toEqual(['docs-mutation', 'source-mutation']);
      expect(classes([])).toEqual([]);
    },
  );
  it('the plan carries the envelope of its intent, change types and the seed’s risk as its ceiling', () => {
    const p = planned(
      ask([doc('testing.md')], { seed: { riskHint: 'critical' }, changeTypes: ['release', 'docs'] }),
    );
    expect(p.actionEnvelope).toEqual({
      allowedActionClasses: [
        'analysis-read',
        'context-read',
        'docs-mutation',
        'release',
        'source-mutation',
        'test-execution',
        'workflow-closeout',
      ],
      mutationExpected: true,
      riskCeiling: 'critical',
    });
  });
});

describe('full read (Derivations, "Full read"; invariants 14, 15)', () => {
  const base = { explicitRequest: false, finalIntent: 'fix', confidence: 1, triggers: [], changeTypes: [] };
  it('lists every applicable reason in precedence order', () => {
    expect(
      fullReadReasonsOf({
        explicitRequest: true,
        finalIntent: 'audit',
        confidence: 0.1,
        triggers: ['compact', 'cross-service'],
        changeTypes: ['destructive', 'docs', 'security', 'release'],
      }),
    ).toEqual([
      'explicit-request',
      'audit-intent',
      'low-confidence',
      'cross-service',
      'release',
      'security',
      'destructive',
    ]);
  });
  it.each([
    [{}, []],
    [{ explicitRequest: true }, ['explicit-request']],
    [{ finalIntent: 'audit' }, ['audit-intent']],
    [{ confidence: 0.59 }, ['low-confidence']],
    [{ confidence: 0.6 }, []],
    [{ triggers: ['cross-service'] }, ['cross-service']],
    [{ triggers: ['compact', 'scope-drift'] }, []],
    [{ changeTypes: ['release'] }, ['release']],
    [{ changeTypes: ['security'] }, ['security']],
    [{ changeTypes: ['destructive'] }, ['destructive']],
    [{ changeTypes: ['public-contract', 'docs', 'config'] }, []],
  ])('%j gives %j', (over, reasons) => {
    expect(fullReadReasonsOf({ ...base, ...over })).toEqual(reasons);
  });
  it('an explicit request is recorded with its text; an audit without one has no note', () => {
    const text = 'read the whole profile';
    expect(resolution(planned(ask([doc('testing.md')], { fullReadRequest: text })))).toEqual({
      fullRead: true,
      fullReadReason: 'explicit-request',
      fullReadNote: text,
      triggers: ['explicit-full'],
      exit: 'escalated-full',
    });
    expect(
      resolution(planned(ask([doc('testing.md')], { seed: { semantic: 'audit' }, fullReadRequest: text }))),
    ).toMatchObject({ fullReadReason: 'explicit-request', fullReadNote: text });
    expect(resolution(planned(ask([doc('testing.md')], { seed: { semantic: 'audit' } })))).toEqual({
      fullRead: true,
      fullReadReason: 'audit-intent',
      fullReadNote: null,
      triggers: ['explicit-full'],
      exit: 'escalated-full',
    });
  });
  it('the full-read request text is 1 to 512 characters', () => {
    for (const n of [1, 512])
      expect(planned(ask([], { fullReadRequest: 'x'.repeat(n) })).fullReadNote).toHaveLength(n);
    for (const text of ['', 'x'.repeat(513)])
      expect(refused(ask([], { fullReadRequest: text })), `${text.length} characters`).toEqual([
        'CONTEXT_PLAN_INVALID',
        '/fullReadRequest',
      ]);
  });
});

describe('derived triggers and exit condition (Derivations; invariants 19, 20)', () => {
  it('a targeted plan with no trigger is relevant-complete', () => {
    expect(resolution(planned(ask([doc('testing.md')])))).toEqual({
      fullRead: false,
      fullReadReason: null,
      fullReadNote: null,
      triggers: [],
      exit: 'relevant-complete',
    });
  });
  it('confidence below 0.6, not at 0.6, is low confidence and a full read', () => {
    expect(resolution(planned(ask([], { seed: { confidence: 0.6 } })))).toMatchObject({
      fullRead: false,
      triggers: [],
    });
    expect(resolution(planned(ask([], { seed: { confidence: 0.59 } })))).toMatchObject({
      fullRead: true,
      fullReadReason: 'low-confidence',
      triggers: ['low-confidence'],
      exit: 'escalated-full',
    });
  });
  it.each(['release', 'security', 'destructive'] as const)(
    'change type %s is a trigger and a full read',
    (t) => {
      expect(resolution(planned(ask([], { changeTypes: [t] })))).toEqual({
        fullRead: true,
        fullReadReason: t,
        fullReadNote: null,
        triggers: [t],
        exit: 'escalated-full',
      });
    },
  );
  it('change type public-contract is a trigger, not a full read', () => {
    expect(resolution(planned(ask([], { changeTypes: ['public-contract'] })))).toMatchObject({
      fullRead: false,
      triggers: ['public-contract'],
      exit: 'relevant-complete',
    });
  });
  it('caller triggers: cross-service forces a full read, a replan trigger is recorded, a derived one is refused', () => {
    expect(resolution(planned(ask([], { triggers: ['cross-service'] })))).toMatchObject({
      fullRead: true,
      fullReadReason: 'cross-service',
      triggers: ['cross-service'],
    });
    expect(resolution(planned(ask([], { triggers: ['scope-drift', 'compact', 'compact'] })))).toMatchObject({
      fullRead: false,
      triggers: ['compact', 'scope-drift'],
    });
    for (const t of ['low-confidence', 'missing-reference'] as const)
      expect(refused(ask([], { triggers: ['compact', t] })), t).toEqual([
        'CONTEXT_ESCALATIONS_MISMATCH',
        '/triggers',
      ]);
  });
  it('an unclassified candidate blocks with profile-catalog-drift', () => {
    const p = planned(ask([doc('stray.md', { catalogued: false })]));
    expect([p.triggeredEscalations, p.exitCondition]).toEqual([['profile-catalog-drift'], 'blocked']);
  });
  it('a required source without an existing ref blocks with missing-reference, even in a full read', () => {
    const gone = doc('gone.md', {
      requiredToExist: true,
      refs: [ref('gone.md', { exists: false, size: null })],
    });
    const p = planned(ask([doc('testing.md'), gone], { changeTypes: ['security'] }));
    expect([p.triggeredEscalations, p.exitCondition]).toEqual([['missing-reference', 'security'], 'blocked']);
    const both = planned(ask([gone, doc('stray.md', { catalogued: false })]));
    expect([both.triggeredEscalations, both.exitCondition]).toEqual([
      ['missing-reference', 'profile-catalog-drift'],
      'blocked',
    ]);
  });
  it('a required source with one existing ref among others is not missing; an optional one never is', () => {
    const moved = doc('moved.md', {
      requiredToExist: true,
      refs: [ref('moved.md', { exists: false, size: null }), ref('moved.md', { layer: 'profile-metadata' })],
    });
    const optional = doc('optional.md', { refs: [ref('optional.md', { exists: false, size: null })] });
    const p = planned(ask([moved, optional]));
    expect([p.triggeredEscalations, p.exitCondition]).toEqual([[], 'relevant-complete']);
  });
});

describe('memory queries (Derivations, "Memory queries"; invariant 12)', () => {
  const memory = (query: string, mandatory: boolean, reasonCode: string, reason: string) => {
    const r = {
      path: `memory://acme/${query}`,
      layer: 'memory-query',
      exists: true,
      size: null,
      mtimeMs: null,
    };
    return {
      sourceId: `memory:${query}`,
      kind: 'memory',
      mandatory,
      authority: 'bounded-memory-query',
      reason,
      reasonCode,
      sourceLayer: 'memory-query',
      requiredToExist: false,
      sourceRefs: [{ ...r, metadataDigest: contextSourceRefDigest(r) }],
    };
  };
  const STATUS = memory(
    'status',
    true,
    'memory-status',
    'The compact task-continuity status is read for every planned acquisition.',
  );
  it('every plan reads memory:status; only a resume reads the session (mandatory) and the summary (optional)', () => {
    const p = planned(ask([], { changeTypes: ['docs'] }));
    expect(p.selectedSources).toEqual([STATUS]);
    const resume = planned(ask([], { seed: { semantic: 'resume' }, changeTypes: [] }));
    expect(resume.selectedSources).toEqual([
      memory('session', true, 'memory-session', 'A resumed session needs the observed session record.'),
      STATUS,
      memory(
        'summary',
        false,
        'memory-session',
        'A resumed session may use the memory summary (context, never a source of truth).',
      ),
    ]);
    expect(resume.mandatorySourceIds).toEqual([
      'memory:session',
      'memory:status',
      'profile:README.md',
      'profile:config.json',
    ]);
  });
});

describe('classification of the documents (Planning through the protocol, CAG-026)', () => {
  const documents = [
    doc('a-picked-uncatalogued.md', { catalogued: false, kind: 'profile-local' }),
    doc('b-closed-uncatalogued.md', { catalogued: false, readable: false }),
    doc('c-closed-picked-uncatalogued.md', { catalogued: false, readable: false }),
    doc('d-stray.md', { catalogued: false }),
    doc('e-local.md', { kind: 'profile-local' }),
    doc('f-closed.md', { readable: false }),
    doc('g-picked.md', { serves: ['docs'] }),
    doc('h-serves.md', { serves: ['architecture', 'testing'] }),
    doc('i-other.md', { serves: ['docs', 'config'] }),
  ];
  const explicitSelectors = ['a-picked-uncatalogued.md', 'c-closed-picked-uncatalogued.md', 'g-picked.md'];
  const UNCATALOGUED_META = 'Found in the inventory as metadata only; it has no readable body.';
  const CATALOGUED_META = 'The catalogue lists it as metadata only; it has no readable body.';
  it('rows 1 to 6, 8 and 10: each document by the first row that applies, with the page’s text', () => {
    const p = planned(
      ask(documents, { explicitSelectors, changeTypes: ['testing', 'source-code', 'testing'] }),
    );
    expect(p.changeTypes).toEqual(['source-code', 'testing']);
    expect(buckets(p)).toEqual({
      'memory:status': expect.anything(),
      'profile:a-picked-uncatalogued.md': [
        'selected',
        'explicit-selector',
        'Selected explicitly although the catalogue does not list it.',
      ],
      'profile:b-closed-uncatalogued.md': ['excluded', 'excluded-metadata-only', UNCATALOGUED_META],
      'profile:c-closed-picked-uncatalogued.md': ['excluded', 'excluded-metadata-only', UNCATALOGUED_META],
      'profile:d-stray.md': ['unclassified', 'unclassified-uncatalogued'],
      'profile:e-local.md': [
        'excluded',
        'excluded-local-policy',
        'Machine-local source; local sources were not requested.',
      ],
      'profile:f-closed.md': ['excluded', 'excluded-metadata-only', CATALOGUED_META],
      'profile:g-picked.md': ['selected', 'explicit-selector', 'Selected explicitly by the user or project.'],
      'profile:h-serves.md': ['selected', 'intent-change-type', 'Serves fix/source-code+testing.'],
      'profile:i-other.md': [
        'excluded',
        'excluded-no-match',
        'Serves none of the requested change types (source-code, testing).',
      ],
    });
    // An uncatalogued document is kind `profile` with authority `profile-inventory` whatever its
    // catalogue kind; a catalogued one keeps its kind, with authority `profile-catalog`.
    const picked = p.selectedSources.find((s) => s.sourceId === 'profile:a-picked-uncatalogued.md');
    expect([picked?.kind, picked?.authority, picked?.mandatory]).toEqual([
      'profile',
      'profile-inventory',
      true,
    ]);
    const local = p.excludedSources.find((s) => s.sourceId === 'profile:e-local.md');
    expect([local?.kind, local?.authority]).toEqual(['profile-local', 'profile-catalog']);
    expect(p.unclassifiedSources).toEqual([
      {
        sourceId: 'profile:d-stray.md',
        sourceLayer: 'profile',
        requiredToExist: false,
        sourceRefs: [{ ...ref('d-stray.md'), metadataDigest: contextSourceRefDigest(ref('d-stray.md')) }],
        kind: 'profile',
        authority: 'profile-inventory',
        reasonCode: 'unclassified-uncatalogued',
      },
    ]);
    expect(p.mandatorySourceIds).toEqual([
      'memory:status',
      'profile:README.md',
      'profile:a-picked-uncatalogued.md',
      'profile:config.json',
      'profile:g-picked.md',
      'profile:h-serves.md',
    ]);
  });
  it('row 4 applies only without localSourcesRequested: requested, a local document is classified as any other', () => {
    const p = planned(ask(documents, { explicitSelectors, localSourcesRequested: true }));
    expect(p.localSourcesRequested).toBe(true);
    expect(buckets(p)['profile:e-local.md']).toEqual([
      'selected',
      'intent-change-type',
      'Serves fix/testing.',
    ]);
    expect(p.selectedSources.find((s) => s.sourceId === 'profile:e-local.md')?.kind).toBe('profile-local');
    expect(planned(ask(documents, { explicitSelectors })).localSourcesRequested).toBe(false);
  });
  it('row 7: a full read selects every readable catalogued document not excluded before it', () => {
    const p = planned(ask(documents, { explicitSelectors, changeTypes: ['destructive'] }));
    const all = 'Full read (destructive): every readable catalogued document is selected.';
    expect(buckets(p)).toMatchObject({
      'profile:e-local.md': ['excluded', 'excluded-local-policy', expect.any(String)],
      'profile:f-closed.md': ['excluded', 'excluded-metadata-only', CATALOGUED_META],
      'profile:g-picked.md': ['selected', 'explicit-selector', expect.any(String)],
      'profile:h-serves.md': ['selected', 'full-read', all],
      'profile:i-other.md': ['selected', 'full-read', all],
    });
  });
  it('row 9: a chat plan without a full read reads no Profile document, whatever it serves', () => {
    const p = planned(ask([doc('testing.md')], { seed: { semantic: 'chat' } }));
    expect(buckets(p)['profile:testing.md']).toEqual([
      'excluded',
      'excluded-no-match',
      'A chat message without a full read reads no Profile document.',
    ]);
  });
  it('row 10 without change types names none', () => {
    const p = planned(ask([doc('testing.md')], { seed: { semantic: 'resume' }, changeTypes: [] }));
    expect(buckets(p)['profile:testing.md']).toEqual([
      'excluded',
      'excluded-no-match',
      'Serves none of the requested change types (none).',
    ]);
  });
  it('the candidate coverage lists the catalogue and the inventory apart, the baseline in both', () => {
    const p = planned(
      ask([
        doc('listed.md', { inventoried: false }),
        doc('found.md', { catalogued: false }),
        doc('both.md'),
        doc('neither.md', { catalogued: false, inventoried: false, readable: false }),
      ]),
    );
    expect(p.candidateCoverage).toEqual({
      cataloguedIds: ['profile:README.md', 'profile:both.md', 'profile:config.json', 'profile:listed.md'],
      inventoryIds: ['profile:README.md', 'profile:both.md', 'profile:config.json', 'profile:found.md'],
    });
  });
});

describe('source refs (invariant 5, D-CTX-54)', () => {
  it('refs sort by layer:path; a place listed twice is recorded once, from its first listing', () => {
    const first = ref('testing.md');
    const again = ref('testing.md', { size: 4096, mtimeMs: 1795770499000 });
    const meta = ref('testing.md', { layer: 'profile-metadata', path: `${ROOT}/.meta/testing.md` });
    const p = planned(ask([doc('testing.md', { refs: [first, meta, again] })]));
    const refs = p.selectedSources.find((s) => s.sourceId === 'profile:testing.md')?.sourceRefs;
    expect(refs).toEqual([
      { ...meta, metadataDigest: contextSourceRefDigest(meta) },
      { ...first, metadataDigest: contextSourceRefDigest(first) },
    ]);
  });
});

describe('planning telemetry', () => {
  it('counts the UTF-8 bytes and the characters of the planner’s input; latency and tokens are not measured', () => {
    const t = (text: string) => planned(ask([], { fullReadRequest: text })).planningTelemetry;
    const short = t('x'.repeat(10));
    const ascii = t('x'.repeat(300));
    const wide = t('é'.repeat(300));
    expect([short.latencyMs, short.inputTokens]).toEqual([null, null]);
    expect(ascii.inputChars - short.inputChars).toBe(290);
    expect(ascii.inputBytes - short.inputBytes).toBe(290);
    expect(wide.inputChars).toBe(ascii.inputChars);
    expect(wide.inputBytes - ascii.inputBytes).toBe(300);
  });
});

describe('refusals of planContext, each with its code and path', () => {
  it('a plan is written as ContextReadPlanV2 only', () => {
    expect(refused(ask([], { contract: 'ContextReadPlanV1' }))).toEqual([
      'CONTEXT_PLAN_V1_WRITE_FORBIDDEN',
      '/contract',
    ]);
    expect(planned(ask([], { contract: 'ContextReadPlanV2' })).schemaVersion).toBe('ContextReadPlanV2');
  });
  it('host, planner and invocation nonce follow their patterns and lengths', () => {
    expect(refused(ask([], { host: 'Standalone' }))).toEqual(['CONTEXT_PLAN_INVALID', '/host']);
    expect(refused(ask([], { planner: 'acme-planner' }))).toEqual(['CONTEXT_PLAN_INVALID', '/planner']);
    const longest = `${'a'.repeat(126)}@1`;
    expect(planned(ask([], { planner: longest })).identity.planner).toBe(longest);
    expect(refused(ask([], { planner: `a${longest}` }))).toEqual(['CONTEXT_PLAN_INVALID', '/planner']);
    expect(refused(ask([], { invocationNonce: 'nonce-short' }))).toEqual([
      'CONTEXT_PLAN_INVALID',
      '/invocationNonce',
    ]);
  });
  it('a plan is not older than its seed (invariant 3)', () => {
    expect(refused(ask([], { at: T0 - 1 }))).toEqual(['CONTEXT_PLAN_CHRONOLOGY_INVALID', '/seed/createdAt']);
    expect(planned(ask([], { at: T0 })).plannedAt).toBe(CREATED);
  });
  it('a seed naming another project is refused; one naming the catalogue’s project is planned', () => {
    expect(refused(ask([], { seed: { targetHint: 'billing' } }))).toEqual([
      'CONTEXT_ACTIVE_TARGET_MISMATCH',
      '/seed/targetHint',
    ]);
    expect(planned(ask([], { seed: { targetHint: 'acme' } })).identity.intentSeed.targetHint).toBe('acme');
  });
  it('a body read before the seed existed is refused at its read (CAG-005)', () => {
    const readTrace = [
      { sourceId: 'profile:README.md', readAt: CREATED },
      { sourceId: 'profile:config.json', readAt: '2026-12-02T04:59:59.999Z' },
    ];
    expect(refused(ask([], { readTrace }))).toEqual(['CONTEXT_SEED_AFTER_CONTEXT_READ', '/readTrace/1']);
    expect(planned(ask([], { readTrace: readTrace.slice(0, 1) })).exitCondition).toBe('relevant-complete');
  });
  it('a cache artifact that is not a string is refused', () => {
    expect(refused(ask([], { cacheArtifacts: [7 as unknown as string] }))).toEqual([
      'CONTEXT_PLAN_INVALID',
      '/cacheArtifacts/0',
    ]);
  });
  it('change types are required unless the plan is chat, resume or a full read (invariant 4)', () => {
    expect(refused(ask([], { changeTypes: undefined }))).toEqual([
      'CONTEXT_CHANGE_TYPES_REQUIRED',
      '/changeTypes',
    ]);
    expect(refused(ask([], { changeTypes: [], seed: { semantic: 'analyze' } }))).toEqual([
      'CONTEXT_CHANGE_TYPES_REQUIRED',
      '/changeTypes',
    ]);
    for (const over of [
      { seed: { semantic: 'chat' } },
      { seed: { semantic: 'resume' } },
      { seed: { semantic: 'audit' } },
      { fullReadRequest: 'everything' },
    ])
      expect(planned(ask([], { ...over, changeTypes: undefined })).changeTypes, JSON.stringify(over)).toEqual(
        [],
      );
  });
  it('an explicit selector names a document of the catalogue or the inventory', () => {
    const documents = [doc('testing.md'), doc('found.md', { catalogued: false })];
    expect(refused(ask(documents, { explicitSelectors: ['testing.md', 'nowhere.md'] }))).toEqual([
      'CONTEXT_SOURCE_DESCRIPTOR_INVALID',
      '/explicitSelectors/1',
    ]);
    expect(Object.keys(buckets(planned(ask(documents, { explicitSelectors: ['found.md'] }))))).toEqual([
      'memory:status',
      'profile:found.md',
      'profile:testing.md',
    ]);
  });
  it('each baseline source needs a file name and an existing ref, and a body with a content identity', () => {
    const c = catalogueOf([]);
    for (const [catalogue, path] of [
      [{ ...c, index: { ...c.index, file: 'docs/README.md' } }, '/catalogue/index'],
      [{ ...c, index: { ...c.index, file: '..' } }, '/catalogue/index'],
      [{ ...c, config: { ...c.config, refs: [] } }, '/catalogue/config'],
      [
        { ...c, index: { ...c.index, refs: [ref('README.md', { exists: false, size: null })] } },
        '/catalogue/index',
      ],
      [
        { ...c, config: { ...c.config, body: { value: { retries: Number.NaN }, contractVersion: 'x@1' } } },
        '/catalogue/config/body',
      ],
    ] as const)
      expect(refused(ask(catalogue as ContextCatalogue)), path).toEqual([
        'CONTEXT_BASELINE_INCOMPLETE',
        path,
      ]);
    const moved = planned(
      ask({
        ...c,
        index: {
          ...c.index,
          refs: [
            ref('README.md', { exists: false, size: null }),
            ref('README.md', { layer: 'profile-metadata' }),
          ],
        },
      }),
    );
    // Refs sort by `layer:path` (`-` before `:`), and `sourceLayer` joins their layers in that order.
    expect(moved.baselineSources[0]?.sourceLayer).toBe('profile-metadata+profile');
  });
  it('each document needs a unique one-segment file name, not a baseline source’s, and at least one ref', () => {
    for (const [documents, path] of [
      [[doc('a/b.md')], '/catalogue/documents/0'],
      [[doc('..')], '/catalogue/documents/0'],
      [[doc('testing.md'), doc('empty.md', { refs: [] })], '/catalogue/documents/1'],
      [[doc('testing.md'), doc('testing.md')], '/catalogue/documents/1'],
      [[doc('README.md')], '/catalogue/documents/0'],
      [[doc('config.json', { catalogued: false })], '/catalogue/documents/0'],
    ] as const)
      expect(refused(ask([...documents])), path).toEqual(['CONTEXT_SOURCE_DESCRIPTOR_INVALID', path]);
  });
  it('at most 256 sources are selected (Limits)', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => doc(`doc-${String(i).padStart(3, '0')}.md`));
    expect(planned(ask(many(255))).selectedSources).toHaveLength(256);
    expect(refused(ask(many(256)))).toEqual(['CONTEXT_PLAN_INVALID', '/catalogue/documents']);
  });
});
