import { canonicalize, derivedId, digestOf, sha256Hex } from '@agent-contracts/digest';
import type {
  ContextIdentitySource,
  ContextPlanIdentityInputs,
  ContextReadPlanV2,
} from '../contracts/context-acquisition.js';
import type { DigestRule } from '../digest-rules.js';

// Rules take `unknown` documents (validators feed them unchecked JSON); they read only the fields
// they cover and throw nothing for missing ones beyond what `digestOf` rejects.
// biome-ignore lint/suspicious/noExplicitAny: rules read unchecked JSON documents
type Loose = Record<string, any>;

const byId = (a: { sourceId: string }, b: { sourceId: string }) =>
  a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0;

/** `metadataDigest` of one source ref: `digestOf({path, layer, exists, size, mtimeMs})`. */
export function contextSourceRefDigest(ref: {
  path: string;
  layer: string;
  exists: boolean;
  size: number | null;
  mtimeMs: number | null;
}): string {
  const { path, layer, exists, size, mtimeMs } = ref;
  // The JCS text of the five members, in their sorted key order, without building the object (a
  // plan has a ref per source); anything but a string, number, boolean or null in a member takes
  // the general path, which also names the member in its DigestError.
  if (primitive(path) && primitive(layer) && primitive(exists) && primitive(size) && primitive(mtimeMs)) {
    try {
      return sha256Hex(
        `{"exists":${canonicalize(exists)},"layer":${canonicalize(layer)},"mtimeMs":${canonicalize(mtimeMs)},"path":${canonicalize(path)},"size":${canonicalize(size)}}`,
      );
    } catch {
      // fall through: digestOf reports the member at fault
    }
  }
  return digestOf({ path, layer, exists, size, mtimeMs });
}

const primitive = (v: unknown) =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `metadataDigests` of a source: the refs' `metadataDigest` values, in ref order. */
function metadataDigests(source: Loose): string[] {
  return (source.sourceRefs as Loose[]).map((r) => r.metadataDigest as string);
}

/**
 * `ContextReadPlanV2.baselineDigest`: what the planner read while planning. Arrays are sorted by
 * `sourceId` here, so the digest does not depend on enumeration order.
 */
export function contextPlanBaselineDigest(
  plan: Pick<
    ContextReadPlanV2,
    | 'identity'
    | 'baselineSources'
    | 'selectedSources'
    | 'excludedSources'
    | 'unclassifiedSources'
    | 'candidateCoverage'
  >,
): string {
  const p = plan as Loose;
  const text = baselineText(p);
  if (text !== undefined) return sha256Hex(text);
  const candidates = [
    ...(p.selectedSources as Loose[]).filter((s) => s.kind !== 'memory'),
    ...(p.excludedSources as Loose[]),
    ...(p.unclassifiedSources as Loose[]),
  ]
    .map((s) => ({
      sourceId: s.sourceId as string,
      requiredToExist: s.requiredToExist,
      metadataDigests: metadataDigests(s),
    }))
    .sort(byId);
  const baseline = (p.baselineSources as Loose[])
    .map((s) => ({
      sourceId: s.sourceId as string,
      contentIdentity: s.contentIdentity,
      metadataDigests: metadataDigests(s),
    }))
    .sort(byId);
  return digestOf({
    activeRoot: p.identity.activeRoot,
    project: p.identity.project,
    baseline,
    cataloguedIds: [...p.candidateCoverage.cataloguedIds].sort(),
    inventoryIds: [...p.candidateCoverage.inventoryIds].sort(),
    candidates,
  });
}

/**
 * The JCS text `contextPlanBaselineDigest` hashes, written straight from the plan: the keys of the
 * input object are fixed, so they are emitted in their sorted order and every member value is its
 * own `canonicalize` text (JCS is compositional), without building the object, its lists and their
 * members and sorting their keys (about half of the digest's cost). `undefined` for any plan whose
 * buckets, ids or refs are not what the schema gives (the general path then reports the member at
 * fault, or throws what it throws), so the digest is the same for every plan.
 */
