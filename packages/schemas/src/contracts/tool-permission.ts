import type { ContractEntry } from '../gates.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type { Timestamp } from './common.js';

/**
 * A class of permission a tool call needs: `file-read`, `file-write`, `file-delete`,
 * `command-execute` (run a shell or process command), `network-egress` (open a connection out of
 * the machine), `credential-use` (act with a stored secret or token).
 */
export type PermissionClass =
  | 'file-read'
  | 'file-write'
  | 'file-delete'
  | 'command-execute'
  | 'network-egress'
  | 'credential-use';

/** The permission classes only the host may hold: file, delete and command permissions. */
export const HOST_OWNED_PERMISSION_CLASSES: readonly PermissionClass[] = [
  'file-read',
  'file-write',
  'file-delete',
  'command-execute',
];

/**
 * The state of the permission adapter (the bridge between the agent runtime and the host's own
 * permission system) that a behaviour is declared for.
 */
export type PermissionAdapterState = 'missing' | 'failed' | 'invalid' | 'outside-workspace';

/** The four adapter states every ToolPermissionBoundaryV1 declares a behaviour for, in this order. */
export const PERMISSION_ADAPTER_STATES: readonly PermissionAdapterState[] = [
  'missing',
  'failed',
  'invalid',
  'outside-workspace',
];

/**
 * Stable kebab-case id of an operation, unique within its document, e.g. `delete-workspace-file`.
 * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
 * @maxLength 128
 */
export type OperationId = string;

/** Who holds one permission class. */
export interface PermissionHolderRef {
  /**
   * Kind of holder: `host` (the agent host the system runs inside: an IDE, CLI or desktop host
   * with its own permission prompts), `agent-runtime` (the agent system's own code), `model`
   * (the language model), `user` (the person at the keyboard, outside any host prompt),
   * `external-service` (a third-party service). For `file-read`, `file-write`, `file-delete` and
   * `command-execute` only `host` is valid.
   */
  kind: 'host' | 'agent-runtime' | 'model' | 'user' | 'external-service';
  /**
   * Name of the holder, e.g. `ide-host` or `example-cli-host`.
   * @minLength 1
   * @maxLength 256
   */
  name: string;
}

/** Who holds one permission class, and what the agent runtime does for it. */
export interface PermissionOwnerRecord {
  /** The permission class; at most one record per class. */
  permissionClass: PermissionClass;
  /** Who grants or refuses the permission. */
  holder: PermissionHolderRef;
  /**
   * What the agent runtime contributes for this class: `none`, `risk-advisory` (it tells the
   * holder how risky a call looks), `workflow-validity` (it refuses calls its own workflow does
   * not allow, e.g. a write outside a planned step, and says so). Neither grants a permission.
   */
  runtimeRole: 'none' | 'risk-advisory' | 'workflow-validity';
}

/** One dangerous operation and the confirmation it needs. */
export interface DangerousOperation {
  /** Id of the operation, unique within `dangerousOperations`. */
  operationId: OperationId;
  /** The permission class the operation uses. */
  permissionClass: PermissionClass;
  /**
   * What the operation can change: `local-write` (files of the workspace, undoable from
   * version control or a backup), `external-write` (state outside the machine), `irreversible`
   * (nothing restores it: a deletion outside version control, a payment, a sent message).
   */
  sideEffectLevel: 'local-write' | 'external-write' | 'irreversible';
  /**
   * The confirmation the operation needs before it runs: `per-invocation` (each call),
   * `per-session` (once per session, for calls of the same operation), `none` (never valid for
   * a dangerous operation: TOOL_PERMISSION_CONFIRMATION_MISSING).
   */
  confirmation: 'per-invocation' | 'per-session' | 'none';
  /**
   * Whether automatic mode (or any other standing approval) may waive the confirmation. `false`
   * for an `irreversible` operation.
   */
  waivable: boolean;
  /**
   * What the operation is, in one sentence, e.g. `delete a file of the workspace`.
   * @minLength 1
   * @maxLength 500
   */
  description: string;
}

