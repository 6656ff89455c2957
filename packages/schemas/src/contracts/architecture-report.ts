import type { ContractEntry, GateName } from '../gates.js';
import type { NullableCompletenessObject, SystemSubjectRef } from './capability-domain.js';
import type { NullableSha256Hex, Timestamp } from './common.js';

/** Names of the 13 output fields, in the order a rendering of the report lists them. */
export type ArchitectureFieldName =
  | 'intentRouting'
  | 'toolPermissionBoundary'
  | 'contextMemoryModel'
  | 'contextAcquisition'
  | 'contextReadReceipt'
  | 'stateMachineHandoff'
  | 'observabilityReplay'
  | 'turnLivenessContract'
  | 'taskContinuityWriteContract'
  | 'humanInLoopBoundary'
  | 'capabilitySurfaceEvidence'
  | 'evidenceMatrix'
  | 'agentCapabilityDomainMatrix';

/** The 13 output fields in rendering order. */
export const ARCHITECTURE_FIELD_ORDER: readonly ArchitectureFieldName[] = [
  'intentRouting',
  'toolPermissionBoundary',
  'contextMemoryModel',
  'contextAcquisition',
  'contextReadReceipt',
  'stateMachineHandoff',
  'observabilityReplay',
  'turnLivenessContract',
  'taskContinuityWriteContract',
  'humanInLoopBoundary',
  'capabilitySurfaceEvidence',
  'evidenceMatrix',
  'agentCapabilityDomainMatrix',
];

/** Fields that may never be `not-applicable`: the gate's routing, tools, context, state, observation and human boundary. */
export const ARCHITECTURE_MANDATORY_FIELDS: readonly ArchitectureFieldName[] = [
  'intentRouting',
  'toolPermissionBoundary',
  'contextMemoryModel',
  'stateMachineHandoff',
  'observabilityReplay',
  'humanInLoopBoundary',
];

/** Evidence kinds that are direct evidence of behaviour (`report` and `memory` are text about it). */
export const DIRECT_EVIDENCE_KINDS: readonly EvidenceRef['kind'][] = ['hook', 'runtime', 'replay', 'tests'];

/** A pointer to one piece of evidence. */
export interface EvidenceRef {
  /**
   * Kind of evidence: `hook` (a host lifecycle hook record or its observed event), `runtime`
   * (state or output captured from the running system), `report` (a written report or design
   * document), `memory` (a persisted memory/summary entry), `replay` (a direct or fixture replay
   * result), `tests` (a test or validator run). Only `hook`, `runtime`, `replay` and `tests` are direct evidence.
   */
  kind: 'hook' | 'runtime' | 'report' | 'memory' | 'replay' | 'tests';
  /**
   * Where the evidence is: a repository-relative path (optionally `#anchor`), a log or trace id,
   * or a test case id.
   * @minLength 1
   * @maxLength 1024
   */
  locator: string;
  /** SHA-256 of the evidence artefact as captured (raw bytes; RFC 8785 form for JSON), or `null` when not pinned. */
  digest: NullableSha256Hex;
}

/**
 * The id of a referenced document, or `null` when its contract has no id field.
 * @minLength 1
 * @maxLength 256
 */
export type NullableDocumentId = string | null;

/**
 * A reference to another contract's document, never the document itself.
 */
export interface ContractDocumentRef {
  /**
   * Name of the referenced contract (its `schemaVersion`), e.g. `ContextReadReceiptV2`.
   * @pattern ^[A-Z][A-Za-z0-9]*V[1-9][0-9]*$
   * @maxLength 128
   */
  contract: string;
  /**
   * The referenced document's own id field (e.g. a `planId`, `traceId` or `matrixId`), or
   * `null` when the contract has no id field.
   */
  documentId: NullableDocumentId;
  /**
   * `digestOf` (RFC 8785 JCS + SHA-256) of the entire referenced document, every field included.
   * @pattern ^[a-f0-9]{64}$
   */
  documentDigest: string;
}

/**
 * A reason, or `null`. Non-null exactly when the field's `status` is `not-applicable`.
 * @minLength 1
 * @maxLength 2000
 */
export type NullableSkipReason = string | null;

/** Status of one report field. */
export type ArchitectureFieldStatus = 'evidenced' | 'unverified' | 'not-applicable';

