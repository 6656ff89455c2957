// The in-place check of ContextReadPlanV2.identityInputs that CONTEXT_IDENTITY_INPUTS_MISMATCH
// (plan-v2-resolution.ts) runs before it builds the derivation.
import type { ContextReadPlanV2 } from '@agent-contracts/schemas';
import { BUCKETS, type Bucket } from './plan-v2-derive.js';

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

/** A plan member read unchecked: every check guards what it reads. */
type Loose = Readonly<Record<string, unknown>>;
/** Whether a member `have` of identityInputs equals its derivation from `p`, read in place. */
type Agrees = (have: unknown, p: ContextReadPlanV2) => boolean;

/** identityInputs.sources against the four buckets, in the derivation's stable order by sourceId. */
function sourcesAgree(have: unknown, p: ContextReadPlanV2): boolean {
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
export const IDENTITY_MEMBERS: ReadonlyArray<[string, Agrees]> = [
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

/** `agrees` on the plan read in place; `false` when it throws (the rule then builds the derivation). */
export function agreesInPlace(agrees: Agrees, have: unknown, p: ContextReadPlanV2): boolean {
  try {
    return agrees(have, p);
  } catch {
    return false;
  }
}
