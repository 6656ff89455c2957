// Semantic rules of the ContextAcquisitionGate's seed and plan contracts
// (docs/spec/context-acquisition-gate.md: ContentIdentityV1, ContextReadPlanV2, ContextReadPlanV1).
//
// Digest-shaped invariants (planContentId, planId, contextBinding, baselineDigest, metadataDigest)
// are not rules here: their DigestRules carry the spec's codes. Every rule below compares a field
// with its derivation from the plan's *inputs* (seed, finalIntent, changeTypes, fullReadNote, the
// buckets and their refs, caller-supplied triggers), never from another derived field, so a
// single wrong field is reported once, by the rule that owns it (D-CTX-23).
import { canonicalize } from '@agent-contracts/digest';
import {
  type ContentIdentityV1,
  type ContextActionClass,
  type ContextEscalationTrigger,
  type ContextFullReadReason,
  type ContextReadPlanV1,
  type ContextReadPlanV2,
  deriveContextPlanIdentityInputs,
} from '@agent-contracts/schemas';
import { describeValue } from '../pointer.js';
import { type Report, reportingRule } from './kit.js';
import { perDocument } from './memo.js';
import type { BundleRule, SemanticRule } from './types.js';

const PAGE = 'docs/spec/context-acquisition-gate.md';
const CONTENT_INVARIANTS = `${PAGE}#invariants-1`;
const V2_INVARIANTS = `${PAGE}#invariants-2`;
const V1_INVARIANTS = `${PAGE}#invariants-3`;

