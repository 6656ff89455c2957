import { derivedId, digestOf } from '@agent-contracts/digest';
import type {
  AiAgentSystemArchitectureReportV1,
  AiAgentSystemArchitectureReportV2,
  CapabilitySurfaceEvidenceV1,
} from '../contracts/architecture-report.js';
import type { DigestRule } from '../digest-rules.js';

/** `reportId`: `arch-` + 24 hex of the digest of `{subject, generatedAt}`. */
export function computeReportId(
  doc: Pick<AiAgentSystemArchitectureReportV1 | AiAgentSystemArchitectureReportV2, 'subject' | 'generatedAt'>,
): string {
  return derivedId('arch-', { subject: doc.subject, generatedAt: doc.generatedAt }, 24);
}

/** `reportDigest`: digest of the whole document except `reportDigest`. */
export function computeReportDigest(
  doc:
    | (Omit<AiAgentSystemArchitectureReportV1, 'reportDigest'> & { reportDigest?: string })
    | (Omit<AiAgentSystemArchitectureReportV2, 'reportDigest'> & { reportDigest?: string }),
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

/** `evidenceId`: `cse-` + 24 hex of the digest of `{subject, decisionRef, surface, observedAt}`. */
export function computeCapabilitySurfaceEvidenceId(
  doc: Pick<CapabilitySurfaceEvidenceV1, 'subject' | 'decisionRef' | 'surface' | 'observedAt'>,
): string {
  return derivedId(
    'cse-',
    { subject: doc.subject, decisionRef: doc.decisionRef, surface: doc.surface, observedAt: doc.observedAt },
    24,
  );
}

const reportRules = (contract: string, fields: string): DigestRule[] => [
  {
    contract,
    pointer: '/reportId',
    code: 'ARCH_REPORT_ID_MISMATCH',
    covers: '`"arch-"` + the first 24 hex characters of digestOf(`{subject, generatedAt}`).',
    compute: (document) => [
      { pointer: '/reportId', expected: computeReportId(document as AiAgentSystemArchitectureReportV1) },
    ],
  },
  {
    contract,
    pointer: '/reportDigest',
    code: 'ARCH_REPORT_DIGEST_MISMATCH',
    covers: `digestOf(the whole document without the \`reportDigest\` member): schemaVersion, reportId, subject, generatedAt and the ${fields} field sections.`,
    compute: (document) => [
      {
        pointer: '/reportDigest',
        expected: computeReportDigest(document as AiAgentSystemArchitectureReportV1),
      },
    ],
  },
];

/** Digest rules of this area's contracts. */
export const ARCHITECTURE_REPORT_DIGEST_RULES: readonly DigestRule[] = [
  ...reportRules('AiAgentSystemArchitectureReportV1', '13'),
  {
    contract: 'CapabilitySurfaceEvidenceV1',
    pointer: '/evidenceId',
    code: 'CAPABILITY_SURFACE_EVIDENCE_ID_MISMATCH',
    covers:
      '`"cse-"` + the first 24 hex characters of digestOf(`{subject, decisionRef, surface, observedAt}`).',
    compute: (document) => [
      {
        pointer: '/evidenceId',
        expected: computeCapabilitySurfaceEvidenceId(document as CapabilitySurfaceEvidenceV1),
      },
    ],
  },
  ...reportRules('AiAgentSystemArchitectureReportV2', '14'),
];
