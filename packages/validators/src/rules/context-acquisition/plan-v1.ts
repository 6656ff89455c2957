import type { ContextReadPlanV1 } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import { reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import {
  checkActionEnvelope,
  isPlaceholderSkipReason,
  list,
  sameList,
  sameSet,
  sorted,
  V1,
  V1_INVARIANTS,
} from './shared.js';

/** `<file>` of a free-form V1 catalogue or inventory entry: `file`, else `name`, else `selector`. */
function v1EntryFile(entry: Record<string, unknown>): string | undefined {
  for (const key of ['file', 'name', 'selector']) {
    const v = entry[key];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

/** Semantic rules of ContextReadPlanV1, in invariant order. */
export const PLAN_V1_RULES: readonly SemanticRule[] = [
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
