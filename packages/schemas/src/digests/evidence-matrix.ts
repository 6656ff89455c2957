import { derivedId, digestOf } from '@agent-contracts/digest';
import type { EvidenceMatrixV1 } from '../contracts/evidence-matrix.js';
import type { DigestRule } from '../digest-rules.js';

/** `matrixId` of an evidence matrix: `evmx-` + 24 hex of the digest of `{subject, generatedAt}`. */
export function computeEvidenceMatrixId(doc: Pick<EvidenceMatrixV1, 'subject' | 'generatedAt'>): string {
  return derivedId('evmx-', { subject: doc.subject, generatedAt: doc.generatedAt }, 24);
}

/** `matrixDigest` of an evidence matrix: digest of the whole document except `matrixDigest`. */
export function computeEvidenceMatrixDigest(
  doc: Omit<EvidenceMatrixV1, 'matrixDigest'> & { matrixDigest?: string },
): string {
  const { matrixDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts. */
export const EVIDENCE_MATRIX_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'EvidenceMatrixV1',
    pointer: '/matrixId',
    code: 'EVIDENCE_MATRIX_ID_MISMATCH',
    covers: '`"evmx-"` + the first 24 hex characters of digestOf(`{subject, generatedAt}`).',
    compute: (document) => [
      { pointer: '/matrixId', expected: computeEvidenceMatrixId(document as EvidenceMatrixV1) },
    ],
  },
  {
    contract: 'EvidenceMatrixV1',
    pointer: '/matrixDigest',
    code: 'EVIDENCE_MATRIX_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `matrixDigest` member): schemaVersion, matrixId, subject, generatedAt and claims.',
    compute: (document) => [
      { pointer: '/matrixDigest', expected: computeEvidenceMatrixDigest(document as EvidenceMatrixV1) },
    ],
  },
];
