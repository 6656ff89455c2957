// Semantic and bundle rules of AiAgentSystemArchitectureReportV1
// (docs/spec/ai-agent-system-architecture-gate.md). Identity and digest (invariants 1 and 2) are
// DigestRules with their own codes in @agent-contracts/schemas.
import {
  type AgentCapabilityDomainMatrixV1,
  type AiAgentSystemArchitectureReportV1,
  ARCHITECTURE_FIELD_GATES,
  ARCHITECTURE_FIELD_ORDER,
  ARCHITECTURE_MANDATORY_FIELDS,
  type ArchitectureFieldName,
  CONTRACTS,
  type ContractDocumentRef,
  completenessRank,
  computeDocumentDigest,
  DIRECT_EVIDENCE_KINDS,
  type EvidenceRef,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const CONTRACT = 'AiAgentSystemArchitectureReportV1';
const MATRIX = 'AgentCapabilityDomainMatrixV1';
const PAGE = 'docs/spec/ai-agent-system-architecture-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const GATE_OUTCOME = `${PAGE}#gate-outcome`;
const BUNDLES = `${PAGE}#bundles`;

type ContractBackedField = keyof typeof ARCHITECTURE_FIELD_GATES;
type StatusField = Exclude<ArchitectureFieldName, 'evidenceMatrix'>;
type FieldSectionName =
  | 'intentRouting'
  | 'toolPermissionBoundary'
  | 'contextMemoryModel'
  | 'stateMachineHandoff'
  | 'observabilityReplay'
  | 'humanInLoopBoundary';

/** The four contract-backed sections plus `agentCapabilityDomainMatrix`, in field order. */
const CONTRACT_BACKED: readonly ContractBackedField[] = [
  'contextAcquisition',
  'contextReadReceipt',
  'turnLivenessContract',
  'taskContinuityWriteContract',
  'agentCapabilityDomainMatrix',
];
/** Plain field sections (`status`, `summary`, `skipReason`, `evidence`): the six mandatory fields. */
const FIELD_SECTIONS: readonly FieldSectionName[] = [
  'intentRouting',
  'toolPermissionBoundary',
  'contextMemoryModel',
  'stateMachineHandoff',
  'observabilityReplay',
  'humanInLoopBoundary',
];
/** The 12 status-bearing sections, in field order: every output field but the evidence matrix. */
const STATUS_FIELDS = ARCHITECTURE_FIELD_ORDER.filter((f): f is StatusField => f !== 'evidenceMatrix');

const gateOf = new Map(CONTRACTS.map((c) => [c.name, c.gate]));
const direct = new Set<string>(DIRECT_EVIDENCE_KINDS);
const hasDirect = (evidence: readonly EvidenceRef[]) => evidence.some((e) => direct.has(e.kind));

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
};

const asReport = (doc: ContractDocument) => doc as unknown as AiAgentSystemArchitectureReportV1;

function issue(code: string, path: string, message: string, anchor = INVARIANTS): Issue {
  return { code, path, message, rule: anchor, severity: 'error' };
}

function rule(
  code: string,
  description: string,
  check: (r: AiAgentSystemArchitectureReportV1) => Issue[],
  specSection = INVARIANTS,
): SemanticRule {
  return { code, contract: CONTRACT, specSection, description, check: (doc) => check(asReport(doc)) };
}

