import { derivedId, digestOf } from '@agent-contracts/digest';
import type { AiAgentSystemArchitectureReportV1 } from '../contracts/architecture-report.js';
import type { DigestRule } from '../digest-rules.js';

/** `reportId`: `arch-` + 24 hex of the digest of `{subject, generatedAt}`. */
export function computeReportId(
  doc: Pick<AiAgentSystemArchitectureReportV1, 'subject' | 'generatedAt'>,
): string {
  return derivedId('arch-', { subject: doc.subject, generatedAt: doc.generatedAt }, 24);
}

/** `reportDigest`: digest of the whole document except `reportDigest`. */
export function computeReportDigest(
  doc: Omit<AiAgentSystemArchitectureReportV1, 'reportDigest'> & { reportDigest?: string },
): string {
  const { reportDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/**
 * `ContractDocumentRef.documentDigest`: digestOf the entire referenced document. Not a rule over
 * the report itself (the referenced document is not inside it); bundle validators use it.
 */
export function computeDocumentDigest(document: unknown): string {
  return digestOf(document);
}

/** Digest rules of this area's contracts. */
export const ARCHITECTURE_REPORT_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'AiAgentSystemArchitectureReportV1',
    pointer: '/reportId',
    code: 'ARCH_REPORT_ID_MISMATCH',
    covers: '`"arch-"` + the first 24 hex characters of digestOf(`{subject, generatedAt}`).',
    compute: (document) => [
      { pointer: '/reportId', expected: computeReportId(document as AiAgentSystemArchitectureReportV1) },
    ],
  },
  {
    contract: 'AiAgentSystemArchitectureReportV1',
    pointer: '/reportDigest',
    code: 'ARCH_REPORT_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without the `reportDigest` member): schemaVersion, reportId, subject, generatedAt and the 13 field sections.',
    compute: (document) => [
      {
        pointer: '/reportDigest',
        expected: computeReportDigest(document as AiAgentSystemArchitectureReportV1),
      },
    ],
  },
];
