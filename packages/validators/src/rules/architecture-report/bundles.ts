// Cross-document rules of the architecture report bundle kinds (D-ARC-14, D-ARC-64), each with the
// report first:
//   architecture-report-with-matrix      [report, the matrix its agentCapabilityDomainMatrix references]
//   architecture-report-with-references  [report, every document it references, in any order]
//   architecture-report-v2-with-references  [V2 report, every document it references, in any order]
import {
  type AgentCapabilityDomainMatrixV1,
  type CapabilitySurfaceEvidenceV1,
  type ContractDocumentRef,
  completenessRank,
  computeDocumentDigest,
  DOCUMENT_ID_FIELDS,
} from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { bundleRule } from '../kit.js';
import type { BundleRule, ContractDocument } from '../types.js';
import {
  asReport,
  BUNDLES,
  CONTRACT,
  CONTRACT_BACKED,
  CONTRACT_V2,
  INVARIANTS,
  issue,
  MATRIX,
  type ReportView,
  refsOf,
  SURFACE,
  section,
  V2_INVARIANTS,
  V2_SHAPE,
} from './shared.js';

/** Bundle kind: a report and the one capability-domain matrix it references. */
export const REPORT_WITH_MATRIX = 'architecture-report-with-matrix';
/** Bundle kind: a report and every document its contract-backed fields reference. */
export const REPORT_WITH_REFERENCES = 'architecture-report-with-references';
/** Bundle kind: a V2 report and every document its fields reference. */
export const REPORT_V2_WITH_REFERENCES = 'architecture-report-v2-with-references';
type ReportBundleKind =
  | typeof REPORT_WITH_MATRIX
  | typeof REPORT_WITH_REFERENCES
  | typeof REPORT_V2_WITH_REFERENCES;

const reportContractOf = (kind: ReportBundleKind) =>
  kind === REPORT_V2_WITH_REFERENCES ? CONTRACT_V2 : CONTRACT;

interface ParsedBundle {
  report: ReportView;
  /** Documents a reference may resolve to, with their bundle index and digestOf. */
  candidates: Array<{ index: number; doc: ContractDocument; digest: string }>;
}

/** Shape problems of a bundle of `kind`; empty when the documents are where the kind wants them. */
function shapeIssues(kind: ReportBundleKind, docs: readonly ContractDocument[]): Issue[] {
  const out: Issue[] = [];
  const bad = (path: string, message: string) =>
    out.push(issue('ARCH_BUNDLE_SHAPE_INVALID', path, message, BUNDLES));
  const report = reportContractOf(kind);
  if (docs[0]?.schemaVersion !== report) {
    bad(
      '/documents/0/schemaVersion',
      `a ${kind} bundle starts with the ${report} document; put the report first.`,
    );
    return out;
  }
  if (kind === REPORT_WITH_MATRIX) {
    if (docs.length !== 2) {
      bad(
        '/documents',
        `a ${kind} bundle holds exactly two documents, [report, matrix]; it holds ${docs.length}.`,
      );
    } else if (docs[1]!.schemaVersion !== MATRIX) {
      bad(
        '/documents/1/schemaVersion',
        `the second document of a ${kind} bundle is the ${MATRIX} the report references.`,
      );
    } else if (asReport(docs[0]).agentCapabilityDomainMatrix.contracts.length === 0) {
      bad(
        '/documents/0/agentCapabilityDomainMatrix/contracts',
        `the report references no matrix, so a ${kind} bundle has nothing to judge; reference the matrix in agentCapabilityDomainMatrix, or validate the report alone.`,
      );
    }
  }
  return out;
}

/** The report and its candidate documents, or null when the bundle's shape is wrong. */
function parse(kind: ReportBundleKind, docs: readonly ContractDocument[]): ParsedBundle | null {
  if (shapeIssues(kind, docs).length > 0) return null;
  return {
    report: docs[0]! as unknown as ReportView,
    candidates: docs.slice(1).map((doc, i) => ({ index: i + 1, doc, digest: computeDocumentDigest(doc) })),
  };
}

export type Resolution = { ok: true; index: number; doc: ContractDocument } | { ok: false; message: string };

/** Invariant 14 for one reference against the bundle's candidate documents. */
export function resolve(ref: ContractDocumentRef, candidates: ParsedBundle['candidates']): Resolution {
  const sameDigest = candidates.filter(
    (c) => c.doc.schemaVersion === ref.contract && c.digest === ref.documentDigest,
  );
  if (sameDigest.length === 0) {
    const sameContract = candidates.filter((c) => c.doc.schemaVersion === ref.contract);
    return {
      ok: false,
      message: sameContract.length
        ? `no ${ref.contract} document of the bundle has digestOf ${ref.documentDigest.slice(0, 12)}… (document(s) ${sameContract.map((c) => c.index).join(', ')} hash differently); supply the referenced document, or recompute documentDigest as digestOf the entire document.`
        : `the bundle holds no ${ref.contract} document; supply the referenced document.`,
    };
  }
  if (ref.documentId === null) return { ok: true, index: sameDigest[0]!.index, doc: sameDigest[0]!.doc };
  const idField = Object.hasOwn(DOCUMENT_ID_FIELDS, ref.contract)
    ? DOCUMENT_ID_FIELDS[ref.contract]
    : undefined;
  if (idField === undefined) {
    return {
      ok: false,
      message: `${ref.contract} has no id field, so its documentId must be null, not ${JSON.stringify(ref.documentId)}.`,
    };
  }
  const match = sameDigest.find((c) => c.doc[idField] === ref.documentId);
  if (match === undefined) {
    return {
      ok: false,
      message: `document ${sameDigest[0]!.index} has the referenced digest but ${idField} ${JSON.stringify(sameDigest[0]!.doc[idField])}, not documentId ${JSON.stringify(ref.documentId)}; fix documentId.`,
    };
  }
  return { ok: true, index: match.index, doc: match.doc };
}

