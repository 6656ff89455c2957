// Semantic and bundle rules of AiAgentSystemArchitectureReportV1, AiAgentSystemArchitectureReportV2
// and CapabilitySurfaceEvidenceV1 (docs/spec/ai-agent-system-architecture-gate.md). Identity and
// digest (invariants 1 and 2, C1) are DigestRules with their own codes in @agent-contracts/schemas.
// The rules both report versions share are built once from the version's field lists.
import {
  type AgentCapabilityDomainMatrixV1,
  type AiAgentSystemArchitectureReportV1,
  ARCHITECTURE_FIELD_GATES,
  ARCHITECTURE_FIELD_ORDER,
  ARCHITECTURE_MANDATORY_FIELDS,
  ARCHITECTURE_V2_FIELD_ORDER,
  ARCHITECTURE_V2_FIELD_REFERENCES,
  ARCHITECTURE_V2_MANDATORY_FIELDS,
  type ArchitectureFieldName,
  type ArchitectureFieldReferences,
  type ArchitectureFieldStatus,
  type ArchitectureV2FieldName,
  CAPABILITY_ASPECTS,
  type CapabilityAspectBase,
  type CapabilityAspectName,
  type CapabilitySurfaceEvidenceV1,
  CONTRACTS,
  type ContractDocumentRef,
  completenessRank,
  computeDocumentDigest,
  DIRECT_EVIDENCE_KINDS,
  DOCUMENT_ID_FIELDS,
  type EvidenceRef,
  type GateName,
  type NullableCompletenessObject,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { bundleRule, contractRules, laterDuplicates } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const CONTRACT = 'AiAgentSystemArchitectureReportV1';
const CONTRACT_V2 = 'AiAgentSystemArchitectureReportV2';
const SURFACE = 'CapabilitySurfaceEvidenceV1';
const MATRIX = 'AgentCapabilityDomainMatrixV1';
const PAGE = 'docs/spec/ai-agent-system-architecture-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<AiAgentSystemArchitectureReportV1>(CONTRACT, INVARIANTS);
const GATE_OUTCOME = `${PAGE}#gate-outcome`;
const BUNDLES = `${PAGE}#bundles`;
const SURFACE_INVARIANTS = `${PAGE}#capabilitysurfaceevidencev1-invariants`;
const V2_INVARIANTS = `${PAGE}#aiagentsystemarchitecturereportv2-invariants`;

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

const gateOf = new Map<string, GateName>(CONTRACTS.map((c) => [c.name, c.gate]));
const direct = new Set<string>(DIRECT_EVIDENCE_KINDS);
const hasDirect = (evidence: readonly EvidenceRef[]) => evidence.some((e) => direct.has(e.kind));

// ---------------------------------------------------------------------------------------------
// What both report versions share: a view of a report as sections, and the rules over it.
// ---------------------------------------------------------------------------------------------

/** The members of a status-bearing section that the shared rules read. */
interface SectionView {
  readonly status: ArchitectureFieldStatus;
  readonly skipReason: string | null;
  readonly evidence: readonly EvidenceRef[];
  readonly contracts?: readonly ContractDocumentRef[];
}
interface ReportView {
  readonly subject: { readonly system: string; readonly revision: string };
  readonly agentCapabilityDomainMatrix: SectionView & { readonly claimedObject: NullableCompletenessObject };
  readonly [field: string]: unknown;
}

/** One report version: its contract, fields and what each field may reference. */
interface ReportShape {
  readonly contract: string;
  /** The status-bearing sections, in field order. */
  readonly statusFields: readonly string[];
  readonly mandatory: readonly string[];
  /** Sections evidenced by direct evidence (V1's prose fields). */
  readonly proseFields: readonly string[];
  /** Sections evidenced by contract documents, in field order. */
  readonly backedFields: readonly string[];
  /** Fields whose evidenced status without a contract is the prompt-wish code, not ARCH_FIELD_EVIDENCE_MISSING. */
  readonly promptWishFields: readonly string[];
  readonly references: (field: string) => ArchitectureFieldReferences;
  readonly invariants: string;
}

const section = (r: ReportView, f: string) => r[f] as SectionView;
const refsOf = (r: ReportView, f: string) => section(r, f).contracts ?? [];

const V1_SHAPE: ReportShape = {
  contract: CONTRACT,
  statusFields: STATUS_FIELDS,
  mandatory: ARCHITECTURE_MANDATORY_FIELDS,
  proseFields: FIELD_SECTIONS,
  backedFields: CONTRACT_BACKED,
  promptWishFields: [],
  references: (f) => ({
    gates: ARCHITECTURE_FIELD_GATES[f as ContractBackedField],
    contracts: f === 'agentCapabilityDomainMatrix' ? [MATRIX] : null,
    maxReferences: f === 'agentCapabilityDomainMatrix' ? 1 : 16,
  }),
  invariants: INVARIANTS,
};

const V2_SHAPE: ReportShape = {
  contract: CONTRACT_V2,
  statusFields: ARCHITECTURE_V2_FIELD_ORDER,
  mandatory: ARCHITECTURE_V2_MANDATORY_FIELDS,
  proseFields: [],
  backedFields: ARCHITECTURE_V2_FIELD_ORDER,
  promptWishFields: ARCHITECTURE_V2_MANDATORY_FIELDS,
  references: (f) => ARCHITECTURE_V2_FIELD_REFERENCES[f as ArchitectureV2FieldName],
  invariants: V2_INVARIANTS,
};

function shapeRule(
  shape: ReportShape,
  code: string,
  description: string,
  check: (r: ReportView) => Issue[],
  specSection = shape.invariants,
): SemanticRule {
  return {
    code,
    contract: shape.contract,
    specSection,
    description,
    check: (doc) => check(doc as unknown as ReportView),
  };
}

const wanted = (refs: ArchitectureFieldReferences) =>
  refs.contracts ? refs.contracts.join(' or ') : `a contract of ${refs.gates.join(' or ')}`;

/** The rules of invariants 3–8, 13 and the mandatory-field gate outcome, for one report version. */
function sharedRules(shape: ReportShape): {
  before: SemanticRule[];
  completeness: SemanticRule;
  mandatoryOutcome: SemanticRule;
} {
  const inv = shape.invariants;
  const before: SemanticRule[] = [
    shapeRule(
      shape,
      'ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN',
      shape === V1_SHAPE
        ? 'The six mandatory fields (routing, tool permissions, context/memory, state machine, observability/replay, human boundary) are never not-applicable (invariant 3).'
        : 'The seven mandatory fields (routing, tool permissions, context/memory, state machine, observability/replay, human boundary, evidence matrix) are never not-applicable (V2 invariant 3).',
      (r) =>
        shape.mandatory
          .filter((f) => section(r, f).status === 'not-applicable')
          .map((f) =>
            issue(
              'ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN',
              `/${f}/status`,
              `${f} is mandatory and cannot be not-applicable; describe the concern, and mark it unverified if no ${shape === V1_SHAPE ? 'direct evidence' : 'contract document'} exists.`,
              inv,
            ),
          ),
    ),
    shapeRule(
      shape,
      'ARCH_FIELD_SKIP_REASON_INCONSISTENT',
      'In every status-bearing section, skipReason is non-null if and only if status is not-applicable (invariant 4).',
      (r) =>
        shape.statusFields
          .filter((f) => (section(r, f).skipReason !== null) !== (section(r, f).status === 'not-applicable'))
          .map((f) =>
            issue(
              'ARCH_FIELD_SKIP_REASON_INCONSISTENT',
              `/${f}/skipReason`,
              section(r, f).status === 'not-applicable'
                ? `${f} is not-applicable without a skipReason; say why the concern does not arise.`
                : `${f} is ${section(r, f).status} but carries a skipReason; drop it (set null), or mark the field not-applicable.`,
              inv,
            ),
          ),
    ),
    shapeRule(
      shape,
      'ARCH_FIELD_EVIDENCE_MISSING',
      shape === V1_SHAPE
        ? 'An evidenced field section has direct evidence (hook, runtime, replay, tests); an evidenced contract-backed section has at least one contract reference (invariant 5).'
        : 'An evidenced non-mandatory field references at least one contract document (V2 invariant 5).',
      (r) => {
        const out: Issue[] = [];
        for (const f of shape.proseFields) {
          const s = section(r, f);
          if (s.status === 'evidenced' && !hasDirect(s.evidence)) {
            out.push(
              issue(
                'ARCH_FIELD_EVIDENCE_MISSING',
                `/${f}/evidence`,
                `${f} is evidenced without direct evidence (only ${describeKinds(s.evidence)}); add hook, runtime, replay or tests evidence, or mark it unverified.`,
                inv,
              ),
            );
          }
        }
        for (const f of shape.backedFields) {
          if (shape.promptWishFields.includes(f)) continue;
          if (section(r, f).status === 'evidenced' && refsOf(r, f).length === 0) {
            out.push(
              issue(
                'ARCH_FIELD_EVIDENCE_MISSING',
                `/${f}/contracts`,
                `${f} is evidenced but references no contract document; reference ${shape.references(f).contracts ? `the ${wanted(shape.references(f))} document` : 'documents of its gate'}, or mark it unverified.`,
                inv,
              ),
            );
          }
        }
        return out;
      },
    ),
    ...(shape.promptWishFields.length
      ? [
          shapeRule(
            shape,
            'ARCH_MANDATORY_FIELD_PROMPT_ONLY',
            "An evidenced mandatory field references at least one contract document of its gate; a summary with loose evidence is the seed's anti-pattern of agent capabilities written as prompt wishes (V2 invariant 5).",
            (r) =>
              shape.promptWishFields
                .filter((f) => section(r, f).status === 'evidenced' && refsOf(r, f).length === 0)
                .map((f) =>
                  issue(
                    'ARCH_MANDATORY_FIELD_PROMPT_ONLY',
                    `/${f}/contracts`,
                    `${f} is evidenced by its summary and ${describeKinds(section(r, f).evidence)} only, with no ${wanted(shape.references(f))} document: a capability written as a wish; reference the document that makes it checkable, or mark the field unverified.`,
                    inv,
                  ),
                ),
          ),
        ]
      : []),
  ];
  const consistency = shapeRule(
    shape,
    'ARCH_FIELD_STATUS_INCONSISTENT',
    shape === V1_SHAPE
      ? 'A section status agrees with its contents: not-applicable sections reference no contract and claim no object; capabilitySurfaceEvidence is evidenced iff it has entries all verified, unverified iff some entry is unverified, not-applicable only without entries (invariant 6).'
      : 'A section status agrees with its contents: not-applicable sections reference no contract and claim no object (V2 invariant 6).',
    (r) => {
      const problems = new Map<string, string[]>();
      const bad = (f: string, message: string) => problems.set(f, [...(problems.get(f) ?? []), message]);
      for (const f of shape.backedFields) {
        const n = refsOf(r, f).length;
        if (section(r, f).status === 'not-applicable' && n > 0) {
          bad(
            f,
            `it references ${n} contract document(s); drop the references, or give the field its real status`,
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
      if (shape === V1_SHAPE) {
        const s = (r as unknown as AiAgentSystemArchitectureReportV1).capabilitySurfaceEvidence;
        const unverified = s.entries.filter((e) => e.evidenceStatus === 'unverified').length;
        const derived =
          s.entries.length === 0 ? 'not-applicable' : unverified > 0 ? 'unverified' : 'evidenced';
        if (s.status !== derived) {
          bad(
            'capabilitySurfaceEvidence',
            `its ${s.entries.length} entries (${unverified} unverified) make it ${derived}; set status ${derived}`,
          );
        }
      }
      return shape.statusFields
        .filter((f) => problems.has(f))
        .map((f) =>
          issue(
            'ARCH_FIELD_STATUS_INCONSISTENT',
            `/${f}/status`,
            `${f} is ${section(r, f).status} but ${problems.get(f)!.join('; and ')}.`,
            inv,
          ),
        );
    },
  );
  const gates = shapeRule(
    shape,
    'ARCH_CONTRACT_REF_GATE_MISMATCH',
    shape === V1_SHAPE
      ? 'Each referenced contract is in the spec catalogue and belongs to an allowed gate of the field; agentCapabilityDomainMatrix references only AgentCapabilityDomainMatrixV1 (invariant 7).'
      : 'Each referenced contract is in the spec catalogue, belongs to an allowed gate of the field and, where the field names its contracts, is one of them (V2 invariant 7).',
    (r) => {
      const out: Issue[] = [];
      for (const f of shape.backedFields) {
        const allowed = shape.references(f);
        refsOf(r, f).forEach((ref, i) => {
          const gate = gateOf.get(ref.contract);
          const ok =
            gate !== undefined &&
            allowed.gates.includes(gate) &&
            (allowed.contracts === null || allowed.contracts.includes(ref.contract));
          if (ok) return;
          out.push(
            issue(
              'ARCH_CONTRACT_REF_GATE_MISMATCH',
              `/${f}/contracts/${i}/contract`,
              gate === undefined
                ? `${ref.contract} is not a contract of the spec catalogue; ${f} references ${wanted(allowed)}.`
                : `${ref.contract} belongs to ${gate}, but ${f} references ${wanted(allowed)}; move the reference to the field of its gate.`,
              inv,
            ),
          );
        });
      }
      return out;
    },
  );
  const duplicates = shapeRule(
    shape,
    'ARCH_CONTRACT_REF_DUPLICATE',
    'Within one field, no two contract references have the same (contract, documentDigest) (invariant 8).',
    (r) =>
      shape.backedFields.flatMap((f) =>
        laterDuplicates(refsOf(r, f), (c) => JSON.stringify([c.contract, c.documentDigest])).map((i) =>
          issue(
            'ARCH_CONTRACT_REF_DUPLICATE',
            `/${f}/contracts/${i}`,
            `${f} references the same ${refsOf(r, f)[i]!.contract} document twice; keep one reference.`,
            inv,
          ),
        ),
      ),
  );
  before.push(consistency, gates, duplicates);
  const completeness = shapeRule(
    shape,
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
          inv,
        ),
      ];
    },
  );
  const mandatoryOutcome = shapeRule(
    shape,
    'ARCH_MANDATORY_FIELD_UNVERIFIED',
    'Gate outcome: every mandatory field is evidenced; each unverified mandatory field fails the gate.',
    (r) =>
      shape.mandatory
        .filter((f) => section(r, f).status === 'unverified')
        .map((f) =>
          issue(
            'ARCH_MANDATORY_FIELD_UNVERIFIED',
            `/${f}/status`,
            `the report is well-formed but fails the gate: mandatory field ${f} is unverified; ${shape === V1_SHAPE ? 'capture direct (hook, runtime, replay, tests) evidence for it' : `reference the ${wanted(shape.references(f))} document that backs it`}.`,
            GATE_OUTCOME,
          ),
        ),
    GATE_OUTCOME,
  );
  return { before, completeness, mandatoryOutcome };
}

const asReport = (doc: ContractDocument) => doc as unknown as AiAgentSystemArchitectureReportV1;

const V1_SHARED = sharedRules(V1_SHAPE);
const V2_SHARED = sharedRules(V2_SHAPE);

/** Semantic rules of AiAgentSystemArchitectureReportV1 (one per code), in spec order. */
const V1_RULES: readonly SemanticRule[] = [
  ...V1_SHARED.before,
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
  V1_SHARED.completeness,
  V1_SHARED.mandatoryOutcome,
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

// ---------------------------------------------------------------------------------------------
// CapabilitySurfaceEvidenceV1 (invariants C2–C6 of its section).
// ---------------------------------------------------------------------------------------------

type Aspect = CapabilityAspectBase & { readonly value: unknown; readonly limitMs?: number | null };
const aspects = (d: CapabilitySurfaceEvidenceV1) =>
  CAPABILITY_ASPECTS.map((name) => [name, d[name] as Aspect] as const);

function surfaceRule(
  code: string,
  description: string,
  check: (d: CapabilitySurfaceEvidenceV1) => Issue[],
): SemanticRule {
  return {
    code,
    contract: SURFACE,
    specSection: SURFACE_INVARIANTS,
    description,
    check: (doc) => check(doc as unknown as CapabilitySurfaceEvidenceV1),
  };
}
const perAspect = (
  code: string,
  member: 'status' | 'basis' | 'value',
  description: string,
  broken: (a: Aspect) => boolean,
  message: (name: CapabilityAspectName, a: Aspect, d: CapabilitySurfaceEvidenceV1) => string,
) =>
  surfaceRule(code, description, (d) =>
    aspects(d)
      .filter(([, a]) => broken(a))
      .map(([name, a]) => issue(code, `/${name}/${member}`, message(name, a, d), SURFACE_INVARIANTS)),
  );

/** Semantic rules of CapabilitySurfaceEvidenceV1 (one per code), in spec order. */
const SURFACE_RULES: readonly SemanticRule[] = [
  perAspect(
    'CAPABILITY_SURFACE_NOT_DIRECT',
    'status',
    'An aspect marked verified has at least one direct evidence entry (hook, runtime, replay, tests); report and memory entries never verify it (C2).',
    (a) => a.status === 'verified' && !hasDirect(a.evidence),
    (name, a, d) =>
      `${name} of "${d.surface}" is verified on ${describeKinds(a.evidence)} only; mark it unverified, or capture hook, runtime, replay or tests evidence of it.`,
  ),
  perAspect(
    'CAPABILITY_SURFACE_INFERRED',
    'basis',
    'An aspect marked verified has basis direct-observation; a value taken from a declaration, a name or a similar capability stays unverified (C3).',
    (a) => a.status === 'verified' && a.basis !== 'direct-observation',
    (name, a, d) =>
      `${name} of "${d.surface}" is verified on basis "${a.basis}"; a ${a.basis === 'name' ? 'name' : a.basis === 'similar-capability' ? 'similar capability' : a.basis} is no evidence of behaviour: mark it unverified, or observe it directly.`,
  ),
  perAspect(
    'CAPABILITY_SURFACE_BASIS_INCONSISTENT',
    'basis',
    'basis is none exactly when the value is null: a stated value names where it comes from, an unknown one claims no basis (C4).',
    (a) => (a.basis === 'none') !== (a.value === null),
    (name, a, d) =>
      a.value === null
        ? `${name} of "${d.surface}" has basis "${a.basis}" but no value; state the value it gives, or set basis none.`
        : `${name} of "${d.surface}" states a value with basis none; name where the value comes from (direct-observation, declaration, name, similar-capability).`,
  ),
  surfaceRule(
    'CAPABILITY_SURFACE_TIMEOUT_INCONSISTENT',
    'timeout.limitMs is non-null exactly when timeout.value is bounded (C5).',
    (d) =>
      (d.timeout.limitMs !== null) === (d.timeout.value === 'bounded')
        ? []
        : [
            issue(
              'CAPABILITY_SURFACE_TIMEOUT_INCONSISTENT',
              '/timeout/limitMs',
              d.timeout.value === 'bounded'
                ? `timeout of "${d.surface}" is bounded without limitMs; give the limit in milliseconds.`
                : `timeout of "${d.surface}" is ${d.timeout.value ?? 'unknown'} but carries limitMs ${d.timeout.limitMs}; drop it (null), or set value bounded.`,
              SURFACE_INVARIANTS,
            ),
          ],
  ),
  surfaceRule(
    'CAPABILITY_SURFACE_STATUS_INCONSISTENT',
    'evidenceStatus is verified exactly when every one of the ten aspects is verified (C6).',
    (d) => {
      const unverified = aspects(d)
        .filter(([, a]) => a.status === 'unverified')
        .map(([n]) => n);
      const derived = unverified.length === 0 ? 'verified' : 'unverified';
      if (d.evidenceStatus === derived) return [];
      return [
        issue(
          'CAPABILITY_SURFACE_STATUS_INCONSISTENT',
          '/evidenceStatus',
          unverified.length
            ? `"${d.surface}" is ${d.evidenceStatus} but ${unverified.length} aspect(s) are unverified (${unverified.join(', ')}); set evidenceStatus unverified.`
            : `"${d.surface}" is unverified although every aspect is verified; set evidenceStatus verified.`,
          SURFACE_INVARIANTS,
        ),
      ];
    },
  ),
];

/** Semantic rules of AiAgentSystemArchitectureReportV2 (one per code), in spec order. */
const V2_RULES: readonly SemanticRule[] = [
  ...V2_SHARED.before,
  V2_SHARED.completeness,
  V2_SHARED.mandatoryOutcome,
];

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const ARCHITECTURE_REPORT_RULES: readonly SemanticRule[] = [
  ...V1_RULES,
  ...SURFACE_RULES,
  ...V2_RULES,
];

function describeKinds(evidence: readonly EvidenceRef[]): string {
  const kinds = [...new Set(evidence.map((e) => e.kind))];
  return kinds.length ? kinds.join(' and ') : 'no evidence';
}

// ---------------------------------------------------------------------------------------------
// Bundles. Three kinds, each with the report first (D-ARC-14, D-ARC-64):
//   architecture-report-with-matrix      [report, the matrix its agentCapabilityDomainMatrix references]
//   architecture-report-with-references  [report, every document it references, in any order]
//   architecture-report-v2-with-references  [V2 report, every document it references, in any order]
// ---------------------------------------------------------------------------------------------

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
    {
      code: 'ARCH_BUNDLE_SHAPE_INVALID',
      bundle: kind,
      specSection: BUNDLES,
      description:
        kind === REPORT_WITH_MATRIX
          ? 'The bundle is exactly [report, matrix], and the report references a matrix.'
          : `The bundle starts with the ${reportContractOf(kind)} report; the documents it references follow in any order.`,
      check: (docs) => shapeIssues(kind, docs),
    },
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
