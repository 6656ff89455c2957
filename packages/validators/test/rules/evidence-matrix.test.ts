// @module-tag unit
// The ReplayObservabilityGate rules: each semantic fixture breaks exactly its rule, the claim
// classes decide which evidence can verify a claim, and the evidence-matrix-with-documents bundle
// resolves named documents exactly as the architecture report's bundles do.
import { digestOf } from '@agent-contracts/digest';
import {
  computeEvidenceMatrixDigest,
  computeEvidenceMatrixId,
  type EvidenceMatrixV1,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { BUNDLE_KINDS, validate, validateBundle } from '../../src/index.ts';
import { describeSemanticFixtures, issuesOf, listFixtures } from '../helpers.ts';

const CONTRACT = 'EvidenceMatrixV1';
const PAGE = 'docs/spec/replay-observability-gate.md';
const KIND = 'evidence-matrix-with-documents';
const PIN = 'a'.repeat(64);

const fixtures = listFixtures();
const valid = (contract: string, name: string) =>
  structuredClone(
    fixtures.find((f) => f.contract === contract && f.kind === 'valid' && f.name === name)!.document,
  ) as Record<string, unknown>;
const matrix = (name: string) => valid(CONTRACT, name) as unknown as EvidenceMatrixV1;
const codes = issuesOf;
function restamp(doc: EvidenceMatrixV1): EvidenceMatrixV1 {
  doc.matrixId = computeEvidenceMatrixId(doc);
  doc.matrixDigest = computeEvidenceMatrixDigest(doc);
  return doc;
}

describeSemanticFixtures(CONTRACT, 10, (issue, expected) => {
  if (expected.code === 'EVIDENCE_MATRIX_ID_MISMATCH' || expected.code === 'EVIDENCE_MATRIX_DIGEST_MISMATCH')
    expect(issue.rule).toMatch(/^digest:/);
  else expect(issue.rule).toMatch(new RegExp(`^${PAGE}#(invariants|gate-outcome)$`));
});

describe('claim classes', () => {
  it('a structure claim is verified by a pinned design report; unpinned, it is refused', () => {
    const doc = matrix('design-only-no-behaviour-claim');
    expect(codes(doc)).toEqual([]);
    doc.claims[0]!.evidence[0]!.digest = null;
    expect(codes(restamp(doc))).toEqual(['EVIDENCE_MATRIX_EVIDENCE_UNPINNED /claims/0/status']);
  });

  it('a pinned report does not save a behaviour claim whose only direct entry is unpinned', () => {
    const doc = matrix('chat-assistant-pinned-artefacts');
    doc.claims[0]!.evidence = [
      { kind: 'report', locator: 'docs/tools.md', digest: PIN, document: null },
      { kind: 'tests', locator: 'tests/tools/disabled.spec.ts', digest: null, document: null },
    ];
    expect(codes(restamp(doc))).toEqual(['EVIDENCE_MATRIX_EVIDENCE_UNPINNED /claims/0/status']);
  });

  it('one pinned direct entry verifies a behaviour claim beside unpinned ones', () => {
    const doc = matrix('chat-assistant-pinned-artefacts');
    doc.claims[0]!.evidence.push({
      kind: 'hook',
      locator: 'hooks/pre-tool-use.log',
      digest: null,
      document: null,
    });
    expect(codes(restamp(doc))).toEqual([]);
  });

  it('a behaviour change is verified by pinned tests as well as by a replay', () => {
    const doc = matrix('chat-assistant-pinned-artefacts');
    doc.claims[1]!.evidence = [
      { kind: 'tests', locator: 'tests/answers.snap.ts', digest: PIN, document: null },
    ];
    expect(codes(restamp(doc))).toEqual([]);
  });

  it('an honest unverified behaviour claim on prose fails only the gate', () => {
    const doc = matrix('chat-assistant-pinned-artefacts');
    doc.claims[0]!.status = 'unverified';
    doc.claims[0]!.evidence = [{ kind: 'memory', locator: 'memory/notes.md', digest: null, document: null }];
    const r = validate(restamp(doc));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => `${i.code} ${i.path} ${i.rule}`)).toEqual([
      `EVIDENCE_MATRIX_BEHAVIOUR_UNVERIFIED /claims/0/status ${PAGE}#gate-outcome`,
    ]);
  });
});

describe(`the ${KIND} bundle`, () => {
  const northwind = () => matrix('coding-agent-replay-and-documents');
  const replay = valid('LocalTaskTraceReplayV1', 'ok-complete-read-edit-turn');
  const trace = valid('LocalTaskTraceV1', 'complete-read-edit-turn');
  const receipt = valid('ContextReadReceiptV2', 'relevant-complete-post-tool-use');

  it('is a known bundle kind', () => {
    expect(BUNDLE_KINDS).toContain(KIND);
  });

  it('resolves a reference without documentId by contract and digest alone', () => {
    const doc = northwind();
    doc.claims[0]!.evidence[0]!.document!.documentId = null;
    const r = validateBundle({ kind: KIND, documents: [restamp(doc), replay, trace, receipt] });
    expect(r.ok ? [] : r.issues).toEqual([]);
  });

  it('does not resolve a document of another contract that has the same digest', () => {
    const doc = northwind();
    doc.claims[0]!.evidence[0]!.document!.contract = 'LocalTaskTraceV1';
    doc.claims[0]!.evidence[0]!.document!.documentId = null;
    const r = validateBundle({ kind: KIND, documents: [restamp(doc), replay, trace, receipt] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED /documents/0/claims/0/evidence/0/document',
    ]);
    expect(r.issues[0]!.message).toContain('hash differently');
  });

  it('names the supplied replay of another trace that hashes differently', () => {
    const other = valid('LocalTaskTraceReplayV1', 'ok-open-with-deferred-duplicate');
    expect(digestOf(other)).not.toBe(digestOf(replay));
    const r = validateBundle({ kind: KIND, documents: [northwind(), trace, receipt, other] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path)).toEqual(['/documents/0/claims/0/evidence/0/document']);
    expect(r.issues[0]!.message).toContain('document(s) 3 hash differently');
  });

  it('judges nothing else when the matrix is not first', () => {
    const r = validateBundle({ kind: KIND, documents: [trace, northwind()] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.code)).toEqual(['EVIDENCE_MATRIX_BUNDLE_SHAPE_INVALID']);
  });
});
