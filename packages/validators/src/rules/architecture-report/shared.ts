// Shared by the rules of AiAgentSystemArchitectureReportV1, AiAgentSystemArchitectureReportV2 and
// CapabilitySurfaceEvidenceV1 (docs/spec/ai-agent-system-architecture-gate.md): the spec anchors,
// the field lists, and a view of a report as sections with the rules both report versions share
// (invariants 3-8, 13 and the mandatory-field gate outcome), built once per version.
import {
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
  CONTRACTS,
  type ContractDocumentRef,
  DIRECT_EVIDENCE_KINDS,
  type EvidenceRef,
  type GateName,
  type NullableCompletenessObject,
} from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules, laterDuplicates, semanticRule } from '../kit.js';
import type { ContractDocument, SemanticRule } from '../types.js';

export const CONTRACT = 'AiAgentSystemArchitectureReportV1';
export const CONTRACT_V2 = 'AiAgentSystemArchitectureReportV2';
export const SURFACE = 'CapabilitySurfaceEvidenceV1';
export const MATRIX = 'AgentCapabilityDomainMatrixV1';
const PAGE = 'docs/spec/ai-agent-system-architecture-gate.md';
export const INVARIANTS = `${PAGE}#invariants`;
export const { issue, rule } = contractRules<AiAgentSystemArchitectureReportV1>(CONTRACT, INVARIANTS);
export const GATE_OUTCOME = `${PAGE}#gate-outcome`;
export const BUNDLES = `${PAGE}#bundles`;
export const SURFACE_INVARIANTS = `${PAGE}#capabilitysurfaceevidencev1-invariants`;
export const V2_INVARIANTS = `${PAGE}#aiagentsystemarchitecturereportv2-invariants`;

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
export const CONTRACT_BACKED: readonly ContractBackedField[] = [
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
export const direct = new Set<string>(DIRECT_EVIDENCE_KINDS);
export const hasDirect = (evidence: readonly EvidenceRef[]) => evidence.some((e) => direct.has(e.kind));

/** The members of a status-bearing section that the shared rules read. */
interface SectionView {
  readonly status: ArchitectureFieldStatus;
  readonly skipReason: string | null;
  readonly evidence: readonly EvidenceRef[];
  readonly contracts?: readonly ContractDocumentRef[];
}
export interface ReportView {
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

export const section = (r: ReportView, f: string) => r[f] as SectionView;
export const refsOf = (r: ReportView, f: string) => section(r, f).contracts ?? [];

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

export const V2_SHAPE: ReportShape = {
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
  return semanticRule<ReportView>(code, shape.contract, specSection, description, check);
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

export const asReport = (doc: ContractDocument) => doc as unknown as AiAgentSystemArchitectureReportV1;

export const V1_SHARED = sharedRules(V1_SHAPE);
export const V2_SHARED = sharedRules(V2_SHAPE);

export function describeKinds(evidence: readonly EvidenceRef[]): string {
  const kinds = [...new Set(evidence.map((e) => e.kind))];
  return kinds.length ? kinds.join(' and ') : 'no evidence';
}
