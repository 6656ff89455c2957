import type { ContextReadPlanV2 } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import { reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { derivedSourceLayer, type SourceView, sourcesOf } from './plan-v2-derive.js';
import { list, sameSet, sorted, V2, V2_INVARIANTS } from './shared.js';

const MEMORY_REF_FORM =
  'exactly one ref { path: "memory://<project>/<query>", layer: "memory-query", exists: true, size: null, mtimeMs: null }';

/** Semantic rules of ContextReadPlanV2, invariants 8 to 13, in invariant order. */
export const PLAN_V2_SOURCE_RULES: readonly SemanticRule[] = [
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
];
