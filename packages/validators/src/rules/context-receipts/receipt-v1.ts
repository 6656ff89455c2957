// Semantic rules of ContextReadReceiptV1, the read-only legacy receipt
// (docs/spec/context-acquisition-gate.md#contextreadreceiptv1).
import type { Issue } from '../../issues.js';
import { issue, semanticRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { FALLBACK_STATUSES, mandatoryOf } from './receipt-v2.js';
import { type LegacyObservation, RECEIPT_V1, type ReceiptV1, sameList, show } from './shared.js';

function derivedV1Lists(r: ReceiptV1): { satisfied: string[]; missing: string[] } {
  const m = mandatoryOf(r);
  if (r.verificationMode !== 'structured-plan' || r.status === 'stale' || r.status === 'blocked')
    return { satisfied: [], missing: m };
  const last = new Map<string, LegacyObservation>();
  for (const o of r.observations) {
    if (o.sourceId !== null && o.outcome !== 'attempted' && o.correlationValid) last.set(o.sourceId, o);
  }
  const ok = (o: LegacyObservation | undefined) =>
    !!o &&
    o.successful &&
    o.observable &&
    o.transportSuccess &&
    o.activeRootMatch &&
    o.sourceRefsMatch &&
    o.schemaMatch &&
    o.targetMatch &&
    (o.outcome === 'observed-success' || o.outcome === 'baseline-ready');
  const satisfied = m.filter((s) => ok(last.get(s)));
  return { satisfied, missing: m.filter((s) => !satisfied.includes(s)) };
}

export const RECEIPT_V1_RULES: SemanticRule[] = [
  semanticRule<ReceiptV1>(
    'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
    'ContextReadReceiptV1',
    RECEIPT_V1,
    'satisfiedSourceIds and missingSourceIds follow the V1 rule (last correlated non-attempt record of each source with every evidence flag true), sorted and disjoint; fallback, stale and blocked receipts satisfy nothing.',
    (r) => {
      const { satisfied, missing } = derivedV1Lists(r);
      const rule = RECEIPT_V1;
      const out: Issue[] = [];
      if (!sameList(r.satisfiedSourceIds, satisfied))
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/satisfiedSourceIds',
            `satisfiedSourceIds is ${show(r.satisfiedSourceIds)} but the V1 rule derives ${show(satisfied)}; recompute, never trust supplied lists.`,
            rule,
          ),
        );
      if (!sameList(r.missingSourceIds, missing))
        out.push(
          issue(
            'CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED',
            '/missingSourceIds',
            `missingSourceIds is ${show(r.missingSourceIds)} but the V1 rule derives ${show(missing)} (sorted, disjoint from satisfied); recompute.`,
            rule,
          ),
        );
      return out;
    },
  ),
  semanticRule<ReceiptV1>(
    'CONTEXT_RECEIPT_FALLBACK_COMPLETE',
    'ContextReadReceiptV1',
    RECEIPT_V1,
    'A path-observable or instruction-only V1 receipt is unverified, stale or blocked, never completed or consumed, and satisfies nothing.',
    (r) => {
      if (r.verificationMode === 'structured-plan') return [];
      const rule = RECEIPT_V1;
      const fail = (path: string, what: string) => [
        issue(
          'CONTEXT_RECEIPT_FALLBACK_COMPLETE',
          path,
          `a ${r.verificationMode} receipt ${what}; read it as unverified.`,
          rule,
        ),
      ];
      if (!FALLBACK_STATUSES.has(r.status)) return fail('/status', `cannot be ${r.status}`);
      if (r.completedAt !== null) return fail('/completedAt', 'never completes (completedAt must be null)');
      if (r.consumedAt !== null) return fail('/consumedAt', 'is never consumed (consumedAt must be null)');
      if (r.satisfiedSourceIds.length)
        return fail('/satisfiedSourceIds', 'satisfies nothing (satisfiedSourceIds must be [])');
      return [];
    },
  ),
];