/** One row of the report: a statement plus the evidence behind it. */
export interface ArchitectureFieldSection {
  /**
   * `evidenced` (the summary is backed by the listed evidence), `unverified` (stated without
   * sufficient evidence; fails the gate for mandatory fields), `not-applicable` (the concern does
   * not arise in this system; `skipReason` says why; forbidden for mandatory fields).
   */
  status: ArchitectureFieldStatus;
  /**
   * What the system does for this concern (the "content" column of the report table).
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /** Why the field does not apply; non-null iff `status` is `not-applicable`. */
  skipReason: NullableSkipReason;
  /**
   * Evidence behind the summary; at least one entry of a direct kind (`hook`, `runtime`, `replay`, `tests`) when `status` is `evidenced`.
   * @maxItems 32
   */
  evidence: EvidenceRef[];
}

/** A report row that is backed by documents of other contracts of this spec. */
export interface ContractBackedFieldSection {
  /**
   * `evidenced` (backed by at least one referenced contract document), `unverified`,
   * `not-applicable` (with `skipReason`).
   */
  status: ArchitectureFieldStatus;
  /**
   * What the system does for this concern.
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /** Why the field does not apply; non-null iff `status` is `not-applicable`. */
  skipReason: NullableSkipReason;
  /**
   * Further evidence (hooks, runtime captures, replays, tests) beside the contract documents.
   * @maxItems 32
   */
  evidence: EvidenceRef[];
  /**
   * The contract documents that back the field, each a contract of the field's gate; at least
   * one when `status` is `evidenced`, none when `not-applicable`.
   * @maxItems 16
   */
  contracts: ContractDocumentRef[];
}

/** One capability surface (a tool, protocol capability or host feature the agent can call) and the evidence of its boundary. */
export interface CapabilitySurfaceEntry {
  /**
   * Id of the central capability-surface decision this entry provides evidence for. The report
   * reads the decision; it never decides or copies the decision's canonical fields.
   * @minLength 1
   * @maxLength 256
   */
  decisionRef: string;
  /**
   * Name of the capability surface, e.g. `tool:shell.exec` or `mcp:filesystem/read_file`.
   * @minLength 1
   * @maxLength 256
   */
  surface: string;
  /**
   * Who controls invocation: `model` (the model decides to call it), `application` (the
   * application code calls it), `user` (a user action triggers it), `host` (the agent host
   * decides and enforces it).
   */
  controllingParty: 'model' | 'application' | 'user' | 'host';
  /**
   * Rights the surface exercises, each at most once, in the order read, write, execute.
   * @minItems 1
   * @maxItems 3
   * @uniqueItems true
   */
  access: Array<'read' | 'write' | 'execute'>;
  /**
   * Who grants and can revoke those rights, e.g. `host permission prompt per call`.
   * @minLength 1
   * @maxLength 1000
   */
  authority: string;
  /**
   * State machine and task semantics of a call: task negotiation, cancellation, timeout and idempotency.
   * @minLength 1
   * @maxLength 2000
   */
  stateAndTask: string;
  /**
   * `verified` only with direct evidence (`hook`, `runtime`, `replay` or `tests`) of the
   * behaviour; `unverified` otherwise, including every behaviour inferred from a name, a
   * document or similarity to another capability.
   */
  evidenceStatus: 'verified' | 'unverified';
  /**
   * Evidence of the entry's boundary.
   * @maxItems 32
   */
  evidence: EvidenceRef[];
}

/** The capability-surface evidence the report provides to central capability-surface decisions. */
export interface CapabilitySurfaceEvidenceSection {
  /**
   * `evidenced` (at least one entry, every entry `verified`), `unverified` (some entry
   * `unverified`), `not-applicable` (no capability surface is added or changed; no entries).
   */
  status: ArchitectureFieldStatus;
  /**
   * Summary of the surfaces and their control.
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /** Why the field does not apply; non-null iff `status` is `not-applicable`. */
  skipReason: NullableSkipReason;
  /**
   * One entry per capability surface, unique by `(decisionRef, surface)`.
   * @maxItems 64
   */
  entries: CapabilitySurfaceEntry[];
}

