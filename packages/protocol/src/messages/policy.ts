// `policy.observe` and `policy.decide` (docs/protocol.md#policydecide-v1-capability-policy).
import type {
  PermissionDecisionV1,
  PolicyApprovalState,
  PolicyGrant,
  PolicyIdentity,
  PolicyTaintSource,
  PolicyTaskScope,
  PolicyToolFacts,
} from '@agent-contracts/schemas';

/** What the decision is made from, besides the call and the run's provenance. */
export interface PolicyContextParams {
  /** Who the call is made for. */
  readonly identity: PolicyIdentity;
  /** What the task allows, from its task contract. */
  readonly taskScope: PolicyTaskScope;
  /** The approval state of this call. */
  readonly approval: PolicyApprovalState;
  /** The trusted grants of the host and the task (and any a test smuggles in from untrusted content). */
  readonly grants: readonly PolicyGrant[];
}

/** Params of `policy.decide`. */
export interface PolicyDecideParams {
  /** The run the call belongs to (its provenance is the run's so far). */
  readonly runId: string;
  /** The tool call, unique within the run. */
  readonly callId: string;
  /** The called tool's facts, named as ToolContractV1 names them. */
  readonly tool: PolicyToolFacts;
  /** The resource the call touches. */
  readonly resource: string;
  /** The action on the resource. */
  readonly action: string;
  /** Identity, task scope, approval state and grants. */
  readonly context: PolicyContextParams;
}

/** Result of `policy.decide`. */
export type PolicyDecideResult = PermissionDecisionV1;

/** Params of `policy.observe`. */
export interface PolicyObserveParams {
  /** The run that read the content. */
  readonly runId: string;
  /** The untrusted observation (every web page, document, retrieval result, tool output and message is one). */
  readonly observation: PolicyTaintSource;
}

/** Result of `policy.observe`: the run's provenance after the observation. */
export interface PolicyObserveResult {
  /** The run. */
  readonly runId: string;
  /** Always true after an observation: the run has read untrusted content. */
  readonly tainted: boolean;
  /** The run's recorded taint sources, in the order observed (at most 64). */
  readonly taintSources: readonly PolicyTaintSource[];
}
