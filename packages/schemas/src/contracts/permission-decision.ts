import type { ContractEntry } from '../gates.js';
import type { NullableNonEmptyString, Timestamp } from './common.js';
import type { SideEffectLevel } from './task-contract.js';

/**
 * A tool name, e.g. `repo.read_file`.
 * @minLength 1
 * @maxLength 128
 */
export type PolicyToolName = string;

/**
 * A resource, or a resource pattern: an exact resource (`repo:/src/auth.ts`), or a prefix ending
 * in one `*` (`repo:/src/*`) that covers every resource starting with what precedes the `*`.
 * @minLength 1
 * @maxLength 1024
 */
export type PolicyResourcePattern = string;

/**
 * An action verb on a resource, e.g. `read`, `write`, `send`, `execute`.
 * @minLength 1
 * @maxLength 64
 */
export type PolicyActionName = string;

/** The facts of the called tool a decision uses, named exactly as ToolContractV1 names them. */
export interface PolicyToolFacts {
  /** Name of the tool. */
  toolName: PolicyToolName;
  /** How far the tool's effect reaches. */
  sideEffectLevel: SideEffectLevel;
  /** Whether the tool's contract requires a human confirmation before each call. */
  requiresConfirmation: boolean;
  /** Whether the tool sends data over the network or to another domain (a message system, a remote store). */
  networkEgress: boolean;
}

/** Who asks: the identity the call is made for. */
export interface PolicyIdentity {
  /**
   * Stable id of the principal, e.g. `user:alice`, `agent:repo-fixer`.
   * @minLength 1
   * @maxLength 256
   */
  principal: string;
  /** `user` (a person), `service` (a non-agent program), `agent` (a model-driven agent or sub-agent). */
  kind: 'user' | 'service' | 'agent';
}

/** What the task allows, as its task contract states it before the run. */
export interface PolicyTaskScope {
  /**
   * Id of the task (or task contract) the call belongs to.
   * @minLength 1
   * @maxLength 256
   */
  taskRef: string;
  /**
   * Tools the task may call.
   * @maxItems 256
   * @uniqueItems true
   */
  allowedTools: PolicyToolName[];
  /**
   * Resources (or resource patterns) the task may touch.
   * @maxItems 256
   * @uniqueItems true
   */
  allowedResources: PolicyResourcePattern[];
}

/** The state of the human approval of this call. */
export interface PolicyApprovalState {
  /** `none` (never asked), `pending` (asked, no answer), `granted`, `denied`. */
  state: 'none' | 'pending' | 'granted' | 'denied';
  /** Id of the approval request or record; `null` exactly when `state` is `none`. */
  approvalRef: NullableNonEmptyString;
}

/** An untrusted observation the run has read before the call: a taint source. */
export interface PolicyTaintSource {
  /**
   * Id of the observation (a trace event id, a tool call id).
   * @minLength 1
   * @maxLength 256
   */
  observationId: string;
  /** What kind of untrusted content it was. Every web page, document, retrieval result, tool output and inbound message is untrusted. */
  kind: 'web-page' | 'document' | 'retrieval' | 'tool-output' | 'message';
  /**
   * Where it came from: a domain, a tool name, a store.
   * @minLength 1
   * @maxLength 1024
   */
  origin: string;
}

/** Where the data of the run has come from, as far as the policy has been told. */
export interface PolicyDataProvenance {
  /** Whether the run has read untrusted content; true exactly when `taintSources` is not empty. */
  tainted: boolean;
  /**
   * The untrusted observations of the run before the call, in the order they were observed.
   * @maxItems 64
   */
  taintSources: PolicyTaintSource[];
}

/** Every input the decision used. */
export interface PermissionDecisionInputs {
  /** Who asks. */
  identity: PolicyIdentity;
  /** What the task allows. */
  taskScope: PolicyTaskScope;
  /** The approval state of the call. */
  approval: PolicyApprovalState;
  /** Where the run's data came from. */
  provenance: PolicyDataProvenance;
}

/**
 * Where a grant comes from: `host-policy` (the host's configuration), `task-contract` (the task's
 * contract, written before the run), `human-approval` (a person granted it for this run),
 * `untrusted-content` (text found in a web page, document or tool output; never a source of
 * rules, so no decision may rest on it).
 */
export type PolicyGrantOrigin = 'host-policy' | 'task-contract' | 'human-approval' | 'untrusted-content';

