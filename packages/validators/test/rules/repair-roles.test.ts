// @module-tag unit
// The RepairCollaborationRoleBoundaryGate rules: each semantic fixture breaks exactly its rule,
// one party may hold both roles of a side but never roles of both sides, the re-review is
// independent of the executor, and the risk class is a function of the coded criteria alone.
import {
  computeRepairBoundaryDigest,
  computeRepairBoundaryId,
  type RepairRiskClassification,
  type RepairRoleBoundaryV1,
  repairRiskClass,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { describeSemanticFixtures, issuesOf, listFixtures } from '../helpers.ts';

const CONTRACT = 'RepairRoleBoundaryV1';
const PAGE = 'docs/spec/repair-collaboration-role-boundary-gate.md';

const fixtures = listFixtures();
const boundary = (name: string) =>
  structuredClone(
    fixtures.find((f) => f.contract === CONTRACT && f.kind === 'valid' && f.name === name)!.document,
  ) as RepairRoleBoundaryV1;
const codes = issuesOf;
function restamp(doc: RepairRoleBoundaryV1): RepairRoleBoundaryV1 {
  doc.boundaryId = computeRepairBoundaryId(doc);
  doc.boundaryDigest = computeRepairBoundaryDigest(doc);
  return doc;
}

describeSemanticFixtures(CONTRACT, 14, (issue, expected) => {
  if (expected.code.startsWith('REPAIR_ROLE_BOUNDARY_')) expect(issue.rule).toMatch(/^digest:/);
  else expect(issue.rule).toMatch(new RegExp(`^${PAGE}#(invariants|risk-class)$`));
});

describe('roles and authorization', () => {
  it('one party may decide and accept (same side)', () => {
    const doc = boundary('high-risk-store-repair-accepted');
    const holders = doc.roleAssignments.filter((a) => a.party.id === 'maintainer:lena').map((a) => a.role);
    expect(holders).toEqual(['decider', 'accepter']);
    expect(codes(doc)).toEqual([]);
  });

  it('the verifier holding the accepter role crosses sides', () => {
    const doc = boundary('high-risk-store-repair-accepted');
    doc.roleAssignments[3]!.party = { kind: 'human', id: 'maintainer:lena' };
    doc.authorizationEvidence[3]!.grantedBy = { kind: 'human', id: 'release-owner:omar' };
    const found = codes(restamp(doc));
    expect(found).toContain('REPAIR_ROLE_SEPARATION_VIOLATED /roleAssignments/3/party');
  });

  it('a proposed task needs no authorization; an authorized one needs it for every role', () => {
    const doc = boundary('critical-credential-repair-proposed');
    expect(codes(doc)).toEqual([]);
    doc.status = 'authorized';
    expect(codes(restamp(doc))).toEqual(
      Array(4).fill('REPAIR_ROLE_AUTHORIZATION_MISSING /authorizationEvidence'),
    );
  });

  it('an authority role granted by its own holder is refused', () => {
    const doc = boundary('medium-risk-docs-repair-executed');
    doc.authorizationEvidence[1]!.grantedBy = { kind: 'human', id: 'maintainer:lena' };
    expect(codes(restamp(doc))).toEqual([
      'REPAIR_ROLE_AUTHORIZATION_GRANTOR_INVALID /authorizationEvidence/1/grantedBy',
    ]);
  });

  it('a verifier granted by the accepter, not the decider, is refused', () => {
    const doc = boundary('medium-risk-docs-repair-executed');
    doc.authorizationEvidence[3]!.grantedBy = { kind: 'human', id: 'maintainer:lena' };
    expect(codes(restamp(doc))).toEqual([
      'REPAIR_ROLE_AUTHORIZATION_GRANTOR_INVALID /authorizationEvidence/3/grantedBy',
    ]);
  });
});

describe('independent re-review', () => {
  it('a verifier of another party may re-review', () => {
    const doc = boundary('high-risk-store-repair-accepted');
    doc.independentReReview!.role = 'verifier';
    doc.independentReReview!.party = { kind: 'service', id: 'ci:northwind-pipeline' };
    expect(codes(restamp(doc))).toEqual([]);
  });

  it('another party acting in the executor role is not independent', () => {
    const doc = boundary('high-risk-store-repair-accepted');
    doc.independentReReview!.role = 'executor';
    expect(codes(restamp(doc))).toEqual(['REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT /independentReReview/role']);
  });

  it('a pinned design report is not evidence of a re-review', () => {
    const doc = boundary('high-risk-store-repair-accepted');
    doc.independentReReview!.evidence = [
      { kind: 'report', locator: 'reviews/repair-2026-118.md', digest: 'b'.repeat(64) },
    ];
    expect(codes(restamp(doc))).toEqual([
      'REPAIR_ROLE_REREVIEW_EVIDENCE_NOT_OWN /independentReReview/evidence',
    ]);
  });

  it('a medium repair may be accepted without a re-review; a high one may not', () => {
    const doc = boundary('medium-risk-docs-repair-executed');
    doc.status = 'accepted';
    expect(codes(restamp(doc))).toEqual([]);
    doc.risk.blastRadius = 'repository';
    doc.risk.riskClass = 'high';
    expect(codes(restamp(doc))).toEqual(['REPAIR_ROLE_REREVIEW_MISSING /independentReReview']);
  });
});

describe('repairRiskClass', () => {
  const SIDE: RepairRiskClassification['sideEffectLevel'][] = [
    'none',
    'read',
    'local-write',
    'external-write',
    'irreversible',
  ];
  const BLAST: RepairRiskClassification['blastRadius'][] = [
    'single-file',
    'module',
    'repository',
    'cross-system',
  ];
  const DATA: RepairRiskClassification['dataSensitivity'][] = ['none', 'internal', 'personal', 'secret'];
  const ORDER = ['low', 'medium', 'high', 'critical'];
  const all = SIDE.flatMap((s) =>
    BLAST.flatMap((b) => DATA.map((d) => ({ sideEffectLevel: s, blastRadius: b, dataSensitivity: d }))),
  );

  it('states the page table: the corners and one value of each rank', () => {
    expect(
      repairRiskClass({ sideEffectLevel: 'none', blastRadius: 'single-file', dataSensitivity: 'none' }),
    ).toBe('low');
    expect(
      repairRiskClass({ sideEffectLevel: 'read', blastRadius: 'single-file', dataSensitivity: 'none' }),
    ).toBe('low');
    expect(
      repairRiskClass({
        sideEffectLevel: 'local-write',
        blastRadius: 'single-file',
        dataSensitivity: 'none',
      }),
    ).toBe('medium');
    expect(
      repairRiskClass({ sideEffectLevel: 'none', blastRadius: 'repository', dataSensitivity: 'none' }),
    ).toBe('high');
    expect(
      repairRiskClass({ sideEffectLevel: 'none', blastRadius: 'single-file', dataSensitivity: 'secret' }),
    ).toBe('critical');
    expect(
      repairRiskClass({
        sideEffectLevel: 'irreversible',
        blastRadius: 'cross-system',
        dataSensitivity: 'secret',
      }),
    ).toBe('critical');
  });

  it('never falls when one criterion rises (all 80 combinations)', () => {
    const rank = (c: (typeof all)[number]) => ORDER.indexOf(repairRiskClass(c));
    for (const c of all) {
      const up = [
        SIDE.indexOf(c.sideEffectLevel) + 1 < SIDE.length && {
          ...c,
          sideEffectLevel: SIDE[SIDE.indexOf(c.sideEffectLevel) + 1]!,
        },
        BLAST.indexOf(c.blastRadius) + 1 < BLAST.length && {
          ...c,
          blastRadius: BLAST[BLAST.indexOf(c.blastRadius) + 1]!,
        },
        DATA.indexOf(c.dataSensitivity) + 1 < DATA.length && {
          ...c,
          dataSensitivity: DATA[DATA.indexOf(c.dataSensitivity) + 1]!,
        },
      ].filter((x) => x !== false);
      for (const u of up) expect(rank(u), JSON.stringify(u)).toBeGreaterThanOrEqual(rank(c));
    }
    expect(all).toHaveLength(80);
  });

  it('every valid fixture states the computed class', () => {
    for (const f of fixtures.filter((x) => x.contract === CONTRACT && x.kind === 'valid')) {
      const doc = f.document as RepairRoleBoundaryV1;
      expect(doc.risk.riskClass, f.name).toBe(repairRiskClass(doc.risk));
    }
  });
});
