// @module-tag unit
// CapabilitySurfaceEvidenceV1: each semantic fixture breaks exactly its rule, and an aspect is
// verified only on direct observation with direct evidence; every other aspect stays unverified.
import {
  type CapabilitySurfaceEvidenceV1,
  computeCapabilitySurfaceEvidenceId,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.ts';
import { listFixtures } from '../helpers.ts';

const CONTRACT = 'CapabilitySurfaceEvidenceV1';
const fixtures = listFixtures().filter((f) => f.contract === CONTRACT);
const valid = (name: string) =>
  structuredClone(
    fixtures.find((f) => f.kind === 'valid' && f.name === name)!.document,
  ) as CapabilitySurfaceEvidenceV1;
const issues = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};

describe('semantic fixtures break exactly their rule', () => {
  const semantic = fixtures.filter((f) => f.expected?.layer === 'semantic');

  it('there is one per code of the section (6 codes)', () => {
    expect(new Set(semantic.map((f) => (f.expected as { code: string }).code)).size).toBe(6);
  });

  for (const f of semantic) {
    const e = f.expected as { code: string; instancePath: string };
    it(`${f.name}: ${e.code} at "${e.instancePath}" and nothing else`, () => {
      expect(issues(f.document)).toEqual([`${e.code} ${e.instancePath}`]);
    });
  }
});

describe('no aspect is verified without direct observation', () => {
  const shell = () => valid('shell-exec-every-aspect-observed');

  for (const basis of ['declaration', 'name', 'similar-capability'] as const) {
    it(`an execute right inferred from "${basis}" is refused as verified, with direct evidence beside it`, () => {
      const d = shell();
      d.execute.basis = basis;
      expect(issues(d)).toEqual(['CAPABILITY_SURFACE_INFERRED /execute/basis']);
      d.execute.status = 'unverified';
      d.evidenceStatus = 'unverified';
      expect(issues(d)).toEqual([]);
    });
  }

  for (const kind of ['report', 'memory'] as const) {
    it(`${kind} evidence alone never verifies an aspect`, () => {
      const d = shell();
      d.audit.evidence = [{ kind, locator: 'docs/audit.md', digest: null }];
      expect(issues(d)).toEqual(['CAPABILITY_SURFACE_NOT_DIRECT /audit/status']);
    });
  }

  it('one unverified aspect keeps the whole surface unverified', () => {
    const d = shell();
    d.idempotency = { status: 'unverified', basis: 'none', value: null, evidence: [] };
    expect(issues(d)).toEqual(['CAPABILITY_SURFACE_STATUS_INCONSISTENT /evidenceStatus']);
    d.evidenceStatus = 'unverified';
    expect(issues(d)).toEqual([]);
  });

  it('a copied preferredSurface is refused at the object that holds it, in an aspect too', () => {
    const d = shell() as unknown as Record<string, Record<string, unknown>>;
    d.timeout!.preferredSurface = 'mcp';
    expect(issues(d)).toEqual(['SCHEMA_ADDITIONAL_PROPERTY /timeout']);
  });

  it('the evidence id covers subject, decisionRef, surface and observedAt, and nothing else', () => {
    const d = shell();
    expect(computeCapabilitySurfaceEvidenceId(d)).toBe(d.evidenceId);
    d.audit.value = 'none';
    expect(computeCapabilitySurfaceEvidenceId(d)).toBe(d.evidenceId);
    d.observedAt = '2026-10-14T09:58:03.000Z';
    expect(issues(d)).toEqual(['CAPABILITY_SURFACE_EVIDENCE_ID_MISMATCH /evidenceId']);
  });
});
