// @module-tag unit
// The AiAgentSystemArchitectureGate rules: each semantic fixture breaks exactly its rule, the
// gate outcome is an error of its own section, and the two report bundles (report + matrix,
// report + every referenced document) resolve references, compare subjects and apply
// "a narrower object never satisfies a wider one" to the report's claim.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCapabilityDomainMatrixV1,
  type AiAgentSystemArchitectureReportV1,
  computeDocumentDigest,
  computeMatrixDigest,
  computeMatrixId,
  computeReportDigest,
  computeReportId,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { BUNDLE_KINDS, validate, validateBundle } from '../../src/index.ts';
import { listFixtures, repoRoot } from '../helpers.ts';

const CONTRACT = 'AiAgentSystemArchitectureReportV1';
const PAGE = 'docs/spec/ai-agent-system-architecture-gate.md';
const KINDS = ['architecture-report-with-matrix', 'architecture-report-with-references'];

const fixtures = listFixtures();
const valid = (contract: string, name: string) =>
  structuredClone(
    fixtures.find((f) => f.contract === contract && f.kind === 'valid' && f.name === name)!.document,
  );
const codes = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};
/** Recompute reportId and reportDigest after an edit. */
function restamp(doc: AiAgentSystemArchitectureReportV1): AiAgentSystemArchitectureReportV1 {
  doc.reportId = computeReportId(doc);
  doc.reportDigest = computeReportDigest(doc);
  return doc;
}
const report = (name: string) => valid(CONTRACT, name) as AiAgentSystemArchitectureReportV1;
const matrix = (name: string) =>
  valid('AgentCapabilityDomainMatrixV1', name) as AgentCapabilityDomainMatrixV1;

describe('semantic fixtures break exactly their rule', () => {
  const semantic = fixtures.filter((f) => f.contract === CONTRACT && f.expected?.layer === 'semantic');

  it('there is one per single-document code of the page (15 codes)', () => {
    expect(new Set(semantic.map((f) => (f.expected as { code: string }).code)).size).toBe(15);
  });

  for (const f of semantic) {
    const expected = f.expected as { code: string; instancePath: string };
    it(`${f.name}: ${expected.code} at "${expected.instancePath}" and nothing else`, () => {
      const r = validate(f.document);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
        `${expected.code} ${expected.instancePath}`,
      ]);
      const [issue] = r.issues;
      expect(issue!.severity).toBe('error');
      if (expected.code.startsWith('ARCH_REPORT_')) expect(issue!.rule).toMatch(/^digest:/);
      else expect(issue!.rule).toMatch(new RegExp(`^${PAGE}#(invariants|gate-outcome)$`));
    });
  }
});

