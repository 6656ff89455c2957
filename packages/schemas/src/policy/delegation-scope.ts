// The containment of DelegationGate: what a delegate may hold is within what its delegator holds.
// One definition of each check, read by the validators (single-document rules and the
// `delegation-chain` bundle) and by the delegation engine (`delegate`).
import type { RunBudget } from '../contracts/budget.js';
import type { DelegationPermission } from '../contracts/delegation.js';
import { ANY_RESOURCE, resourcePatternCovers } from './resource-pattern.js';

/** The tool, action and resource wildcard a delegation never grants. */
export const WILDCARD = '*';

/** What a delegator holds, or what a delegate is given: a contract, or a root run's grant. */
export interface DelegationScope {
  readonly allowedTools: readonly string[];
  readonly permissions: readonly DelegationPermission[];
  readonly budget: RunBudget;
  readonly deadline: string;
}

/** One violation: the rule code, the JSON Pointer into the delegate's document, and what to do. */
export interface ScopeViolation {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** The budget limits, in the order the page lists them. */
export const BUDGET_LIMITS = [
  'maxSteps',
  'maxToolCalls',
  'maxRetries',
  'maxDurationMs',
  'maxCostMicros',
] as const satisfies ReadonlyArray<keyof RunBudget>;

/** DELEGATION_WILDCARD_GRANT: every permission whose tool, resource or an action is the wildcard. */
export function wildcardViolations(
  scope: Pick<DelegationScope, 'permissions' | 'allowedTools'>,
): ScopeViolation[] {
  const out: ScopeViolation[] = [];
  const v = (path: string, what: string) =>
    out.push({
      code: 'DELEGATION_WILDCARD_GRANT',
      path,
      message: `${what} is the wildcard "*": a delegate never inherits all permissions; name each tool, resource and action it needs.`,
    });
  scope.allowedTools.forEach((t, i) => {
    if (t === WILDCARD) v(`/allowedTools/${i}`, `allowed tool ${i}`);
  });
  scope.permissions.forEach((p, i) => {
    if (p.tool === WILDCARD) v(`/permissions/${i}/tool`, `the tool of permission ${i}`);
    if (p.resource === ANY_RESOURCE) v(`/permissions/${i}/resource`, `the resource of permission ${i}`);
    p.actions.forEach((a, j) => {
      if (a === WILDCARD) v(`/permissions/${i}/actions/${j}`, `action ${j} of permission ${i}`);
    });
  });
  return out;
}

/** DELEGATION_GRANT_TOOL_NOT_ALLOWED: every permission whose tool is not among the allowed tools. */
export function grantToolViolations(
  scope: Pick<DelegationScope, 'permissions' | 'allowedTools'>,
): ScopeViolation[] {
  const out: ScopeViolation[] = [];
  scope.permissions.forEach((p, i) => {
    if (p.tool !== WILDCARD && !scope.allowedTools.includes(p.tool))
      out.push({
        code: 'DELEGATION_GRANT_TOOL_NOT_ALLOWED',
        path: `/permissions/${i}/tool`,
        message: `permission ${i} is for tool "${p.tool}", which is not in allowedTools; add the tool or drop the permission.`,
      });
  });
  return out;
}

/** Whether one of the delegator's permissions covers `p`: the same tool, a covering resource pattern, every action. */
export function permissionCovered(parent: readonly DelegationPermission[], p: DelegationPermission): boolean {
  return parent.some(
    (q) =>
      q.tool === p.tool &&
      resourcePatternCovers(q.resource, p.resource) &&
      p.actions.every((a) => q.actions.includes(a)),
  );
}

/**
 * Every way `child` is not within `parent`, in the page's order: tools
 * (DELEGATION_TOOL_NOT_CONTAINED), permissions (DELEGATION_PERMISSION_NOT_CONTAINED), budget
 * (DELEGATION_BUDGET_EXCEEDS_PARENT: a limit above the parent's, or another currency), deadline
 * (DELEGATION_DEADLINE_EXCEEDS_PARENT). Paths point into the child.
 *
 * @example
 * containmentViolations(parent, { ...parent, allowedTools: [...parent.allowedTools, 'deploy'] });
 * // [{ code: 'DELEGATION_TOOL_NOT_CONTAINED', path: '/allowedTools/3', ... }]
 */
export function containmentViolations(parent: DelegationScope, child: DelegationScope): ScopeViolation[] {
  const out: ScopeViolation[] = [];
  child.allowedTools.forEach((t, i) => {
    if (!parent.allowedTools.includes(t))
      out.push({
        code: 'DELEGATION_TOOL_NOT_CONTAINED',
        path: `/allowedTools/${i}`,
        message: `tool "${t}" is not among the delegator's allowed tools; a delegate gets a subset of its delegator's tools.`,
      });
  });
  child.permissions.forEach((p, i) => {
    if (!permissionCovered(parent.permissions, p))
      out.push({
        code: 'DELEGATION_PERMISSION_NOT_CONTAINED',
        path: `/permissions/${i}`,
        message: `permission ${i} (${p.tool} on ${p.resource}: ${p.actions.join(', ')}) is not covered by any permission of the delegator; narrow it to what the delegator holds.`,
      });
  });
  if (child.budget.currency !== parent.budget.currency)
    out.push({
      code: 'DELEGATION_BUDGET_EXCEEDS_PARENT',
      path: '/budget/currency',
      message: `the budget is in ${child.budget.currency}, the delegator's in ${parent.budget.currency}; state the delegate's budget in the delegator's currency.`,
    });
  for (const k of BUDGET_LIMITS)
    if (child.budget[k] > parent.budget[k])
      out.push({
        code: 'DELEGATION_BUDGET_EXCEEDS_PARENT',
        path: `/budget/${k}`,
        message: `budget.${k} ${child.budget[k]} exceeds the delegator's ${parent.budget[k]}; give the delegate at most what the delegator has.`,
      });
  if (Date.parse(child.deadline) > Date.parse(parent.deadline))
    out.push({
      code: 'DELEGATION_DEADLINE_EXCEEDS_PARENT',
      path: '/deadline',
      message: `deadline ${child.deadline} is after the delegator's ${parent.deadline}; end the delegate's work by the delegator's deadline.`,
    });
  return out;
}