function baselineText(p: Loose): string | undefined {
  try {
    const { selectedSources, excludedSources, unclassifiedSources, baselineSources } = p;
    if (
      !Array.isArray(selectedSources) ||
      !Array.isArray(excludedSources) ||
      !Array.isArray(unclassifiedSources) ||
      !Array.isArray(baselineSources)
    )
      return undefined;
    const candidates: Loose[] = [];
    for (const s of selectedSources as Loose[]) if (s.kind !== 'memory') candidates.push(s);
    for (const s of excludedSources as Loose[]) candidates.push(s);
    for (const s of unclassifiedSources as Loose[]) candidates.push(s);
    const baseline = (baselineSources as Loose[]).slice();
    for (const s of baseline) if (typeof s.sourceId !== 'string') return undefined;
    for (const s of candidates) if (typeof s.sourceId !== 'string') return undefined;
    baseline.sort(byId as (a: Loose, b: Loose) => number);
    candidates.sort(byId as (a: Loose, b: Loose) => number);
    const coverage = p.candidateCoverage;
    const catalogued = sortedStrings(coverage.cataloguedIds);
    const inventory = sortedStrings(coverage.inventoryIds);
    if (catalogued === undefined || inventory === undefined) return undefined;
    let text = `{"activeRoot":${canonicalize(p.identity.activeRoot)},"baseline":[`;
    for (let i = 0; i < baseline.length; i++) {
      const s = baseline[i]!;
      if (i > 0) text += ',';
      text += `{"contentIdentity":${canonicalize(s.contentIdentity)},"metadataDigests":${metadataDigestsText(s)},"sourceId":${canonicalize(s.sourceId)}}`;
    }
    text += '],"candidates":[';
    for (let i = 0; i < candidates.length; i++) {
      const s = candidates[i]!;
      if (i > 0) text += ',';
      text += `{"metadataDigests":${metadataDigestsText(s)},"requiredToExist":${canonicalize(s.requiredToExist)},"sourceId":${canonicalize(s.sourceId)}}`;
    }
    return `${text}],"cataloguedIds":${catalogued},"inventoryIds":${inventory},"project":${canonicalize(p.identity.project)}}`;
  } catch {
    return undefined;
  }
}

/** The JCS text of `[...ids].sort()` when every id is a string (the default sort is then `<`). */
function sortedStrings(ids: unknown): string | undefined {
  if (!Array.isArray(ids)) return undefined;
  const xs = ids.slice() as unknown[];
  const n = xs.length;
  for (let i = 0; i < n; i++) if (typeof xs[i] !== 'string') return undefined;
  if (n > 32) xs.sort();
  else
    for (let i = 1; i < n; i++) {
      const x = xs[i] as string;
      let j = i - 1;
      while (j >= 0 && x < (xs[j] as string)) {
        xs[j + 1] = xs[j];
        j--;
      }
      xs[j + 1] = x;
    }
  let text = '[';
  for (let i = 0; i < n; i++) text += i > 0 ? `,${canonicalize(xs[i])}` : canonicalize(xs[i]);
  return `${text}]`;
}

/** The JCS text of `metadataDigests(source)`; throws (for the caller's fallback) on a ref that is not an object. */
function metadataDigestsText(source: Loose): string {
  const refs = source.sourceRefs;
  if (!Array.isArray(refs)) throw new TypeError('sourceRefs is not an array');
  let text = '[';
  for (let j = 0; j < refs.length; j++) {
    if (!(j in refs)) throw new TypeError('a hole');
    if (j > 0) text += ',';
    text += canonicalize((refs[j] as Loose).metadataDigest);
  }
  return `${text}]`;
}

/**
 * Derive `ContextReadPlanV2.identityInputs` from the plan's other fields. A valid plan carries
 * exactly this value (rule CONTEXT_IDENTITY_INPUTS_MISMATCH); `planContentId` hashes it.
 */