describe('single-document rules', () => {
  it('the valid reports pass, including an unverified non-mandatory field', () => {
    for (const name of [
      'coding-agent-kernel-complete',
      'chat-assistant-not-applicable-fields',
      'mcp-surface-unverified',
    ]) {
      expect(codes(report(name)), name).toEqual([]);
    }
  });

  it('a not-applicable matrix section with references and a claim is one status issue naming both', () => {
    const doc = report('coding-agent-kernel-complete');
    const m = doc.agentCapabilityDomainMatrix;
    m.status = 'not-applicable';
    m.skipReason = 'No claim.';
    const r = validate(restamp(doc));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const status = r.issues.filter((i) => i.code === 'ARCH_FIELD_STATUS_INCONSISTENT');
    expect(status.map((i) => i.path)).toEqual(['/agentCapabilityDomainMatrix/status']);
    expect(status[0]!.message).toContain('references 1 contract');
    expect(status[0]!.message).toContain('claims "kernel"');
    expect(r.issues.map((i) => i.code)).toContain('ARCH_COMPLETENESS_CLAIM_WITHOUT_MATRIX');
  });

  it('capability surfaces: no entries must be not-applicable; all verified must be evidenced', () => {
    const none = report('chat-assistant-not-applicable-fields');
    none.capabilitySurfaceEvidence.status = 'unverified';
    none.capabilitySurfaceEvidence.skipReason = null;
    expect(codes(restamp(none))).toEqual([
      'ARCH_FIELD_STATUS_INCONSISTENT /capabilitySurfaceEvidence/status',
    ]);
    const verified = report('coding-agent-kernel-complete');
    verified.capabilitySurfaceEvidence.status = 'unverified';
    expect(codes(restamp(verified))).toEqual([
      'ARCH_FIELD_STATUS_INCONSISTENT /capabilitySurfaceEvidence/status',
    ]);
  });

  it('an unknown contract and a non-matrix contract in the matrix field are gate mismatches', () => {
    const doc = report('coding-agent-kernel-complete');
    doc.turnLivenessContract.contracts[0]!.contract = 'ShellHistoryV1';
    doc.agentCapabilityDomainMatrix.contracts[0]!.contract = 'AiAgentSystemArchitectureReportV1';
    expect(codes(restamp(doc)).sort()).toEqual([
      'ARCH_CONTRACT_REF_GATE_MISMATCH /agentCapabilityDomainMatrix/contracts/0/contract',
      'ARCH_CONTRACT_REF_GATE_MISMATCH /turnLivenessContract/contracts/0/contract',
    ]);
  });

  it('the same contract with another digest is not a duplicate reference', () => {
    const doc = report('coding-agent-kernel-complete');
    const first = doc.contextAcquisition.contracts[0]!;
    doc.contextAcquisition.contracts.push({ ...first, documentDigest: 'a'.repeat(64) });
    expect(codes(restamp(doc))).toEqual([]);
  });

  it('surfaces are compared as (decisionRef, surface) pairs, not as joined text', () => {
    const doc = report('coding-agent-kernel-complete');
    const [entry] = doc.capabilitySurfaceEvidence.entries;
    doc.capabilitySurfaceEvidence.entries = [
      { ...entry!, decisionRef: 'csd-1\ntool:a', surface: 'b' },
      { ...entry!, decisionRef: 'csd-1', surface: 'tool:a\nb' },
    ];
    expect(codes(restamp(doc))).toEqual([]);
  });

  it('both gate-outcome codes are reported together with every unverified mandatory field', () => {
    const doc = report('chat-assistant-not-applicable-fields');
    doc.intentRouting.status = 'unverified';
    doc.observabilityReplay.status = 'unverified';
    doc.evidenceMatrix.rows[0]!.status = 'unverified';
    expect(codes(restamp(doc))).toEqual([
      'ARCH_MANDATORY_FIELD_UNVERIFIED /intentRouting/status',
      'ARCH_MANDATORY_FIELD_UNVERIFIED /observabilityReplay/status',
      'ARCH_EVIDENCE_MATRIX_UNVERIFIED /evidenceMatrix/rows',
    ]);
  });
});

interface BundleFile {
  kind: string;
  name: string;
  valid: boolean;
  bundle: { kind: string; documents: unknown[] };
  expected?: { code: string; instancePath: string };
}

function bundleFiles(): BundleFile[] {
  const out: BundleFile[] = [];
  for (const kind of KINDS) {
    for (const state of ['valid', 'invalid'] as const) {
      const dir = join(repoRoot, 'conformance/bundles', kind, state);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).sort()) {
        if (!file.endsWith('.json') || file.endsWith('.expected.json')) continue;
        const name = file.slice(0, -5);
        const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8'));
        out.push({
          kind,
          name,
          valid: state === 'valid',
          bundle: read(file),
          ...(state === 'invalid' ? { expected: read(`${name}.expected.json`) } : {}),
        });
      }
    }
  }
  return out;
}

describe('bundle fixtures (conformance/bundles)', () => {
  const files = bundleFiles();

  it('both kinds are registered and have valid and invalid bundles', () => {
    for (const kind of KINDS) {
      expect(BUNDLE_KINDS).toContain(kind);
      expect(files.filter((f) => f.kind === kind && f.valid).length, kind).toBeGreaterThanOrEqual(2);
      expect(files.filter((f) => f.kind === kind && !f.valid).length, kind).toBeGreaterThanOrEqual(5);
    }
  });

  for (const f of files) {
    if (f.valid) {
      it(`${f.kind}/${f.name} is valid`, () => {
        const r = validateBundle(f.bundle);
        expect(r.ok ? [] : r.issues).toEqual([]);
      });
    } else {
      const e = f.expected!;
      it(`${f.kind}/${f.name}: ${e.code} at "${e.instancePath}", each document valid on its own`, () => {
        for (const doc of f.bundle.documents) expect(validate(doc).ok).toBe(true);
        const r = validateBundle(f.bundle);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        expect(r.issues.some((i) => i.code === e.code && i.path === e.instancePath)).toBe(true);
        expect(new Set(r.issues.map((i) => i.code))).toEqual(new Set([e.code]));
      });
    }
  }
});