/** One grant of the host's policy or the task contract, as the host states it to a policy engine. */
export interface PolicyGrant {
  /** Id of the grant in its source. */
  readonly grantId: string;
  /** The tool it grants. */
  readonly tool: string;
  /** The resource pattern it covers (an exact resource, or a prefix ending in `*`). */
  readonly resource: string;
  /** The actions it allows. */
  readonly actions: readonly string[];
  /** Where the grant comes from; a grant of origin `untrusted-content` never matches. */
  readonly origin: PolicyGrantOrigin;
  /** The data-flow policy that lets data of a tainted run leave through this grant, or null. */
  readonly dataFlowPolicyRef: string | null;
  /** The host credential (a `credref:` reference, never a value) injected when the grant allows a call, or null. */
  readonly credentialRef: string | null;
}

/** The grant an `allow` rests on. */
export interface PermissionMatchedGrant {
  /**
   * Id of the grant in its source.
   * @minLength 1
   * @maxLength 256
   */
  grantId: string;
  /** Where the grant comes from. */
  origin: PolicyGrantOrigin;
}

/**
 * A reference to a host-held credential, e.g. `credref:github:repo-fixer`; never the secret itself.
 * @pattern ^credref:[A-Za-z0-9._:-]{1,200}$
 */
export type PolicyCredentialReference = string;

/** A short-lived credential the host injects into the execution (never into the model's context). */
export interface PolicyCredentialRef {
  /** Reference the host resolves at execution time. */
  ref: PolicyCredentialReference;
  /** When the injected credential stops working: after `decidedAt`, at most 3600 s later. */
  expiresAt: Timestamp;
}

/**
 * Why the decision is what it is: `granted` (allow), `no-matching-grant` (default deny),
 * `tool-not-in-task-scope`, `resource-not-in-task-scope`, `approval-denied`,
 * `confirmation-required` (the tool needs a granted approval), `untrusted-data-egress` (the run
 * read untrusted content and the call sends data out, with no data-flow policy and no approval).
 */
export type PermissionReasonCode =
  | 'granted'
  | 'no-matching-grant'
  | 'tool-not-in-task-scope'
  | 'resource-not-in-task-scope'
  | 'approval-denied'
  | 'confirmation-required'
  | 'untrusted-data-egress';

/**
 * One permission decision of a policy gate: for one tool call, on one resource and action, with
 * every input it used. Default deny: `allow` only on a trusted grant within the task's scope.
 */
export interface PermissionDecisionV1 {
  /** Contract discriminator. */
  schemaVersion: 'PermissionDecisionV1';
  /**
   * `"prm-"` + the first 24 hex characters of digestOf(`{runId, callId}`).
   * @pattern ^prm-[a-f0-9]{24}$
   */
  decisionId: string;
  /**
   * The run the call belongs to.
   * @minLength 1
   * @maxLength 256
   */
  runId: string;
  /**
   * The tool call decided, unique within the run.
   * @minLength 1
   * @maxLength 256
   */
  callId: string;
  /** The called tool's facts. */
  tool: PolicyToolFacts;
  /** The resource the call touches (exact, never a pattern). */
  resource: PolicyResourcePattern;
  /** The action on the resource. */
  action: PolicyActionName;
  /** Every input the decision used. */
  inputs: PermissionDecisionInputs;
  /** The grant an `allow` rests on; `null` when no trusted grant covers the call. */
  matchedGrant: PermissionMatchedGrant | null;
  /** The data-flow policy that lets data of a tainted run leave through this call, or `null`. */
  dataFlowPolicyRef: NullableNonEmptyString;
  /** The credential the host injects for an `allow`, or `null` (always `null` unless `allow`). */
  credential: PolicyCredentialRef | null;
  /** `allow`, `deny`, or `requires-approval` (not executed until a person grants it). */
  decision: 'allow' | 'deny' | 'requires-approval';
  /**
   * Why: `["granted"]` for `allow`, otherwise every reason that applies, in the page's order.
   * @minItems 1
   * @maxItems 7
   * @uniqueItems true
   */
  reasonCodes: PermissionReasonCode[];
  /** When the decision was made (the policy's clock). */
  decidedAt: Timestamp;
  /**
   * Digest of the whole document except `decisionDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  decisionDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const PERMISSION_DECISION_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'PermissionDecisionV1',
    gate: 'PermissionPolicyGate',
    summary:
      'One default-deny permission decision for a tool call on a resource and action, with the identity, task scope, approval state and data provenance it used.',
  },
];
