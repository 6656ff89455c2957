import { derivedId, digestOf } from '@agent-contracts/digest';
import type { RepairRoleBoundaryV1 } from '../contracts/repair-roles.js';
import type { DigestRule } from '../digest-rules.js';

/** `boundaryId`: `rrb-` + 24 hex of the digest of `{subject, repairTaskId}`. */
export function computeRepairBoundaryId(doc: Pick<RepairRoleBoundaryV1, 'subject' | 'repairTaskId'>): string {
  return derivedId('rrb-', { subject: doc.subject, repairTaskId: doc.repairTaskId }, 24);
}

/** `boundaryDigest`: digest of the whole document except `boundaryDigest`. */
export function computeRepairBoundaryDigest(
  doc: Omit<RepairRoleBoundaryV1, 'boundaryDigest'> & { boundaryDigest?: string },
): string {
  const { boundaryDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const REPAIR_ROLES_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'RepairRoleBoundaryV1',
    pointer: '/boundaryId',
    code: 'REPAIR_ROLE_BOUNDARY_ID_MISMATCH',
    covers: '`"rrb-"` + the first 24 hex characters of digestOf(`{subject, repairTaskId}`).',
    compute: (document) => [
      { pointer: '/boundaryId', expected: computeRepairBoundaryId(document as RepairRoleBoundaryV1) },
    ],
  },
  {
    contract: 'RepairRoleBoundaryV1',
    pointer: '/boundaryDigest',
    code: 'REPAIR_ROLE_BOUNDARY_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `boundaryDigest` member): schemaVersion, boundaryId, subject, repairTaskId, recordedAt, status, roleAssignments, authorizationEvidence, executionEvidence, independentReReview and risk.',
    compute: (document) => [
      {
        pointer: '/boundaryDigest',
        expected: computeRepairBoundaryDigest(document as RepairRoleBoundaryV1),
      },
    ],
  },
];