export function deriveContextPlanIdentityInputs(
  plan: Omit<
    ContextReadPlanV2,
    'schemaVersion' | 'planId' | 'planContentId' | 'contextBinding' | 'identityInputs' | 'cacheDecision'
  >,
): ContextPlanIdentityInputs {
  const sources: ContextIdentitySource[] = [
    ...plan.baselineSources.map((s) => ({
      sourceId: s.sourceId,
      bucket: 'baseline' as const,
      kind: s.kind,
      mandatory: s.mandatory,
      authority: s.authority,
      reasonCode: s.reasonCode,
      sourceLayer: s.sourceLayer,
      requiredToExist: s.requiredToExist,
      metadataDigests: metadataDigests(s),
    })),
    ...plan.selectedSources.map((s) => ({
      sourceId: s.sourceId,
      bucket: 'selected' as const,
      kind: s.kind,
      mandatory: s.mandatory,
      authority: s.authority,
      reasonCode: s.reasonCode,
      sourceLayer: s.sourceLayer,
      requiredToExist: s.requiredToExist,
      metadataDigests: metadataDigests(s),
    })),
    ...plan.excludedSources.map((s) => ({
      sourceId: s.sourceId,
      bucket: 'excluded' as const,
      kind: s.kind,
      mandatory: false,
      authority: s.authority,
      reasonCode: s.reasonCode,
      sourceLayer: s.sourceLayer,
      requiredToExist: s.requiredToExist,
      metadataDigests: metadataDigests(s),
    })),
    ...plan.unclassifiedSources.map((s) => ({
      sourceId: s.sourceId,
      bucket: 'unclassified' as const,
      kind: s.kind,
      mandatory: false,
      authority: s.authority,
      reasonCode: s.reasonCode,
      sourceLayer: s.sourceLayer,
      requiredToExist: s.requiredToExist,
      metadataDigests: metadataDigests(s),
    })),
  ].sort(byId);
  return {
    target: {
      activeRoot: plan.identity.activeRoot,
      project: plan.identity.project,
      host: plan.identity.host,
    },
    intent: {
      finalIntent: plan.identity.finalIntent,
      riskHint: plan.identity.intentSeed.riskHint,
      confidenceClass: plan.identity.intentSeed.confidence < 0.6 ? 'low' : 'normal',
      changeTypes: [...plan.changeTypes].sort(),
      actionEnvelope: {
        allowedActionClasses: [...plan.actionEnvelope.allowedActionClasses].sort(),
        mutationExpected: plan.actionEnvelope.mutationExpected,
        riskCeiling: plan.actionEnvelope.riskCeiling,
      },
    },
    baselineDigest: plan.baselineDigest,
    sources,
    resolution: {
      mandatorySourceIds: [...plan.mandatorySourceIds].sort(),
      triggeredEscalations: [...plan.triggeredEscalations].sort(),
      exitCondition: plan.exitCondition,
      fullRead: plan.fullRead,
      fullReadReason: plan.fullReadReason,
      localSourcesRequested: plan.localSourcesRequested,
    },
    versions: {
      contextPlan: 'ContextReadPlanV2',
      contextReceipt: 'ContextReadReceiptV2',
      contentIdentity: 'ContentIdentityV1',
      contextBinding: 'ContextReadBindingV1',
      planner: plan.identity.planner,
    },
  };
}

/** `ContextReadPlanV2.planContentId`: `plan-content-` + `digestOf(identityInputs)`. */
export function contextPlanContentId(identityInputs: unknown): string {
  return `plan-content-${digestOf(identityInputs)}`;
}

/** `ContextReadPlanV2.planId`: `plan-` + first 24 hex of `digestOf({planContentId, contextEpoch, invocationNonce})`. */
export function contextPlanId(planContentId: string, contextEpoch: string, invocationNonce: string): string {
  return derivedId('plan-', { planContentId, contextEpoch, invocationNonce }, 24);
}

/** `ContextReadPlanV1.planId`: `plan-` + first 24 hex of `digestOf(plan without planId and planningTelemetry)`. */
export function contextPlanV1Id(plan: unknown): string {
  const { planId: _id, planningTelemetry: _t, ...rest } = plan as Loose;
  return derivedId('plan-', rest, 24);
}

/** `ContextReadPlanV1.baselineContext.baselineDigest`: `digestOf(baselineContext without baselineDigest)`. */
export function contextPlanV1BaselineDigest(baselineContext: unknown): string {
  const { baselineDigest: _d, ...rest } = baselineContext as Loose;
  return digestOf(rest);
}

/** One rule per array of source refs: every `metadataDigest` recomputes from its ref. */
function refDigestRule(
  contract: string,
  arrayPointer: string,
  pick: (doc: Loose) => Loose[],
  nested: boolean,
): DigestRule {
  return {
    contract,
    pointer: nested ? `${arrayPointer}/*/sourceRefs/*/metadataDigest` : `${arrayPointer}/*/metadataDigest`,
    covers: '`digestOf({path, layer, exists, size, mtimeMs})` of the same source ref.',
    code: 'CONTEXT_SOURCE_METADATA_DIGEST_MISMATCH',
    compute(document) {
      const out: Array<{ pointer: string; expected: string | null }> = [];
      const items = pick(document as Loose);
      for (const [i, item] of items.entries()) {
        const refs: Loose[] = nested ? item.sourceRefs : [item];
        for (const [j, ref] of refs.entries()) {
          const pointer = nested
            ? `${arrayPointer}/${i}/sourceRefs/${j}/metadataDigest`
            : `${arrayPointer}/${i}/metadataDigest`;
          out.push({ pointer, expected: contextSourceRefDigest(ref as never) });
        }
      }
      return out;
    },
    // A plan has a ref per source and most agree: build a pointer only for a ref that does not.
    mismatches(document) {
      const out: Array<{ pointer: string; expected: string | null; actual: unknown }> = [];
      const items = pick(document as Loose);
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        const refs: Loose[] = nested ? item.sourceRefs : [item];
        for (let j = 0; j < refs.length; j++) {
          const ref = refs[j]!;
          const expected = contextSourceRefDigest(ref as never);
          const actual = Object.hasOwn(ref, 'metadataDigest') ? ref.metadataDigest : undefined;
          if (actual === expected) continue;
          const pointer = nested
            ? `${arrayPointer}/${i}/sourceRefs/${j}/metadataDigest`
            : `${arrayPointer}/${i}/metadataDigest`;
          out.push({ pointer, expected, actual });
        }
      }
      return out;
    },
  };
}

