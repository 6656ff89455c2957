// The rules of the ContextAcquisitionGate's seed and plan contracts
// (docs/spec/context-acquisition-gate.md: ContentIdentityV1, ContextReadPlanV2, ContextReadPlanV1),
// one file per contract (ContextReadPlanV2 in three, by invariant); CONTEXT_ACQUISITION_RULE_FILES
// names the file of each rule. The acquisition chain's bundle rules live with the receipts
// (context-receipts/).
//
// Digest-shaped invariants (planContentId, planId, contextBinding, baselineDigest, metadataDigest)
// are not rules here: their DigestRules carry the spec's codes. Every rule compares a field with
// its derivation from the plan's *inputs* (seed, finalIntent, changeTypes, fullReadNote, the
// buckets and their refs, caller-supplied triggers), never from another derived field, so a single
// wrong field is reported once, by the rule that owns it (D-CTX-23).
import type { BundleRule, SemanticRule } from '../types.js';
import { CONTENT_IDENTITY_RULES } from './content-identity.js';
import { PLAN_V1_RULES } from './plan-v1.js';
import { PLAN_V2_INTENT_RULES } from './plan-v2-intent.js';
import { PLAN_V2_RESOLUTION_RULES } from './plan-v2-resolution.js';
import { PLAN_V2_SOURCE_RULES } from './plan-v2-sources.js';

export { IDENTITY_INPUTS_MEMBERS } from './plan-v2-identity-inputs.js';

/** Semantic rules of this area's contracts (one per contract and code), in spec order. */
export const CONTEXT_ACQUISITION_RULES: readonly SemanticRule[] = [
  ...CONTENT_IDENTITY_RULES,
  ...PLAN_V2_INTENT_RULES,
  ...PLAN_V2_SOURCE_RULES,
  ...PLAN_V2_RESOLUTION_RULES,
  ...PLAN_V1_RULES,
];

/** Cross-document rules of this area's bundle kinds (the acquisition chain lives with the receipts). */
export const CONTEXT_ACQUISITION_BUNDLE_RULES: readonly BundleRule[] = [];

/** The file of this folder that defines each rule, for RULE_FILES (docs/rules.md). */
export const CONTEXT_ACQUISITION_RULE_FILES: ReadonlyArray<
  readonly [string, ReadonlyArray<SemanticRule | BundleRule>]
> = [
  ['context-acquisition/content-identity.ts', CONTENT_IDENTITY_RULES],
  ['context-acquisition/plan-v1.ts', PLAN_V1_RULES],
  ['context-acquisition/plan-v2-intent.ts', PLAN_V2_INTENT_RULES],
  ['context-acquisition/plan-v2-resolution.ts', PLAN_V2_RESOLUTION_RULES],
  ['context-acquisition/plan-v2-sources.ts', PLAN_V2_SOURCE_RULES],
];