/** The matrix the report references, when the reference resolves in the bundle. */
function resolvedMatrix(p: ParsedBundle): AgentCapabilityDomainMatrixV1 | null {
  const ref = p.report.agentCapabilityDomainMatrix.contracts?.[0];
  if (ref === undefined || ref.contract !== MATRIX) return null;
  const r = resolve(ref, p.candidates);
  return r.ok ? (r.doc as unknown as AgentCapabilityDomainMatrixV1) : null;
}

/** The resolved references of `field`, with their index in the field's `contracts`. */
function resolvedRefs(
  p: ParsedBundle,
  field: string,
): Array<{ i: number; ref: ContractDocumentRef; doc: ContractDocument }> {
  return refsOf(p.report, field).flatMap((ref, i) => {
    const r = resolve(ref, p.candidates);
    return r.ok ? [{ i, ref, doc: r.doc }] : [];
  });
}

const MATRIX_REF = '/documents/0/agentCapabilityDomainMatrix/contracts/0';
const CLAIMED = '/documents/0/agentCapabilityDomainMatrix/claimedObject';

/** A `SystemSubjectRef`-shaped `subject` of a referenced document, or null. */
function subjectOf(doc: ContractDocument): { system: string; revision: string } | null {
  const s = doc.subject as { system?: unknown; revision?: unknown } | null | undefined;
  return s !== null && typeof s === 'object' && typeof s.system === 'string' && typeof s.revision === 'string'
    ? { system: s.system, revision: s.revision }
    : null;
}

/** The V2 bundle rules beside reference resolution and the completeness claim (V2 invariants 17–18). */
function v2BundleRules(
  make: (
    code: string,
    description: string,
    check: (p: ParsedBundle) => Issue[],
    specSection?: string,
  ) => BundleRule,
): BundleRule[] {
  return [
    make(
      'ARCH_REFERENCE_SUBJECT_MISMATCH',
      "Every referenced document with a subject (system and revision) other than the capability-domain matrix is about the report's system and revision (V2 invariant 17).",
      (p) => {
        const { system, revision } = p.report.subject;
        return V2_SHAPE.backedFields
          .filter((f) => f !== 'agentCapabilityDomainMatrix')
          .flatMap((f) =>
            resolvedRefs(p, f).flatMap(({ i, ref, doc }) => {
              const s = subjectOf(doc);
              if (s === null || (s.system === system && s.revision === revision)) return [];
              return [
                issue(
                  'ARCH_REFERENCE_SUBJECT_MISMATCH',
                  `/documents/0/${f}/contracts/${i}`,
                  `the ${ref.contract} referenced by ${f} is about ${s.system} ${s.revision}, the report about ${system} ${revision}; reference evidence collected for this system revision.`,
                  V2_INVARIANTS,
                ),
              ];
            }),
          );
      },
      V2_INVARIANTS,
    ),
    make(
      'ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH',
      'capabilitySurfaceEvidence is evidenced exactly when it references capability-surface evidence and every referenced CapabilitySurfaceEvidenceV1 is verified; one unverified document keeps it unverified (V2 invariant 18).',
      (p) => {
        const field = section(p.report, 'capabilitySurfaceEvidence');
        const docs = resolvedRefs(p, 'capabilitySurfaceEvidence')
          .map((r) => r.doc)
          .filter((d) => d.schemaVersion === SURFACE) as unknown as CapabilitySurfaceEvidenceV1[];
        if (docs.length === 0) return [];
        const unverified = docs.filter((d) => d.evidenceStatus === 'unverified');
        const derived = unverified.length ? 'unverified' : 'evidenced';
        if (field.status === derived || field.status === 'not-applicable') return [];
        return [
          issue(
            'ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH',
            '/documents/0/capabilitySurfaceEvidence/status',
            unverified.length
              ? `capabilitySurfaceEvidence is evidenced but ${unverified.length} referenced surface(s) are unverified (${unverified.map((d) => d.surface).join(', ')}); a surface without direct evidence stays unverified: set the field unverified.`
              : `capabilitySurfaceEvidence is unverified although every referenced surface is verified; set it evidenced.`,
            V2_INVARIANTS,
          ),
        ];
      },
      V2_INVARIANTS,
    ),
  ];
}