const V2 = 'ContextReadPlanV2';
const V1 = 'ContextReadPlanV1';

/** Digest rules of this area's contracts. */
export const CONTEXT_ACQUISITION_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: V2,
    pointer: '/planContentId',
    code: 'CONTEXT_PLAN_CONTENT_ID_MISMATCH',
    covers: '`plan-content-` + `digestOf(identityInputs)` (the whole `identityInputs` object, full 64 hex).',
    compute: (d) => [
      { pointer: '/planContentId', expected: contextPlanContentId((d as Loose).identityInputs) },
    ],
  },
  {
    contract: V2,
    pointer: '/planId',
    code: 'CONTEXT_PLAN_ID_MISMATCH',
    covers:
      '`plan-` + the first 24 hex of `digestOf({planContentId, contextEpoch: identity.contextEpoch, invocationNonce: identity.invocationNonce})`.',
    compute: (d) => {
      const p = d as Loose;
      return [
        {
          pointer: '/planId',
          expected: contextPlanId(p.planContentId, p.identity.contextEpoch, p.identity.invocationNonce),
        },
      ];
    },
  },
  {
    contract: V2,
    pointer: '/contextBinding',
    code: 'CONTEXT_BINDING_MISMATCH',
    covers:
      'Copies, not digests: `contextBinding.planId` = `planId`, `.planContentId` = `planContentId`, `.contextEpoch` = `identity.contextEpoch`, `.activeRoot` = `identity.activeRoot`, `.project` = `identity.project`.',
    compute: (d) => {
      const p = d as Loose;
      return [
        { pointer: '/contextBinding/planId', expected: p.planId },
        { pointer: '/contextBinding/planContentId', expected: p.planContentId },
        { pointer: '/contextBinding/contextEpoch', expected: p.identity.contextEpoch },
        { pointer: '/contextBinding/activeRoot', expected: p.identity.activeRoot },
        { pointer: '/contextBinding/project', expected: p.identity.project },
      ];
    },
  },
  {
    contract: V2,
    pointer: '/baselineDigest',
    code: 'CONTEXT_BASELINE_STALE',
    covers:
      "`digestOf({activeRoot, project, baseline, cataloguedIds, inventoryIds, candidates})` where `activeRoot`/`project` are from `identity`; `baseline` = `baselineSources` sorted by `sourceId` as `{sourceId, contentIdentity, metadataDigests}`; `cataloguedIds`/`inventoryIds` = `candidateCoverage`, sorted; `candidates` = every non-`memory` source of `selectedSources`, `excludedSources` and `unclassifiedSources`, sorted by `sourceId`, as `{sourceId, requiredToExist, metadataDigests}`; `metadataDigests` = the refs' `metadataDigest` in ref order.",
    compute: (d) => [
      { pointer: '/baselineDigest', expected: contextPlanBaselineDigest(d as ContextReadPlanV2) },
    ],
  },
  refDigestRule(V2, '/baselineSources', (d) => d.baselineSources, true),
  refDigestRule(V2, '/selectedSources', (d) => d.selectedSources, true),
  refDigestRule(V2, '/excludedSources', (d) => d.excludedSources, true),
  refDigestRule(V2, '/unclassifiedSources', (d) => d.unclassifiedSources, true),
  {
    contract: V1,
    pointer: '/planId',
    code: 'CONTEXT_PLAN_ID_MISMATCH',
    covers:
      '`plan-` + the first 24 hex of `digestOf(plan)` over every member except `planId` and `planningTelemetry`.',
    compute: (d) => [{ pointer: '/planId', expected: contextPlanV1Id(d) }],
  },
  {
    contract: V1,
    pointer: '/baselineContext/baselineDigest',
    code: 'CONTEXT_BASELINE_STALE',
    covers: '`digestOf(baselineContext)` over every member of `baselineContext` except `baselineDigest`.',
    compute: (d) => [
      {
        pointer: '/baselineContext/baselineDigest',
        expected: contextPlanV1BaselineDigest((d as Loose).baselineContext),
      },
    ],
  },
  refDigestRule(V1, '/selectedSources', (d) => d.selectedSources, true),
  refDigestRule(V1, '/baselineContext/readme/sourceRefs', (d) => d.baselineContext.readme.sourceRefs, false),
  refDigestRule(V1, '/baselineContext/configSourceRefs', (d) => d.baselineContext.configSourceRefs, false),
];
