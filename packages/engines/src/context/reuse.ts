// The reuse decision (docs/spec/context-acquisition-gate.md, ContextReuseDecisionV1): the ordered
// checks, first failure wins; and the receipt a granted delivery reuse creates. Computation reuse
// never counts as delivery.
import { derivedId, digestOf } from '@agent-contracts/digest';
import {
  type ContextReadPlanV1,
  type ContextReadPlanV2,
  type ContextReadReceiptV1,
  type ContextReadReceiptV2,
  type ContextReuseDecisionV1,
  type ContextSourceIdentity,
  contextPlanContentId,
  contextPlanId,
  deriveContextPlanIdentityInputs,
  observationIdOf,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import { deriveReceipt, draftOf, sealReceipt } from './receipt.js';
import { isResult, type Result, satisfiesAt, satisfyingRecord } from './records.js';
import { bySourceId } from './shared.js';

/** What the reuse decision compares the current plan against. */
export interface ReuseInputs {
  readonly executionOptimizationMode: 'safe-auto' | 'full-only';
  readonly hostSessionId: string | null;
  /** The current source identities the caller observed, or `null`. */
  readonly currentSourceIdentities: readonly ContextSourceIdentity[] | null;
  readonly priorPlan: ContextReadPlanV2 | ContextReadPlanV1 | null;
  readonly priorReceipt: ContextReadReceiptV2 | ContextReadReceiptV1 | null;
}

/** Whether a V2 plan's ids and binding recompute from its own fields. */
export function planIdsRecompute(plan: ContextReadPlanV2): boolean {
  try {
    const inputs = deriveContextPlanIdentityInputs(plan);
    const content = contextPlanContentId(inputs);
    const b = plan.contextBinding;
    return (
      content === plan.planContentId &&
      digestOf(inputs) === digestOf(plan.identityInputs) &&
      contextPlanId(content, plan.identity.contextEpoch, plan.identity.invocationNonce) === plan.planId &&
      b.planId === plan.planId &&
      b.planContentId === plan.planContentId &&
      b.contextEpoch === plan.identity.contextEpoch &&
      b.activeRoot === plan.identity.activeRoot &&
      b.project === plan.identity.project
    );
  } catch {
    return false;
  }
}

/** Whether a V2 receipt's id recomputes. */
export function receiptIdRecomputes(r: ContextReadReceiptV2): boolean {
  try {
    const { receiptId, updatedAt: _u, ...rest } = r;
    return derivedId('receipt-', rest, 24) === receiptId;
  } catch {
    return false;
  }
}

const priorPlanRef = (p: ContextReadPlanV2 | ContextReadPlanV1): ContextReuseDecisionV1['priorPlan'] =>
  p.schemaVersion === 'ContextReadPlanV2'
    ? {
        schemaVersion: 'ContextReadPlanV2',
        planId: p.planId,
        planContentId: p.planContentId,
        contextEpoch: p.identity.contextEpoch,
        activeRoot: p.identity.activeRoot,
        project: p.identity.project,
      }
    : {
        schemaVersion: 'ContextReadPlanV1',
        planId: p.planId,
        planContentId: null,
        contextEpoch: p.identity.contextEpoch,
        activeRoot: p.identity.activeRoot,
        project: p.identity.project,
      };

const priorReceiptRef = (
  r: ContextReadReceiptV2 | ContextReadReceiptV1,
): ContextReuseDecisionV1['priorReceipt'] =>
  r.schemaVersion === 'ContextReadReceiptV2'
    ? {
        schemaVersion: 'ContextReadReceiptV2',
        receiptId: r.receiptId,
        planId: r.binding.planId,
        planContentId: r.binding.planContentId,
        contextEpoch: r.binding.contextEpoch,
        hostSessionId: r.hostSessionId,
        verificationMode: r.verificationMode,
        status: r.status,
        sourceIdentitiesDigest: digestOf(r.sourceIdentities),
      }
    : {
        schemaVersion: 'ContextReadReceiptV1',
        receiptId: r.receiptId,
        planId: r.planId,
        planContentId: null,
        contextEpoch: r.contextEpoch,
        hostSessionId: null,
        verificationMode: r.verificationMode,
        status: r.status,
        sourceIdentitiesDigest: null,
      };

type Refusals = readonly [ContextReuseDecisionV1['computation'], ContextReuseDecisionV1['delivery']];
const both = (c: string, d: string) =>
  [
    { reuse: false, reasonCode: c },
    { reuse: false, reasonCode: d },
  ] as unknown as Refusals;
const deliveryOnly = (d: string) =>
  [
    { reuse: true, reasonCode: 'content-identity-match' },
    { reuse: false, reasonCode: d },
  ] as unknown as Refusals;

/**
 * Decide reuse for the current plan by the ordered checks (the first failing check sets both
 * reason codes). Checks 1, 3 and 7 are decided by recomputing the documents' ids.
 *
 * @example
 * const d = decideReuse(plan, { executionOptimizationMode: 'safe-auto', hostSessionId, currentSourceIdentities, priorPlan, priorReceipt }, clock);
 * d.delivery.reuse; // true only for the same session, epoch and content
 */
export function decideReuse(
  plan: ContextReadPlanV2,
  inputs: ReuseInputs,
  clock: Clock,
): ContextReuseDecisionV1 {
  const { priorPlan: pp, priorReceipt: pr } = inputs;
  const binding = plan.contextBinding;
  const currentDigest =
    inputs.currentSourceIdentities === null ? null : digestOf(bySourceId(inputs.currentSourceIdentities));
  const ppRef = pp ? priorPlanRef(pp) : null;
  const prRef = pr ? priorReceiptRef(pr) : null;
  const mandatory = plan.mandatorySourceIds;
  const verdict = ((): Refusals => {
    if (!planIdsRecompute(plan)) return both('current-plan-invalid', 'current-plan-invalid');
    if (inputs.executionOptimizationMode === 'full-only')
      return both('execution-optimization-full-only', 'execution-optimization-full-only');
    if (!pp) return both('no-compatible-prior-plan', 'legacy-or-missing-prior-plan');
    if (pp.schemaVersion !== 'ContextReadPlanV2')
      return both('legacy-plan-no-content-identity', 'legacy-or-missing-prior-plan');
    if (!planIdsRecompute(pp)) return both('no-compatible-prior-plan', 'legacy-or-missing-prior-plan');
    if (ppRef!.activeRoot !== binding.activeRoot || ppRef!.project !== binding.project)
      return both('target-mismatch', 'target-mismatch');
    if (ppRef!.planContentId !== binding.planContentId)
      return both('plan-content-mismatch', 'plan-content-mismatch');
    if (pr?.schemaVersion !== 'ContextReadReceiptV2') return deliveryOnly('legacy-or-missing-receipt');
    if (!receiptIdRecomputes(pr)) return deliveryOnly('prior-receipt-invalid');
    if (prRef!.planId !== ppRef!.planId || prRef!.planContentId !== ppRef!.planContentId)
      return deliveryOnly('prior-receipt-plan-mismatch');
    if (inputs.hostSessionId === null || inputs.hostSessionId !== prRef!.hostSessionId)
      return deliveryOnly('host-session-mismatch');
    if (binding.contextEpoch !== ppRef!.contextEpoch || ppRef!.contextEpoch !== prRef!.contextEpoch)
      return deliveryOnly('context-epoch-mismatch');
    if (
      pr.verificationMode !== 'structured-plan' ||
      !(pr.status === 'relevant-complete' || pr.status === 'completed')
    )
      return deliveryOnly('prior-receipt-incomplete');
    const covers = (ids: readonly ContextSourceIdentity[]) =>
      ids.length === mandatory.length && mandatory.every((s) => ids.some((i) => i.sourceId === s));
    if (
      currentDigest === null ||
      currentDigest !== prRef!.sourceIdentitiesDigest ||
      !covers(inputs.currentSourceIdentities!) ||
      !covers(pr.sourceIdentities)
    )
      return deliveryOnly('source-identity-mismatch');
    const reuseAllowed = pr.reuseFrom !== null;
    const proven = mandatory.every((s) =>
      pr.observations.some(
        (o, i) =>
          isResult(o) &&
          o.sourceId === s &&
          o.hostSessionId === inputs.hostSessionId &&
          satisfiesAt(pr.observations, i, reuseAllowed),
      ),
    );
    if (!proven) return deliveryOnly('body-observation-unproven');
    return [
      { reuse: true, reasonCode: 'content-identity-match' },
      { reuse: true, reasonCode: 'same-session-epoch-content-observed' },
    ] as unknown as Refusals;
  })();
  const [computation, delivery] = verdict;
  const body = {
    schemaVersion: 'ContextReuseDecisionV1' as const,
    binding,
    executionOptimizationMode: inputs.executionOptimizationMode,
    hostSessionId: inputs.hostSessionId,
    currentSourceIdentitiesDigest: currentDigest,
    priorPlan: ppRef,
    priorReceipt: prRef,
    computation,
    delivery,
    reuseFrom: computation.reuse
      ? {
          planId: ppRef!.planId,
          planContentId: ppRef!.planContentId!,
          receiptId: delivery.reuse ? prRef!.receiptId : null,
          sourceIdentitiesDigest: delivery.reuse ? prRef!.sourceIdentitiesDigest : null,
        }
      : null,
    evaluatedAt: timestampOf(clock.now()),
  };
  return { decisionId: derivedId('reuse-', body, 24), ...body } as ContextReuseDecisionV1;
}

/**
 * The `create-by-reuse` row: a `relevant-complete` receipt whose records are reuse results copied
 * from the prior receipt's satisfying records, for a decision that granted delivery.
 */
export function receiptByReuse(
  plan: ContextReadPlanV2,
  decision: ContextReuseDecisionV1,
  prior: ContextReadReceiptV2,
  planCall: { readonly toolCallId: string; readonly attemptedAt: string },
  clock: Clock,
):
  | { readonly ok: true; readonly receipt: ContextReadReceiptV2 }
  | EngineRefusal<
      'CONTEXT_RECEIPT_REUSE_UNPROVEN' | 'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      { readonly path: string }
    > {
  if (
    !decision.delivery.reuse ||
    decision.reuseFrom?.receiptId !== prior.receiptId ||
    decision.binding.planId !== plan.planId
  )
    return refusal(
      'CONTEXT_RECEIPT_REUSE_UNPROVEN',
      'the decision does not grant delivery reuse of this prior receipt for this plan; read the bodies.',
      { path: '/decision' },
    );
  const now = timestampOf(Math.max(clock.now(), Date.parse(decision.evaluatedAt)));
  // The plan is made inside its own tool call (receipt invariant 24), whether the receipt opens
  // by the plan call's result or by reuse (D-RCP-53).
  if (!(Date.parse(planCall.attemptedAt) <= Date.parse(plan.plannedAt)))
    return refusal(
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      `the plan call's PreToolUse (${planCall.attemptedAt}) is after the plan was made (${plan.plannedAt}); the plan is made inside its own tool call.`,
      { path: '/planCall/attemptedAt' },
    );
  if (Date.parse(now) < Date.parse(plan.plannedAt))
    return refusal(
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      'the plan was made after now; a receipt cannot be opened before its plan exists.',
      { path: '/plannedAt' },
    );
  const planObservation = {
    toolCallId: planCall.toolCallId,
    attemptedAt: planCall.attemptedAt,
    observedAt: now,
  };
  const records: Result[] = [];
  for (const sourceId of plan.mandatorySourceIds) {
    // The source's latest record, the one the prior receipt's sourceIdentities (which check 12
    // compared) come from; an earlier satisfying record may carry an older body (D-RCP-53).
    const src = satisfyingRecord(prior.observations, sourceId, prior.reuseFrom !== null);
    if (!src)
      return refusal(
        'CONTEXT_RECEIPT_REUSE_UNPROVEN',
        `the prior receipt has no satisfying record of ${sourceId}; read the bodies.`,
        { path: '/prior' },
      );
    const { observationId: _id, ...rest } = src;
    const copy: Omit<Result, 'observationId'> = {
      ...rest,
      toolCallId: planObservation.toolCallId,
      contextEpoch: plan.contextBinding.contextEpoch,
      planId: plan.planId,
      hostSessionId: decision.hostSessionId,
      attemptedAt: planObservation.attemptedAt,
      observedAt: now,
      cache: true,
      reusedObservationId: src.observationId,
    };
    records.push({ observationId: observationIdOf(copy), ...copy });
  }
  const sourceIdentities = bySourceId(
    records.map((r) => ({ sourceId: r.sourceId, contentIdentity: r.contentIdentity! })),
  );
  const draft = {
    ...draftOf(prior),
    binding: plan.contextBinding,
    host: plan.identity.host,
    hostSessionId: decision.hostSessionId,
    verificationMode: 'structured-plan' as const,
    status: 'relevant-complete' as const,
    planObservation,
    observations: records,
    fullRead: plan.fullRead,
    fullReadReason: plan.fullReadReason,
    escalations: plan.triggeredEscalations.map((trigger) => ({
      trigger,
      reasonCode: trigger,
      observedAt: now,
      action: 'planned' as const,
    })),
    replanCount: 0,
    lastError: null,
    sourceIdentities,
    reuseFrom: {
      planId: prior.binding.planId,
      planContentId: prior.binding.planContentId,
      receiptId: prior.receiptId,
      sourceIdentitiesDigest: digestOf(sourceIdentities),
    },
    createdAt: now,
    updatedAt: now,
    completedAt: now,
    consumedAt: null,
  };
  return { ok: true, receipt: sealReceipt(deriveReceipt(draft, plan, now), now) };
}