function bundleRules(kind: ReportBundleKind): BundleRule[] {
  const make = (
    code: string,
    description: string,
    check: (p: ParsedBundle) => Issue[],
    specSection = INVARIANTS,
  ): BundleRule =>
    bundleRule(code, kind, specSection, description, (docs) => {
      const p = parse(kind, docs);
      return p ? check(p) : [];
    });
  const fields: readonly string[] =
    kind === REPORT_WITH_MATRIX
      ? ['agentCapabilityDomainMatrix']
      : kind === REPORT_V2_WITH_REFERENCES
        ? V2_SHAPE.backedFields
        : CONTRACT_BACKED;
  return [
    bundleRule(
      'ARCH_BUNDLE_SHAPE_INVALID',
      kind,
      BUNDLES,
      kind === REPORT_WITH_MATRIX
        ? 'The bundle is exactly [report, matrix], and the report references a matrix.'
        : `The bundle starts with the ${reportContractOf(kind)} report; the documents it references follow in any order.`,
      (docs) => shapeIssues(kind, docs),
    ),
    make(
      'ARCH_CONTRACT_REF_UNRESOLVED',
      kind === REPORT_WITH_MATRIX
        ? "The report's matrix reference resolves to the bundle's matrix: same contract, digestOf the entire matrix, and matrixId when documentId is set (invariant 14)."
        : 'Every contract reference of the report resolves to a document of the bundle: same contract, digestOf the entire document, and its id field when documentId is set (invariant 14).',
      (p) =>
        fields.flatMap((f) =>
          refsOf(p.report, f).flatMap((ref, i) => {
            const r = resolve(ref, p.candidates);
            return r.ok
              ? []
              : [
                  issue(
                    'ARCH_CONTRACT_REF_UNRESOLVED',
                    `/documents/0/${f}/contracts/${i}`,
                    `${f} reference ${i}: ${r.message}`,
                  ),
                ];
          }),
        ),
    ),
    make(
      'ARCH_COMPLETENESS_SUBJECT_MISMATCH',
      "The referenced matrix is about the report's system, and about its revision when a completeness claim is made (invariant 15).",
      (p) => {
        const m = resolvedMatrix(p);
        if (m === null) return [];
        const { system, revision } = p.report.subject;
        const claimed = p.report.agentCapabilityDomainMatrix.claimedObject;
        if (m.subject.system !== system) {
          return [
            issue(
              'ARCH_COMPLETENESS_SUBJECT_MISMATCH',
              MATRIX_REF,
              `the matrix is about system "${m.subject.system}", the report about "${system}"; reference a matrix of this system.`,
            ),
          ];
        }
        if (claimed !== null && m.subject.revision !== revision) {
          return [
            issue(
              'ARCH_COMPLETENESS_SUBJECT_MISMATCH',
              MATRIX_REF,
              `the report claims "${claimed}" for revision "${revision}" but the matrix evaluates revision "${m.subject.revision}"; evaluate a matrix for this revision, or withdraw the claim.`,
            ),
          ];
        }
        return [];
      },
    ),
    make(
      'ARCH_COMPLETENESS_CLAIM_UNSUPPORTED',
      'A completeness claim is backed by a matrix whose verdict is complete-for-declared-object (invariant 16).',
      (p) => {
        const claimed = p.report.agentCapabilityDomainMatrix.claimedObject;
        const m = resolvedMatrix(p);
        if (claimed === null || m === null || m.verdict.result === 'complete-for-declared-object') return [];
        return [
          issue(
            'ARCH_COMPLETENESS_CLAIM_UNSUPPORTED',
            CLAIMED,
            `the report claims "${claimed}" but the referenced matrix is incomplete (${m.verdict.reasonCodes.join(', ')}); close the matrix's missing and unsatisfied domains, or withdraw the claim.`,
          ),
        ];
      },
    ),
    make(
      'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED',
      'A completeness claim is backed by a matrix whose completenessObject is at least as wide as claimedObject; a narrower object never satisfies a wider one (invariant 16).',
      (p) => {
        const claimed = p.report.agentCapabilityDomainMatrix.claimedObject;
        const m = resolvedMatrix(p);
        if (claimed === null || m === null) return [];
        const object = m.completenessObject;
        if (object !== null && completenessRank(object) >= completenessRank(claimed)) return [];
        return [
          issue(
            'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED',
            CLAIMED,
            `the report claims "${claimed}" but the matrix declares ${object === null ? 'no object' : `"${object}"`}, which is narrower; claim "${object ?? 'nothing'}" instead, or evaluate a matrix for "${claimed}".`,
          ),
        ];
      },
    ),
    ...(kind === REPORT_V2_WITH_REFERENCES ? v2BundleRules(make) : []),
  ];
}

/** Cross-document rules of this area's bundle kinds. */
export const ARCHITECTURE_REPORT_BUNDLE_RULES: readonly BundleRule[] = [
  ...bundleRules(REPORT_WITH_MATRIX),
  ...bundleRules(REPORT_WITH_REFERENCES),
  ...bundleRules(REPORT_V2_WITH_REFERENCES),
];