const V2 = 'ContextReadPlanV2';
const V1 = 'ContextReadPlanV1';

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/**
 * Whether two values are the same JSON data: equal strings, booleans, null and numbers, arrays
 * item by item, plain objects member by member in any key order. Anything else is unequal.
 */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== undefined && (typeof a !== 'object' || a === null);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a && i in b && jsonEqual(a[i], b[i]))) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const pa = Object.getPrototypeOf(a);
  const pb = Object.getPrototypeOf(b);
  if ((pa !== Object.prototype && pa !== null) || (pb !== Object.prototype && pb !== null)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

const list = (xs: readonly unknown[]) => (xs.length ? xs.map((x) => JSON.stringify(x)).join(', ') : 'none');
/** Ascending order of UTF-16 code units (JavaScript's default sort), the order the spec uses. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A sorted copy; the short lists of a plan by insertion, where Array.prototype.sort costs more. */
function sorted<T extends string>(xs: readonly T[]): T[] {
  const out = xs.slice();
  const n = out.length;
  if (n > 32) return out.sort(cmp);
  for (let i = 1; i < n; i++) {
    const x = out[i]!;
    let j = i - 1;
    while (j >= 0 && x < out[j]!) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = x;
  }
  return out;
}
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sameSet = (a: readonly string[], b: readonly string[]) => sameList(sorted(a), sorted(b));

/**
 * Comparable key of a spec timestamp (`YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, guaranteed by the schema):
 * the fraction is padded to nanoseconds so sub-millisecond precision is not lost.
 */
function timeKey(ts: string): string {
  const dot = ts.indexOf('.');
  const fraction = dot === -1 ? '' : ts.slice(dot + 1, -1);
  return `${ts.slice(0, 19)}.${fraction.padEnd(9, '0')}`;
}

const MUTATING: readonly ContextActionClass[] = [
  'docs-mutation',
  'source-mutation',
  'workflow-closeout',
  'release',
  'dangerous',
];
const MUTATION_INTENTS = new Set(['dev', 'fix', 'self-fix', 'other']);

/** The action-envelope derivation (Derivations, "Action envelope"), shared by V2 and V1. */
function deriveActionEnvelope(
  finalIntent: string,
  changeTypes: readonly string[],
  riskHint: string,
): { allowedActionClasses: ContextActionClass[]; mutationExpected: boolean; riskCeiling: string } {
  const allowed = new Set<ContextActionClass>(['context-read', 'analysis-read']);
  if (finalIntent !== 'chat') {
    allowed.add('test-execution');
    allowed.add('workflow-closeout');
  }
  if (MUTATION_INTENTS.has(finalIntent)) {
    if (changeTypes.some((c) => c === 'docs' || c === 'public-contract')) allowed.add('docs-mutation');
    if (changeTypes.some((c) => c !== 'docs')) allowed.add('source-mutation');
  }
  if (changeTypes.includes('release')) allowed.add('release');
  if (changeTypes.includes('destructive')) allowed.add('dangerous');
  const allowedActionClasses = sorted([...allowed]);
  return {
    allowedActionClasses,
    mutationExpected: allowedActionClasses.some((a) => MUTATING.includes(a)),
    riskCeiling: riskHint,
  };
}

function checkActionEnvelope(
  envelope: { allowedActionClasses: readonly string[]; mutationExpected: boolean; riskCeiling: string },
  finalIntent: string,
  changeTypes: readonly string[],
  riskHint: string,
  report: Report,
): void {
  const want = deriveActionEnvelope(finalIntent, changeTypes, riskHint);
  if (!sameSet(envelope.allowedActionClasses, want.allowedActionClasses)) {
    const extra = envelope.allowedActionClasses.filter(
      (c) => !want.allowedActionClasses.includes(c as never),
    );
    const missing = want.allowedActionClasses.filter((c) => !envelope.allowedActionClasses.includes(c));
    report(
      '/actionEnvelope/allowedActionClasses',
      `allowedActionClasses must be exactly the derivation for finalIntent ${JSON.stringify(finalIntent)} and changeTypes [${list(changeTypes)}]: ${list(want.allowedActionClasses)} (not allowed: ${list(extra)}; missing: ${list(missing)}); derive the envelope, never widen or narrow it by hand.`,
    );
  }
  if (envelope.mutationExpected !== want.mutationExpected) {
    report(
      '/actionEnvelope/mutationExpected',
      `mutationExpected is ${envelope.mutationExpected} but the derived classes ${want.mutationExpected ? 'include' : 'include no'} mutating class (docs-mutation, source-mutation, workflow-closeout, release, dangerous); set it to ${want.mutationExpected}.`,
    );
  }
  if (envelope.riskCeiling !== riskHint) {
    report(
      '/actionEnvelope/riskCeiling',
      `riskCeiling is ${JSON.stringify(envelope.riskCeiling)} but must equal the seed's riskHint ${JSON.stringify(riskHint)}.`,
    );
  }
}

/** `skipReason` placeholders the spec refuses (invariant 18), compared trimmed and case-insensitively. */
const PLACEHOLDER_SKIP_REASONS = new Set(['not needed', '暂不需要']);
const isPlaceholderSkipReason = (s: string) => PLACEHOLDER_SKIP_REASONS.has(s.trim().toLowerCase());

// ---------------------------------------------------------------------------------------------
// ContentIdentityV1
// ---------------------------------------------------------------------------------------------

const notNfkc = (key: string) => key.normalize('NFKC') !== key;
const nfkcMessage = (key: string) =>
  `sourceKey ${describeValue(key)} is not NFKC-normalized (its NFKC form is ${describeValue(key.normalize('NFKC'))}); normalize the key and rebuild the identity.`;

const CONTENT_IDENTITY_RULES: SemanticRule[] = [
  reportingRule<ContentIdentityV1>(
    'CONTENT_SOURCE_KEY_NOT_NORMALIZED',
    'ContentIdentityV1',
    CONTENT_INVARIANTS,
    'ContentIdentityV1 invariant 1: sourceKey equals its Unicode NFKC form.',
    (d, report) => {
      if (notNfkc(d.sourceKey)) report('/sourceKey', nfkcMessage(d.sourceKey));
    },
  ),
];

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV2: derivations
// ---------------------------------------------------------------------------------------------

type Bucket = 'baseline' | 'selected' | 'excluded' | 'unclassified';
interface SourceView {
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

const BUCKETS: ReadonlyArray<[Bucket, keyof ContextReadPlanV2]> = [
  ['baseline', 'baselineSources'],
  ['selected', 'selectedSources'],
  ['excluded', 'excludedSources'],
  ['unclassified', 'unclassifiedSources'],
];

/** Every source of the four buckets, in bucket then array order, with its JSON Pointer. */
const sourcesOf = perDocument(function sourcesOf(p: ContextReadPlanV2): SourceView[] {
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
const fullReadReasons = perDocument(function fullReadReasons(p: ContextReadPlanV2): ContextFullReadReason[] {
  const reasons: ContextFullReadReason[] = [];
  if (isExplicitRequest(p)) reasons.push('explicit-request');
  if (p.identity.finalIntent === 'audit') reasons.push('audit-intent');
  if (isLowConfidence(p)) reasons.push('low-confidence');
  if (p.triggeredEscalations.includes('cross-service')) reasons.push('cross-service');
  for (const c of ['release', 'security', 'destructive'] as const)
    if (p.changeTypes.includes(c)) reasons.push(c);
  return reasons;
});
const derivedFullRead = (p: ContextReadPlanV2) => fullReadReasons(p).length > 0;

/** Sources of any bucket with `requiredToExist: true` and no existing ref. */
const missingRequired = perDocument((p: ContextReadPlanV2) =>
  sourcesOf(p).filter((s) => s.requiredToExist && !s.sourceRefs.some((r) => r.exists)),
);

/** The derived escalation triggers and whether each must be present. */
function derivedTriggers(p: ContextReadPlanV2): Array<[ContextEscalationTrigger, boolean, string]> {
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

function derivedExitCondition(p: ContextReadPlanV2): ContextReadPlanV2['exitCondition'] {
  if (p.unclassifiedSources.length > 0 || missingRequired(p).length > 0) return 'blocked';
  return derivedFullRead(p) ? 'escalated-full' : 'relevant-complete';
}

/** The distinct layers of the refs in ref order joined with "+" (one or two refs without a Set). */
function derivedSourceLayer(s: SourceView): string {
  const refs = s.sourceRefs;
  const a: unknown = refs[0]?.layer;
  const b: unknown = refs[1]?.layer;
  if (refs.length === 1 && typeof a === 'string') return a;
  if (refs.length === 2 && typeof a === 'string' && typeof b === 'string') return a === b ? a : `${a}+${b}`;
  return [...new Set(refs.map((r) => r.layer))].join('+');
}
// CONTEXT_IDENTITY_INPUTS_MISMATCH compares each member of identityInputs with its derivation
// (deriveContextPlanIdentityInputs). Building the derivation (a copy of every source, sorted) and
// comparing it with jsonEqual cost more than the rest of the rules together; the checks below read
// the plan's fields in place instead. Each answers `true` only when jsonEqual(member, derived
// member) would (same keys, plain objects, equal primitives, lists in the derivation's order); any
// doubt, or anything that throws, is `false`, and the rule then builds the derivation and compares
// as before. A test holds the members and the answers to the derivation's.

/** jsonEqual(a, b) when it is decided by `===`: the same primitive (never undefined). */
const same = (a: unknown, b: unknown) => a === b && b !== undefined && (typeof b !== 'object' || b === null);

/** `o` is a plain object whose own enumerable keys are exactly `keys` (distinct). */
function hasKeys(o: unknown, keys: ReadonlySet<string>): o is Record<string, unknown> {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
  const proto = Object.getPrototypeOf(o);
  if (proto !== Object.prototype && proto !== null) return false;
  const own = Object.keys(o);
  if (own.length !== keys.size) return false;
  for (let i = 0; i < own.length; i++) if (!keys.has(own[i]!)) return false;
  return true;
}

/** `have` equals `[...xs].sort()`: checked only where `xs` is a list of strings already in order. */
function sameSorted(have: unknown, xs: unknown): boolean {
  if (!Array.isArray(have) || !Array.isArray(xs) || have.length !== xs.length) return false;
  for (let i = 0; i < xs.length; i++) {
    const x: unknown = xs[i];
    if (typeof x !== 'string' || (i > 0 && !((xs[i - 1] as string) <= x)) || !same(have[i], x)) return false;
  }
  return true;
}

const keySet = (...keys: string[]) => new Set(keys);
const TARGET_KEYS = keySet('activeRoot', 'project', 'host');
const INTENT_KEYS = keySet('finalIntent', 'riskHint', 'confidenceClass', 'changeTypes', 'actionEnvelope');
const ENVELOPE_KEYS = keySet('allowedActionClasses', 'mutationExpected', 'riskCeiling');
const SOURCE_KEYS = keySet(
  'sourceId',
  'bucket',
  'kind',
  'mandatory',
  'authority',
  'reasonCode',
  'sourceLayer',
  'requiredToExist',
  'metadataDigests',
);
const RESOLUTION_KEYS = keySet(
  'mandatorySourceIds',
  'triggeredEscalations',
  'exitCondition',
  'fullRead',
  'fullReadReason',
  'localSourcesRequested',
);
const VERSIONS_KEYS = keySet('contextPlan', 'contextReceipt', 'contentIdentity', 'contextBinding', 'planner');

// biome-ignore lint/suspicious/noExplicitAny: the checks read the plan's fields unchecked, and guard each
type Loose = Record<string, any>;
type Agrees = (have: unknown, p: Loose) => boolean;

/** identityInputs.sources against the four buckets, in the derivation's stable order by sourceId. */
function sourcesAgree(have: unknown, p: Loose): boolean {
  if (!Array.isArray(have)) return false;
  const all: Loose[] = [];
  const buckets: Bucket[] = [];
  for (const [bucket, field] of BUCKETS) {
    const items: unknown = p[field];
    if (!Array.isArray(items)) return false;
    for (let i = 0; i < items.length; i++) {
      const s: unknown = items[i];
      if (typeof s !== 'object' || s === null || typeof (s as Loose).sourceId !== 'string') return false;
      all.push(s as Loose);
      buckets.push(bucket);
    }
  }
  if (have.length !== all.length) return false;
  const order = all.map((_, i) => i);
  // Array.prototype.sort is stable, as the derivation's sort; the index makes ties explicit.
  order.sort((a, b) => {
    const x = all[a]!.sourceId as string;
    const y = all[b]!.sourceId as string;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  for (let i = 0; i < order.length; i++) {
    const h: unknown = have[i];
    if (!hasKeys(h, SOURCE_KEYS)) return false;
    const s = all[order[i]!]!;
    const bucket = buckets[order[i]!]!;
    const mandatory = bucket === 'baseline' || bucket === 'selected' ? s.mandatory : false;
    if (
      !same(h.sourceId, s.sourceId) ||
      !same(h.bucket, bucket) ||
      !same(h.kind, s.kind) ||
      !same(h.mandatory, mandatory) ||
      !same(h.authority, s.authority) ||
      !same(h.reasonCode, s.reasonCode) ||
      !same(h.sourceLayer, s.sourceLayer) ||
      !same(h.requiredToExist, s.requiredToExist)
    )
      return false;
    const refs: unknown = s.sourceRefs;
    const digests: unknown = h.metadataDigests;
    if (!Array.isArray(refs) || !Array.isArray(digests) || digests.length !== refs.length) return false;
    for (let j = 0; j < refs.length; j++)
      if (!same(digests[j], (refs[j] as Loose).metadataDigest)) return false;
  }
  return true;
}

/** The members of identityInputs in the derivation's order, each with its in-place check. */
const IDENTITY_MEMBERS: ReadonlyArray<[string, Agrees]> = [
  [
    'target',
    (h, p) =>
      hasKeys(h, TARGET_KEYS) &&
      same(h.activeRoot, p.identity.activeRoot) &&
      same(h.project, p.identity.project) &&
      same(h.host, p.identity.host),
  ],
  [
    'intent',
    (h, p) => {
      if (!hasKeys(h, INTENT_KEYS) || !hasKeys(h.actionEnvelope, ENVELOPE_KEYS)) return false;
      const seed = p.identity.intentSeed;
      const envelope = p.actionEnvelope;
      return (
        same(h.finalIntent, p.identity.finalIntent) &&
        same(h.riskHint, seed.riskHint) &&
        same(h.confidenceClass, seed.confidence < 0.6 ? 'low' : 'normal') &&
        sameSorted(h.changeTypes, p.changeTypes) &&
        sameSorted(h.actionEnvelope.allowedActionClasses, envelope.allowedActionClasses) &&
        same(h.actionEnvelope.mutationExpected, envelope.mutationExpected) &&
        same(h.actionEnvelope.riskCeiling, envelope.riskCeiling)
      );
    },
  ],
  ['baselineDigest', (h, p) => same(h, p.baselineDigest)],
  ['sources', sourcesAgree],
  [
    'resolution',
    (h, p) =>
      hasKeys(h, RESOLUTION_KEYS) &&
      sameSorted(h.mandatorySourceIds, p.mandatorySourceIds) &&
      sameSorted(h.triggeredEscalations, p.triggeredEscalations) &&
      same(h.exitCondition, p.exitCondition) &&
      same(h.fullRead, p.fullRead) &&
      same(h.fullReadReason, p.fullReadReason) &&
      same(h.localSourcesRequested, p.localSourcesRequested),
  ],
  [
    'versions',
    (h, p) =>
      hasKeys(h, VERSIONS_KEYS) &&
      same(h.contextPlan, 'ContextReadPlanV2') &&
      same(h.contextReceipt, 'ContextReadReceiptV2') &&
      same(h.contentIdentity, 'ContentIdentityV1') &&
      same(h.contextBinding, 'ContextReadBindingV1') &&
      same(h.planner, p.identity.planner),
  ],
];

/** Names of the members {@link IDENTITY_MEMBERS} checks, for the test that holds them to the derivation's. */
export const IDENTITY_INPUTS_MEMBERS: readonly string[] = IDENTITY_MEMBERS.map(([m]) => m);

function agreesInPlace(agrees: Agrees, have: unknown, p: ContextReadPlanV2): boolean {
  try {
    return agrees(have, p as unknown as Loose);
  } catch {
    return false;
  }
}

const MEMORY_REF_FORM =
  'exactly one ref { path: "memory://<project>/<query>", layer: "memory-query", exists: true, size: null, mtimeMs: null }';

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV2: rules, in invariant order
// ---------------------------------------------------------------------------------------------

const PLAN_V2_RULES: SemanticRule[] = [
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_EPOCH_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 1: identity.contextEpoch equals identity.intentSeed.contextEpoch.',
    (p, report) => {
      if (p.identity.contextEpoch !== p.identity.intentSeed.contextEpoch)
        report(
          '/identity/contextEpoch',
          `identity.contextEpoch ${describeValue(p.identity.contextEpoch)} differs from the embedded seed's contextEpoch ${describeValue(p.identity.intentSeed.contextEpoch)}; plan again from the current seed.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_INTENT_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 2: identity.finalIntent equals identity.intentSeed.semantic (D-CTX-11).',
    (p, report) => {
      if (p.identity.finalIntent !== p.identity.intentSeed.semantic)
        report(
          '/identity/finalIntent',
          `finalIntent ${JSON.stringify(p.identity.finalIntent)} differs from the seed's semantic ${JSON.stringify(p.identity.intentSeed.semantic)}; form a new seed for the new intent, then plan.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_PLAN_CHRONOLOGY_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 3: plannedAt is not before identity.intentSeed.createdAt.',
    (p, report) => {
      if (timeKey(p.plannedAt) < timeKey(p.identity.intentSeed.createdAt))
        report(
          '/plannedAt',
          `plannedAt ${p.plannedAt} is before the seed's createdAt ${p.identity.intentSeed.createdAt}; form the seed first, then plan again.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_CHANGE_TYPES_REQUIRED',
    V2,
    V2_INVARIANTS,
    'Invariant 4: changeTypes is non-empty unless finalIntent is chat or resume, or the plan is (by derivation) a full read.',
    (p, report) => {
      const exempt = p.identity.finalIntent === 'chat' || p.identity.finalIntent === 'resume';
      if (p.changeTypes.length === 0 && !exempt && !derivedFullRead(p))
        report(
          '/changeTypes',
          `changeTypes is empty on a targeted ${JSON.stringify(p.identity.finalIntent)} plan; provide the change types the message asks for, or an explicit full-read request.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_PLAN_NOT_CANONICAL',
    V2,
    V2_INVARIANTS,
    'Invariant 5: the id and enumeration arrays are sorted and unique, each bucket is sorted by sourceId, and each sourceRefs array is sorted and unique by layer + ":" + path.',
    (p, report) => {
      const strict = (path: string, xs: readonly string[]) => {
        for (let i = 1; i < xs.length; i++) {
          if (!(xs[i - 1]! < xs[i]!)) {
            report(
              `${path}/${i}`,
              `${path} must be sorted ascending (UTF-16 code units) and unique, but item ${i} ${describeValue(xs[i])} ${xs[i - 1] === xs[i] ? 'repeats' : 'sorts before'} item ${i - 1} ${describeValue(xs[i - 1])}; sort and de-duplicate it, then recompute the ids.`,
            );
            return;
          }
        }
      };
      strict('/changeTypes', p.changeTypes);
      strict('/actionEnvelope/allowedActionClasses', p.actionEnvelope.allowedActionClasses);
      strict('/triggeredEscalations', p.triggeredEscalations);
      strict('/mandatorySourceIds', p.mandatorySourceIds);
      strict('/candidateCoverage/cataloguedIds', p.candidateCoverage.cataloguedIds);
      strict('/candidateCoverage/inventoryIds', p.candidateCoverage.inventoryIds);
      for (const [, field] of BUCKETS) {
        const items = p[field] as unknown as Array<{ sourceId: string }>;
        for (let i = 1; i < items.length; i++) {
          if (items[i - 1]!.sourceId > items[i]!.sourceId) {
            report(
              `/${field}/${i}/sourceId`,
              `${field} must be sorted by sourceId, but ${describeValue(items[i]!.sourceId)} sorts before ${describeValue(items[i - 1]!.sourceId)}; sort the bucket, then recompute the ids.`,
            );
            break;
          }
        }
      }
      for (const s of sourcesOf(p)) {
        const keys = s.sourceRefs.map((r) => `${r.layer}:${r.path}`);
        strict(`${s.pointer}/sourceRefs`, keys);
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_ACTION_ENVELOPE_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 7: actionEnvelope equals its derivation from finalIntent, changeTypes and the seed riskHint.',
    (p, report) =>
      checkActionEnvelope(
        p.actionEnvelope,
        p.identity.finalIntent,
        p.changeTypes,
        p.identity.intentSeed.riskHint,
        report,
      ),
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_CANDIDATE_COVERAGE_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 8: the four buckets are disjoint, their profile ids equal cataloguedIds ∪ inventoryIds, only inventory-only ids are unclassified, an inventory-only id is unclassified, explicitly selected or excluded as metadata-only, and authority is profile-catalog iff the id is catalogued.',
    (p, report) => {
      const catalogued = new Set(p.candidateCoverage.cataloguedIds);
      const inventory = new Set(p.candidateCoverage.inventoryIds);
      const sources = sourcesOf(p);
      const first = new Map<string, SourceView>();
      // a. disjoint buckets, no id twice
      for (const s of sources) {
        const prior = first.get(s.sourceId);
        if (prior) {
          report(
            `${s.pointer}/sourceId`,
            `${s.sourceId} is already in the ${prior.bucket} bucket (${prior.pointer}); put every candidate in exactly one bucket, once.`,
          );
        } else first.set(s.sourceId, s);
      }
      // b. the profile ids of the buckets equal the candidate universe
      const profileIds = new Set(
        sources.filter((s) => s.sourceId.startsWith('profile:')).map((s) => s.sourceId),
      );
      p.candidateCoverage.cataloguedIds.forEach((id, i) => {
        if (!profileIds.has(id))
          report(
            `/candidateCoverage/cataloguedIds/${i}`,
            `catalogued candidate ${id} is in no bucket; classify it as baseline, selected, excluded or unclassified.`,
          );
      });
      p.candidateCoverage.inventoryIds.forEach((id, i) => {
        if (!profileIds.has(id) && !catalogued.has(id))
          report(
            `/candidateCoverage/inventoryIds/${i}`,
            `inventory candidate ${id} is in no bucket; an uncatalogued document is unclassified unless explicitly selected or excluded as metadata-only.`,
          );
      });
      for (const s of first.values()) {
        if (s.sourceId.startsWith('profile:') && !catalogued.has(s.sourceId) && !inventory.has(s.sourceId))
          report(
            `${s.pointer}/sourceId`,
            `${s.sourceId} is in the ${s.bucket} bucket but neither in candidateCoverage.cataloguedIds nor in .inventoryIds; record the candidate universe the planner enumerated.`,
          );
      }
      for (const s of first.values()) {
        // c. unclassified ids are inventory-only
        if (s.bucket === 'unclassified' && (catalogued.has(s.sourceId) || !inventory.has(s.sourceId))) {
          report(
            `${s.pointer}/sourceId`,
            `${s.sourceId} is unclassified but ${catalogued.has(s.sourceId) ? 'the catalogue lists it' : 'the inventory does not contain it'}; only documents found in the inventory and absent from the catalogue are unclassified.`,
          );
        }
        // d. inventory-only ids: unclassified, explicitly selected, or excluded as metadata-only
        if (inventory.has(s.sourceId) && !catalogued.has(s.sourceId)) {
          const ok =
            s.bucket === 'unclassified' ||
            (s.bucket === 'selected' && s.reasonCode === 'explicit-selector') ||
            (s.bucket === 'excluded' && s.reasonCode === 'excluded-metadata-only');
          if (!ok)
            report(
              s.bucket === 'baseline' ? `${s.pointer}/sourceId` : `${s.pointer}/reasonCode`,
              `${s.sourceId} is not in the catalogue, so it must be unclassified (which blocks the plan), selected with explicit-selector, or excluded with excluded-metadata-only; it is in the ${s.bucket} bucket with reasonCode ${JSON.stringify(s.reasonCode)}.`,
            );
        }
        // e. authority follows catalogue membership
        if (
          (s.bucket === 'selected' || s.bucket === 'excluded') &&
          (s.kind === 'profile' || s.kind === 'profile-local')
        ) {
          const want = catalogued.has(s.sourceId) ? 'profile-catalog' : 'profile-inventory';
          if (s.authority !== want)
            report(
              `${s.pointer}/authority`,
              `${s.sourceId} has authority ${JSON.stringify(s.authority)} but must be ${JSON.stringify(want)} (profile-catalog iff the catalogue lists it).`,
            );
        }
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_BASELINE_INCOMPLETE',
    V2,
    V2_INVARIANTS,
    'Invariant 9: the baseline holds one baseline-readme source with authority lossless-plan-baseline and one baseline-config source with effective-non-local-config, each with an existing ref.',
    (p, report) => {
      const pairs: Record<string, string> = {
        'baseline-readme': 'lossless-plan-baseline',
        'baseline-config': 'effective-non-local-config',
      };
      const seen = new Set<string>();
      p.baselineSources.forEach((s, i) => {
        if (seen.has(s.reasonCode))
          report(
            `/baselineSources/${i}/reasonCode`,
            `both baseline sources have reasonCode ${JSON.stringify(s.reasonCode)}; the baseline is the index (baseline-readme) and the effective configuration (baseline-config).`,
          );
        seen.add(s.reasonCode);
        if (s.authority !== pairs[s.reasonCode])
          report(
            `/baselineSources/${i}/authority`,
            `the ${s.reasonCode} source has authority ${JSON.stringify(s.authority)} but must have ${JSON.stringify(pairs[s.reasonCode])}.`,
          );
        if (!s.sourceRefs.some((r) => r.exists))
          report(
            `/baselineSources/${i}/sourceRefs`,
            `baseline source ${s.sourceId} has no ref with exists: true; deliver both baseline sources from existing files.`,
          );
      });
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_SOURCE_DESCRIPTOR_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 11: kind is memory iff the id is memory:*; a memory source has authority bounded-memory-query, its memory reason code and exactly one memory ref for identity.project; memory reason codes are used by memory sources only; sourceLayer is the distinct ref layers joined with "+"; intent-change-type needs non-empty changeTypes.',
    (p, report) => {
      for (const s of sourcesOf(p)) {
        const layer = derivedSourceLayer(s);
        if (s.sourceLayer !== layer)
          report(
            `${s.pointer}/sourceLayer`,
            `sourceLayer ${describeValue(s.sourceLayer)} must be the distinct layers of sourceRefs in ref order joined with "+": ${describeValue(layer)}.`,
          );
        if (s.bucket !== 'selected') continue;
        const isMemoryId = s.sourceId.startsWith('memory:');
        if ((s.kind === 'memory') !== isMemoryId) {
          report(
            `${s.pointer}/kind`,
            `${s.sourceId} has kind ${JSON.stringify(s.kind)}; kind is memory exactly for memory:* ids.`,
          );
          continue;
        }
        if (isMemoryId) {
          const query = s.sourceId.slice('memory:'.length);
          if (s.authority !== 'bounded-memory-query')
            report(
              `${s.pointer}/authority`,
              `memory source ${s.sourceId} has authority ${JSON.stringify(s.authority)}; memory is read only through bounded-memory-query.`,
            );
          const reason = query === 'status' ? 'memory-status' : 'memory-session';
          if (s.reasonCode !== reason)
            report(
              `${s.pointer}/reasonCode`,
              `memory source ${s.sourceId} must have reasonCode ${JSON.stringify(reason)}, not ${JSON.stringify(s.reasonCode)}.`,
            );
          const r = s.sourceRefs[0];
          const ok =
            s.sourceRefs.length === 1 &&
            r !== undefined &&
            r.path === `memory://${p.identity.project}/${query}` &&
            r.layer === 'memory-query' &&
            r.exists === true &&
            r.size === null &&
            r.mtimeMs === null;
          if (!ok)
            report(
              `${s.pointer}/sourceRefs`,
              `memory source ${s.sourceId} must have ${MEMORY_REF_FORM} with <project> = ${JSON.stringify(p.identity.project)} and <query> = ${JSON.stringify(query)}.`,
            );
        } else if (s.reasonCode === 'memory-status' || s.reasonCode === 'memory-session') {
          report(
            `${s.pointer}/reasonCode`,
            `${s.sourceId} is not a memory source but has reasonCode ${JSON.stringify(s.reasonCode)}; use the reason the document was selected for.`,
          );
        }
        if (s.reasonCode === 'intent-change-type' && p.changeTypes.length === 0)
          report(
            `${s.pointer}/reasonCode`,
            `${s.sourceId} is selected for intent-change-type but changeTypes is empty; select it explicitly or record the change types.`,
          );
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_MEMORY_QUERIES_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 12: memory:status is always selected and mandatory; a resume plan also selects memory:session (mandatory) and memory:summary (not mandatory); other plans select neither.',
    (p, report) => {
      const resume = p.identity.finalIntent === 'resume';
      const want = new Map<string, boolean>([['memory:status', true]]);
      if (resume) {
        want.set('memory:session', true);
        want.set('memory:summary', false);
      }
      const found = new Set<string>();
      p.selectedSources.forEach((s, i) => {
        if (!s.sourceId.startsWith('memory:')) return;
        found.add(s.sourceId);
        const mandatory = want.get(s.sourceId);
        if (mandatory === undefined)
          report(
            `/selectedSources/${i}/sourceId`,
            `${s.sourceId} is selected but only ${resume ? 'memory:status, memory:session and memory:summary are' : 'memory:status is'} selected for finalIntent ${JSON.stringify(p.identity.finalIntent)}; remove it.`,
          );
        else if (s.mandatory !== mandatory)
          report(
            `/selectedSources/${i}/mandatory`,
            `${s.sourceId} must be ${mandatory ? 'mandatory' : 'optional (mandatory: false)'}.`,
          );
      });
      for (const id of want.keys())
        if (!found.has(id))
          report(
            '/selectedSources',
            `${id} is missing from selectedSources; ${id === 'memory:status' ? 'every plan selects it' : 'a resume plan selects it'} (a bounded memory query).`,
          );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_MANDATORY_SOURCES_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 13: every selected profile/profile-local source is mandatory, and mandatorySourceIds is the sorted ids of the mandatory baseline and selected sources.',
    (p, report) => {
      p.selectedSources.forEach((s, i) => {
        if ((s.kind === 'profile' || s.kind === 'profile-local') && !s.mandatory)
          report(
            `/selectedSources/${i}/mandatory`,
            `selected ${s.kind} source ${s.sourceId} must be mandatory; a Profile document is selected only when it must be read.`,
          );
      });
      const want = sorted(
        [...p.baselineSources, ...p.selectedSources].filter((s) => s.mandatory).map((s) => s.sourceId),
      );
      if (!sameSet(p.mandatorySourceIds, want)) {
        const extra = p.mandatorySourceIds.filter((id) => !want.includes(id));
        const missing = want.filter((id) => !p.mandatorySourceIds.includes(id));
        report(
          '/mandatorySourceIds',
          `mandatorySourceIds must be the ids of the mandatory baseline and selected sources (missing: ${list(missing)}; not mandatory or unknown: ${list(extra)}); recompute it.`,
        );
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_FULL_READ_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 14: fullRead is true iff a full-read reason applies, and fullReadReason is the first applicable reason in precedence order (or null).',
    (p, report) => {
      const reasons = fullReadReasons(p);
      const fullRead = reasons.length > 0;
      const reason = reasons[0] ?? null;
      if (p.fullRead !== fullRead)
        report(
          '/fullRead',
          fullRead
            ? `fullRead is false but ${list(reasons)} ${reasons.length > 1 ? 'apply' : 'applies'}; a plan with a full-read reason (e.g. a low-confidence seed) must be a full read.`
            : 'fullRead is true but no full-read reason applies (explicit request, audit intent, low confidence, cross-service, release, security or destructive change); derive fullRead from its reasons.',
        );
      if (p.fullReadReason !== reason)
        report(
          '/fullReadReason',
          `fullReadReason is ${describeValue(p.fullReadReason)} but the first applicable reason is ${describeValue(reason)}; record the first applicable reason in precedence order, or null when none applies.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_FULL_REASON_REQUIRED',
    V2,
    V2_INVARIANTS,
    'Invariant 15: fullReadNote is non-null iff fullReadReason is explicit-request.',
    (p, report) => {
      const explicit = p.fullReadReason === 'explicit-request';
      if (explicit && p.fullReadNote === null)
        report(
          '/fullReadNote',
          'fullReadReason is explicit-request but fullReadNote is null; record the words of the user or project that asked for the full read.',
        );
      else if (!explicit && p.fullReadNote !== null)
        report(
          '/fullReadNote',
          `fullReadNote is set but fullReadReason is ${describeValue(p.fullReadReason)}; a note records an explicit request, whose reason is explicit-request.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_SELECTION_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 16: a full read excludes profile documents only as metadata-only and selects Profile documents by full-read or explicit-selector; a targeted plan uses no full-read reason; a targeted chat plan selects Profile documents only by explicit-selector.',
    (p, report) => {
      const fullRead = derivedFullRead(p);
      p.selectedSources.forEach((s, i) => {
        if (s.kind !== 'profile' && s.kind !== 'profile-local') return;
        if (fullRead && s.reasonCode !== 'full-read' && s.reasonCode !== 'explicit-selector')
          report(
            `/selectedSources/${i}/reasonCode`,
            `on a full read ${s.sourceId} must be selected with full-read or explicit-selector, not ${JSON.stringify(s.reasonCode)}.`,
          );
        if (!fullRead && s.reasonCode === 'full-read')
          report(
            `/selectedSources/${i}/reasonCode`,
            `${s.sourceId} is selected with full-read but the plan is not a full read; use the reason it was selected for.`,
          );
        if (!fullRead && p.identity.finalIntent === 'chat' && s.reasonCode !== 'explicit-selector')
          report(
            `/selectedSources/${i}/reasonCode`,
            `a targeted chat plan selects no Profile document except by explicit-selector, but ${s.sourceId} is selected with ${JSON.stringify(s.reasonCode)}.`,
          );
      });
      if (fullRead)
        p.excludedSources.forEach((s, i) => {
          if (s.kind === 'profile' && s.reasonCode !== 'excluded-metadata-only')
            report(
              `/excludedSources/${i}/reasonCode`,
              `on a full read every readable document is selected, but ${s.sourceId} is excluded with ${JSON.stringify(s.reasonCode)}; select it, or exclude it only as excluded-metadata-only.`,
            );
        });
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_LOCAL_SOURCE_NOT_REQUESTED',
    V2,
    V2_INVARIANTS,
    'Invariant 17: a selected profile-local source needs localSourcesRequested; without it every profile-local candidate is excluded with excluded-local-policy; excluded-local-policy is used for profile-local candidates only.',
    (p, report) => {
      if (!p.localSourcesRequested)
        p.selectedSources.forEach((s, i) => {
          if (s.kind === 'profile-local')
            report(
              `/selectedSources/${i}`,
              `machine-local source ${s.sourceId} is selected but localSourcesRequested is false; exclude it with excluded-local-policy unless the user or project asked for local sources.`,
            );
        });
      p.excludedSources.forEach((s, i) => {
        if (
          s.kind === 'profile-local' &&
          !p.localSourcesRequested &&
          s.reasonCode !== 'excluded-local-policy'
        )
          report(
            `/excludedSources/${i}/reasonCode`,
            `machine-local source ${s.sourceId} was not requested, so it is excluded with excluded-local-policy, not ${JSON.stringify(s.reasonCode)}.`,
          );
        if (s.kind !== 'profile-local' && s.reasonCode === 'excluded-local-policy')
          report(
            `/excludedSources/${i}/reasonCode`,
            `${s.sourceId} is a ${s.kind} source; excluded-local-policy applies to profile-local sources only.`,
          );
      });
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_SKIP_REASON_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 18: skipReason, trimmed and compared case-insensitively, is neither "not needed" nor "暂不需要".',
    (p, report) => {
      p.excludedSources.forEach((s, i) => {
        if (isPlaceholderSkipReason(s.skipReason))
          report(
            `/excludedSources/${i}/skipReason`,
            `skipReason ${describeValue(s.skipReason)} is a placeholder; state why ${s.sourceId} is not needed for this plan.`,
          );
      });
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_ESCALATIONS_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 19: each planner-derived trigger (low-confidence, explicit-full, public-contract, release, security, destructive, profile-catalog-drift, missing-reference) is in triggeredEscalations iff its condition holds.',
    (p, report) => {
      for (const [trigger, holds, why] of derivedTriggers(p)) {
        const present = p.triggeredEscalations.includes(trigger);
        if (present !== holds)
          report(
            '/triggeredEscalations',
            holds
              ? `triggeredEscalations lacks ${trigger} although ${why}; add it.`
              : `triggeredEscalations contains ${trigger} but its condition (${why}) does not hold; remove it.`,
          );
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_EXIT_CONDITION_MISMATCH',
    V2,
    V2_INVARIANTS,
    'Invariant 20: exitCondition is blocked when a candidate is unclassified or a required source is missing, else escalated-full on a full read, else relevant-complete.',
    (p, report) => {
      const want = derivedExitCondition(p);
      if (p.exitCondition !== want) {
        const why =
          want === 'blocked'
            ? p.unclassifiedSources.length > 0
              ? `${p.unclassifiedSources.length} candidate(s) are unclassified`
              : `required source ${missingRequired(p)[0]?.sourceId} has no existing ref`
            : want === 'escalated-full'
              ? 'the plan is a full read'
              : 'the plan is a targeted read with every candidate classified';
        report(
          '/exitCondition',
          `exitCondition is ${JSON.stringify(p.exitCondition)} but must be ${JSON.stringify(want)} because ${why}; a blocked plan stays blocked until a new plan classifies every candidate.`,
        );
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_CACHE_DECISION_INVALID',
    V2,
    V2_INVARIANTS,
    'Invariant 21: cacheDecision.cacheKey equals planContentId, and reusedArtifacts is non-empty iff status is hit.',
    (p, report) => {
      const c = p.cacheDecision;
      if (c.cacheKey !== p.planContentId)
        report(
          '/cacheDecision/cacheKey',
          `cacheKey ${describeValue(c.cacheKey)} must equal planContentId ${describeValue(p.planContentId)}; record the cache decision of this content.`,
        );
      const hit = c.status === 'hit';
      if (hit !== c.reusedArtifacts.length > 0)
        report(
          '/cacheDecision/reusedArtifacts',
          hit
            ? 'cacheDecision.status is hit but reusedArtifacts is empty; list the computation artifacts taken from the cache.'
            : `cacheDecision.status is ${JSON.stringify(c.status)} but reusedArtifacts is not empty; only a hit reuses artifacts.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTEXT_IDENTITY_INPUTS_MISMATCH',
    V2,
    V2_INVARIANTS,
    "Invariant 22: identityInputs equals its derivation from the plan's other fields, compared as digestOf values (reported per member).",
    (p, report) => {
      const have = p.identityInputs as unknown as Record<string, unknown>;
      let want: Record<string, unknown> | undefined;
      for (const [member, agrees] of IDENTITY_MEMBERS) {
        // Equal digestOf values are equal JCS texts: compare the texts and skip the hashing. The
        // document's text comes first (and usually from the planContentId digest's memo); when
        // it exists, a derivation equal to it as JSON data has the same text, so only a differing
        // derivation is serialised. A member that agrees with the plan's fields read in place is
        // equal to its derivation, which is then never built.
        const value = have[member] ?? null;
        const haveText = canonicalize(value);
        if (agreesInPlace(agrees, value, p)) continue;
        want ??= deriveContextPlanIdentityInputs(p) as unknown as Record<string, unknown>;
        if (jsonEqual(value, want[member])) continue;
        if (haveText !== canonicalize(want[member]))
          report(
            `/identityInputs/${member}`,
            `identityInputs.${member} differs from its derivation from the plan's fields; rebuild identityInputs from the plan (deriveContextPlanIdentityInputs), then recompute planContentId and planId.`,
          );
      }
    },
  ),
  reportingRule<ContextReadPlanV2>(
    'CONTENT_SOURCE_KEY_NOT_NORMALIZED',
    V2,
    CONTENT_INVARIANTS,
    'ContentIdentityV1 invariant 1, for the identities a plan embeds: each baseline contentIdentity.sourceKey equals its NFKC form.',
    (p, report) => {
      p.baselineSources.forEach((s, i) => {
        if (notNfkc(s.contentIdentity.sourceKey))
          report(`/baselineSources/${i}/contentIdentity/sourceKey`, nfkcMessage(s.contentIdentity.sourceKey));
      });
    },
  ),
];

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV1 (read-only compatibility): the invariants a V1 reader checks
// ---------------------------------------------------------------------------------------------

/** `<file>` of a free-form V1 catalogue or inventory entry: `file`, else `name`, else `selector`. */
function v1EntryFile(entry: Record<string, unknown>): string | undefined {
  for (const key of ['file', 'name', 'selector']) {
    const v = entry[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

const PLAN_V1_RULES: SemanticRule[] = [
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_EPOCH_MISMATCH',
    V1,
    V1_INVARIANTS,
    'V1 invariant 1: identity.contextEpoch equals identity.intentSeed.contextEpoch.',
    (p, report) => {
      if (p.identity.contextEpoch !== p.identity.intentSeed.contextEpoch)
        report(
          '/identity/contextEpoch',
          `identity.contextEpoch ${describeValue(p.identity.contextEpoch)} differs from the embedded seed's contextEpoch ${describeValue(p.identity.intentSeed.contextEpoch)}; the V1 plan does not belong to its seed's epoch, plan again as ContextReadPlanV2.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_BASELINE_INCOMPLETE',
    V1,
    V1_INVARIANTS,
    'V1 invariant 3: selectedSources contains profile:README.md and profile:config.json, each of kind profile-baseline and mandatory.',
    (p, report) => {
      for (const id of ['profile:README.md', 'profile:config.json']) {
        const i = p.selectedSources.findIndex((s) => s.sourceId === id);
        const s = p.selectedSources[i];
        if (!s) {
          report(
            '/selectedSources',
            `baseline source ${id} is missing from selectedSources; a V1 plan lists both baseline sources.`,
          );
          continue;
        }
        if (s.kind !== 'profile-baseline')
          report(
            `/selectedSources/${i}/kind`,
            `baseline source ${id} has kind ${JSON.stringify(s.kind)}; it must be profile-baseline.`,
          );
        if (!s.mandatory)
          report(`/selectedSources/${i}/mandatory`, `baseline source ${id} must be mandatory.`);
      }
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_ACTIVE_TARGET_MISMATCH',
    V1,
    V1_INVARIANTS,
    'V1 invariant 3: baselineContext.project equals identity.project.',
    (p, report) => {
      if (p.baselineContext.project !== p.identity.project)
        report(
          '/baselineContext/project',
          `the baseline belongs to project ${describeValue(p.baselineContext.project)} but the plan targets ${describeValue(p.identity.project)}; resolve the target and plan again as ContextReadPlanV2.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_MANDATORY_SOURCES_MISMATCH',
    V1,
    V1_INVARIANTS,
    'V1 invariant 4: mandatorySourceIds equals the sorted ids of the mandatory selected sources.',
    (p, report) => {
      const want = sorted(p.selectedSources.filter((s) => s.mandatory).map((s) => s.sourceId));
      if (!sameList(p.mandatorySourceIds, want))
        report(
          '/mandatorySourceIds',
          `mandatorySourceIds must be the sorted ids of the mandatory selected sources: ${list(want)}.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_CANDIDATE_COVERAGE_INVALID',
    V1,
    V1_INVARIANTS,
    'V1 invariant 5: catalogCoverage classes are disjoint, excludedIds are the excluded sources, selectedIds are selected sources, and their union is the profile ids of baselineContext.catalog ∪ .inventory.',
    (p, report) => {
      const { selectedIds, excludedIds, unclassifiedIds } = p.catalogCoverage;
      const classes: Array<[string, string[]]> = [
        ['selectedIds', selectedIds],
        ['excludedIds', excludedIds],
        ['unclassifiedIds', unclassifiedIds],
      ];
      const owner = new Map<string, string>();
      for (const [name, ids] of classes)
        ids.forEach((id, i) => {
          const prior = owner.get(id);
          if (prior)
            report(
              `/catalogCoverage/${name}/${i}`,
              `${id} is in both catalogCoverage.${prior} and .${name}; the classes are disjoint.`,
            );
          else owner.set(id, name);
        });
      const excluded = p.excludedSources.map((s) => s.sourceId);
      if (!sameSet(excludedIds, excluded))
        report(
          '/catalogCoverage/excludedIds',
          `catalogCoverage.excludedIds must be the ids of excludedSources (${list(sorted(excluded))}).`,
        );
      const selected = new Set(p.selectedSources.map((s) => s.sourceId));
      selectedIds.forEach((id, i) => {
        if (!selected.has(id))
          report(
            `/catalogCoverage/selectedIds/${i}`,
            `${id} is in catalogCoverage.selectedIds but not in selectedSources.`,
          );
      });
      const universe = new Set<string>();
      for (const entry of [...p.baselineContext.catalog, ...p.baselineContext.inventory]) {
        const file = v1EntryFile(entry);
        if (file !== undefined) universe.add(`profile:${file}`);
      }
      const covered = new Set(owner.keys());
      const missing = [...universe].filter((id) => !covered.has(id));
      const extra = [...covered].filter((id) => !universe.has(id));
      if (missing.length || extra.length)
        report(
          '/catalogCoverage',
          `the catalogCoverage classes must cover exactly the catalogue and inventory candidates (not covered: ${list(sorted(missing))}; not candidates: ${list(sorted(extra))}).`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_EXIT_CONDITION_MISMATCH',
    V1,
    V1_INVARIANTS,
    'V1 invariant 6: unclassified candidates require blocked; a full read is escalated-full or blocked; a targeted plan is never escalated-full.',
    (p, report) => {
      const e = p.exitCondition;
      let want: string | undefined;
      if (p.catalogCoverage.unclassifiedIds.length > 0 && e !== 'blocked')
        want = 'blocked (candidates are unclassified)';
      else if (p.fullRead && e === 'relevant-complete')
        want = 'escalated-full or blocked (the plan is a full read)';
      else if (!p.fullRead && e === 'escalated-full')
        want = 'relevant-complete or blocked (the plan is targeted)';
      if (want) report('/exitCondition', `exitCondition ${JSON.stringify(e)} must be ${want}.`);
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_FULL_REASON_REQUIRED',
    V1,
    V1_INVARIANTS,
    'V1 invariant 7: fullReadReason is non-empty iff fullRead.',
    (p, report) => {
      const hasReason = p.fullReadReason !== null && p.fullReadReason.trim() !== '';
      if (p.fullRead !== hasReason)
        report(
          '/fullReadReason',
          p.fullRead
            ? 'fullRead is true but fullReadReason is empty; a full read records why.'
            : `fullReadReason is ${describeValue(p.fullReadReason)} but fullRead is false; it must be null.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_SELECTION_INVALID',
    V1,
    V1_INVARIANTS,
    'V1 invariant 8: profile.selectedFiles and memory.requiredQueries are the sorted selectors of the selected Profile and mandatory memory sources; a selected local configuration requires profile.configLocalRequested.',
    (p, report) => {
      const files = sorted(
        p.selectedSources
          .filter((s) => s.kind === 'profile' || s.kind === 'profile-local')
          .map((s) => s.selector),
      );
      if (!sameList(p.profile.selectedFiles, files))
        report(
          '/profile/selectedFiles',
          `profile.selectedFiles must be the sorted selectors of the selected profile and profile-local sources: ${list(files)}.`,
        );
      const queries = sorted(
        p.selectedSources.filter((s) => s.kind === 'memory' && s.mandatory).map((s) => s.selector),
      );
      if (!sameList(p.memory.requiredQueries, queries))
        report(
          '/memory/requiredQueries',
          `memory.requiredQueries must be the sorted selectors of the mandatory memory sources: ${list(queries)}.`,
        );
      if (!p.profile.configLocalRequested)
        p.selectedSources.forEach((s, i) => {
          if (s.kind === 'profile-local' || s.selector === 'config.local.json')
            report(
              `/selectedSources/${i}`,
              `machine-local source ${s.sourceId} is selected but profile.configLocalRequested is false.`,
            );
        });
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_PLAN_INVALID',
    V1,
    V1_INVARIANTS,
    'V1 invariant 9: budget.advisory equals not budget.force.',
    (p, report) => {
      if (p.budget.advisory === p.budget.force)
        report(
          '/budget/advisory',
          `budget.advisory is ${p.budget.advisory} and budget.force is ${p.budget.force}; advisory must be the negation of force.`,
        );
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_SKIP_REASON_INVALID',
    V1,
    V1_INVARIANTS,
    'V1 invariant 10: skipReason, trimmed and compared case-insensitively, is neither "not needed" nor "暂不需要".',
    (p, report) => {
      p.excludedSources.forEach((s, i) => {
        if (isPlaceholderSkipReason(s.skipReason))
          report(
            `/excludedSources/${i}/skipReason`,
            `skipReason ${describeValue(s.skipReason)} is a placeholder; a V1 plan that cannot say why ${s.sourceId} was skipped is not evidence.`,
          );
      });
    },
  ),
  reportingRule<ContextReadPlanV1>(
    'CONTEXT_ACTION_ENVELOPE_MISMATCH',
    V1,
    V1_INVARIANTS,
    'V1 invariant 11: actionEnvelope equals the V2 derivation from finalIntent, changeTypes and the seed riskHint.',
    (p, report) =>
      checkActionEnvelope(
        p.actionEnvelope,
        p.identity.finalIntent,
        p.changeTypes,
        p.identity.intentSeed.riskHint,
        report,
      ),
  ),
];

/** Semantic rules of this area's contracts (one per contract and code), in spec order. */
export const CONTEXT_ACQUISITION_RULES: readonly SemanticRule[] = [
  ...CONTENT_IDENTITY_RULES,
  ...PLAN_V2_RULES,
  ...PLAN_V1_RULES,
];

/** Cross-document rules of this area's bundle kinds (the acquisition chain lives with the receipts). */
export const CONTEXT_ACQUISITION_BUNDLE_RULES: readonly BundleRule[] = [];
