// Semantic rules of ContextReadPlanV2 (docs/spec/context-acquisition-gate.md#invariants-2),
// invariants 14 to 22: full read, selection, local sources, skip reasons, escalations, exit
// condition, cache decision and identity inputs; and ContentIdentityV1 invariant 1 on the identities
// the plan embeds.
import { canonicalize } from '@agent-contracts/digest';
import { type ContextReadPlanV2, deriveContextPlanIdentityInputs } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import { reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import {
  derivedExitCondition,
  derivedFullRead,
  derivedTriggers,
  fullReadReasons,
  missingRequired,
} from './plan-v2-derive.js';
import { agreesInPlace, IDENTITY_MEMBERS } from './plan-v2-identity-inputs.js';
import {
  CONTENT_INVARIANTS,
  isPlaceholderSkipReason,
  jsonEqual,
  list,
  nfkcMessage,
  notNfkc,
  V2,
  V2_INVARIANTS,
} from './shared.js';

/** Semantic rules of ContextReadPlanV2, invariants 14 to 22 and ContentIdentityV1 invariant 1 on its baseline, in invariant order. */
export const PLAN_V2_RESOLUTION_RULES: readonly SemanticRule[] = [
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