/** One claim of the report and the evidence behind it. */
export interface EvidenceMatrixRow {
  /**
   * The claim, as one sentence, e.g. `A dispatched mutation is never retried automatically.`
   * @minLength 1
   * @maxLength 1000
   */
  claim: string;
  /** The report field the claim supports, or `null` for a claim about the system as a whole. */
  field: ArchitectureFieldName | null;
  /**
   * Evidence per kind (hook / runtime / report / memory / replay / tests).
   * @maxItems 32
   */
  evidence: EvidenceRef[];
  /** `verified` only when at least one evidence entry is direct (`hook`, `runtime`, `replay`, `tests`). */
  status: 'verified' | 'unverified';
}

/** Claim -> evidence rows. */
export interface EvidenceMatrixSection {
  /**
   * Summary of what the matrix shows.
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /**
   * The claims of the report, unique by `claim`.
   * @minItems 1
   * @maxItems 128
   */
  rows: EvidenceMatrixRow[];
}

/** The capability-domain completeness row: which object the report claims, and the matrix proving it. */
export interface CapabilityDomainMatrixFieldSection {
  /**
   * `evidenced` (one `AgentCapabilityDomainMatrixV1` is referenced), `unverified`,
   * `not-applicable` (the report makes no completeness claim and references no matrix).
   */
  status: ArchitectureFieldStatus;
  /**
   * Summary: object, claim and verdict of the referenced matrix.
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /** Why the field does not apply; non-null iff `status` is `not-applicable`. */
  skipReason: NullableSkipReason;
  /**
   * Further evidence beside the matrix.
   * @maxItems 32
   */
  evidence: EvidenceRef[];
  /**
   * The `AgentCapabilityDomainMatrixV1` document(s): exactly one when `evidenced`, none when `not-applicable`.
   * @maxItems 1
   */
  contracts: ContractDocumentRef[];
  /**
   * The object the report's text claims complete (any "complete/final/no new domains" wording),
   * or `null` when it claims no completeness. A claim needs a matrix whose object is at least
   * this wide and whose verdict is complete.
   */
  claimedObject: NullableCompletenessObject;
}

/**
 * The AiAgentSystemArchitectureGate output of one agent system revision: the 13 fields of the
 * report table, each a statement with its evidence, referring to other contracts' documents by
 * contract name, id and digest.
 */
