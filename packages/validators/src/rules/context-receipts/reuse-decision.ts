// Semantic rules of ContextReuseDecisionV1 (docs/spec/context-acquisition-gate.md#contextreusedecisionv1):
// the ordered checks of computation and delivery reuse.
import type { Issue } from '../../issues.js';
import { describeValue } from '../../pointer.js';
import { issue, semanticRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { type Decision, PAGE, REUSE } from './shared.js';

const COMPUTATION_CHECK: Record<string, number> = {
  'current-plan-invalid': 1,
  'execution-optimization-full-only': 2,
  'legacy-plan-no-content-identity': 3,
  'no-compatible-prior-plan': 3,
  'target-mismatch': 4,
  'plan-content-mismatch': 5,
  'content-identity-match': 14,
};
const DELIVERY_CHECK: Record<string, number> = {
  'current-plan-invalid': 1,
  'execution-optimization-full-only': 2,
  'legacy-or-missing-prior-plan': 3,
  'target-mismatch': 4,
  'plan-content-mismatch': 5,
  'legacy-or-missing-receipt': 6,
  'prior-receipt-invalid': 7,
  'prior-receipt-plan-mismatch': 8,
  'host-session-mismatch': 9,
  'context-epoch-mismatch': 10,
  'prior-receipt-incomplete': 11,
  'source-identity-mismatch': 12,
  'body-observation-unproven': 13,
  'same-session-epoch-content-observed': 14,
};
const DELIVERY_OF_COMPUTATION: Record<string, string> = {
  'current-plan-invalid': 'current-plan-invalid',
  'execution-optimization-full-only': 'execution-optimization-full-only',
  'legacy-plan-no-content-identity': 'legacy-or-missing-prior-plan',
  'no-compatible-prior-plan': 'legacy-or-missing-prior-plan',
  'target-mismatch': 'target-mismatch',
  'plan-content-mismatch': 'plan-content-mismatch',
};

/**
 * Results of the checks the decision alone can evaluate ("doc" checks), in order: `true` passes,
 * `false` fails, absent = not evaluable from the document (checks 1, 7, 13).
 */
export function docChecks(d: Decision): Map<number, boolean> {
  const pp = d.priorPlan;
  const pr = d.priorReceipt;
  const results = new Map<number, boolean>();
  results.set(2, d.executionOptimizationMode !== 'full-only');
  results.set(3, pp !== null && pp.schemaVersion === 'ContextReadPlanV2');
  results.set(4, pp !== null && pp.activeRoot === d.binding.activeRoot && pp.project === d.binding.project);
  results.set(5, pp !== null && pp.planContentId === d.binding.planContentId);
  results.set(6, pr !== null && pr.schemaVersion === 'ContextReadReceiptV2');
  results.set(
    8,
    pr !== null && pp !== null && pr.planId === pp.planId && pr.planContentId === pp.planContentId,
  );
  results.set(9, pr !== null && d.hostSessionId !== null && d.hostSessionId === pr.hostSessionId);
  results.set(
    10,
    pr !== null &&
      pp !== null &&
      d.binding.contextEpoch === pp.contextEpoch &&
      pp.contextEpoch === pr.contextEpoch,
  );
  results.set(
    11,
    pr !== null &&
      pr.verificationMode === 'structured-plan' &&
      (pr.status === 'relevant-complete' || pr.status === 'completed'),
  );
  results.set(
    12,
    pr !== null &&
      d.currentSourceIdentitiesDigest !== null &&
      d.currentSourceIdentitiesDigest === pr.sourceIdentitiesDigest,
  );
  return results;
}
/** Checks only partly decidable from the document: passing the doc part does not prove them. */
const PARTIAL_DOC_CHECKS = new Set([3, 12]);

/** Reason-order issues of one verdict against the per-check results (`checks`). */
export function orderIssuesOf(
  d: Decision,
  verdict: 'computation' | 'delivery',
  checks: Map<number, boolean>,
  partial: Set<number>,
  rule: string,
): Issue[] {
  const code = d[verdict].reasonCode;
  const k = (verdict === 'computation' ? COMPUTATION_CHECK : DELIVERY_CHECK)[code];
  if (k === undefined) return [];
  const lastCheck = verdict === 'computation' ? 5 : 13;
  const fail = (message: string) => [
    issue(
      'CONTEXT_REUSE_REASON_ORDER_VIOLATED',
      `/${verdict}/reasonCode`,
      `${message}; re-evaluate the checks in order, never grant on a skipped check.`,
      rule,
    ),
  ];
  for (let n = 1; n < Math.min(k, lastCheck + 1); n++) {
    if (checks.get(n) === false)
      return fail(
        `${verdict} reason ${describeValue(code)} is recorded but check ${n} already fails on the recorded inputs`,
      );
  }
  if (k <= lastCheck && checks.get(k) === true && !partial.has(k))
    return fail(
      `${verdict} reason ${describeValue(code)} is recorded but check ${k} passes on the recorded inputs`,
    );
  if (k === 3 && verdict === 'computation' && d.priorPlan !== null) {
    const v1 = d.priorPlan.schemaVersion === 'ContextReadPlanV1';
    if (v1 !== (code === 'legacy-plan-no-content-identity'))
      return fail(
        `computation reason ${describeValue(code)} does not match a ${d.priorPlan.schemaVersion} prior plan (V1: legacy-plan-no-content-identity, else no-compatible-prior-plan)`,
      );
  }
  if (k === 3 && verdict === 'computation' && d.priorPlan === null && code !== 'no-compatible-prior-plan')
    return fail('without a prior plan the computation reason is no-compatible-prior-plan');
  return [];
}

export const REUSE_RULES: SemanticRule[] = [
  semanticRule<Decision>(
    'CONTEXT_REUSE_REASON_ORDER_VIOLATED',
    'ContextReuseDecisionV1',
    `${PAGE}#ordered-checks`,
    'Each verdict carries the reason of the first failing check: every check before it that the decision alone can evaluate passes, and the check itself fails when the decision alone can evaluate it.',
    (d) => {
      const checks = docChecks(d);
      const rule = `${PAGE}#ordered-checks`;
      return [
        ...orderIssuesOf(d, 'computation', checks, PARTIAL_DOC_CHECKS, rule),
        ...orderIssuesOf(d, 'delivery', checks, PARTIAL_DOC_CHECKS, rule),
      ];
    },
  ),
  semanticRule<Decision>(
    'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
    'ContextReuseDecisionV1',
    REUSE,
    'Delivery reuse is granted only with computation reuse; a refused computation refuses delivery with the delivery code of the same check.',
    (d) => {
      const rule = REUSE;
      if (d.computation.reuse) return [];
      if (d.delivery.reuse)
        return [
          issue(
            'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
            '/delivery/reuse',
            'delivery reuse is granted while computation reuse is refused; treat delivery as refused.',
            rule,
          ),
        ];
      const expected = DELIVERY_OF_COMPUTATION[d.computation.reasonCode];
      if (expected !== undefined && d.delivery.reasonCode !== expected)
        return [
          issue(
            'CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION',
            '/delivery/reasonCode',
            `computation was refused with ${d.computation.reasonCode}, so delivery is refused by the same check with ${expected}, not ${d.delivery.reasonCode}.`,
            rule,
          ),
        ];
      return [];
    },
  ),
  semanticRule<Decision>(
    'CONTEXT_REUSE_FROM_INCONSISTENT',
    'ContextReuseDecisionV1',
    REUSE,
    'reuseFrom is null iff computation is refused; it names the prior plan, and the prior receipt and its identities digest exactly when delivery is granted.',
    (d) => {
      const rule = REUSE;
      const fail = (path: string, message: string) => [
        issue('CONTEXT_REUSE_FROM_INCONSISTENT', path, `${message}; treat all reuse as refused.`, rule),
      ];
      const f = d.reuseFrom;
      if (!d.computation.reuse)
        return f === null ? [] : fail('/reuseFrom', 'computation reuse is refused but reuseFrom is set');
      if (f === null) return fail('/reuseFrom', 'computation reuse is granted but reuseFrom is null');
      const pp = d.priorPlan;
      if (pp !== null && f.planId !== pp.planId)
        return fail('/reuseFrom/planId', 'reuseFrom.planId differs from priorPlan.planId');
      if (pp !== null && f.planContentId !== pp.planContentId)
        return fail(
          '/reuseFrom/planContentId',
          'reuseFrom.planContentId differs from priorPlan.planContentId',
        );
      const pr = d.priorReceipt;
      if (d.delivery.reuse) {
        if (f.receiptId !== (pr?.receiptId ?? null))
          return fail(
            '/reuseFrom/receiptId',
            'with delivery granted, reuseFrom.receiptId must equal priorReceipt.receiptId',
          );
        if (f.sourceIdentitiesDigest !== (pr?.sourceIdentitiesDigest ?? null))
          return fail(
            '/reuseFrom/sourceIdentitiesDigest',
            'with delivery granted, reuseFrom.sourceIdentitiesDigest must equal priorReceipt.sourceIdentitiesDigest',
          );
        return [];
      }
      if (f.receiptId !== null)
        return fail('/reuseFrom/receiptId', 'delivery reuse is refused but reuseFrom.receiptId is set');
      if (f.sourceIdentitiesDigest !== null)
        return fail(
          '/reuseFrom/sourceIdentitiesDigest',
          'delivery reuse is refused but reuseFrom.sourceIdentitiesDigest is set',
        );
      return [];
    },
  ),
  semanticRule<Decision>(
    'CONTEXT_REUSE_V1_RECEIPT',
    'ContextReuseDecisionV1',
    REUSE,
    'A decision whose prior receipt is a ContextReadReceiptV1 never grants delivery reuse, in any epoch.',
    (d) => {
      if (d.priorReceipt?.schemaVersion !== 'ContextReadReceiptV1' || !d.delivery.reuse) return [];
      return [
        issue(
          'CONTEXT_REUSE_V1_RECEIPT',
          '/delivery/reuse',
          'delivery reuse is granted from a ContextReadReceiptV1; V1 receipts carry no body identities and are never delivery-reusable: read the bodies again.',
          REUSE,
        ),
      ];
    },
  ),
];
