// Semantic and bundle rules of EvidenceMatrixV1 (docs/spec/replay-observability-gate.md).
// Identity and digest (invariants 1 and 2) are DigestRules with their own codes in
// @agent-contracts/schemas; a reference to a contract document resolves in a bundle exactly as
// the architecture report's references do (`resolve`, invariant 14 of that page).
import {
  CONTRACTS,
  computeDocumentDigest,
  DIRECT_EVIDENCE_KINDS,
  type EvidenceMatrixClaim,
  type EvidenceMatrixEntry,
  type EvidenceMatrixV1,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { resolve } from './architecture-report/index.js';
import { bundleRule, contractRules, semanticRule } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const CONTRACT = 'EvidenceMatrixV1';
const PAGE = 'docs/spec/replay-observability-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<EvidenceMatrixV1>(CONTRACT, INVARIANTS);
const GATE_OUTCOME = `${PAGE}#gate-outcome`;
const BUNDLES = `${PAGE}#bundles`;

/** Bundle kind: an evidence matrix and the contract documents its entries name. */
export const EVIDENCE_MATRIX_WITH_DOCUMENTS = 'evidence-matrix-with-documents';

const direct = new Set<string>(DIRECT_EVIDENCE_KINDS);
const known = new Set(CONTRACTS.map((c) => c.name));
const pinned = (e: EvidenceMatrixEntry) => e.digest !== null;
/** Kinds that show a behaviour change (seed anti-pattern: a behaviour change without replay). */
const CHANGE_KINDS = new Set<string>(['replay', 'tests']);

const asMatrix = (doc: ContractDocument) => doc as unknown as EvidenceMatrixV1;

/** One rule over every claim: `check` returns the issue of claim `i`, or null. */
function perClaim(
  code: string,
  description: string,
  check: (c: EvidenceMatrixClaim, i: number) => Issue | null,
  specSection = INVARIANTS,
): SemanticRule {
  return semanticRule<EvidenceMatrixV1>(code, CONTRACT, specSection, description, (m) =>
    m.claims.flatMap((c, i) => check(c, i) ?? []),
  );
}

const label = (c: EvidenceMatrixClaim) => `claim "${c.claimId}"`;

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const EVIDENCE_MATRIX_RULES: readonly SemanticRule[] = [
  rule('EVIDENCE_MATRIX_CLAIM_DUPLICATE', 'No two claims share a claimId (invariant 3).', (m) => {
    const seen = new Set<string>();
    return m.claims.flatMap((c, i) => {
      if (!seen.has(c.claimId)) {
        seen.add(c.claimId);
        return [];
      }
      return [
        issue(
          'EVIDENCE_MATRIX_CLAIM_DUPLICATE',
          `/claims/${i}/claimId`,
          `${label(c)} repeats the id of an earlier claim; merge the two claims, or give this one its own id.`,
        ),
      ];
    });
  }),
  rule(
    'EVIDENCE_MATRIX_DOCUMENT_DIGEST_MISMATCH',
    "An entry that names a contract document is pinned by that document's digest: digest equals document.documentDigest (invariant 4).",
    (m) =>
      m.claims.flatMap((c, i) =>
        c.evidence.flatMap((e, j) =>
          e.document === null || e.digest === e.document.documentDigest
            ? []
            : [
                issue(
                  'EVIDENCE_MATRIX_DOCUMENT_DIGEST_MISMATCH',
                  `/claims/${i}/evidence/${j}/digest`,
                  `${label(c)} entry ${j} names a ${e.document.contract} document but its digest is ${e.digest === null ? 'null' : `${e.digest.slice(0, 12)}…`}, not the document's digest; set digest to document.documentDigest.`,
                ),
              ],
        ),
      ),
  ),
  rule(
    'EVIDENCE_MATRIX_DOCUMENT_CONTRACT_UNKNOWN',
    'A named contract document is of a contract of the spec catalogue (invariant 5).',
    (m) =>
      m.claims.flatMap((c, i) =>
        c.evidence.flatMap((e, j) =>
          e.document === null || known.has(e.document.contract)
            ? []
            : [
                issue(
                  'EVIDENCE_MATRIX_DOCUMENT_CONTRACT_UNKNOWN',
                  `/claims/${i}/evidence/${j}/document/contract`,
                  `${label(c)} entry ${j} names ${e.document.contract}, which is not a contract of the spec; set document to null and pin the artefact by its digest instead.`,
                ),
              ],
        ),
      ),
  ),
  perClaim(
    'EVIDENCE_MATRIX_CHANGE_CLASS_INCONSISTENT',
    'Only a behaviour claim is a behaviour change (invariant 6).',
    (c, i) =>
      c.behaviourChange && c.claimClass !== 'behaviour'
        ? issue(
            'EVIDENCE_MATRIX_CHANGE_CLASS_INCONSISTENT',
            `/claims/${i}/behaviourChange`,
            `${label(c)} is a ${c.claimClass} claim marked as a behaviour change; class it behaviour, or set behaviourChange false.`,
          )
        : null,
  ),
  perClaim(
    'EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY',
    'A verified behaviour claim has at least one entry of a direct kind (hook, runtime, replay, tests); report and memory are prose and never verify behaviour (invariant 7).',
    (c, i) =>
      c.status === 'verified' && c.claimClass === 'behaviour' && !c.evidence.some((e) => direct.has(e.kind))
        ? issue(
            'EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY',
            `/claims/${i}/evidence`,
            `${label(c)} is a behaviour claim verified on ${c.evidence.length ? 'report and memory entries only' : 'no evidence'}; capture hook, runtime, replay or tests evidence, or mark it unverified.`,
          )
        : null,
  ),
  perClaim(
    'EVIDENCE_MATRIX_EVIDENCE_UNPINNED',
    'A verified claim has a pinned (non-null digest) entry that could verify it: of a direct kind for a behaviour claim, of any kind otherwise; an unpinned entry never verifies (invariant 8).',
    (c, i) => {
      if (c.status !== 'verified') return null;
      const usable = c.evidence.filter((e) => c.claimClass !== 'behaviour' || direct.has(e.kind));
      if (usable.length === 0 || usable.some(pinned)) return null;
      return issue(
        'EVIDENCE_MATRIX_EVIDENCE_UNPINNED',
        `/claims/${i}/status`,
        `${label(c)} is verified, but every entry that could verify it has digest null; pin the artefact (its SHA-256) or the contract document, or mark the claim unverified.`,
      );
    },
  ),
  perClaim(
    'EVIDENCE_MATRIX_BEHAVIOUR_CHANGE_WITHOUT_REPLAY',
    'A verified behaviour change has a pinned replay or tests entry: hook and runtime captures of the new behaviour do not show what changed (invariant 9).',
    (c, i) =>
      c.status === 'verified' &&
      c.behaviourChange &&
      c.evidence.some((e) => direct.has(e.kind) && pinned(e)) &&
      !c.evidence.some((e) => CHANGE_KINDS.has(e.kind) && pinned(e))
        ? issue(
            'EVIDENCE_MATRIX_BEHAVIOUR_CHANGE_WITHOUT_REPLAY',
            `/claims/${i}/evidence`,
            `${label(c)} is a behaviour change verified without a pinned replay or tests entry; add a direct or fixture replay (or an equivalent validator run) of the changed behaviour.`,
          )
        : null,
  ),
  perClaim(
    'EVIDENCE_MATRIX_BEHAVIOUR_UNVERIFIED',
    'Gate outcome: every behaviour claim is verified; each unverified behaviour claim fails the gate.',
    (c, i) =>
      c.claimClass === 'behaviour' && c.status === 'unverified'
        ? issue(
            'EVIDENCE_MATRIX_BEHAVIOUR_UNVERIFIED',
            `/claims/${i}/status`,
            `the matrix is well-formed but fails the gate: behaviour ${label(c)} is unverified; capture pinned replay, tests, hook or runtime evidence of it.`,
            GATE_OUTCOME,
          )
        : null,
    GATE_OUTCOME,
  ),
];

function shapeIssues(docs: readonly ContractDocument[]): Issue[] {
  if (docs[0]?.schemaVersion === CONTRACT) return [];
  return [
    issue(
      'EVIDENCE_MATRIX_BUNDLE_SHAPE_INVALID',
      '/documents/0/schemaVersion',
      `an ${EVIDENCE_MATRIX_WITH_DOCUMENTS} bundle starts with the ${CONTRACT} document; put the matrix first.`,
      BUNDLES,
    ),
  ];
}

/** Cross-document rules of this area's bundle kinds. */
export const EVIDENCE_MATRIX_BUNDLE_RULES: readonly BundleRule[] = [
  bundleRule(
    'EVIDENCE_MATRIX_BUNDLE_SHAPE_INVALID',
    EVIDENCE_MATRIX_WITH_DOCUMENTS,
    BUNDLES,
    'The bundle starts with the matrix; the documents its entries name follow in any order.',
    shapeIssues,
  ),
  bundleRule(
    'EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED',
    EVIDENCE_MATRIX_WITH_DOCUMENTS,
    BUNDLES,
    'Every contract document an entry names resolves to a document of the bundle: same contract, digestOf the entire document, and its id field when documentId is set (invariant 10).',
    (docs) => {
      if (shapeIssues(docs).length > 0) return [];
      const candidates = docs
        .slice(1)
        .map((doc, i) => ({ index: i + 1, doc, digest: computeDocumentDigest(doc) }));
      return asMatrix(docs[0]!).claims.flatMap((c, i) =>
        c.evidence.flatMap((e, j) => {
          if (e.document === null) return [];
          const r = resolve(e.document, candidates);
          return r.ok
            ? []
            : [
                issue(
                  'EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED',
                  `/documents/0/claims/${i}/evidence/${j}/document`,
                  `${label(c)} entry ${j}: ${r.message}`,
                  BUNDLES,
                ),
              ];
        }),
      );
    },
  ),
];
