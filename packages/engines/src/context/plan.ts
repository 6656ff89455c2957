// The reference planner (docs/spec/context-acquisition-gate.md, ContextReadPlanV2): a bounded,
// deterministic plan from an IntentSeedV1 and the declared Profile catalogue. Only the two baseline
// bodies are read while planning; every other candidate is classified from its metadata alone.
import {
  type ContentIdentityV1,
  type ContextActionClass,
  type ContextChangeType,
  type ContextEscalationTrigger,
  type ContextFullReadReason,
  type ContextPlanBaselineSource,
  type ContextPlanExcludedSource,
  type ContextPlanSelectedSource,
  type ContextPlanSourceRef,
  type ContextPlanUnclassifiedSource,
  type ContextReadBudget,
  type ContextReadPlanV2,
  contextPlanBaselineDigest,
  contextPlanContentId,
  contextPlanId,
  contextSourceRefDigest,
  deriveContextPlanIdentityInputs,
  type IntentSeedV1,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import {
  byCodeUnits,
  bySourceId,
  contentIdentityOf,
  type DeliveredBody,
  sortedUnique,
  sourceKeyOf,
} from './shared.js';

/** Metadata of one place a source lives, observed without reading the body. */
export interface ContextRefInput {
  readonly path: string;
  readonly layer: string;
  readonly exists: boolean;
  readonly size: number | null;
  readonly mtimeMs: number | null;
}

/** A baseline source of the Profile: its file, refs and the body the planner reads. */
export interface ContextBaselineInput {
  readonly file: string;
  readonly refs: readonly ContextRefInput[];
  readonly body: DeliveredBody;
}

/** One Profile document besides the two baseline sources, as metadata. */
export interface ContextDocumentInput {
  readonly file: string;
  /** The catalogue (the index) lists it. */
  readonly catalogued: boolean;
  /** Enumerating the store found it. */
  readonly inventoried: boolean;
  /** `profile` (shared) or `profile-local` (machine-local); an uncatalogued document is `profile`. */
  readonly kind: 'profile' | 'profile-local';
  /** A readable document (`false`: metadata only, never selected). */
  readonly readable: boolean;
  readonly requiredToExist: boolean;
  /** The change types the catalogue says the document serves. */
  readonly serves: readonly ContextChangeType[];
  readonly refs: readonly ContextRefInput[];
}

/** The declared source catalogue of one target. */
export interface ContextCatalogue {
  readonly activeRoot: string;
  readonly project: string;
  readonly index: ContextBaselineInput;
  readonly config: ContextBaselineInput;
  readonly documents: readonly ContextDocumentInput[];
}

/** A body the host saw read in the epoch before the plan was returned (the read trace). */
export interface ContextPlanningRead {
  readonly sourceId: string;
  readonly readAt: string;
}

/** What the caller asks the planner for. */
export interface ContextPlanRequest {
  readonly seed: IntentSeedV1;
  readonly host: string;
  readonly invocationNonce: string;
  readonly planner?: string;
  /** Which plan contract to write; only `ContextReadPlanV2` is ever written. */
  readonly contract?: string;
  readonly changeTypes?: readonly ContextChangeType[];
  /** The user's or project's words asking for a full read, or `null`. */
  readonly fullReadRequest?: string | null;
  readonly localSourcesRequested?: boolean;
  /** File names the user or project selected explicitly. */
  readonly explicitSelectors?: readonly string[];
  /** Caller-supplied triggers (`cross-service`, and replan triggers). */
  readonly triggers?: readonly ContextEscalationTrigger[];
  readonly budget?: ContextReadBudget;
  /** Artifacts a computation cache supplied (a hit); absent or empty: no cache. */
  readonly cacheArtifacts?: readonly string[];
  readonly readTrace?: readonly ContextPlanningRead[];
}

/** Codes {@link planContext} refuses with. */
export type PlanRefusalCode =
  | 'CONTEXT_PLAN_V1_WRITE_FORBIDDEN'
  | 'CONTEXT_PLAN_CHRONOLOGY_INVALID'
  | 'CONTEXT_ACTIVE_TARGET_MISMATCH'
  | 'CONTEXT_SEED_AFTER_CONTEXT_READ'
  | 'CONTEXT_HIDDEN_FULL_READ'
  | 'CONTEXT_CHANGE_TYPES_REQUIRED'
  | 'CONTEXT_BASELINE_INCOMPLETE'
  | 'CONTEXT_SOURCE_DESCRIPTOR_INVALID'
  | 'CONTEXT_ESCALATIONS_MISMATCH'
  | 'CONTEXT_PLAN_INVALID';

/** Result of {@link planContext}. */
export type PlanResult =
  | { readonly ok: true; readonly plan: ContextReadPlanV2 }
  | EngineRefusal<PlanRefusalCode, { readonly path: string }>;

const MUTATING: readonly ContextActionClass[] = [
  'docs-mutation',
  'source-mutation',
  'workflow-closeout',
  'release',
  'dangerous',
];
const MUTATION_INTENTS = new Set(['dev', 'fix', 'self-fix', 'other']);
/** Triggers the planner derives; a caller may not supply them. */
export const DERIVED_TRIGGERS: readonly ContextEscalationTrigger[] = [
  'low-confidence',
  'explicit-full',
  'public-contract',
  'release',
  'security',
  'destructive',
  'profile-catalog-drift',
  'missing-reference',
];
// biome-ignore lint/suspicious/noControlCharactersInRegex: a file name may hold no control character (the schema's pattern)
const FILE = /^(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$/;
const NONCE = /^[A-Za-z0-9][A-Za-z0-9._:-]{15,127}$/;
const HOST = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const PLANNER = /^[a-z0-9][a-z0-9._/-]*@[0-9]+$/;
/** A computation artifact's name, as `cacheDecision.reusedArtifacts` holds it (at most 32 of them). */
const ARTIFACT = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_ARTIFACTS = 32;
const NO_BUDGET: ContextReadBudget = {
  bytes: null,
  chars: null,
  tokens: null,
  latencyMs: null,
  enforcement: 'advisory',
};
/** The reference planner's name and algorithm version. */
export const REFERENCE_PLANNER = 'agent-contracts-planner@1';

const refuse = (code: PlanRefusalCode, path: string, message: string): PlanResult =>
  refusal(code, message, { path });

/** The action envelope of an intent and its change types (Derivations, "Action envelope"). */
export function deriveActionEnvelope(
  finalIntent: string,
  changeTypes: readonly ContextChangeType[],
  riskCeiling: IntentSeedV1['riskHint'],
): ContextReadPlanV2['actionEnvelope'] {
  const classes = new Set<ContextActionClass>(['context-read', 'analysis-read']);
  if (finalIntent !== 'chat') {
    classes.add('test-execution');
    classes.add('workflow-closeout');
  }
  if (MUTATION_INTENTS.has(finalIntent)) {
    if (changeTypes.includes('docs') || changeTypes.includes('public-contract')) classes.add('docs-mutation');
    if (changeTypes.some((t) => t !== 'docs')) classes.add('source-mutation');
  }
  if (changeTypes.includes('release')) classes.add('release');
  if (changeTypes.includes('destructive')) classes.add('dangerous');
  const allowedActionClasses = sortedUnique(classes);
  return {
    allowedActionClasses,
    mutationExpected: allowedActionClasses.some((c) => MUTATING.includes(c)),
    riskCeiling,
  };
}

/** The applicable full-read reasons, in precedence order (Derivations, "Full read"). */
export function fullReadReasonsOf(input: {
  explicitRequest: boolean;
  finalIntent: string;
  confidence: number;
  triggers: readonly string[];
  changeTypes: readonly string[];
}): ContextFullReadReason[] {
  const out: ContextFullReadReason[] = [];
  if (input.explicitRequest) out.push('explicit-request');
  if (input.finalIntent === 'audit') out.push('audit-intent');
  if (input.confidence < 0.6) out.push('low-confidence');
  if (input.triggers.includes('cross-service')) out.push('cross-service');
  for (const t of ['release', 'security', 'destructive'] as const)
    if (input.changeTypes.includes(t)) out.push(t);
  return out;
}

function refsOf(refs: readonly ContextRefInput[]): ContextPlanSourceRef[] {
  const byKey = new Map<string, ContextPlanSourceRef>();
  for (const r of refs) {
    const ref = {
      path: r.path,
      layer: r.layer,
      exists: r.exists,
      size: r.size,
      mtimeMs: r.mtimeMs === null ? null : Math.trunc(r.mtimeMs),
    };
    const key = `${r.layer}:${r.path}`;
    if (!byKey.has(key)) byKey.set(key, { ...ref, metadataDigest: contextSourceRefDigest(ref) });
  }
  return [...byKey.entries()].sort(([a], [b]) => byCodeUnits(a, b)).map(([, r]) => r);
}

const layerOf = (refs: readonly ContextPlanSourceRef[]) => [...new Set(refs.map((r) => r.layer))].join('+');
const missing = (s: { requiredToExist: boolean; sourceRefs: readonly ContextPlanSourceRef[] }) =>
  s.requiredToExist && !s.sourceRefs.some((r) => r.exists);

function memorySource(project: string, query: 'status' | 'session' | 'summary'): ContextPlanSelectedSource {
  const refs = refsOf([
    { path: `memory://${project}/${query}`, layer: 'memory-query', exists: true, size: null, mtimeMs: null },
  ]);
  return {
    sourceId: `memory:${query}`,
    kind: 'memory',
    mandatory: query !== 'summary',
    authority: 'bounded-memory-query',
    reason:
      query === 'status'
        ? 'The compact task-continuity status is read for every planned acquisition.'
        : query === 'session'
          ? 'A resumed session needs the observed session record.'
          : 'A resumed session may use the memory summary (context, never a source of truth).',
    reasonCode: query === 'status' ? 'memory-status' : 'memory-session',
    sourceLayer: 'memory-query',
    requiredToExist: false,
    sourceRefs: refs,
  };
}

/**
 * Make the plan, or refuse with the first problem found (paths into the request or catalogue).
 * `clock` gives `plannedAt`; the nonce comes from the caller, so the function stays pure.
 *
 * @example
 * const r = planContext(catalogue, { seed, host: 'standalone', invocationNonce: randomUUID(), changeTypes: ['docs'] }, clock);
 * if (r.ok) r.plan.mandatorySourceIds;
 */
export function planContext(
  catalogue: ContextCatalogue,
  request: ContextPlanRequest,
  clock: Clock,
): PlanResult {
  const { seed } = request;
  if (request.contract !== undefined && request.contract !== 'ContextReadPlanV2')
    return refuse(
      'CONTEXT_PLAN_V1_WRITE_FORBIDDEN',
      '/contract',
      `plans are written as ContextReadPlanV2 only (${JSON.stringify(request.contract)} is read-only); ask for a ContextReadPlanV2.`,
    );
  if (!HOST.test(request.host))
    return refuse('CONTEXT_PLAN_INVALID', '/host', 'host must match ^[a-z0-9][a-z0-9._-]{0,63}$.');
  const planner = request.planner ?? REFERENCE_PLANNER;
  if (!PLANNER.test(planner) || planner.length > 128)
    return refuse('CONTEXT_PLAN_INVALID', '/planner', 'planner must be <name>@<major>.');
  if (!NONCE.test(request.invocationNonce))
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/invocationNonce',
      'invocationNonce must be 16-128 characters [A-Za-z0-9._:-]; generate a fresh one per call.',
    );
  const now = clock.now();
  const plannedAt = timestampOf(now);
  if (now < Date.parse(seed.createdAt))
    return refuse(
      'CONTEXT_PLAN_CHRONOLOGY_INVALID',
      '/seed/createdAt',
      `the seed was created at ${seed.createdAt}, after the planning time ${plannedAt}; form the seed first, then plan.`,
    );
  if (seed.targetHint !== null && seed.targetHint !== catalogue.project)
    return refuse(
      'CONTEXT_ACTIVE_TARGET_MISMATCH',
      '/seed/targetHint',
      `the seed names "${seed.targetHint}" but the catalogue is of "${catalogue.project}"; resolve the target, then plan.`,
    );
  const indexId = `profile:${catalogue.index.file}`;
  const configId = `profile:${catalogue.config.file}`;
  const seedTime = Date.parse(seed.createdAt);
  for (const [i, read] of (request.readTrace ?? []).entries()) {
    if (Date.parse(read.readAt) < seedTime)
      return refuse(
        'CONTEXT_SEED_AFTER_CONTEXT_READ',
        `/readTrace/${i}`,
        `${read.sourceId} was read at ${read.readAt}, before the seed existed (${seed.createdAt}); discard the seed and start a new epoch with a seed formed from the message alone.`,
      );
    if (read.sourceId !== indexId && read.sourceId !== configId)
      return refuse(
        'CONTEXT_HIDDEN_FULL_READ',
        `/readTrace/${i}`,
        `${read.sourceId} was read while planning; a planner reads only the two baseline bodies (${indexId}, ${configId}). Plan from metadata, then read the selected sources through the plan.`,
      );
  }
  const changeTypes = sortedUnique(request.changeTypes ?? []);
  const callerTriggers = sortedUnique(request.triggers ?? []);
  for (const t of callerTriggers)
    if (DERIVED_TRIGGERS.includes(t))
      return refuse(
        'CONTEXT_ESCALATIONS_MISMATCH',
        '/triggers',
        `"${t}" is derived by the planner and cannot be supplied; leave it out.`,
      );
  const fullReadNote = request.fullReadRequest ?? null;
  if (fullReadNote !== null && (fullReadNote.length < 1 || fullReadNote.length > 512))
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/fullReadRequest',
      'the full-read request text must be 1-512 characters.',
    );
  // D-RCP-55: a cache artifact the plan could not hold is the caller's, refused before any plan.
  const cacheArtifacts = request.cacheArtifacts ?? [];
  for (const [i, name] of cacheArtifacts.entries())
    if (typeof name !== 'string' || name.length > 64 || !ARTIFACT.test(name))
      return refuse(
        'CONTEXT_PLAN_INVALID',
        `/cacheArtifacts/${i}`,
        'a cache artifact is named by 1-64 characters matching ^[a-z0-9]+(-[a-z0-9]+)*$; name the artifact the cache supplied.',
      );
  if (new Set(cacheArtifacts).size > MAX_ARTIFACTS)
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/cacheArtifacts',
      `a plan holds at most ${MAX_ARTIFACTS} distinct cache artifacts; report the artifacts this plan reused.`,
    );
  const finalIntent = seed.semantic;
  const reasons = fullReadReasonsOf({
    explicitRequest: fullReadNote !== null,
    finalIntent,
    confidence: seed.confidence,
    triggers: callerTriggers,
    changeTypes,
  });
  const fullRead = reasons.length > 0;
  if (changeTypes.length === 0 && !fullRead && finalIntent !== 'chat' && finalIntent !== 'resume')
    return refuse(
      'CONTEXT_CHANGE_TYPES_REQUIRED',
      '/changeTypes',
      `a ${finalIntent} plan needs the change types the message asks for, or an explicit full-read request.`,
    );
  const local = request.localSourcesRequested === true;
  const explicit = new Set(request.explicitSelectors ?? []);
  const files = new Set(catalogue.documents.map((d) => d.file));
  for (const [i, f] of [...explicit].entries())
    if (!files.has(f))
      return refuse(
        'CONTEXT_SOURCE_DESCRIPTOR_INVALID',
        `/explicitSelectors/${i}`,
        `"${f}" is not a document of the catalogue or the inventory; select a known document.`,
      );

  // Baseline: the index and the effective configuration, the only bodies read while planning.
  const baselineSources: ContextPlanBaselineSource[] = [];
  for (const [which, input] of [
    ['index', catalogue.index],
    ['config', catalogue.config],
  ] as const) {
    const sourceRefs = refsOf(input.refs);
    if (!FILE.test(input.file) || sourceRefs.length === 0 || !sourceRefs.some((r) => r.exists))
      return refuse(
        'CONTEXT_BASELINE_INCOMPLETE',
        `/catalogue/${which}`,
        `the baseline ${which} needs a file name and at least one existing ref; deliver both baseline sources.`,
      );
    let contentIdentity: ContentIdentityV1;
    try {
      const key =
        sourceKeyOf(catalogue.project, `profile:${input.file}`) + (which === 'config' ? '#effective' : '');
      contentIdentity = contentIdentityOf(key, input.body);
    } catch (e) {
      return refuse(
        'CONTEXT_BASELINE_INCOMPLETE',
        `/catalogue/${which}/body`,
        `the baseline ${which} body has no content identity (${(e as Error).message}); deliver bytes or plain JSON.`,
      );
    }
    baselineSources.push({
      sourceId: `profile:${input.file}`,
      kind: 'profile-baseline',
      mandatory: true,
      authority: which === 'index' ? 'lossless-plan-baseline' : 'effective-non-local-config',
      reason:
        which === 'index'
          ? 'The Profile index is delivered losslessly with the plan.'
          : 'The effective non-local Profile configuration is part of the baseline.',
      reasonCode: which === 'index' ? 'baseline-readme' : 'baseline-config',
      sourceLayer: layerOf(sourceRefs),
      requiredToExist: true,
      sourceRefs,
      contentIdentity,
    });
  }

  // Every other candidate, from its metadata: selected, excluded or unclassified.
  const selected: ContextPlanSelectedSource[] = [memorySource(catalogue.project, 'status')];
  if (finalIntent === 'resume')
    selected.push(memorySource(catalogue.project, 'session'), memorySource(catalogue.project, 'summary'));
  const excluded: ContextPlanExcludedSource[] = [];
  const unclassified: ContextPlanUnclassifiedSource[] = [];
  const catalogued = new Set([indexId, configId]);
  const inventory = new Set([indexId, configId]);
  const seen = new Set([indexId, configId]);
  for (const [i, d] of catalogue.documents.entries()) {
    const sourceId = `profile:${d.file}`;
    const sourceRefs = refsOf(d.refs);
    if (!FILE.test(d.file) || sourceRefs.length === 0 || seen.has(sourceId))
      return refuse(
        'CONTEXT_SOURCE_DESCRIPTOR_INVALID',
        `/catalogue/documents/${i}`,
        `document "${d.file}" needs a unique one-segment file name and at least one ref.`,
      );
    seen.add(sourceId);
    if (d.catalogued) catalogued.add(sourceId);
    if (d.inventoried) inventory.add(sourceId);
    const kind = d.catalogued ? d.kind : 'profile';
    const authority = d.catalogued ? 'profile-catalog' : 'profile-inventory';
    const common = {
      sourceId,
      sourceLayer: layerOf(sourceRefs),
      requiredToExist: d.requiredToExist,
      sourceRefs,
    };
    const select = (reasonCode: ContextPlanSelectedSource['reasonCode'], reason: string) =>
      selected.push({ ...common, kind, mandatory: true, authority, reason, reasonCode });
    const exclude = (reasonCode: ContextPlanExcludedSource['reasonCode'], skipReason: string) =>
      excluded.push({ ...common, kind, authority, skipReason, reasonCode });
    const wanted = d.serves.some((t) => changeTypes.includes(t));
    if (!d.catalogued) {
      if (explicit.has(d.file) && d.readable)
        select('explicit-selector', 'Selected explicitly although the catalogue does not list it.');
      else if (!d.readable)
        exclude(
          'excluded-metadata-only',
          'Found in the inventory as metadata only; it has no readable body.',
        );
      else
        unclassified.push({
          ...common,
          kind: 'profile',
          authority: 'profile-inventory',
          reasonCode: 'unclassified-uncatalogued',
        });
    } else if (kind === 'profile-local' && !local) {
      exclude('excluded-local-policy', 'Machine-local source; local sources were not requested.');
    } else if (!d.readable) {
      exclude('excluded-metadata-only', 'The catalogue lists it as metadata only; it has no readable body.');
    } else if (explicit.has(d.file)) {
      select('explicit-selector', 'Selected explicitly by the user or project.');
    } else if (fullRead) {
      select('full-read', `Full read (${reasons[0]}): every readable catalogued document is selected.`);
    } else if (finalIntent !== 'chat' && wanted) {
      select('intent-change-type', `Serves ${finalIntent}/${changeTypes.join('+')}.`);
    } else {
      exclude(
        'excluded-no-match',
        finalIntent === 'chat'
          ? 'A chat message without a full read reads no Profile document.'
          : `Serves none of the requested change types (${changeTypes.join(', ') || 'none'}).`,
      );
    }
  }
  if (selected.length > 256)
    return refuse(
      'CONTEXT_PLAN_INVALID',
      '/catalogue/documents',
      'more than 256 sources would be selected; narrow the request.',
    );

  const selectedSources = bySourceId(selected);
  const excludedSources = bySourceId(excluded);
  const unclassifiedSources = bySourceId(unclassified);
  const mandatorySourceIds = sortedUnique([
    ...baselineSources.map((s) => s.sourceId),
    ...selectedSources.filter((s) => s.mandatory).map((s) => s.sourceId),
  ]);
  const missingRequired = [
    ...baselineSources,
    ...selectedSources,
    ...excludedSources,
    ...unclassifiedSources,
  ].some(missing);
  const triggers = new Set<ContextEscalationTrigger>(callerTriggers);
  if (seed.confidence < 0.6) triggers.add('low-confidence');
  if (fullReadNote !== null || finalIntent === 'audit') triggers.add('explicit-full');
  for (const t of ['public-contract', 'release', 'security', 'destructive'] as const)
    if (changeTypes.includes(t)) triggers.add(t);
  if (unclassifiedSources.length > 0) triggers.add('profile-catalog-drift');
  if (missingRequired) triggers.add('missing-reference');
  const exitCondition =
    unclassifiedSources.length > 0 || missingRequired
      ? 'blocked'
      : fullRead
        ? 'escalated-full'
        : 'relevant-complete';

  const identity = {
    contextEpoch: seed.contextEpoch,
    activeRoot: catalogue.activeRoot,
    project: catalogue.project,
    host: request.host,
    planner,
    intentSeed: seed,
    finalIntent,
    invocationNonce: request.invocationNonce,
  };
  const candidateCoverage = {
    cataloguedIds: sortedUnique(catalogued),
    inventoryIds: sortedUnique(inventory),
  };
  const baselineSorted = bySourceId(baselineSources);
  const baselineDigest = contextPlanBaselineDigest({
    identity,
    baselineSources: baselineSorted,
    selectedSources,
    excludedSources,
    unclassifiedSources,
    candidateCoverage,
  });
  const body = {
    identity,
    plannedAt,
    changeTypes,
    actionEnvelope: deriveActionEnvelope(finalIntent, changeTypes, seed.riskHint),
    baselineDigest,
    candidateCoverage,
    baselineSources: baselineSorted,
    selectedSources,
    mandatorySourceIds,
    excludedSources,
    unclassifiedSources,
    localSourcesRequested: local,
    triggeredEscalations: sortedUnique(triggers),
    fullRead,
    fullReadReason: reasons[0] ?? null,
    fullReadNote: reasons[0] === 'explicit-request' ? fullReadNote : null,
    exitCondition,
    budget: request.budget ?? NO_BUDGET,
    planningTelemetry: {
      inputBytes: new TextEncoder().encode(JSON.stringify({ catalogue, request })).length,
      inputChars: [...JSON.stringify({ catalogue, request })].length,
      latencyMs: null,
      inputTokens: null,
    },
  } satisfies Partial<ContextReadPlanV2>;
  const identityInputs = deriveContextPlanIdentityInputs(
    body as Parameters<typeof deriveContextPlanIdentityInputs>[0],
  );
  const planContentId = contextPlanContentId(identityInputs);
  const planId = contextPlanId(planContentId, seed.contextEpoch, request.invocationNonce);
  const artifacts = sortedUnique(cacheArtifacts);
  const plan: ContextReadPlanV2 = {
    schemaVersion: 'ContextReadPlanV2',
    planId,
    planContentId,
    contextBinding: {
      schemaVersion: 'ContextReadBindingV1',
      contextEpoch: seed.contextEpoch,
      planId,
      planContentId,
      activeRoot: catalogue.activeRoot,
      project: catalogue.project,
    },
    ...body,
    cacheDecision: {
      status: artifacts.length > 0 ? 'hit' : 'disabled',
      cacheKey: planContentId,
      reasonCode: artifacts.length > 0 ? 'content-identity-match' : 'no-cache-adapter',
      reusedArtifacts: artifacts,
      bodyDeliverySkipped: false,
    },
    identityInputs,
  };
  return { ok: true, plan };
}
