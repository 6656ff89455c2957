// The reference policy decision (PermissionPolicyGate, "How a policy engine decides"): default
// deny, per tool, resource and action, from the identity, task scope, approval state, the host's
// grants and the run's provenance. Pure: the clock is injected.
import {
  anyPatternCovers,
  computeDecisionDigest,
  computeDecisionId,
  credentialValuesIn,
  type PermissionDecisionV1,
  type PermissionReasonCode,
  type PolicyApprovalState,
  type PolicyDataProvenance,
  type PolicyGrant,
  type PolicyIdentity,
  type PolicyTaskScope,
  type PolicyToolFacts,
  resourcePatternCovers,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';

/** The grant type the engine matches calls against (the schemas package's, shared with the protocol). */
export type { PolicyGrant };

/** How long the engine's injected credential lives after the decision (D-PRM-03). */
export const CREDENTIAL_TTL_MS = 300_000;

/** The tool call to decide. */
export interface PolicyCall {
  readonly runId: string;
  readonly callId: string;
  readonly tool: PolicyToolFacts;
  readonly resource: string;
  readonly action: string;
}

/** What the decision is made from, besides the call and the run's provenance. */
export interface PolicyContext {
  readonly identity: PolicyIdentity;
  readonly taskScope: PolicyTaskScope;
  readonly approval: PolicyApprovalState;
  readonly grants: readonly PolicyGrant[];
}

/** Result of {@link decidePermission}: the decision, or a refusal to decide. */
export type PolicyDecisionResult =
  | { readonly ok: true; readonly decision: PermissionDecisionV1 }
  | EngineRefusal<'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT', { readonly path: string }>;

const DENY: ReadonlySet<PermissionReasonCode> = new Set([
  'tool-not-in-task-scope',
  'resource-not-in-task-scope',
  'no-matching-grant',
  'approval-denied',
]);

/** The first trusted grant covering the call, or null. Grants from untrusted content never match. */
export function matchGrant(call: PolicyCall, grants: readonly PolicyGrant[]): PolicyGrant | null {
  return (
    grants.find(
      (g) =>
        g.origin !== 'untrusted-content' &&
        g.tool === call.tool.toolName &&
        resourcePatternCovers(g.resource, call.resource) &&
        g.actions.includes(call.action),
    ) ?? null
  );
}

/**
 * Decide one tool call. Refuses (decides nothing) when any string of the call or context has a
 * credential value shape.
 *
 * @example
 * const r = decidePermission(call, context, CLEAN_PROVENANCE, clock);
 * if (r.ok) r.decision.decision; // 'allow' | 'deny' | 'requires-approval'
 */
export function decidePermission(
  call: PolicyCall,
  context: PolicyContext,
  provenance: PolicyDataProvenance,
  clock: Clock,
): PolicyDecisionResult {
  const [leak] = credentialValuesIn({ call, context }, 1);
  if (leak)
    return refusal(
      'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
      `the request holds a value shaped like a ${leak.shape} at ${leak.path}; pass a credref: reference, never the credential, and rotate it: it has been exposed.`,
      { path: leak.path },
    );
  const { tool } = call;
  const { taskScope, approval } = context;
  const grant = matchGrant(call, context.grants);
  const egress = provenance.tainted && tool.networkEgress;
  const reasons: PermissionReasonCode[] = [];
  if (!taskScope.allowedTools.includes(tool.toolName)) reasons.push('tool-not-in-task-scope');
  if (!anyPatternCovers(taskScope.allowedResources, call.resource))
    reasons.push('resource-not-in-task-scope');
  if (grant === null) reasons.push('no-matching-grant');
  if (approval.state === 'denied') reasons.push('approval-denied');
  if ((tool.requiresConfirmation || tool.sideEffectLevel === 'irreversible') && approval.state !== 'granted')
    reasons.push('confirmation-required');
  if (egress && (grant?.dataFlowPolicyRef ?? null) === null && approval.state !== 'granted')
    reasons.push('untrusted-data-egress');
  const decision = reasons.some((r) => DENY.has(r)) ? 'deny' : reasons.length ? 'requires-approval' : 'allow';
  const now = clock.now();
  const draft: Omit<PermissionDecisionV1, 'decisionDigest'> = {
    schemaVersion: 'PermissionDecisionV1',
    decisionId: computeDecisionId(call),
    runId: call.runId,
    callId: call.callId,
    tool: {
      toolName: tool.toolName,
      sideEffectLevel: tool.sideEffectLevel,
      requiresConfirmation: tool.requiresConfirmation,
      networkEgress: tool.networkEgress,
    },
    resource: call.resource,
    action: call.action,
    inputs: {
      identity: { principal: context.identity.principal, kind: context.identity.kind },
      taskScope: {
        taskRef: taskScope.taskRef,
        allowedTools: [...taskScope.allowedTools],
        allowedResources: [...taskScope.allowedResources],
      },
      approval: { state: approval.state, approvalRef: approval.approvalRef },
      provenance: {
        tainted: provenance.tainted,
        taintSources: provenance.taintSources.map((s) => ({ ...s })),
      },
    },
    matchedGrant: grant === null ? null : { grantId: grant.grantId, origin: grant.origin },
    dataFlowPolicyRef: egress ? (grant?.dataFlowPolicyRef ?? null) : null,
    credential:
      decision === 'allow' && grant?.credentialRef
        ? { ref: grant.credentialRef, expiresAt: timestampOf(now + CREDENTIAL_TTL_MS) }
        : null,
    decision,
    reasonCodes: decision === 'allow' ? ['granted'] : reasons,
    decidedAt: timestampOf(now),
  };
  return { ok: true, decision: { ...draft, decisionDigest: computeDecisionDigest(draft) } };
}
