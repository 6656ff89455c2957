// `delegate` (docs/protocol.md#delegate-v1-capability-delegation).
import type {
  DelegationAcceptanceCriterion,
  DelegationContractV1,
  DelegationInputSnapshot,
  DelegationPermission,
  RunBudget,
} from '@agent-contracts/schemas';

/** What a root run holds and may delegate from. */
export interface DelegatorGrantParams {
  /** The run. */
  readonly runId: string;
  /** The agent running it (the delegator). */
  readonly agent: string;
  /** The tools the run may call. */
  readonly allowedTools: readonly string[];
  /** The permissions the run holds. */
  readonly permissions: readonly DelegationPermission[];
  /** The run's hard limits. */
  readonly budget: RunBudget;
  /** The run's deadline (RFC 3339 UTC). */
  readonly deadline: string;
}

/** What the delegator asks to hand over. */
export interface DelegationRequestParams {
  /** The sub-agent. */
  readonly delegate: string;
  /** The input it works on, pinned by digest. */
  readonly inputSnapshot: DelegationInputSnapshot;
  /** The tools it may call. */
  readonly allowedTools: readonly string[];
  /** The permissions it asks for. */
  readonly permissions: readonly DelegationPermission[];
  /** Its hard limits. */
  readonly budget: RunBudget;
  /** When its work must be done (RFC 3339 UTC). */
  readonly deadline: string;
  /** The JSON Schema its output must validate against. */
  readonly outputSchema: { readonly [key: string]: unknown };
  /** How the delegator accepts the output. */
  readonly acceptanceCriteria: readonly DelegationAcceptanceCriterion[];
}

/** Params of `delegate`. */
export interface DelegateParams {
  /** The delegator's scope: its own DelegationContractV1, or a root run's grant. */
  readonly parent: DelegationContractV1 | DelegatorGrantParams;
  /** What it asks to hand over. */
  readonly request: DelegationRequestParams;
}

/** Result of `delegate`: the accepted contract. */
export type DelegateResult = DelegationContractV1;
