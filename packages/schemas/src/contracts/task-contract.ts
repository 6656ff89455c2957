import type { ContractEntry } from '../gates.js';
import type { CurrencyCode, RunBudget } from './budget.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type {
  NonNegativeInteger,
  NullableSha256Hex,
  PositiveInteger,
  Sha256Hex,
  Timestamp,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Shared vocabulary of the TaskContractGate: what a task may do (written before the run) and what
// each tool it may call promises. Sub-shapes are inlined into the two contracts below.
// ---------------------------------------------------------------------------------------------

/**
 * How far a tool call reaches, ordered from no effect to an effect that cannot be undone:
 * `none` (pure computation), `read` (reads state, changes nothing), `local-write` (writes inside
 * the run's own recoverable workspace), `external-write` (changes state outside the workspace:
 * a remote API, a message, a shared store), `irreversible` (an external effect that no
 * compensation undoes: a payment, a production deploy, a sent e-mail).
 */
export type SideEffectLevel = 'none' | 'read' | 'local-write' | 'external-write' | 'irreversible';

/** Side-effect levels in rank order (index = rank): a level covers every level before it. */
export const SIDE_EFFECT_LEVELS: readonly SideEffectLevel[] = [
  'none',
  'read',
  'local-write',
  'external-write',
  'irreversible',
];

/**
 * Name of a tool as the model requests it and the policy engine matches it, e.g. `write_file`.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[A-Za-z][A-Za-z0-9_.:-]*$
 */
export type ToolName = string;

/**
 * Stable kebab-case name of a completion criterion or a tool error, unique in its list.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
 */
export type CheckName = string;

/**
 * A repository- or workspace-relative path (no leading `/`, no `..` segment), or `null`.
 * @minLength 1
 * @maxLength 1024
 * @pattern ^(?!/)(?!.*(^|/)\.\.(/|$)).+$
 */
export type NullableRelativePath = string | null;

/**
 * A regular expression (ECMAScript syntax) a file's text must match, or `null`.
 * @minLength 1
 * @maxLength 1024
 */
export type NullablePattern = string | null;

/**
 * An exit code from 0 to 255, or `null`.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 255
 */
export type NullableExitCode = number | null;

/** An embedded JSON Schema (draft-07) as an object; its size is bounded by the gate's limits. */
export type EmbeddedJsonSchema = { [key: string]: unknown };

/** An embedded JSON Schema, or `null`. */
export type NullableEmbeddedJsonSchema = EmbeddedJsonSchema | null;

/** One resource a task may touch or a tool may reach. */
export interface ResourceScope {
  /**
   * Kind of resource: `workspace-path` (a path or glob inside the run's workspace), `repository`
   * (a VCS repository), `network-host` (a host name the call may reach), `service` (a named
   * external service or API), `credential-ref` (a reference to a host-injected credential, never
   * the credential itself).
   */
  kind: 'workspace-path' | 'repository' | 'network-host' | 'service' | 'credential-ref';
  /**
   * The resource, e.g. `src/**`, `git:acme/web`, `api.example.com`, `cred:github-pr-bot`.
   * @minLength 1
   * @maxLength 512
   */
  locator: string;
  /** What may be done to it: `read` only, or `read-write`. */
  access: 'read' | 'read-write';
}

/**
 * The closed kinds of completion check: `command` (run an argv, compare its exit code),
 * `file-predicate` (a predicate on one workspace file), `json-schema` (a produced JSON document
 * must satisfy an embedded schema). There is no kind for the model's own statement that it is done.
 */
export type CompletionCheckKind = 'command' | 'file-predicate' | 'json-schema';

/** The predicates of a `file-predicate` check. */
export type FilePredicate = 'exists' | 'absent' | 'digest-equals' | 'matches';

/** One named completion check, checkable by a machine before and after the run. */
export interface CompletionCriterion {
  /** Name of the check, unique in the task. */
  name: CheckName;
  /**
   * What the check shows, for a reviewer.
   * @minLength 1
   * @maxLength 1000
   */
  description: string;
  /** Kind of check; decides which of the members below must be non-null. */
  kind: CompletionCheckKind;
  /**
   * `command`: the argv to run in the workspace, e.g. `["pnpm", "test", "test/login.test.ts"]`; empty for the other kinds.
   * @maxItems 64
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 1024
   */
  command: string[];
  /** `command`: the exit code that means the check passed; `null` for the other kinds. */
  expectedExitCode: NullableExitCode;
  /** `file-predicate`: the file judged; `json-schema`: the produced document; `null` for `command`. */
  path: NullableRelativePath;
  /** `file-predicate`: the predicate; `null` for the other kinds. */
  predicate: FilePredicate | null;
  /** `file-predicate` with `digest-equals`: SHA-256 of the file's raw bytes; else `null`. */
  digest: NullableSha256Hex;
  /** `file-predicate` with `matches`: the pattern the file's text must match; else `null`. */
  pattern: NullablePattern;
  /** `json-schema`: the schema the document at `path` must satisfy; `null` for the other kinds. */
  schema: NullableEmbeddedJsonSchema;
}

