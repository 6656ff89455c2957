// The reference `delegate` (DelegationGate, "How `delegate` decides"): a delegation contract
// from a delegator's scope (its own contract, or a root run's grant) and a request, refused when
// the request is not within the delegator's scope. Pure: the clock is injected.
import {
  computeDelegationDigest,
  computeDelegationId,
  containmentViolations,
  type DelegationAcceptanceCriterion,
  type DelegationContractV1,
  type DelegationInputSnapshot,
  type DelegationPermission,
  type DelegationScope,
  grantToolViolations,
  type RunBudget,
  type ScopeViolation,
  wildcardViolations,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';

/** What a root run holds and may delegate from. */
export interface DelegatorGrant extends DelegationScope {
  /** The run. */
  readonly runId: string;
  /** The agent running it. */
  readonly agent: string;
}

/** What the delegator asks to hand over. */
export interface DelegationRequest extends DelegationScope {
  readonly delegate: string;
  readonly inputSnapshot: DelegationInputSnapshot;
  readonly permissions: readonly DelegationPermission[];
  readonly budget: RunBudget;
  readonly outputSchema: { readonly [key: string]: unknown };
  readonly acceptanceCriteria: readonly DelegationAcceptanceCriterion[];
}

/** Result of {@link delegate}. */
export type DelegationResult =
  | { readonly ok: true; readonly contract: DelegationContractV1 }
  | EngineRefusal<string, { readonly path: string }>;

/** Whether a parent is a delegation contract (else it is a root run's grant). */
export const isDelegationContract = (
  parent: DelegationContractV1 | DelegatorGrant,
): parent is DelegationContractV1 =>
  (parent as { schemaVersion?: unknown }).schemaVersion === 'DelegationContractV1';

/**
 * Make the contract, or refuse with the first violation in the page's order (paths into the request).
 *
 * @example
 * const r = delegate(grant, request, clock);
 * if (!r.ok) r.code; // e.g. 'DELEGATION_PERMISSION_NOT_CONTAINED'
 */
export function delegate(
  parent: DelegationContractV1 | DelegatorGrant,
  request: DelegationRequest,
  clock: Clock,
): DelegationResult {
  const now = clock.now();
  const violations: ScopeViolation[] = [
    ...wildcardViolations(request),
    ...grantToolViolations(request),
    ...containmentViolations(parent, request),
  ];
  if (!(Date.parse(request.deadline) > now))
    violations.push({
      code: 'DELEGATION_DEADLINE_NOT_AFTER_CREATION',
      path: '/deadline',
      message: `deadline ${request.deadline} is not after now (${timestampOf(now)}); give the delegate time, or do the work without delegating.`,
    });
  const seen = new Set<string>();
  request.acceptanceCriteria.forEach((c, i) => {
    if (seen.has(c.id))
      violations.push({
        code: 'DELEGATION_CRITERION_DUPLICATE',
        path: `/acceptanceCriteria/${i}/id`,
        message: `criterion id "${c.id}" repeats an earlier one; give each criterion its own id.`,
      });
    seen.add(c.id);
  });
  const first = violations[0];
  if (first) return refusal(first.code, first.message, { path: first.path });
  const contract = isDelegationContract(parent);
  const draft: Omit<DelegationContractV1, 'delegationId' | 'delegationDigest'> = {
    schemaVersion: 'DelegationContractV1',
    parent: contract
      ? { kind: 'delegation', ref: parent.delegationId, delegationDigest: parent.delegationDigest }
      : { kind: 'run', ref: parent.runId, delegationDigest: null },
    delegator: contract ? parent.delegate : parent.agent,
    delegate: request.delegate,
    inputSnapshot: { ref: request.inputSnapshot.ref, digest: request.inputSnapshot.digest },
    allowedTools: [...request.allowedTools],
    permissions: request.permissions.map((p) => ({
      tool: p.tool,
      resource: p.resource,
      actions: [...p.actions],
    })),
    budget: { ...request.budget },
    deadline: request.deadline,
    outputSchema: structuredClone(request.outputSchema) as { [key: string]: unknown },
    acceptanceCriteria: request.acceptanceCriteria.map((c) => ({
      id: c.id,
      check: c.check,
      statement: c.statement,
    })),
    createdAt: timestampOf(now),
  };
  const { schemaVersion, ...rest } = draft;
  const withId = { schemaVersion, delegationId: computeDelegationId(draft), ...rest };
  return { ok: true, contract: { ...withId, delegationDigest: computeDelegationDigest(withId) } };
}