/** What automatic mode (the mode in which the agent proceeds without asking) may waive. */
export interface AutomaticModePolicy {
  /** Whether the system has an automatic mode at all. */
  enabled: boolean;
  /**
   * The `operationId`s whose confirmation automatic mode waives; each names a listed dangerous
   * operation whose confirmation is `waivable`. Empty when automatic mode waives nothing.
   * @maxItems 64
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   * @items.maxLength 128
   */
  waivedConfirmations: string[];
}

/**
 * The fallback an adapter behaviour uses, or `null` for any behaviour other than `use-fallback`.
 * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
 * @maxLength 128
 */
export type NullableFallbackId = string | null;

/** What the runtime does when the permission adapter is in one state. */
export interface AdapterStateBehaviour {
  /** The adapter state; each of the four states exactly once. */
  state: PermissionAdapterState;
  /**
   * The behaviour: `defer-to-host` (the host's own permission decision stands, the runtime adds
   * none), `report-unverified` (the runtime proceeds under the host's decision and reports the
   * boundary as unverified), `use-fallback` (the fallback named by `fallbackId`),
   * `local-shadow-deny` (the runtime refuses calls by a permission rule of its own that the host
   * never made; never valid: TOOL_PERMISSION_SHADOW_DENY).
   */
  behaviour: 'defer-to-host' | 'report-unverified' | 'use-fallback' | 'local-shadow-deny';
  /** The fallback taken; non-null exactly when `behaviour` is `use-fallback`. */
  fallbackId: NullableFallbackId;
}

/** One explicit fallback: when it is taken and what it falls back to. */
export interface PermissionFallback {
  /** Id of the fallback, unique within `fallbacks`. */
  fallbackId: OperationId;
  /**
   * What triggers it: `adapter-missing`, `adapter-failed`, `adapter-invalid`,
   * `adapter-outside-workspace` (the adapter in that state), `tool-unavailable` (the structured
   * tool is not offered by the host), `confirmation-unavailable` (the host cannot show a
   * confirmation prompt).
   */
  trigger:
    | 'adapter-missing'
    | 'adapter-failed'
    | 'adapter-invalid'
    | 'adapter-outside-workspace'
    | 'tool-unavailable'
    | 'confirmation-unavailable';
  /**
   * What it falls back to: `host-native-prompt` (the host's own permission prompt, without the
   * adapter), `read-only` (the task continues with read operations only), `manual-instruction`
   * (the user is told the command to run; the runtime runs nothing), `stop-and-report` (the task
   * stops and says why).
   */
  target: 'host-native-prompt' | 'read-only' | 'manual-instruction' | 'stop-and-report';
  /**
   * What the user sees when the fallback is taken, in one sentence.
   * @minLength 1
   * @maxLength 500
   */
  description: string;
}

/**
 * The tool permission boundary of one agent system revision: who holds each permission class,
 * which operations are dangerous and the confirmation each needs, what automatic mode may waive,
 * what the runtime does in each permission-adapter state, and its explicit fallbacks.
 */
