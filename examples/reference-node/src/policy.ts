// policy.observe and policy.decide (PermissionPolicyGate, PermissionDecisionV1): the reference
// policy engine with the provenance of each run kept in memory for the session (D-GEN-61).
// Malformed params are -32602; what the page refuses is the engine's to say (-32000), and a
// decision that breaks its contract is the engine's fault (-32603).
import { type Clock, type PolicyContext, type PolicyGrant, PolicySession } from '@agent-contracts/engines';
import {
  InvalidParams,
  type PolicyDecideResult,
  type PolicyObserveResult,
  Refusal,
} from '@agent-contracts/protocol';
import { checkedAnswer } from './answer.js';
import { closed, isObject, objectParams, oneOf, plainStrings, str } from './params.js';

const SIDE_EFFECTS = ['none', 'read', 'local-write', 'external-write', 'irreversible'] as const;
const IDENTITY_KINDS = ['user', 'service', 'agent'] as const;
const APPROVAL_STATES = ['none', 'pending', 'granted', 'denied'] as const;
const TAINT_KINDS = ['web-page', 'document', 'retrieval', 'tool-output', 'message'] as const;
const ORIGINS = ['host-policy', 'task-contract', 'human-approval', 'untrusted-content'] as const;

const obj = (o: Record<string, unknown>, key: string, where: string): Record<string, unknown> => {
  const v = o[key];
  if (!isObject(v)) throw new InvalidParams(`${where}.${key} must be an object`);
  return v;
};
const bool = (o: Record<string, unknown>, key: string, where: string): boolean => {
  if (typeof o[key] !== 'boolean') throw new InvalidParams(`${where}.${key} must be a boolean`);
  return o[key] as boolean;
};
const strings = (o: Record<string, unknown>, key: string, where: string): string[] => {
  const v = o[key];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === ''))
    throw new InvalidParams(`${where}.${key} must be an array of non-empty strings`);
  return v as string[];
};
const nullableStr = (o: Record<string, unknown>, key: string, where: string): string | null =>
  o[key] === null ? null : str(o, key, where);

function grantOf(raw: unknown, i: number): PolicyGrant {
  const at = `params.context.grants[${i}]`;
  if (!isObject(raw)) throw new InvalidParams(`${at} must be an object`);
  closed(raw, ['grantId', 'tool', 'resource', 'actions', 'origin', 'dataFlowPolicyRef', 'credentialRef'], at);
  return {
    grantId: str(raw, 'grantId', at),
    tool: str(raw, 'tool', at),
    resource: str(raw, 'resource', at),
    actions: strings(raw, 'actions', at),
    origin: oneOf(raw, 'origin', ORIGINS, at),
    dataFlowPolicyRef: nullableStr(raw, 'dataFlowPolicyRef', at),
    credentialRef: nullableStr(raw, 'credentialRef', at),
  };
}

function contextOf(p: Record<string, unknown>): PolicyContext {
  const c = obj(p, 'context', 'params');
  const where = 'params.context';
  const identity = obj(c, 'identity', where);
  const scope = obj(c, 'taskScope', where);
  const approval = obj(c, 'approval', where);
  if (!Array.isArray(c.grants)) throw new InvalidParams(`${where}.grants must be an array`);
  closed(c, ['identity', 'taskScope', 'approval', 'grants'], where);
  closed(identity, ['principal', 'kind'], `${where}.identity`);
  closed(scope, ['taskRef', 'allowedTools', 'allowedResources'], `${where}.taskScope`);
  closed(approval, ['state', 'approvalRef'], `${where}.approval`);
  return {
    identity: {
      principal: str(identity, 'principal', `${where}.identity`),
      kind: oneOf(identity, 'kind', IDENTITY_KINDS, `${where}.identity`),
    },
    taskScope: {
      taskRef: str(scope, 'taskRef', `${where}.taskScope`),
      allowedTools: strings(scope, 'allowedTools', `${where}.taskScope`),
      allowedResources: strings(scope, 'allowedResources', `${where}.taskScope`),
    },
    approval: {
      state: oneOf(approval, 'state', APPROVAL_STATES, `${where}.approval`),
      approvalRef: nullableStr(approval, 'approvalRef', `${where}.approval`),
    },
    grants: c.grants.map(grantOf),
  };
}

/**
 * The policy methods and their session.
 *
 * @example
 * const policy = createPolicy(clock);
 * await policy.methods['policy.observe']!({ runId: 'r', observation: { observationId: 'o', kind: 'tool-output', origin: 'web.fetch' } });
 */
export function createPolicy(clock: Clock) {
  const session = new PolicySession(clock);
  const methods: Record<string, (params: unknown) => unknown> = {
    'policy.observe'(params): PolicyObserveResult {
      const p = objectParams(params, 'policy.observe');
      closed(p, ['runId', 'observation'], 'params');
      plainStrings(p, 'params');
      const runId = str(p, 'runId', 'params');
      const o = obj(p, 'observation', 'params');
      closed(o, ['observationId', 'kind', 'origin'], 'params.observation');
      const provenance = session.observe(runId, {
        observationId: str(o, 'observationId', 'params.observation'),
        kind: oneOf(o, 'kind', TAINT_KINDS, 'params.observation'),
        origin: str(o, 'origin', 'params.observation'),
      });
      return { runId, tainted: provenance.tainted, taintSources: provenance.taintSources };
    },
    'policy.decide'(params): PolicyDecideResult {
      const p = objectParams(params, 'policy.decide');
      closed(p, ['runId', 'callId', 'tool', 'resource', 'action', 'context'], 'params');
      plainStrings(p, 'params');
      const tool = obj(p, 'tool', 'params');
      closed(tool, ['toolName', 'sideEffectLevel', 'requiresConfirmation', 'networkEgress'], 'params.tool');
      const call = {
        runId: str(p, 'runId', 'params'),
        callId: str(p, 'callId', 'params'),
        tool: {
          toolName: str(tool, 'toolName', 'params.tool'),
          sideEffectLevel: oneOf(tool, 'sideEffectLevel', SIDE_EFFECTS, 'params.tool'),
          requiresConfirmation: bool(tool, 'requiresConfirmation', 'params.tool'),
          networkEgress: bool(tool, 'networkEgress', 'params.tool'),
        },
        resource: str(p, 'resource', 'params'),
        action: str(p, 'action', 'params'),
      };
      const r = session.decide(call, contextOf(p));
      if (!r.ok) throw Refusal.from(r, 'policy.decide: ');
      // Limits and the context's own consistency (an approval without its reference) are the
      // caller's; any other way the decision fails PermissionDecisionV1 is the engine's.
      return checkedAnswer('policy.decide', r.decision, {
        computed: [
          '/decisionId',
          '/decision',
          '/reasonCodes',
          '/decidedAt',
          '/decisionDigest',
          '/credential/expiresAt',
        ],
        callerRules: ['PERMISSION_APPROVAL_REF_INCONSISTENT'],
      });
    },
  };
  return { methods, clear: () => session.clear() };
}