/** Indexes of the items whose key repeats the key of an earlier item. */
function laterDuplicates<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) out.push(i);
    else seen.add(k);
  });
  return out;
}

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const ARCHITECTURE_REPORT_RULES: readonly SemanticRule[] = [
  rule(
    'ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN',
    'The six mandatory fields (routing, tool permissions, context/memory, state machine, observability/replay, human boundary) are never not-applicable (invariant 3).',
    (r) =>
      ARCHITECTURE_MANDATORY_FIELDS.filter((f) => r[f as StatusField].status === 'not-applicable').map((f) =>
        issue(
          'ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN',
          `/${f}/status`,
          `${f} is mandatory and cannot be not-applicable; describe the concern, and mark it unverified if no direct evidence exists.`,
        ),
      ),
  ),
  rule(
    'ARCH_FIELD_SKIP_REASON_INCONSISTENT',
    'In every status-bearing section, skipReason is non-null if and only if status is not-applicable (invariant 4).',
    (r) =>
      STATUS_FIELDS.filter((f) => (r[f].skipReason !== null) !== (r[f].status === 'not-applicable')).map(
        (f) =>
          issue(
            'ARCH_FIELD_SKIP_REASON_INCONSISTENT',
            `/${f}/skipReason`,
            r[f].status === 'not-applicable'
              ? `${f} is not-applicable without a skipReason; say why the concern does not arise.`
              : `${f} is ${r[f].status} but carries a skipReason; drop it (set null), or mark the field not-applicable.`,
          ),
      ),
  ),
  rule(
    'ARCH_FIELD_EVIDENCE_MISSING',
    'An evidenced field section has direct evidence (hook, runtime, replay, tests); an evidenced contract-backed section has at least one contract reference (invariant 5).',
    (r) => {
      const out: Issue[] = [];
      for (const f of FIELD_SECTIONS) {
        if (r[f].status === 'evidenced' && !hasDirect(r[f].evidence)) {
          out.push(
            issue(
              'ARCH_FIELD_EVIDENCE_MISSING',
              `/${f}/evidence`,
              `${f} is evidenced without direct evidence (only ${describeKinds(r[f].evidence)}); add hook, runtime, replay or tests evidence, or mark it unverified.`,
            ),
          );
        }
      }
      for (const f of CONTRACT_BACKED) {
        if (r[f].status === 'evidenced' && r[f].contracts.length === 0) {
          out.push(
            issue(
              'ARCH_FIELD_EVIDENCE_MISSING',
              `/${f}/contracts`,
              `${f} is evidenced but references no contract document; reference the ${f === 'agentCapabilityDomainMatrix' ? `${MATRIX} document` : 'documents of its gate'}, or mark it unverified.`,
            ),
          );
        }
      }
      return out;
    },
  ),
  rule(
    'ARCH_FIELD_STATUS_INCONSISTENT',
    'A section status agrees with its contents: not-applicable sections reference no contract and claim no object; capabilitySurfaceEvidence is evidenced iff it has entries all verified, unverified iff some entry is unverified, not-applicable only without entries (invariant 6).',
    (r) => {
      const problems = new Map<StatusField, string[]>();
      const bad = (f: StatusField, message: string) => problems.set(f, [...(problems.get(f) ?? []), message]);
      for (const f of CONTRACT_BACKED) {
        if (r[f].status === 'not-applicable' && r[f].contracts.length > 0) {
          bad(
            f,
            `it references ${r[f].contracts.length} contract document(s); drop the references, or give the field its real status`,
          );
        }
      }
      const m = r.agentCapabilityDomainMatrix;
      if (m.status === 'not-applicable' && m.claimedObject !== null) {
        bad(
          'agentCapabilityDomainMatrix',
          `it claims "${m.claimedObject}"; set claimedObject to null, or reference the matrix and mark the field evidenced`,
        );
      }
      const s = r.capabilitySurfaceEvidence;
      const unverified = s.entries.filter((e) => e.evidenceStatus === 'unverified').length;
      const derived = s.entries.length === 0 ? 'not-applicable' : unverified > 0 ? 'unverified' : 'evidenced';
      if (s.status !== derived) {
        bad(
          'capabilitySurfaceEvidence',
          `its ${s.entries.length} entries (${unverified} unverified) make it ${derived}; set status ${derived}`,
        );
      }
      return STATUS_FIELDS.filter((f) => problems.has(f)).map((f) =>
        issue(
          'ARCH_FIELD_STATUS_INCONSISTENT',
          `/${f}/status`,
          `${f} is ${r[f].status} but ${problems.get(f)!.join('; and ')}.`,
        ),
      );
    },
  ),
  rule(
    'ARCH_CONTRACT_REF_GATE_MISMATCH',
    'Each referenced contract is in the spec catalogue and belongs to an allowed gate of the field; agentCapabilityDomainMatrix references only AgentCapabilityDomainMatrixV1 (invariant 7).',
    (r) => {
      const out: Issue[] = [];
      for (const f of CONTRACT_BACKED) {
        const allowed = ARCHITECTURE_FIELD_GATES[f];
        r[f].contracts.forEach((ref, i) => {
          const gate = gateOf.get(ref.contract);
          const ok =
            gate !== undefined &&
            allowed.includes(gate) &&
            (f !== 'agentCapabilityDomainMatrix' || ref.contract === MATRIX);
          if (ok) return;
          const want = f === 'agentCapabilityDomainMatrix' ? MATRIX : `a contract of ${allowed.join(' or ')}`;
          out.push(
            issue(
              'ARCH_CONTRACT_REF_GATE_MISMATCH',
              `/${f}/contracts/${i}/contract`,
              gate === undefined
                ? `${ref.contract} is not a contract of the spec catalogue; ${f} references ${want}.`
                : `${ref.contract} belongs to ${gate}, but ${f} references ${want}; move the reference to the field of its gate.`,
            ),
          );
        });
      }
      return out;
    },
  ),
  rule(
    'ARCH_CONTRACT_REF_DUPLICATE',
    'Within one field, no two contract references have the same (contract, documentDigest) (invariant 8).',
    (r) =>
      CONTRACT_BACKED.flatMap((f) =>
        laterDuplicates(r[f].contracts, (c) => JSON.stringify([c.contract, c.documentDigest])).map((i) =>
          issue(
            'ARCH_CONTRACT_REF_DUPLICATE',
            `/${f}/contracts/${i}`,
            `${f} references the same ${r[f].contracts[i]!.contract} document twice; keep one reference.`,
          ),
        ),
      ),
  ),
  rule(
    'ARCH_CAPABILITY_EVIDENCE_NOT_DIRECT',
    'A capability surface entry marked verified has direct evidence (hook, runtime, replay, tests); report, memory, a name or similarity never verify it (invariant 9).',
    (r) => {
      const out: Issue[] = [];
      r.capabilitySurfaceEvidence.entries.forEach((e, i) => {
        if (e.evidenceStatus === 'verified' && !hasDirect(e.evidence)) {
          out.push(
            issue(
              'ARCH_CAPABILITY_EVIDENCE_NOT_DIRECT',
              `/capabilitySurfaceEvidence/entries/${i}/evidenceStatus`,
              `surface "${e.surface}" is verified on ${describeKinds(e.evidence)} only; mark it unverified, or capture hook, runtime, replay or tests evidence of its behaviour.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'ARCH_CAPABILITY_SURFACE_DUPLICATE',
    'No two capability surface entries share (decisionRef, surface) (invariant 10).',
    (r) => {
      const entries = r.capabilitySurfaceEvidence.entries;
      return laterDuplicates(entries, (e) => JSON.stringify([e.decisionRef, e.surface])).map((i) =>
        issue(
          'ARCH_CAPABILITY_SURFACE_DUPLICATE',
          `/capabilitySurfaceEvidence/entries/${i}`,
          `a second entry for decision "${entries[i]!.decisionRef}" and surface "${entries[i]!.surface}"; merge the two entries.`,
        ),
      );
    },
  ),
  rule(
    'ARCH_EVIDENCE_ROW_NOT_DIRECT',
    'An evidence-matrix row marked verified has at least one direct evidence entry (invariant 11).',
    (r) => {
      const out: Issue[] = [];
      r.evidenceMatrix.rows.forEach((row, i) => {
        if (row.status === 'verified' && !hasDirect(row.evidence)) {
          out.push(
            issue(
              'ARCH_EVIDENCE_ROW_NOT_DIRECT',
              `/evidenceMatrix/rows/${i}/status`,
              `claim "${row.claim.slice(0, 80)}" is verified on ${describeKinds(row.evidence)} only; mark it unverified, or add hook, runtime, replay or tests evidence.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'ARCH_EVIDENCE_ROW_DUPLICATE',
    'No two evidence-matrix rows have the same claim text, compared exactly (invariant 12).',
    (r) =>
      laterDuplicates(r.evidenceMatrix.rows, (row) => row.claim).map((i) =>
        issue(
          'ARCH_EVIDENCE_ROW_DUPLICATE',
          `/evidenceMatrix/rows/${i}`,
          `row ${i} repeats the claim of an earlier row; merge their evidence into one row.`,
        ),
      ),
  ),
  rule(
    'ARCH_COMPLETENESS_CLAIM_WITHOUT_MATRIX',
    'A non-null claimedObject needs an evidenced agentCapabilityDomainMatrix section (invariant 13).',
    (r) => {
      const m = r.agentCapabilityDomainMatrix;
      if (m.claimedObject === null || m.status === 'evidenced') return [];
      return [
        issue(
          'ARCH_COMPLETENESS_CLAIM_WITHOUT_MATRIX',
          '/agentCapabilityDomainMatrix/claimedObject',
          `the report claims "${m.claimedObject}" complete but agentCapabilityDomainMatrix is ${m.status}; reference a complete ${MATRIX} for that object and mark the field evidenced, or set claimedObject to null and drop the completeness wording.`,
        ),
      ];
    },
  ),
  rule(
    'ARCH_MANDATORY_FIELD_UNVERIFIED',
    'Gate outcome: every mandatory field is evidenced; each unverified mandatory field fails the gate.',
    (r) =>
      ARCHITECTURE_MANDATORY_FIELDS.filter((f) => r[f as StatusField].status === 'unverified').map((f) =>
        issue(
          'ARCH_MANDATORY_FIELD_UNVERIFIED',
          `/${f}/status`,
          `the report is well-formed but fails the gate: mandatory field ${f} is unverified; capture direct (hook, runtime, replay, tests) evidence for it.`,
          GATE_OUTCOME,
        ),
      ),
    GATE_OUTCOME,
  ),
  rule(
    'ARCH_EVIDENCE_MATRIX_UNVERIFIED',
    'Gate outcome: at least one evidence-matrix row is verified.',
    (r) =>
      r.evidenceMatrix.rows.some((row) => row.status === 'verified')
        ? []
        : [
            issue(
              'ARCH_EVIDENCE_MATRIX_UNVERIFIED',
              '/evidenceMatrix/rows',
              'the report is well-formed but fails the gate: no evidence-matrix row is verified; back at least one claim with direct evidence.',
              GATE_OUTCOME,
            ),
          ],
    GATE_OUTCOME,
  ),
];

function describeKinds(evidence: readonly EvidenceRef[]): string {
  const kinds = [...new Set(evidence.map((e) => e.kind))];
  return kinds.length ? kinds.join(' and ') : 'no evidence';
}

// ---------------------------------------------------------------------------------------------
// Bundles. Two kinds, both with the report first (D-ARC-14):
//   architecture-report-with-matrix      [report, the matrix its agentCapabilityDomainMatrix references]
//   architecture-report-with-references  [report, every document it references, in any order]
// ---------------------------------------------------------------------------------------------

/** Bundle kind: a report and the one capability-domain matrix it references. */
export const REPORT_WITH_MATRIX = 'architecture-report-with-matrix';
/** Bundle kind: a report and every document its contract-backed fields reference. */
export const REPORT_WITH_REFERENCES = 'architecture-report-with-references';
type ReportBundleKind = typeof REPORT_WITH_MATRIX | typeof REPORT_WITH_REFERENCES;

interface ParsedBundle {
  report: AiAgentSystemArchitectureReportV1;
  /** Documents a reference may resolve to, with their bundle index and digestOf. */
  candidates: Array<{ index: number; doc: ContractDocument; digest: string }>;
}

/** Shape problems of a bundle of `kind`; empty when the documents are where the kind wants them. */
function shapeIssues(kind: ReportBundleKind, docs: readonly ContractDocument[]): Issue[] {
  const out: Issue[] = [];
  const bad = (path: string, message: string) =>
    out.push(issue('ARCH_BUNDLE_SHAPE_INVALID', path, message, BUNDLES));
  if (docs[0]?.schemaVersion !== CONTRACT) {
    bad(
      '/documents/0/schemaVersion',
      `a ${kind} bundle starts with the ${CONTRACT} document; put the report first.`,
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
    report: asReport(docs[0]!),
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
  const ref = p.report.agentCapabilityDomainMatrix.contracts[0];
  if (ref === undefined || ref.contract !== MATRIX) return null;
  const r = resolve(ref, p.candidates);
  return r.ok ? (r.doc as unknown as AgentCapabilityDomainMatrixV1) : null;
}

const MATRIX_REF = '/documents/0/agentCapabilityDomainMatrix/contracts/0';
const CLAIMED = '/documents/0/agentCapabilityDomainMatrix/claimedObject';

function bundleRules(kind: ReportBundleKind): BundleRule[] {
  const make = (
    code: string,
    description: string,
    check: (p: ParsedBundle) => Issue[],
    specSection = INVARIANTS,
  ): BundleRule => ({
    code,
    bundle: kind,
    specSection,
    description,
    check: (docs) => {
      const p = parse(kind, docs);
      return p ? check(p) : [];
    },
  });
  const fields: readonly ContractBackedField[] =
    kind === REPORT_WITH_MATRIX ? ['agentCapabilityDomainMatrix'] : CONTRACT_BACKED;
  return [
    {
      code: 'ARCH_BUNDLE_SHAPE_INVALID',
      bundle: kind,
      specSection: BUNDLES,
      description:
        kind === REPORT_WITH_MATRIX
          ? 'The bundle is exactly [report, matrix], and the report references a matrix.'
          : 'The bundle starts with the report; the documents it references follow in any order.',
      check: (docs) => shapeIssues(kind, docs),
    },
    make(
      'ARCH_CONTRACT_REF_UNRESOLVED',
      kind === REPORT_WITH_MATRIX
        ? "The report's matrix reference resolves to the bundle's matrix: same contract, digestOf the entire matrix, and matrixId when documentId is set (invariant 14)."
        : 'Every contract reference of the report resolves to a document of the bundle: same contract, digestOf the entire document, and its id field when documentId is set (invariant 14).',
      (p) =>
        fields.flatMap((f) =>
          p.report[f].contracts.flatMap((ref, i) => {
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
  ];
}

/** Cross-document rules of this area's bundle kinds. */
export const ARCHITECTURE_REPORT_BUNDLE_RULES: readonly BundleRule[] = [
  ...bundleRules(REPORT_WITH_MATRIX),
  ...bundleRules(REPORT_WITH_REFERENCES),
];
