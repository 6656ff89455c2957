import type { ContractEntry } from '../gates.js';
import type { EvidenceRef } from './architecture-report.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type { Timestamp } from './common.js';

/**
 * A role of a repair task: `decider` (decides that and how the repair is done), `accepter`
 * (accepts the repaired result), `executor` (carries the repair out), `verifier` (checks the
 * executed repair). `decider` and `accepter` are the authority side, `executor` and `verifier` the
 * execution side.
 */
export type RepairRole = 'decider' | 'accepter' | 'executor' | 'verifier';

/** The authority-side roles: deciding and accepting. */
export const REPAIR_AUTHORITY_ROLES: readonly RepairRole[] = ['decider', 'accepter'];
/** The execution-side roles: executing and verifying. */
export const REPAIR_EXECUTION_ROLES: readonly RepairRole[] = ['executor', 'verifier'];

/** A party that holds roles: a person, an agent or a service, by a stable id. */
export interface RepairParty {
  /** `human` (a person), `agent` (an AI agent or model-driven process), `service` (an automated non-agent system, e.g. CI). */
  kind: 'human' | 'agent' | 'service';
  /**
   * Stable id of the party within its kind, e.g. `maintainer:lena` or `agent:repair-bot`. Two
   * parties are the same party when kind and id are equal.
   * @minLength 1
   * @maxLength 256
   */
  id: string;
}

/** One role and the party holding it. */
export interface RepairRoleAssignment {
  /** The role. */
  role: RepairRole;
  /** The party holding it. */
  party: RepairParty;
}

/** The evidence that a party was authorized to hold a role. */
export interface RepairRoleAuthorization {
  /** The role authorized. */
  role: RepairRole;
  /** Who granted the role: the decider for an execution-side role; never the party holding the role. */
  grantedBy: RepairParty;
  /** When the role was granted. */
  grantedAt: Timestamp;
  /**
   * Evidence of the grant (an approval record, a signed ticket, a host permission log); at least
   * one entry pinned by a non-null digest.
   * @minItems 1
   * @maxItems 16
   */
  evidence: EvidenceRef[];
}

/** The re-review of the executed repair by someone other than the executor. */
export interface RepairReReview {
  /** The role the reviewer acts in; never `executor`. */
  role: RepairRole;
  /** The reviewing party; never the executor's party. */
  party: RepairParty;
  /** `confirmed` (the repair does what was decided) or `rejected`. */
  outcome: 'confirmed' | 'rejected';
  /** When the re-review ended. */
  reviewedAt: Timestamp;
  /**
   * The reviewer's own evidence: at least one pinned entry of a direct kind (`hook`, `runtime`,
   * `replay`, `tests`) whose digest is not one of the executor's `executionEvidence` digests.
   * @minItems 1
   * @maxItems 16
   */
  evidence: EvidenceRef[];
}

/** How far a repair's side effects reach, the first criterion of its risk class. */
export type RepairSideEffectLevel = 'none' | 'read' | 'local-write' | 'external-write' | 'irreversible';

/**
 * The risk class of a repair and the coded criteria it is computed from. There is no member for
 * a model, agent or party: who carries the repair out never sets its risk.
 */
export interface RepairRiskClassification {
  /** The widest side effect of the repair, in the tool vocabulary: `none`, `read`, `local-write`, `external-write`, `irreversible`. */
  sideEffectLevel: RepairSideEffectLevel;
  /** What the repair changes: `single-file`, `module`, `repository`, `cross-system`. */
  blastRadius: 'single-file' | 'module' | 'repository' | 'cross-system';
  /** The most sensitive data the repair touches: `none`, `internal`, `personal`, `secret`. */
  dataSensitivity: 'none' | 'internal' | 'personal' | 'secret';
  /** The class the three criteria compute (the page's risk table); validators recompute it. */
  riskClass: 'low' | 'medium' | 'high' | 'critical';
}

const SIDE_EFFECT_RANK: Readonly<Record<RepairSideEffectLevel, number>> = {
  none: 0,
  read: 0,
  'local-write': 1,
  'external-write': 2,
  irreversible: 3,
};
const BLAST_RANK: Readonly<Record<RepairRiskClassification['blastRadius'], number>> = {
  'single-file': 0,
  module: 1,
  repository: 2,
  'cross-system': 3,
};
const DATA_RANK: Readonly<Record<RepairRiskClassification['dataSensitivity'], number>> = {
  none: 0,
  internal: 1,
  personal: 2,
  secret: 3,
};
const CLASSES: readonly RepairRiskClassification['riskClass'][] = ['low', 'medium', 'high', 'critical'];

/**
 * The risk class of a repair, computed from its coded criteria alone (the page's risk table): the
 * highest rank among side effect, blast radius and data sensitivity. No party, model or agent
 * name is an input.
 *
 * @example
 * repairRiskClass({ sideEffectLevel: 'local-write', blastRadius: 'module', dataSensitivity: 'none' }); // 'medium'
 */
export function repairRiskClass(
  criteria: Pick<RepairRiskClassification, 'sideEffectLevel' | 'blastRadius' | 'dataSensitivity'>,
): RepairRiskClassification['riskClass'] {
  const rank = Math.max(
    SIDE_EFFECT_RANK[criteria.sideEffectLevel],
    BLAST_RANK[criteria.blastRadius],
    DATA_RANK[criteria.dataSensitivity],
  );
  return CLASSES[rank]!;
}

/** Where a repair task stands. */
export type RepairStatus = 'proposed' | 'authorized' | 'executed' | 'verified' | 'accepted' | 'rejected';

/**
 * The RepairCollaborationRoleBoundaryGate output of one repair task: who decides, accepts,
 * executes and verifies, the authorization of each, the independent re-review, and a risk class
 * computed from coded criteria.
 */
export interface RepairRoleBoundaryV1 {
  /** Contract discriminator. */
  schemaVersion: 'RepairRoleBoundaryV1';
  /**
   * `rrb-` + the first 24 hex characters of the digest of `{subject, repairTaskId}`.
   * @pattern ^rrb-[a-f0-9]{24}$
   */
  boundaryId: string;
  /** The system and revision the repair is made to. */
  subject: SystemSubjectRef;
  /**
   * The repair task's id in the system's task store or tracker, e.g. `repair-2026-118`.
   * @minLength 1
   * @maxLength 256
   */
  repairTaskId: string;
  /** When the document was written. */
  recordedAt: Timestamp;
  /**
   * `proposed`, `authorized` (roles granted), `executed`, `verified`, `accepted` or `rejected`.
   */
  status: RepairStatus;
  /**
   * One assignment per role, each of the four roles exactly once.
   * @minItems 1
   * @maxItems 8
   */
  roleAssignments: RepairRoleAssignment[];
  /**
   * One authorization per assigned role.
   * @maxItems 8
   */
  authorizationEvidence: RepairRoleAuthorization[];
  /**
   * The executor's evidence of the executed repair (its test run, diff, replay).
   * @maxItems 16
   */
  executionEvidence: EvidenceRef[];
  /** The independent re-review, or `null` when none has happened. */
  independentReReview: RepairReReview | null;
  /** The risk class and the coded criteria it is computed from. */
  risk: RepairRiskClassification;
  /**
   * Digest of the whole document except `boundaryDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  boundaryDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const REPAIR_ROLES_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'RepairRoleBoundaryV1',
    gate: 'RepairCollaborationRoleBoundaryGate',
    summary:
      'The role boundary of one repair task: decider, accepter, executor and verifier with their authorization evidence, an independent re-review, and a risk class computed from coded criteria.',
  },
];