export interface ToolPermissionBoundaryV1 {
  /** Contract discriminator. */
  schemaVersion: 'ToolPermissionBoundaryV1';
  /**
   * Identity of "this system revision's tool boundary": `tpb-` + the first 24 hex characters of
   * the digest of `{subject}`.
   * @pattern ^tpb-[a-f0-9]{24}$
   */
  boundaryId: string;
  /** The system and revision the boundary is about. */
  subject: SystemSubjectRef;
  /** When the boundary was declared. */
  declaredAt: Timestamp;
  /**
   * One record per permission class the system uses; every host-owned class (`file-read`,
   * `file-write`, `file-delete`, `command-execute`) is present.
   * @minItems 1
   * @maxItems 6
   */
  permissionOwners: PermissionOwnerRecord[];
  /**
   * The dangerous operations, each with its confirmation; at least one for `file-delete` and one
   * for `command-execute`.
   * @minItems 1
   * @maxItems 64
   */
  dangerousOperations: DangerousOperation[];
  /** What automatic mode may waive. */
  automaticMode: AutomaticModePolicy;
  /**
   * One behaviour per permission-adapter state, each of the four states exactly once.
   * @minItems 1
   * @maxItems 4
   */
  adapterStates: AdapterStateBehaviour[];
  /**
   * The explicit fallbacks, each with its trigger and target. Empty when the system has none.
   * @maxItems 16
   */
  fallbacks: PermissionFallback[];
  /**
   * Digest of the whole document except `boundaryDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  boundaryDigest: string;
}

/** The human-in-the-loop boundary of one action class. */
export interface HumanLoopActionClass {
  /** Id of the action class, unique within `actionClasses`, e.g. `delete-files`. */
  actionClass: OperationId;
  /**
   * The dangerous operations (`operationId`s of the ToolPermissionBoundaryV1 named by
   * `toolPermissionBoundaryId`) the class covers. Empty for an action class that uses no
   * dangerous operation (e.g. publishing a summary).
   * @maxItems 64
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   * @items.maxLength 128
   */
  operations: string[];
  /** `irreversible` when nothing restores what an action of the class changes; else `reversible`. */
  reversibility: 'reversible' | 'irreversible';
  /**
   * The user confirmation the class needs outside automatic mode: `each-action`, `once-per-session`, `not-required`.
   */
  userConfirmation: 'each-action' | 'once-per-session' | 'not-required';
  /**
   * What automatic mode may do with the class: `not-allowed` (automatic mode stops and asks the
   * user to leave it), `with-confirmation` (it proceeds but still asks for each confirmation the
   * class needs), `without-confirmation` (it proceeds without asking).
   */
  automaticMode: 'not-allowed' | 'with-confirmation' | 'without-confirmation';
  /**
   * When a human reviews an action of the class: `before-action` (a human approves the
   * concrete action before it runs), `after-action` (a human reviews the outcome), `none`.
   */
  humanReview: 'before-action' | 'after-action' | 'none';
  /**
   * Who bears final responsibility for an action of the class: `user` (the person who started
   * the task), `operator` (the person or team that runs the deployment), `organization` (the
   * organization that owns the deployment), `model` or `agent` (never valid:
   * HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN; responsibility stays with a person or an organization).
   */
  finalResponsibility: 'user' | 'operator' | 'organization' | 'model' | 'agent';
}

/**
 * The human-in-the-loop boundary of one agent system revision: per action class, the user
 * confirmation, what automatic mode may do, the human review and who bears final responsibility.
 */
export interface HumanInLoopBoundaryV1 {
  /** Contract discriminator. */
  schemaVersion: 'HumanInLoopBoundaryV1';
  /**
   * Identity of "this system revision's human-in-the-loop boundary": `hil-` + the first 24 hex
   * characters of the digest of `{subject}`.
   * @pattern ^hil-[a-f0-9]{24}$
   */
  boundaryId: string;
  /** The system and revision the boundary is about. */
  subject: SystemSubjectRef;
  /** When the boundary was declared. */
  declaredAt: Timestamp;
  /**
   * The `boundaryId` of the ToolPermissionBoundaryV1 of the same revision whose operations the
   * action classes name.
   * @pattern ^tpb-[a-f0-9]{24}$
   */
  toolPermissionBoundaryId: string;
  /**
   * One record per action class.
   * @minItems 1
   * @maxItems 64
   */
  actionClasses: HumanLoopActionClass[];
  /**
   * Digest of the whole document except `boundaryDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  boundaryDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const TOOL_PERMISSION_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'ToolPermissionBoundaryV1',
    gate: 'ToolPermissionBoundaryGate',
    summary:
      'Who holds each permission class, the dangerous operations with their confirmation and waivability, what automatic mode waives, the behaviour per permission-adapter state and the explicit fallbacks of one agent system revision.',
  },
  {
    name: 'HumanInLoopBoundaryV1',
    gate: 'ToolPermissionBoundaryGate',
    summary:
      'Per action class of one agent system revision: user confirmation, what automatic mode may do, human review and who bears final responsibility.',
  },
];
