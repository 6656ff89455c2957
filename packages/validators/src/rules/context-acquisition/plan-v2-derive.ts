// The derivations of ContextReadPlanV2 (docs/spec/context-acquisition-gate.md, "Derivations") its
// rules compare the plan's fields with: the sources of the four buckets, the full-read reasons, the
// escalation triggers, the exit condition and a source's layer.
import type {
  ContextEscalationTrigger,
  ContextFullReadReason,
  ContextReadPlanV2,
} from '@agent-contracts/schemas';
import { perDocument } from '../memo.js';

/** The bucket of a plan a source sits in. */
export type Bucket = 'baseline' | 'selected' | 'excluded' | 'unclassified';
/** One source of a bucket as the rules read it, with its JSON Pointer in the plan. */
export interface SourceView {
  bucket: Bucket;
  pointer: string;
  sourceId: string;
  kind: string;
  mandatory: boolean;
  authority: string;
  reasonCode: string;
  sourceLayer: string;
  requiredToExist: boolean;
  sourceRefs: ReadonlyArray<{
    path: string;
    layer: string;
    exists: boolean;
    size: number | null;
    mtimeMs: number | null;
  }>;
}

export const BUCKETS: ReadonlyArray<[Bucket, keyof ContextReadPlanV2]> = [
  ['baseline', 'baselineSources'],
  ['selected', 'selectedSources'],
  ['excluded', 'excludedSources'],
  ['unclassified', 'unclassifiedSources'],
];

/** Every source of the four buckets, in bucket then array order, with its JSON Pointer. */
export const sourcesOf = perDocument(function sourcesOf(p: ContextReadPlanV2): SourceView[] {
  const out: SourceView[] = [];
  for (const [bucket, field] of BUCKETS) {
    const items = p[field] as unknown as Array<Record<string, unknown>>;
    // The view's fields are copied one by one: `{ ...s, mandatory }` costs about 1.5 µs a source
    // in V8 (the spread leaves its fast path when a later property overrides a copied one).
    for (let i = 0; i < items.length; i++) {
      const s = items[i]!;
      out.push({
        sourceId: s.sourceId as string,
        kind: s.kind as string,
        mandatory: s.mandatory === true,
        authority: s.authority as string,
        reasonCode: s.reasonCode as string,
        sourceLayer: s.sourceLayer as string,
        requiredToExist: s.requiredToExist as boolean,
        sourceRefs: s.sourceRefs as SourceView['sourceRefs'],
        bucket,
        pointer: `/${field}/${i}`,
      });
    }
  }
  return out;
});

const isLowConfidence = (p: ContextReadPlanV2) => p.identity.intentSeed.confidence < 0.6;
/**
 * An explicit full-read request. `fullReadNote` is its evidence; a plan whose reason says
 * `explicit-request` without a note is reported once, by CONTEXT_FULL_REASON_REQUIRED (D-CTX-23).
 */
const isExplicitRequest = (p: ContextReadPlanV2) =>
  p.fullReadNote !== null || p.fullReadReason === 'explicit-request';

/** Applicable full-read reasons, in precedence order (Derivations, "Full read"). */
export const fullReadReasons = perDocument(function fullReadReasons(
  p: ContextReadPlanV2,
): ContextFullReadReason[] {
  const reasons: ContextFullReadReason[] = [];
  if (isExplicitRequest(p)) reasons.push('explicit-request');
  if (p.identity.finalIntent === 'audit') reasons.push('audit-intent');
  if (isLowConfidence(p)) reasons.push('low-confidence');
  if (p.triggeredEscalations.includes('cross-service')) reasons.push('cross-service');
  for (const c of ['release', 'security', 'destructive'] as const)
    if (p.changeTypes.includes(c)) reasons.push(c);
  return reasons;
});
export const derivedFullRead = (p: ContextReadPlanV2) => fullReadReasons(p).length > 0;

/** Sources of any bucket with `requiredToExist: true` and no existing ref. */
export const missingRequired = perDocument((p: ContextReadPlanV2) =>
  sourcesOf(p).filter((s) => s.requiredToExist && !s.sourceRefs.some((r) => r.exists)),
);

/** The derived escalation triggers and whether each must be present. */
export function derivedTriggers(p: ContextReadPlanV2): Array<[ContextEscalationTrigger, boolean, string]> {
  const ct = p.changeTypes;
  return [
    ['low-confidence', isLowConfidence(p), 'the seed confidence is below 0.6'],
    [
      'explicit-full',
      isExplicitRequest(p) || p.identity.finalIntent === 'audit',
      'a full read was requested explicitly or finalIntent is audit',
    ],
    ['public-contract', ct.includes('public-contract'), 'changeTypes contains public-contract'],
    ['release', ct.includes('release'), 'changeTypes contains release'],
    ['security', ct.includes('security'), 'changeTypes contains security'],
    ['destructive', ct.includes('destructive'), 'changeTypes contains destructive'],
    ['profile-catalog-drift', p.unclassifiedSources.length > 0, 'unclassifiedSources is non-empty'],
    ['missing-reference', missingRequired(p).length > 0, 'a required source has no existing ref'],
  ];
}

export function derivedExitCondition(p: ContextReadPlanV2): ContextReadPlanV2['exitCondition'] {
  if (p.unclassifiedSources.length > 0 || missingRequired(p).length > 0) return 'blocked';
  return derivedFullRead(p) ? 'escalated-full' : 'relevant-complete';
}

/** The distinct layers of the refs in ref order joined with "+" (one or two refs without a Set). */
export function derivedSourceLayer(s: SourceView): string {
  const refs = s.sourceRefs;
  const a: unknown = refs[0]?.layer;
  const b: unknown = refs[1]?.layer;
  if (refs.length === 1 && typeof a === 'string') return a;
  if (refs.length === 2 && typeof a === 'string' && typeof b === 'string') return a === b ? a : `${a}+${b}`;
  return [...new Set(refs.map((r) => r.layer))].join('+');
}
