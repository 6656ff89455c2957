// The events of a read, and the plan and receipt most scenarios start from.
import type { ContextEvent } from '@agent-contracts/engines';
import { CONTEXT_MEMORY_REF, CONTEXT_ROOT, contextRef } from '@agent-contracts/harness/explore';
import type { ContextReadPlanV2, ContextReadReceiptV2 } from '@agent-contracts/schemas';
import type { Model } from './model.ts';
import { PLAN_CALL, type PlanParams, planParams, SESSION, TESTING_BODY } from './names.ts';

const binding = (plan: ContextReadPlanV2) => ({
  contextEpoch: plan.contextBinding.contextEpoch,
  planId: plan.planId,
  activeRoot: CONTEXT_ROOT,
});
export const pre = (
  plan: ContextReadPlanV2,
  sourceId: string,
  call: string,
  over: object = {},
): ContextEvent => ({
  event: 'PreToolUse',
  toolCallId: call,
  sourceIds: [sourceId],
  actionClass: 'context-read',
  hostSessionId: SESSION,
  ...binding(plan),
  ...over,
});
const memory = (sourceId: string) => sourceId.startsWith('memory:');
export const post = (
  plan: ContextReadPlanV2,
  sourceId: string,
  call: string,
  over: object = {},
): ContextEvent => {
  const body = memory(sourceId)
    ? { value: { status: 'idle' }, contractVersion: '1' }
    : { text: TESTING_BODY };
  return {
    event: 'PostToolUse',
    toolCallId: call,
    sourceId,
    hostSessionId: SESSION,
    sourceLayer: memory(sourceId) ? 'memory-query' : 'profile',
    liveRefs: memory(sourceId) ? [CONTEXT_MEMORY_REF] : [contextRef(sourceId.slice('profile:'.length))],
    toolResult: 'value' in body ? body.value : { content: body.text },
    body,
    schemaMatch: true,
    targetMatch: true,
    ...binding(plan),
    ...over,
  };
};

/** A plan of `fix`/`testing` and its structured receipt, opened at the plan's own call. */
export function opened(m: Model, over: Partial<PlanParams> = {}, seed: Record<string, unknown> = {}) {
  const plan = m.plan(planParams(over, seed));
  m.advance();
  const receipt = m.open(
    plan.planId,
    {
      verificationMode: 'structured-plan',
      hostSessionId: SESSION,
      planCall: { toolCallId: PLAN_CALL, attemptedAt: plan.plannedAt },
    },
    'baseline-ready',
  );
  return { plan, receipt };
}

/** Read both non-baseline mandatory sources (memory:status, profile:testing.md) through the plan. */
export function readAll(m: Model, plan: ContextReadPlanV2): ContextReadReceiptV2 {
  let r: ContextReadReceiptV2 | undefined;
  for (const [i, s] of ['memory:status', 'profile:testing.md'].entries()) {
    m.advance();
    m.observe(plan.planId, pre(plan, s, `toolu-read-${i}`), 'attempted');
    m.advance();
    r = m.observe(plan.planId, post(plan, s, `toolu-read-${i}`), i === 1 ? 'relevant-complete' : 'attempted');
  }
  return r!;
}

/** The `context.reuse` params of a same-session delivery reuse of `prior`'s completed receipt. */
export const reuseOfPrior = (prior: ContextReadPlanV2, complete: ContextReadReceiptV2) => ({
  executionOptimizationMode: 'safe-auto' as const,
  hostSessionId: SESSION,
  currentSourceIdentities: complete.sourceIdentities,
  priorPlan: prior,
  priorReceipt: complete,
});
