import { derivedId, digestOf } from '@agent-contracts/digest';
import type { PermissionDecisionV1 } from '../contracts/permission-decision.js';
import type { DigestRule } from '../digest-rules.js';

/** `decisionId`: `prm-` + 24 hex of the digest of `{runId, callId}`. */
export function computeDecisionId(doc: Pick<PermissionDecisionV1, 'runId' | 'callId'>): string {
  return derivedId('prm-', { runId: doc.runId, callId: doc.callId }, 24);
}

/** `decisionDigest`: digest of the whole document except `decisionDigest`. */
export function computeDecisionDigest(
  doc: Omit<PermissionDecisionV1, 'decisionDigest'> & { decisionDigest?: string },
): string {
  const { decisionDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const PERMISSION_DECISION_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'PermissionDecisionV1',
    pointer: '/decisionId',
    code: 'PERMISSION_DECISION_ID_MISMATCH',
    covers: '`"prm-"` + the first 24 hex characters of digestOf(`{runId, callId}`).',
    compute: (document) => [
      { pointer: '/decisionId', expected: computeDecisionId(document as PermissionDecisionV1) },
    ],
  },
  {
    contract: 'PermissionDecisionV1',
    pointer: '/decisionDigest',
    code: 'PERMISSION_DECISION_DIGEST_MISMATCH',
    covers: 'digestOf(the whole document without the `decisionDigest` member).',
    compute: (document) => [
      { pointer: '/decisionDigest', expected: computeDecisionDigest(document as PermissionDecisionV1) },
    ],
  },
];