describe('bundle rules', () => {
  const kernel = matrix('kernel-complete-claim');
  const northwind = report('coding-agent-kernel-complete');
  const issuesOf = (kind: string, documents: unknown[]) => {
    const r = validateBundle({ kind, documents });
    return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
  };

  it('the coding-agent report cites the kernel matrix fixture by matrixId and digestOf the whole document', () => {
    expect(northwind.agentCapabilityDomainMatrix.contracts[0]).toEqual({
      contract: 'AgentCapabilityDomainMatrixV1',
      documentId: kernel.matrixId,
      documentDigest: computeDocumentDigest(kernel),
    });
    expect(computeDocumentDigest(kernel)).not.toBe(kernel.matrixDigest);
  });

  it('report + matrix needs exactly two documents', () => {
    expect(issuesOf(KINDS[0]!, [northwind, kernel, kernel])).toEqual([
      'ARCH_BUNDLE_SHAPE_INVALID /documents',
    ]);
    expect(issuesOf(KINDS[0]!, [northwind, northwind])).toEqual([
      'ARCH_BUNDLE_SHAPE_INVALID /documents/1/schemaVersion',
    ]);
  });

  it('a wrong matrixId with the right digest is unresolved, and then nothing else is judged', () => {
    const doc = report('coding-agent-kernel-complete');
    doc.agentCapabilityDomainMatrix.contracts[0]!.documentId = 'acdm-000000000000000000000000';
    doc.agentCapabilityDomainMatrix.claimedObject = 'enterprise-saas';
    expect(issuesOf(KINDS[0]!, [restamp(doc), kernel])).toEqual([
      'ARCH_CONTRACT_REF_UNRESOLVED /documents/0/agentCapabilityDomainMatrix/contracts/0',
    ]);
  });

  it('a documentId on a contract without an id field is unresolved', () => {
    const r = validateBundle({
      kind: KINDS[1],
      documents: (() => {
        const b = bundleFiles().find(
          (f) => f.kind === KINDS[1] && f.name === 'coding-agent-every-reference-resolves',
        )!;
        const docs = structuredClone(b.bundle.documents) as AiAgentSystemArchitectureReportV1[];
        docs[0]!.taskContinuityWriteContract.contracts[0]!.documentId = 'fence-1';
        restamp(docs[0]!);
        return docs;
      })(),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'ARCH_CONTRACT_REF_UNRESOLVED /documents/0/taskContinuityWriteContract/contracts/0',
    ]);
    expect(r.issues[0]!.message).toContain('has no id field');
  });

  it('a matrix of another system is a subject mismatch even without a claim', () => {
    const other = matrix('no-declared-object-inventory');
    const doc = report('mcp-surface-unverified');
    doc.agentCapabilityDomainMatrix.contracts = [
      {
        contract: 'AgentCapabilityDomainMatrixV1',
        documentId: other.matrixId,
        documentDigest: computeDocumentDigest(other),
      },
    ];
    expect(issuesOf(KINDS[0]!, [restamp(doc), other])).toEqual([
      'ARCH_COMPLETENESS_SUBJECT_MISMATCH /documents/0/agentCapabilityDomainMatrix/contracts/0',
    ]);
  });

  it('a claim on a matrix without object is both unsupported and narrower', () => {
    const undeclared = matrix('no-declared-object-inventory');
    undeclared.subject = { ...northwind.subject };
    undeclared.matrixId = computeMatrixId(undeclared);
    undeclared.matrixDigest = computeMatrixDigest(undeclared);
    expect(validate(undeclared).ok).toBe(true);
    const doc = report('coding-agent-kernel-complete');
    doc.agentCapabilityDomainMatrix.contracts = [
      {
        contract: 'AgentCapabilityDomainMatrixV1',
        documentId: undeclared.matrixId,
        documentDigest: computeDocumentDigest(undeclared),
      },
    ];
    expect(issuesOf(KINDS[0]!, [restamp(doc), undeclared])).toEqual([
      'ARCH_COMPLETENESS_CLAIM_UNSUPPORTED /documents/0/agentCapabilityDomainMatrix/claimedObject',
      'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED /documents/0/agentCapabilityDomainMatrix/claimedObject',
    ]);
  });

  it('a report that fails the gate cannot be judged in a bundle: its own issues come first', () => {
    const doc = report('coding-agent-kernel-complete');
    doc.humanInLoopBoundary.status = 'unverified';
    expect(issuesOf(KINDS[0]!, [restamp(doc), kernel])).toEqual([
      'ARCH_MANDATORY_FIELD_UNVERIFIED /documents/0/humanInLoopBoundary/status',
    ]);
  });
});
