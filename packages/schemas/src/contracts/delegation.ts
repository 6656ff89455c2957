import type { ContractEntry } from '../gates.js';
import type { RunBudget } from './budget.js';
import type { NullableSha256Hex, Sha256Hex, Timestamp } from './common.js';
import type { PolicyActionName, PolicyResourcePattern, PolicyToolName } from './permission-decision.js';

/** One permission: a tool, on a resource (or resource pattern), for some actions. */
export interface DelegationPermission {
  /** The tool (never `*`: a delegation names each tool). */
  tool: PolicyToolName;
  /** The resource or resource pattern (never `*` alone). */
  resource: PolicyResourcePattern;
  /**
   * The actions allowed (never `*`).
   * @minItems 1
   * @maxItems 32
   * @uniqueItems true
   */
  actions: PolicyActionName[];
}

/** Who delegates: the root run, or the delegation the delegator itself runs under. */
export interface DelegationParentRef {
  /** `run`: the delegator is a root run acting on its own grant; `delegation`: it is itself a delegate. */
  kind: 'run' | 'delegation';
  /**
   * The run id (`run`) or the parent contract's `delegationId` (`delegation`).
   * @minLength 1
   * @maxLength 256
   */
  ref: string;
  /** The parent contract's `delegationDigest` (`delegation`); `null` for `run`. */
  delegationDigest: NullableSha256Hex;
}

/** The input the delegate receives, pinned by digest. */
export interface DelegationInputSnapshot {
  /**
   * Where the snapshot is (an artefact path, a store key).
   * @minLength 1
   * @maxLength 1024
   */
  ref: string;
  /** digestOf (RFC 8785 JCS + SHA-256) of the snapshot as handed over. */
  digest: Sha256Hex;
}

/** One acceptance criterion the delegator checks on the delegate's output. */
export interface DelegationAcceptanceCriterion {
  /**
   * Id of the criterion, unique within the contract.
   * @pattern ^[a-z0-9][a-z0-9-]{0,63}$
   */
  id: string;
  /** How it is checked: `output-schema` (the output validates), `command` (a command's exit), `file-predicate`, `reviewer` (a person decides). */
  check: 'output-schema' | 'command' | 'file-predicate' | 'reviewer';
  /**
   * What must hold, e.g. `pnpm test exits 0`.
   * @minLength 1
   * @maxLength 2000
   */
  statement: string;
}

/**
 * The contract one agent hands a sub-agent: the input snapshot, the tools and permissions (a
 * subset of the delegator's), the budget and deadline (within the delegator's), the output
 * schema and the acceptance criteria. A delegate never inherits its delegator's permissions.
 */
export interface DelegationContractV1 {
  /** Contract discriminator. */
  schemaVersion: 'DelegationContractV1';
  /**
   * `"dlg-"` + the first 24 hex characters of digestOf(`{parent: {kind, ref}, delegate, inputSnapshot}`).
   * @pattern ^dlg-[a-f0-9]{24}$
   */
  delegationId: string;
  /** Who delegates. */
  parent: DelegationParentRef;
  /**
   * The delegating agent.
   * @minLength 1
   * @maxLength 256
   */
  delegator: string;
  /**
   * The sub-agent the work is delegated to.
   * @minLength 1
   * @maxLength 256
   */
  delegate: string;
  /** The input the delegate works on. */
  inputSnapshot: DelegationInputSnapshot;
  /**
   * Tools the delegate may call: a subset of the delegator's.
   * @maxItems 256
   * @uniqueItems true
   */
  allowedTools: PolicyToolName[];
  /**
   * The permissions of the delegate: each covered by one of the delegator's.
   * @maxItems 256
   */
  permissions: DelegationPermission[];
  /** The delegate's hard limits: each at most the delegator's, in the same currency. */
  budget: RunBudget;
  /** When the delegate's work must be done: after `createdAt`, not after the delegator's deadline. */
  deadline: Timestamp;
  /** The JSON Schema (draft-07) the delegate's output must validate against. */
  outputSchema: { [key: string]: unknown };
  /**
   * How the delegator accepts the output.
   * @minItems 1
   * @maxItems 64
   */
  acceptanceCriteria: DelegationAcceptanceCriterion[];
  /** When the contract was made. */
  createdAt: Timestamp;
  /**
   * Digest of the whole document except `delegationDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  delegationDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const DELEGATION_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'DelegationContractV1',
    gate: 'DelegationGate',
    summary:
      'What a delegator hands a sub-agent: input snapshot by digest, allowed tools, a contained permission subset, budget and deadline within its own, output schema and acceptance criteria.',
  },
];