export interface AiAgentSystemArchitectureReportV1 {
  /** Contract discriminator. */
  schemaVersion: 'AiAgentSystemArchitectureReportV1';
  /**
   * `arch-` + the first 24 hex characters of the digest of `{subject, generatedAt}`.
   * @pattern ^arch-[a-f0-9]{24}$
   */
  reportId: string;
  /** The system and revision the report is about. */
  subject: SystemSubjectRef;
  /** When the report was written. */
  generatedAt: Timestamp;
  /** Intent, routing choice (skill/workflow), mode, and the degradation path. */
  intentRouting: ArchitectureFieldSection;
  /** Tool permissions, who holds them, confirmation, dangerous operations and fallback. */
  toolPermissionBoundary: ArchitectureFieldSection;
  /** Context, memory, handoff, summary and state freshness. */
  contextMemoryModel: ArchitectureFieldSection;
  /** Intent seed, unique target, read plan, selected/excluded sources, full-read reason, fallback (ContextAcquisitionGate contracts). */
  contextAcquisition: ContractBackedFieldSection;
  /** Post-success read receipts: content identity, reuse source, missing sources, completion status (ContextAcquisitionGate contracts). */
  contextReadReceipt: ContractBackedFieldSection;
  /** State machine, recovery, blocking and handoff. */
  stateMachineHandoff: ArchitectureFieldSection;
  /** Replay, fixtures, logs and validator evidence. */
  observabilityReplay: ArchitectureFieldSection;
  /** States, events, lease, ACK, terminal, two-phase checkpoint, local task trace, capability boundary, fault matrix (TurnLivenessRecoveryGate and LocalTaskTraceGate contracts). */
  turnLivenessContract: ContractBackedFieldSection;
  /** Store owner, state/writer fence, canonical write context, operation state machine, terminal/reopen, TTL boundary, negative probes (TaskContinuityWriteGate contracts). */
  taskContinuityWriteContract: ContractBackedFieldSection;
  /** User confirmation, automatic actions, human review and final responsibility. */
  humanInLoopBoundary: ArchitectureFieldSection;
  /** Capability surfaces: decision reference, controlling party, read/write/execute, authority, state/task, direct-evidence boundary. */
  capabilitySurfaceEvidence: CapabilitySurfaceEvidenceSection;
  /** Claim -> hook / runtime / report / memory / replay / tests. */
  evidenceMatrix: EvidenceMatrixSection;
  /** Completeness object -> domain -> owner / boundary / runtime / validation, by reference to an AgentCapabilityDomainMatrixV1. */
  agentCapabilityDomainMatrix: CapabilityDomainMatrixFieldSection;
  /**
   * Digest of the whole document except `reportDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  reportDigest: string;
}

/** Gate of each contract-backed field: a referenced contract's catalogue entry must name one of these gates. */
export const ARCHITECTURE_FIELD_GATES: Readonly<
  Record<
    | 'contextAcquisition'
    | 'contextReadReceipt'
    | 'turnLivenessContract'
    | 'taskContinuityWriteContract'
    | 'agentCapabilityDomainMatrix',
    readonly GateName[]
  >
> = {
  contextAcquisition: ['ContextAcquisitionGate'],
  contextReadReceipt: ['ContextAcquisitionGate'],
  turnLivenessContract: ['TurnLivenessRecoveryGate', 'LocalTaskTraceGate'],
  taskContinuityWriteContract: ['TaskContinuityWriteGate'],
  agentCapabilityDomainMatrix: ['AgentCapabilityDomainCompletenessGate'],
};

// ---------------------------------------------------------------------------------------------
// CapabilitySurfaceEvidenceV1: the evidence one agent system provides to a central
// capability-surface decision, one aspect per field (D-ARC-60).
// ---------------------------------------------------------------------------------------------

/**
 * `verified` (the aspect's value is established by direct evidence of the behaviour) or
 * `unverified` (the seed's `UNVERIFIED`: stated, declared, inferred or unknown).
 */
export type CapabilityAspectStatus = 'verified' | 'unverified';

/**
 * Where the aspect's value comes from: `direct-observation` (hook, runtime, replay or test
 * evidence of this surface), `declaration` (the server's or tool's own description of itself),
 * `name` (inferred from the surface's or agent's name), `similar-capability` (inferred from a
 * capability that looks alike), `none` (nothing is known). Only `direct-observation` can be
 * `verified`.
 */
export type CapabilityAspectBasis =
  | 'direct-observation'
  | 'declaration'
  | 'name'
  | 'similar-capability'
  | 'none';

/** The members every aspect of a capability surface carries beside its value. */
export interface CapabilityAspectBase {
  /** `verified` only with `basis: direct-observation`, a non-null value and direct evidence; `unverified` otherwise. */
  status: CapabilityAspectStatus;
  /** Where the value comes from; only `direct-observation` can be `verified`. */
  basis: CapabilityAspectBasis;
  /**
   * Evidence of this aspect; at least one entry of a direct kind (`hook`, `runtime`, `replay`, `tests`) when `verified`.
   * @maxItems 16
   */
  evidence: EvidenceRef[];
}

/** A controlling party of a capability surface, or `null` when unknown. */
export type NullableControllingParty = 'model' | 'application' | 'user' | 'host' | null;

/** Who controls invocation of the surface. */
export interface ControllingPartyAspect extends CapabilityAspectBase {
  /**
   * `model` (the model decides to call it), `application` (application code calls it), `user`
   * (a user action triggers it), `host` (the agent host decides and enforces it), or `null` when unknown.
   */
  value: NullableControllingParty;
}

/** Whether the surface exercises one access right (read, write or execute). */
export interface AccessAspect extends CapabilityAspectBase {
  /** `true` when the surface exercises the right, `false` when it never does, `null` when unknown. */
  value: boolean | null;
}

/**
 * Who grants and who can revoke the surface's rights, e.g. `host permission prompt per call; the
 * user revokes for the session`, or `null` when unknown.
 * @minLength 1
 * @maxLength 1000
 */
export type NullableAuthority = string | null;

/** Who grants and revokes the surface's rights. */
export interface AuthorityAspect extends CapabilityAspectBase {
  /** Who grants and who can revoke, or `null` when unknown. */
  value: NullableAuthority;
}

/** Task negotiation of a call, or `null` when unknown. */
export type NullableTaskNegotiation = 'none' | 'optional' | 'required' | null;

/** Whether a call runs as a negotiated task. */
export interface TaskNegotiationAspect extends CapabilityAspectBase {
  /**
   * `none` (a call is synchronous; no task is negotiated), `optional` (caller and surface may
   * negotiate a task), `required` (every call runs as a task), or `null` when unknown.
   */
  value: NullableTaskNegotiation;
}

/** Cancellation of a call in flight, or `null` when unknown. */
export type NullableCancellation = 'cancellable' | 'not-cancellable' | null;

/** Whether a call in flight can be cancelled. */
export interface CancellationAspect extends CapabilityAspectBase {
  /** `cancellable`, `not-cancellable`, or `null` when unknown. */
  value: NullableCancellation;
}

/** Timeout of a call, or `null` when unknown. */
export type NullableTimeoutKind = 'bounded' | 'unbounded' | null;

/**
 * The timeout in milliseconds, or `null`; non-null exactly when the value is `bounded`.
 * @TJS-type ["integer", "null"]
 * @minimum 1
 * @maximum 9007199254740991
 */
export type NullableTimeoutMs = number | null;

/** Whether a call is bounded in time. */
export interface TimeoutAspect extends CapabilityAspectBase {
  /** `bounded` (a call ends after `limitMs`), `unbounded` (no timeout applies), or `null` when unknown. */
  value: NullableTimeoutKind;
  /** The timeout in milliseconds; non-null exactly when `value` is `bounded`. */
  limitMs: NullableTimeoutMs;
}

/** Idempotency of a call, or `null` when unknown. */
export type NullableIdempotency = 'idempotent' | 'not-idempotent' | null;

/** Whether repeating a call has the effect of one call. */
export interface IdempotencyAspect extends CapabilityAspectBase {
  /** `idempotent` (a repeated call has the effect of one), `not-idempotent`, or `null` when unknown. */
  value: NullableIdempotency;
}

/** Audit trail of calls, or `null` when unknown. */
export type NullableAudit = 'per-call-record' | 'none' | null;

/** Whether each call leaves an audit record. */
export interface AuditAspect extends CapabilityAspectBase {
  /** `per-call-record` (each call leaves a record its evidence points at), `none`, or `null` when unknown. */
  value: NullableAudit;
}

/** Names of the ten aspects of a capability surface, in field order. */
export type CapabilityAspectName =
  | 'controllingParty'
  | 'read'
  | 'write'
  | 'execute'
  | 'authority'
  | 'taskNegotiation'
  | 'cancellation'
  | 'timeout'
  | 'idempotency'
  | 'audit';

/** The ten aspects in field order. */
export const CAPABILITY_ASPECTS: readonly CapabilityAspectName[] = [
  'controllingParty',
  'read',
  'write',
  'execute',
  'authority',
  'taskNegotiation',
  'cancellation',
  'timeout',
  'idempotency',
  'audit',
];

/**
 * The evidence one agent system provides to a central capability-surface decision about one
 * surface (a tool, protocol capability or host feature the agent can call): each aspect its own
 * field, `verified` only on direct evidence. It reads the decision by `decisionRef` and never
 * decides it or copies its canonical fields (such as a preferred surface).
 */
export interface CapabilitySurfaceEvidenceV1 {
  /** Contract discriminator. */
  schemaVersion: 'CapabilitySurfaceEvidenceV1';
  /**
   * `cse-` + the first 24 hex characters of the digest of `{subject, decisionRef, surface, observedAt}`.
   * @pattern ^cse-[a-f0-9]{24}$
   */
  evidenceId: string;
  /** The system and revision whose surface this is. */
  subject: SystemSubjectRef;
  /**
   * Id of the central capability-surface decision this evidence is for. The document reads the
   * decision; it never decides it or copies its canonical fields.
   * @minLength 1
   * @maxLength 256
   */
  decisionRef: string;
  /**
   * Name of the capability surface, e.g. `tool:shell.exec` or `mcp:filesystem/write_file`.
   * @minLength 1
   * @maxLength 256
   */
  surface: string;
  /** When the evidence was collected. */
  observedAt: Timestamp;
  /** Who controls invocation. */
  controllingParty: ControllingPartyAspect;
  /** Whether the surface reads (files, data, state). */
  read: AccessAspect;
  /** Whether the surface writes (files, data, state). */
  write: AccessAspect;
  /** Whether the surface executes (commands, code, other tools). */
  execute: AccessAspect;
  /** Who grants and revokes the surface's rights. */
  authority: AuthorityAspect;
  /** Whether a call runs as a negotiated task. */
  taskNegotiation: TaskNegotiationAspect;
  /** Whether a call in flight can be cancelled. */
  cancellation: CancellationAspect;
  /** Whether a call is bounded in time. */
  timeout: TimeoutAspect;
  /** Whether repeating a call has the effect of one call. */
  idempotency: IdempotencyAspect;
  /** Whether each call leaves an audit record. */
  audit: AuditAspect;
  /** `verified` exactly when every one of the ten aspects is `verified`; `unverified` otherwise. */
  evidenceStatus: CapabilityAspectStatus;
}

// ---------------------------------------------------------------------------------------------
// AiAgentSystemArchitectureReportV2: every field contract-backed, plus repairRoleBoundary
// (D-ARC-61..64).
// ---------------------------------------------------------------------------------------------

/** Names of the 14 output fields of a V2 report, in rendering order. */
export type ArchitectureV2FieldName = ArchitectureFieldName | 'repairRoleBoundary';

/** The 14 output fields of a V2 report in rendering order: V1's 13, then `repairRoleBoundary`. */
export const ARCHITECTURE_V2_FIELD_ORDER: readonly ArchitectureV2FieldName[] = [
  ...ARCHITECTURE_FIELD_ORDER,
  'repairRoleBoundary',
];

/** V2 fields that may never be `not-applicable`: V1's six and the evidence matrix. */
export const ARCHITECTURE_V2_MANDATORY_FIELDS: readonly ArchitectureV2FieldName[] = [
  ...ARCHITECTURE_MANDATORY_FIELDS,
  'evidenceMatrix',
];

/** What a V2 field may reference: contracts of these gates, and only the listed contracts when `contracts` is not null. */
export interface ArchitectureFieldReferences {
  /** Gates a referenced contract's catalogue entry may name. */
  readonly gates: readonly GateName[];
  /** The only contracts the field may reference, or `null` for any contract of `gates`. */
  readonly contracts: readonly string[] | null;
  /** At most this many references. */
  readonly maxReferences: number;
}

/** What each field of a V2 report references (the table "Allowed references (V2)" of the gate page). */
export const ARCHITECTURE_V2_FIELD_REFERENCES: Readonly<
  Record<ArchitectureV2FieldName, ArchitectureFieldReferences>
> = {
  intentRouting: { gates: ['AgentRoutingGate'], contracts: null, maxReferences: 16 },
  toolPermissionBoundary: {
    gates: ['ToolPermissionBoundaryGate', 'PermissionPolicyGate', 'TaskContractGate'],
    contracts: null,
    maxReferences: 16,
  },
  contextMemoryModel: { gates: ['ContextMemoryStateGate'], contracts: null, maxReferences: 16 },
  contextAcquisition: { gates: ['ContextAcquisitionGate'], contracts: null, maxReferences: 16 },
  contextReadReceipt: { gates: ['ContextAcquisitionGate'], contracts: null, maxReferences: 16 },
  stateMachineHandoff: {
    gates: ['RunControlGate', 'DelegationGate', 'TaskContinuityWriteGate', 'TurnLivenessRecoveryGate'],
    contracts: null,
    maxReferences: 16,
  },
  observabilityReplay: {
    gates: ['ReplayObservabilityGate', 'LocalTaskTraceGate', 'AgentEvaluationGate'],
    contracts: null,
    maxReferences: 16,
  },
  turnLivenessContract: {
    gates: ['TurnLivenessRecoveryGate', 'LocalTaskTraceGate'],
    contracts: null,
    maxReferences: 16,
  },
  taskContinuityWriteContract: { gates: ['TaskContinuityWriteGate'], contracts: null, maxReferences: 16 },
  humanInLoopBoundary: {
    gates: ['ToolPermissionBoundaryGate'],
    contracts: ['HumanInLoopBoundaryV1'],
    maxReferences: 16,
  },
  capabilitySurfaceEvidence: {
    gates: ['AiAgentSystemArchitectureGate'],
    contracts: ['CapabilitySurfaceEvidenceV1'],
    maxReferences: 16,
  },
  evidenceMatrix: { gates: ['ReplayObservabilityGate'], contracts: ['EvidenceMatrixV1'], maxReferences: 1 },
  agentCapabilityDomainMatrix: {
    gates: ['AgentCapabilityDomainCompletenessGate'],
    contracts: ['AgentCapabilityDomainMatrixV1'],
    maxReferences: 1,
  },
  repairRoleBoundary: {
    gates: ['RepairCollaborationRoleBoundaryGate'],
    contracts: ['RepairRoleBoundaryV1'],
    maxReferences: 16,
  },
};

/** A V2 report field: a statement backed by documents of the field's contracts, and further evidence. */
export interface ReferencedFieldSection {
  /**
   * `evidenced` (backed by at least one referenced contract document), `unverified` (stated
   * without a document that backs it; fails the gate for mandatory fields), `not-applicable`
   * (the concern does not arise; `skipReason` says why; forbidden for mandatory fields).
   */
  status: ArchitectureFieldStatus;
  /**
   * What the system does for this concern (the "content" column of the report table).
   * @minLength 1
   * @maxLength 4000
   */
  summary: string;
  /** Why the field does not apply; non-null iff `status` is `not-applicable`. */
  skipReason: NullableSkipReason;
  /**
   * Further evidence (hooks, runtime captures, replays, tests) beside the contract documents.
   * @maxItems 32
   */
  evidence: EvidenceRef[];
  /**
   * The contract documents that back the field, each of a contract the field allows; at least
   * one when `status` is `evidenced`, none when `not-applicable`.
   * @maxItems 16
   */
  contracts: ContractDocumentRef[];
}

/** The V2 evidence-matrix field: one EvidenceMatrixV1 document backs it. */
export interface EvidenceMatrixReferenceSection extends ReferencedFieldSection {
  /**
   * The `EvidenceMatrixV1` document: exactly one when `evidenced`.
   * @maxItems 1
   */
  contracts: ContractDocumentRef[];
}

/**
 * The AiAgentSystemArchitectureGate output of one agent system revision, second version: the 13
 * fields of V1 and `repairRoleBoundary`, each a statement backed by documents of the field's
 * contracts, referenced by contract name, id and digest instead of carried as prose.
 */
export interface AiAgentSystemArchitectureReportV2 {
  /** Contract discriminator. */
  schemaVersion: 'AiAgentSystemArchitectureReportV2';
  /**
   * `arch-` + the first 24 hex characters of the digest of `{subject, generatedAt}` (as in V1).
   * @pattern ^arch-[a-f0-9]{24}$
   */
  reportId: string;
  /** The system and revision the report is about. */
  subject: SystemSubjectRef;
  /** When the report was written. */
  generatedAt: Timestamp;
  /** Intent, skill, mode and degradation path (AgentRoutingGate documents). */
  intentRouting: ReferencedFieldSection;
  /** Tool permissions, dangerous operations, confirmation and fallback (ToolPermissionBoundaryGate, PermissionPolicyGate, TaskContractGate documents). */
  toolPermissionBoundary: ReferencedFieldSection;
  /** State vs context vs memory vs artefacts, handoff, summary, freshness (ContextMemoryStateGate documents). */
  contextMemoryModel: ReferencedFieldSection;
  /** Intent seed, unique target, read plan, selected/excluded sources, full-read reason, fallback (ContextAcquisitionGate documents). */
  contextAcquisition: ReferencedFieldSection;
  /** Post-success read receipts: content identity, reuse source, missing sources, completion status (ContextAcquisitionGate documents). */
  contextReadReceipt: ReferencedFieldSection;
  /** State machine, recovery, blocking and handoff (RunControlGate, DelegationGate, TaskContinuityWriteGate, TurnLivenessRecoveryGate documents). */
  stateMachineHandoff: ReferencedFieldSection;
  /** Replay, fixtures, logs and validator evidence (ReplayObservabilityGate, LocalTaskTraceGate, AgentEvaluationGate documents). */
  observabilityReplay: ReferencedFieldSection;
  /** States, events, lease, ACK, terminal, checkpoint, local task trace, fault matrix (TurnLivenessRecoveryGate, LocalTaskTraceGate documents). */
  turnLivenessContract: ReferencedFieldSection;
  /** Store owner, fences, write context, operation state machine, terminal/reopen, TTL boundary (TaskContinuityWriteGate documents). */
  taskContinuityWriteContract: ReferencedFieldSection;
  /** User confirmation, automatic mode, human review and final responsibility per action class (HumanInLoopBoundaryV1 documents). */
  humanInLoopBoundary: ReferencedFieldSection;
  /** Capability surfaces, one CapabilitySurfaceEvidenceV1 document per surface. */
  capabilitySurfaceEvidence: ReferencedFieldSection;
  /** Claim -> hook / runtime / report / memory / replay / tests, as one EvidenceMatrixV1 document. */
  evidenceMatrix: EvidenceMatrixReferenceSection;
  /** Completeness object -> domain -> owner / boundary / runtime / validation, by reference to an AgentCapabilityDomainMatrixV1. */
  agentCapabilityDomainMatrix: CapabilityDomainMatrixFieldSection;
  /** Repair tasks: deciding/accepting vs executing/verifying roles, authorization evidence, independent re-review (RepairRoleBoundaryV1 documents). */
  repairRoleBoundary: ReferencedFieldSection;
  /**
   * Digest of the whole document except `reportDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  reportDigest: string;
}

/**
 * The id field of each contract whose documents have one (D-ARC-13): the member a
 * `ContractDocumentRef.documentId` must equal. A contract not listed has no id field, and a
 * reference to one of its documents carries `documentId: null`.
 */
export const DOCUMENT_ID_FIELDS: Readonly<Record<string, string>> = {
  ContextReadPlanV1: 'planId',
  ContextReadPlanV2: 'planId',
  ContextReadReceiptV1: 'receiptId',
  ContextReadReceiptV2: 'receiptId',
  ContextReuseDecisionV1: 'decisionId',
  ContextSourceObservationLedgerV1: 'ledgerId',
  TaskOperationRecordV1: 'operationId',
  LocalTaskTraceV1: 'traceId',
  LocalTaskTraceReplayV1: 'traceId',
  EvidenceMatrixV1: 'matrixId',
  RepairRoleBoundaryV1: 'boundaryId',
  AgentCapabilityDomainMatrixV1: 'matrixId',
  AiAgentSystemArchitectureReportV1: 'reportId',
  CapabilitySurfaceEvidenceV1: 'evidenceId',
  AiAgentSystemArchitectureReportV2: 'reportId',
  AgentRouteDecisionV1: 'decisionId',
  ContextMemoryModelV1: 'modelId',
  ToolPermissionBoundaryV1: 'boundaryId',
  HumanInLoopBoundaryV1: 'boundaryId',
  TaskContractV1: 'taskId',
  ToolContractV1: 'toolContractId',
  EvaluationReportV1: 'reportId',
  RunStateV1: 'runId',
  PermissionDecisionV1: 'decisionId',
  DelegationContractV1: 'delegationId',
};

/** Catalogue entries of this area, in spec order. */
export const ARCHITECTURE_REPORT_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'AiAgentSystemArchitectureReportV1',
    gate: 'AiAgentSystemArchitectureGate',
    summary:
      'The 13-field architecture report of one agent system revision, each field a statement with evidence and references to other contracts by id and digest; read-only compatibility since V2.',
    compatibility: 'read-only',
  },
  {
    name: 'CapabilitySurfaceEvidenceV1',
    gate: 'AiAgentSystemArchitectureGate',
    summary:
      'The evidence one agent system provides to a central capability-surface decision about one surface, each aspect its own field, verified only on direct evidence.',
  },
  {
    name: 'AiAgentSystemArchitectureReportV2',
    gate: 'AiAgentSystemArchitectureGate',
    summary:
      'The 14-field architecture report of one agent system revision, every field backed by documents of its gate referenced by contract name, id and digest.',
  },
];