/** A tool the task may call, with the facts of its ToolContractV1 the task relies on. */
export interface TaskToolRef {
  /** The tool's name, as its ToolContractV1 states it. */
  toolName: ToolName;
  /** The tool's side-effect level, as its ToolContractV1 states it. */
  sideEffectLevel: SideEffectLevel;
  /** `contractDigest` of the tool's ToolContractV1. */
  toolContractDigest: Sha256Hex;
}

/** What the task may spend, touch and change. */
export interface TaskConstraints {
  /**
   * Resources the task may touch; anything not listed is out of scope.
   * @maxItems 64
   */
  resources: ResourceScope[];
  /**
   * The side-effect levels the task allows; a tool of another level may not be in `tools`.
   * @minItems 1
   * @maxItems 5
   * @uniqueItems true
   */
  allowedSideEffects: SideEffectLevel[];
  /**
   * The tools the task may call (the model sees no other).
   * @maxItems 128
   */
  tools: TaskToolRef[];
  /** The hard limits of the run. */
  budget: RunBudget;
}

/**
 * A task contract, written before the run: the goal, the machine-checkable criteria that alone
 * decide success, and the resources, side effects, tools and budget the run may use.
 */
export interface TaskContractV1 {
  /** Contract discriminator. */
  schemaVersion: 'TaskContractV1';
  /**
   * `ttc-` + the first 24 hex characters of the digest of `{subject: {system}, taskName}`: the
   * same task of the same system keeps its id across revisions of the contract.
   * @pattern ^ttc-[a-f0-9]{24}$
   */
  taskId: string;
  /** The agent system the task is given to. */
  subject: SystemSubjectRef;
  /** Stable kebab-case name of the task, e.g. `fix-login-redirect`. */
  taskName: CheckName;
  /**
   * What the run must change, in one paragraph.
   * @minLength 1
   * @maxLength 4000
   */
  goal: string;
  /**
   * The checks that decide success; the run succeeds only when every one passes.
   * @minItems 1
   * @maxItems 32
   */
  completionCriteria: CompletionCriterion[];
  /** What the run may spend, touch and change. */
  constraints: TaskConstraints;
  /** When the contract was written (before the run). */
  createdAt: Timestamp;
  /**
   * Digest of the whole document except `contractDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  contractDigest: string;
}

/**
 * The four classes of tool error: `business-rejection` (the tool refused the request on its
 * merits: nothing happened), `transient` (it failed for a reason that may pass: nothing
 * happened), `permanent` (it will fail again: nothing happened), `unknown-outcome` (the effect
 * may or may not have happened, e.g. a remote write that timed out).
 */
export type ToolErrorClass = 'business-rejection' | 'transient' | 'permanent' | 'unknown-outcome';

/**
 * What the caller does after an error: `fix-input` (change the arguments), `retry-with-backoff`
 * (call again after a delay), `query-then-retry` (ask the effect route whether the effect
 * happened, retry only if it did not), `compensate` (undo the effect through the compensation
 * route), `replan`, `hand-over` (to a human), `fail` (end the run as failed).
 */
export type ToolErrorNextStep =
  | 'fix-input'
  | 'retry-with-backoff'
  | 'query-then-retry'
  | 'compensate'
  | 'replan'
  | 'hand-over'
  | 'fail';

/** One error a tool can return. */
export interface ToolErrorSpec {
  /** The tool's own error code, unique in the contract, e.g. `remote-timeout`. */
  errorCode: CheckName;
  /** The class of the error. */
  errorClass: ToolErrorClass;
  /** What the caller does next. */
  nextStep: ToolErrorNextStep;
  /**
   * When the tool returns it.
   * @minLength 1
   * @maxLength 1000
   */
  description: string;
}

/** A precondition the host checks before the call. */
export interface ToolPrecondition {
  /** Name of the precondition, e.g. `file-version-matches`. */
  name: CheckName;
  /**
   * What must hold.
   * @minLength 1
   * @maxLength 1000
   */
  description: string;
}

/** How the tool's key for repeated calls is formed. */
export interface ToolIdempotency {
  /** `key`: a call carries an idempotency key, a repeat with the same key has no second effect; `none`: no such guarantee. */
  kind: 'key' | 'none';
  /**
   * `key`: the top-level input property that carries the key; `null` with `none`.
   * @minLength 1
   * @maxLength 128
   */
  keyField: string | null;
}

/** How the host retries a failed call. */
export interface ToolRetryPolicy {
  /** Whether the host may retry a call that failed with a `transient` error. */
  retryable: boolean;
  /** Most attempts of one call, the first included (1 with `retryable: false`). */
  maxAttempts: PositiveInteger;
  /** Delay before the first retry, in milliseconds; doubled on each further retry. */
  initialBackoffMs: NonNegativeInteger;
}

/**
 * A tool name of the same host, or `null` when there is none.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[A-Za-z][A-Za-z0-9_.:-]*$
 */
export type NullableToolName = string | null;

/** How the caller learns whether an external effect happened, and how it undoes one. */
export interface ToolEffectRoutes {
  /** A read-only tool that answers whether the call's effect happened (by idempotency key or request id), or `null`. */
  queryTool: NullableToolName;
  /** A tool that undoes the call's effect, or `null`. */
  compensationTool: NullableToolName;
}

/** What one call costs. */
export interface ToolCost {
  /** Expected cost of one call, in millionths of `currency`. */
  perCallMicros: NonNegativeInteger;
  /** Currency of `perCallMicros` (ISO 4217). */
  currency: CurrencyCode;
}

/** What a tool's permission covers. */
export interface ToolPermissionScope {
  /**
   * The permission names the call needs, e.g. `repo:write`.
   * @maxItems 32
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 128
   */
  scopes: string[];
  /**
   * The resources the call may reach.
   * @maxItems 64
   */
  resources: ResourceScope[];
}

/**
 * A tool contract: what the model may request, and how the host judges, runs and interprets the
 * request: typed input and output, preconditions, permissions, side effects, confirmation,
 * timeout, cost, idempotency, retries, the query and compensation routes of an external effect,
 * and the classed errors with their next steps.
 */
export interface ToolContractV1 {
  /** Contract discriminator. */
  schemaVersion: 'ToolContractV1';
  /**
   * `tool-` + the first 24 hex characters of the digest of `{toolName, toolVersion}`.
   * @pattern ^tool-[a-f0-9]{24}$
   */
  toolContractId: string;
  /** The tool's name. */
  toolName: ToolName;
  /**
   * The tool's version, e.g. `2.3.0`.
   * @minLength 1
   * @maxLength 64
   */
  toolVersion: string;
  /**
   * What the tool is for, in one paragraph.
   * @minLength 1
   * @maxLength 2000
   */
  purpose: string;
  /** JSON Schema of the call's arguments (a `type: object` schema). */
  inputSchema: EmbeddedJsonSchema;
  /** JSON Schema of a successful result. */
  outputSchema: EmbeddedJsonSchema;
  /**
   * What the host checks before the call.
   * @maxItems 32
   */
  preconditions: ToolPrecondition[];
  /** What the call's permission covers. */
  permissionScope: ToolPermissionScope;
  /** How far the call reaches. */
  sideEffectLevel: SideEffectLevel;
  /** Whether a human must confirm each call before it runs. */
  requiresConfirmation: boolean;
  /** Whether the call sends data off the host (network or another domain). */
  networkEgress: boolean;
  /** Most time one attempt may take, in milliseconds. */
  timeoutMs: PositiveInteger;
  /** What one call costs. */
  cost: ToolCost;
  /** How repeated calls are made safe. */
  idempotency: ToolIdempotency;
  /** How failed calls are retried. */
  retry: ToolRetryPolicy;
  /** How an external effect is queried or undone. */
  effectRoutes: ToolEffectRoutes;
  /**
   * Every error the tool can return.
   * @minItems 1
   * @maxItems 64
   */
  errors: ToolErrorSpec[];
  /**
   * Digest of the whole document except `contractDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  contractDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const TASK_CONTRACT_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'TaskContractV1',
    gate: 'TaskContractGate',
    summary:
      'A task written before its run: the goal, the machine-checkable completion criteria that alone decide success, and the resources, side effects, tools and budget allowed.',
  },
  {
    name: 'ToolContractV1',
    gate: 'TaskContractGate',
    summary:
      'What a tool promises: typed input and output, preconditions, permissions, side-effect level, confirmation, timeout, cost, idempotency, retries, effect query and compensation, classed errors with next steps.',
  },
];
