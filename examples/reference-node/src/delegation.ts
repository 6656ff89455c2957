// delegate (DelegationGate, DelegationContractV1): the reference delegation check. Stateless.
// Malformed params are -32602; a parent contract that is not valid is DELEGATION_PARENT_INVALID.
import { type Clock, type DelegationRequest, type DelegatorGrant, delegate } from '@agent-contracts/engines';
import { type DelegateResult, InvalidParams, Refusal } from '@agent-contracts/protocol';
import type { DelegationContractV1, DelegationPermission, RunBudget } from '@agent-contracts/schemas';
import { isDateTime, validate } from '@agent-contracts/validators';
import { checkedAnswer } from './answer.js';
import { closed, isObject, objectParams, plainStrings, str } from './params.js';

const LIMITS = ['maxSteps', 'maxToolCalls', 'maxRetries', 'maxDurationMs', 'maxCostMicros'] as const;
const CHECKS = new Set(['output-schema', 'command', 'file-predicate', 'reviewer']);

const strings = (o: Record<string, unknown>, key: string, where: string): string[] => {
  const v = o[key];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x === ''))
    throw new InvalidParams(`${where}.${key} must be an array of non-empty strings`);
  return v as string[];
};
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** A deadline in the spec's timestamp profile (RFC 3339 in UTC with `Z`, docs/spec/index.md#timestamps). */
const timestamp = (o: Record<string, unknown>, key: string, where: string): string => {
  const v = str(o, key, where);
  if (!UTC_TIMESTAMP.test(v) || !isDateTime(v))
    throw new InvalidParams(`${where}.${key} must be an RFC 3339 UTC timestamp (with Z)`);
  return v;
};
const GRANT = ['runId', 'agent', 'allowedTools', 'permissions', 'budget', 'deadline'];
const REQUEST = [
  'delegate',
  'inputSnapshot',
  'allowedTools',
  'permissions',
  'budget',
  'deadline',
  'outputSchema',
  'acceptanceCriteria',
];

/** The scope members a grant and a request share: tools, permissions, budget, deadline. */
function scopeOf(o: Record<string, unknown>, where: string) {
  if (!Array.isArray(o.permissions)) throw new InvalidParams(`${where}.permissions must be an array`);
  const permissions = o.permissions.map((p, i): DelegationPermission => {
    const at = `${where}.permissions[${i}]`;
    if (!isObject(p)) throw new InvalidParams(`${at} must be an object`);
    closed(p, ['tool', 'resource', 'actions'], at);
    return { tool: str(p, 'tool', at), resource: str(p, 'resource', at), actions: strings(p, 'actions', at) };
  });
  const b = o.budget;
  if (!isObject(b)) throw new InvalidParams(`${where}.budget must be an object`);
  closed(b, [...LIMITS, 'currency'], `${where}.budget`);
  for (const k of LIMITS)
    if (typeof b[k] !== 'number' || !Number.isSafeInteger(b[k]) || (b[k] as number) < 0)
      throw new InvalidParams(`${where}.budget.${k} must be a non-negative integer`);
  const budget = { ...(b as unknown as RunBudget), currency: str(b, 'currency', `${where}.budget`) };
  return {
    allowedTools: strings(o, 'allowedTools', where),
    permissions,
    budget,
    deadline: timestamp(o, 'deadline', where),
  };
}

function parentOf(raw: unknown): DelegationContractV1 | DelegatorGrant {
  if (!isObject(raw)) throw new InvalidParams('params.parent must be an object');
  if (raw.schemaVersion !== undefined) {
    const v = validate(raw, { contract: 'DelegationContractV1' });
    if (!v.ok) {
      const first = v.issues[0]!;
      throw new Refusal(
        'DELEGATION_PARENT_INVALID',
        `delegate: the parent is not a valid DelegationContractV1 (${first.code} at ${first.path}); delegate only under a valid contract.`,
        { path: `/parent${first.path}` },
      );
    }
    return raw as unknown as DelegationContractV1;
  }
  closed(raw, GRANT, 'params.parent');
  return {
    runId: str(raw, 'runId', 'params.parent'),
    agent: str(raw, 'agent', 'params.parent'),
    ...scopeOf(raw, 'params.parent'),
  };
}

function requestOf(raw: unknown): DelegationRequest {
  const where = 'params.request';
  if (!isObject(raw)) throw new InvalidParams(`${where} must be an object`);
  closed(raw, REQUEST, where);
  const snap = raw.inputSnapshot;
  if (!isObject(snap)) throw new InvalidParams(`${where}.inputSnapshot must be an object`);
  closed(snap, ['ref', 'digest'], `${where}.inputSnapshot`);
  if (!isObject(raw.outputSchema)) throw new InvalidParams(`${where}.outputSchema must be an object`);
  if (!Array.isArray(raw.acceptanceCriteria))
    throw new InvalidParams(`${where}.acceptanceCriteria must be an array`);
  const acceptanceCriteria = raw.acceptanceCriteria.map((c, i) => {
    const at = `${where}.acceptanceCriteria[${i}]`;
    if (!isObject(c) || typeof c.check !== 'string' || !CHECKS.has(c.check))
      throw new InvalidParams(`${at} must be { id, check (${[...CHECKS].join(', ')}), statement }`);
    closed(c, ['id', 'check', 'statement'], at);
    return { id: str(c, 'id', at), check: c.check as 'command', statement: str(c, 'statement', at) };
  });
  return {
    delegate: str(raw, 'delegate', where),
    inputSnapshot: {
      ref: str(snap, 'ref', `${where}.inputSnapshot`),
      digest: str(snap, 'digest', `${where}.inputSnapshot`),
    },
    ...scopeOf(raw, where),
    outputSchema: raw.outputSchema,
    acceptanceCriteria,
  };
}

/**
 * The delegate method.
 *
 * @example
 * delegationMethods(clock).delegate!({ parent: grant, request });
 */
export function delegationMethods(clock: Clock): Record<string, (params: unknown) => unknown> {
  return {
    delegate(params): DelegateResult {
      const p = objectParams(params, 'delegate');
      closed(p, ['parent', 'request'], 'params');
      plainStrings(p, 'params');
      const parent = parentOf(p.parent);
      const r = delegate(parent, requestOf(p.request), clock);
      if (!r.ok) throw Refusal.from(r, 'delegate: ');
      // Every member but the identity, the digest and the creation time comes from the params.
      return checkedAnswer('delegate', r.contract, {
        computed: ['/schemaVersion', '/delegationId', '/delegationDigest', '/createdAt'],
      });
    },
  };
}
