// @module-tag integration
// AiAgentSystemArchitectureReportV2: each semantic fixture breaks exactly its rule; every field's
// allowed references name gates and contracts of the catalogue; the
// architecture-report-v2-with-references bundle resolves every reference by digest, keeps
// evidence to this revision and keeps a capability field unverified while one surface is.
import {
  type AiAgentSystemArchitectureReportV2,
  ARCHITECTURE_V2_FIELD_ORDER,
  ARCHITECTURE_V2_FIELD_REFERENCES,
  CONTRACTS,
  computeReportDigest,
  computeReportId,
  GATES,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { BUNDLE_KINDS, validate, validateBundle } from '../../src/index.ts';
import { listFixtures } from '../helpers.ts';

const CONTRACT = 'AiAgentSystemArchitectureReportV2';
const KIND = 'architecture-report-v2-with-references';
const fixtures = listFixtures();
const issues = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};
const report = (name: string) =>
  structuredClone(
    fixtures.find((f) => f.contract === CONTRACT && f.kind === 'valid' && f.name === name)!.document,
  ) as AiAgentSystemArchitectureReportV2;
function restamp(doc: AiAgentSystemArchitectureReportV2): AiAgentSystemArchitectureReportV2 {
  doc.reportId = computeReportId(doc);
  doc.reportDigest = computeReportDigest(doc);
  return doc;
}

describe('allowed references of the 14 fields', () => {
  it('cover every field, name gates of GATES and contracts of the catalogue of those gates', () => {
    expect(Object.keys(ARCHITECTURE_V2_FIELD_REFERENCES).sort()).toEqual(
      [...ARCHITECTURE_V2_FIELD_ORDER].sort(),
    );
    const gateOf = new Map(CONTRACTS.map((c) => [c.name, c.gate as string]));
    for (const [field, refs] of Object.entries(ARCHITECTURE_V2_FIELD_REFERENCES)) {
      for (const g of refs.gates) expect(Object.keys(GATES), `${field}: ${g}`).toContain(g);
      for (const c of refs.contracts ?? []) expect(refs.gates, `${field}: ${c}`).toContain(gateOf.get(c));
    }
  });
});

describe('semantic fixtures break exactly their rule', () => {
  const semantic = fixtures.filter((f) => f.contract === CONTRACT && f.expected?.layer === 'semantic');
  it('cover every single-document code of V2', () => {
    expect(new Set(semantic.map((f) => (f.expected as { code: string }).code))).toEqual(
      new Set([
        'ARCH_REPORT_ID_MISMATCH',
        'ARCH_REPORT_DIGEST_MISMATCH',
        'ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN',
        'ARCH_FIELD_SKIP_REASON_INCONSISTENT',
        'ARCH_FIELD_EVIDENCE_MISSING',
        'ARCH_MANDATORY_FIELD_PROMPT_ONLY',
        'ARCH_FIELD_STATUS_INCONSISTENT',
        'ARCH_CONTRACT_REF_GATE_MISMATCH',
        'ARCH_CONTRACT_REF_DUPLICATE',
        'ARCH_COMPLETENESS_CLAIM_WITHOUT_MATRIX',
        'ARCH_MANDATORY_FIELD_UNVERIFIED',
      ]),
    );
  });
  for (const f of semantic) {
    const e = f.expected as { code: string; instancePath: string };
    it(`${f.name}: ${e.code} at "${e.instancePath}" and nothing else`, () => {
      expect(issues(f.document)).toEqual([`${e.code} ${e.instancePath}`]);
    });
  }
});

describe('prompt wishes', () => {
  it('a mandatory field with hook and test evidence but no document is a prompt wish, once', () => {
    for (const field of [
      'intentRouting',
      'toolPermissionBoundary',
      'humanInLoopBoundary',
      'evidenceMatrix',
    ] as const) {
      const d = report('coding-agent-every-field-referenced');
      d[field].contracts = [];
      d[field].evidence = [
        { kind: 'hook', locator: 'hooks/pre-tool-use.log', digest: null },
        { kind: 'tests', locator: 'test/x.test.ts', digest: null },
      ];
      expect(issues(restamp(d))).toEqual([`ARCH_MANDATORY_FIELD_PROMPT_ONLY /${field}/contracts`]);
    }
  });
});

describe(`the ${KIND} bundle`, () => {
  it('is a bundle kind of the validator', () => {
    expect(BUNDLE_KINDS).toContain(KIND);
  });
  it('judges nothing while the report is invalid on its own', () => {
    const d = report('coding-agent-every-field-referenced');
    d.intentRouting.summary = 'edited after signing';
    const r = validateBundle({ kind: KIND, documents: [d] });
    expect(r.ok ? [] : r.issues.map((i) => i.code)).toEqual(['ARCH_REPORT_DIGEST_MISMATCH']);
  });
});
