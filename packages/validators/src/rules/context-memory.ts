// Semantic rules of ContextMemoryModelV1 (docs/spec/context-memory-state-gate.md). Identity and
// digest (invariants 1 and 2) are DigestRules with their own codes in @agent-contracts/schemas;
// invariants 3-12 are below, one rule per code.
import { type ContextMemoryModelV1, FACT_LAYERS, type FactKindRecord } from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { contractRules } from './kit.js';
import type { BundleRule, SemanticRule } from './types.js';

const CONTRACT = 'ContextMemoryModelV1';
const PAGE = 'docs/spec/context-memory-state-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<ContextMemoryModelV1>(CONTRACT, INVARIANTS);

/** One issue per fact-kind record that `bad` selects, at `/factKinds/<i><suffix>`. */
function perRecord(
  m: ContextMemoryModelV1,
  code: string,
  suffix: string,
  bad: (r: FactKindRecord) => string | null,
): Issue[] {
  return m.factKinds.flatMap((r, i) => {
    const message = bad(r);
    return message === null ? [] : [issue(code, `/factKinds/${i}${suffix}`, message)];
  });
}

/** The first record of each fact kind (a later duplicate is MEMORY_MODEL_FACT_KIND_DUPLICATE). */
function byFactKind(m: ContextMemoryModelV1): Map<string, FactKindRecord> {
  const out = new Map<string, FactKindRecord>();
  for (const r of m.factKinds) if (!out.has(r.factKind)) out.set(r.factKind, r);
  return out;
}

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const CONTEXT_MEMORY_RULES: readonly SemanticRule[] = [
  rule('MEMORY_MODEL_FACT_KIND_DUPLICATE', 'No two records name the same fact kind (invariant 3).', (m) => {
    const seen = new Set<string>();
    return m.factKinds.flatMap((r, i) => {
      if (!seen.has(r.factKind)) {
        seen.add(r.factKind);
        return [];
      }
      return [
        issue(
          'MEMORY_MODEL_FACT_KIND_DUPLICATE',
          `/factKinds/${i}`,
          `fact kind "${r.factKind}" has a second record; one fact kind has one source of truth, so merge the records.`,
        ),
      ];
    });
  }),
  rule(
    'MEMORY_MODEL_LAYER_MISSING',
    'The model names at least one fact kind of each layer: state, context, memory and artefact (invariant 4).',
    (m) =>
      FACT_LAYERS.filter((layer) => !m.factKinds.some((r) => r.layer === layer)).map((layer) =>
        issue(
          'MEMORY_MODEL_LAYER_MISSING',
          '/factKinds',
          `no fact kind of layer "${layer}"; say what the system keeps there and where its truth is (a system that keeps nothing there still names what it would be).`,
        ),
      ),
  ),
  rule(
    'MEMORY_MODEL_SOURCE_OF_TRUTH_MISSING',
    'Every fact kind names its source of truth (invariant 5).',
    (m) =>
      perRecord(m, 'MEMORY_MODEL_SOURCE_OF_TRUTH_MISSING', '/sourceOfTruth', (r) =>
        r.sourceOfTruth === null
          ? `fact kind "${r.factKind}" has no source of truth; name the store, file, trace, host API or config its truth is read from.`
          : null,
      ),
  ),
  rule(
    'MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH',
    'No fact kind has a summary as its source of truth (invariant 6).',
    (m) =>
      perRecord(m, 'MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH', '/sourceOfTruth/kind', (r) =>
        r.sourceOfTruth?.kind === 'summary'
          ? `fact kind "${r.factKind}" names a summary as its source of truth; a summary is navigation. Name the place the summary was written from, and list the summary under derivedViews.`
          : null,
      ),
  ),
  rule(
    'MEMORY_MODEL_MEMORY_AS_SOURCE_OF_TRUTH',
    'A memory store is the source of truth only of memory-layer fact kinds (invariant 7).',
    (m) =>
      perRecord(m, 'MEMORY_MODEL_MEMORY_AS_SOURCE_OF_TRUTH', '/sourceOfTruth/kind', (r) =>
        r.sourceOfTruth?.kind === 'memory' && r.layer !== 'memory'
          ? `fact kind "${r.factKind}" of layer "${r.layer}" names memory as its source of truth; memory recalls ${r.layer} facts, it does not own them. Name the ${r.layer === 'artefact' ? 'file' : 'store or trace'} it recalls, and list the memory under derivedViews.`
          : null,
      ),
  ),
  rule('MEMORY_MODEL_FRESHNESS_MISSING', 'Every mutable fact kind has a freshness rule (invariant 8).', (m) =>
    perRecord(m, 'MEMORY_MODEL_FRESHNESS_MISSING', '/freshness', (r) =>
      r.mutable && r.freshness === null
        ? `fact kind "${r.factKind}" is mutable but has no freshness rule; give a max age or the version or digest field to check before a copy is used.`
        : null,
    ),
  ),
  rule(
    'MEMORY_MODEL_SUMMARY_OVERRIDES_SOURCE',
    'When a derived view and the source of truth disagree, the source of truth wins (invariant 9).',
    (m) =>
      perRecord(m, 'MEMORY_MODEL_SUMMARY_OVERRIDES_SOURCE', '/onConflict', (r) =>
        r.onConflict === 'source-of-truth'
          ? null
          : `fact kind "${r.factKind}" lets ${r.onConflict === 'newest' ? 'the newest copy' : 'a derived view'} win over its source of truth; a summary or cache never overrides a source fact. Set onConflict to "source-of-truth" and re-read the source.`,
      ),
  ),
  rule(
    'MEMORY_MODEL_HANDOFF_FACT_KIND_UNKNOWN',
    'Every handoff item names a fact kind of the model (invariant 10).',
    (m) => {
      const known = byFactKind(m);
      return m.handoff.items.flatMap((h, i) =>
        known.has(h.factKind)
          ? []
          : [
              issue(
                'MEMORY_MODEL_HANDOFF_FACT_KIND_UNKNOWN',
                `/handoff/items/${i}/factKind`,
                `handoff item ${i} carries fact kind "${h.factKind}", which the model does not name; add its record (with its source of truth) or remove the item.`,
              ),
            ],
      );
    },
  ),
  rule(
    'MEMORY_MODEL_HANDOFF_SUMMARY_WITHOUT_SOURCE',
    'A handoff that carries a summary of a fact kind also carries a source-ref item of that fact kind (invariant 11).',
    (m) =>
      m.handoff.items.flatMap((h, i) =>
        h.carries === 'summary' &&
        !m.handoff.items.some((o) => o.carries === 'source-ref' && o.factKind === h.factKind)
          ? [
              issue(
                'MEMORY_MODEL_HANDOFF_SUMMARY_WITHOUT_SOURCE',
                `/handoff/items/${i}`,
                `handoff item ${i} carries a summary of "${h.factKind}" without a source-ref item for it; the receiver could only trust the summary. Add the source reference.`,
              ),
            ]
          : [],
      ),
  ),
  rule(
    'MEMORY_MODEL_HANDOFF_UNPINNED',
    'A source-ref or snapshot item of a mutable fact kind carries the version or digest it was taken at (invariant 12).',
    (m) => {
      const known = byFactKind(m);
      return m.handoff.items.flatMap((h, i) =>
        h.carries !== 'summary' && !h.pinned && known.get(h.factKind)?.mutable === true
          ? [
              issue(
                'MEMORY_MODEL_HANDOFF_UNPINNED',
                `/handoff/items/${i}/pinned`,
                `handoff item ${i} (${h.carries} of mutable "${h.factKind}") is not pinned; carry the version or digest it was taken at, so the receiver can check freshness.`,
              ),
            ]
          : [],
      );
    },
  ),
];

/** This area has no cross-document rule. */
export const CONTEXT_MEMORY_BUNDLE_RULES: readonly BundleRule[] = [];
