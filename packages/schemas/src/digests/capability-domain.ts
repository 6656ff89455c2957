import { derivedId, digestOf } from '@agent-contracts/digest';
import type { AgentCapabilityDomainMatrixV1 } from '../contracts/capability-domain.js';
import type { DigestRule } from '../digest-rules.js';

/** `matrixId`: `acdm-` + 24 hex of the digest of `{subject: {system}, completenessObject}`. */
export function computeMatrixId(
  doc: Pick<AgentCapabilityDomainMatrixV1, 'subject' | 'completenessObject'>,
): string {
  return derivedId(
    'acdm-',
    { subject: { system: doc.subject.system }, completenessObject: doc.completenessObject },
    24,
  );
}

/** `matrixDigest`: digest of the whole document except `matrixDigest`. */
export function computeMatrixDigest(
  doc: Omit<AgentCapabilityDomainMatrixV1, 'matrixDigest'> & { matrixDigest?: string },
): string {
  const { matrixDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const CAPABILITY_DOMAIN_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'AgentCapabilityDomainMatrixV1',
    pointer: '/matrixId',
    code: 'CAPABILITY_MATRIX_ID_MISMATCH',
    covers:
      '`"acdm-"` + the first 24 hex characters of digestOf(`{subject: {system: subject.system}, completenessObject}`); `subject.revision` is excluded so the id is stable across revisions.',
    compute: (document) => [
      { pointer: '/matrixId', expected: computeMatrixId(document as AgentCapabilityDomainMatrixV1) },
    ],
  },
  {
    contract: 'AgentCapabilityDomainMatrixV1',
    pointer: '/matrixDigest',
    code: 'CAPABILITY_MATRIX_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `matrixDigest` member): schemaVersion, matrixId, subject, completenessObject, claim, evaluatedAt, domains and verdict.',
    compute: (document) => [
      { pointer: '/matrixDigest', expected: computeMatrixDigest(document as AgentCapabilityDomainMatrixV1) },
    ],
  },
];
