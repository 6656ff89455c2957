// @module-tag unit
// The AgentCapabilityDomainCompletenessGate rules: the classification table generated from the
// catalogue, satisfaction across objects, each semantic fixture breaking exactly its rule, and
// the edge cases the spec settles (duplicates suspend the verdict, null object, manual review).
import {
  type AgentCapabilityDomainMatrixV1,
  CAPABILITY_DOMAIN_ORDER,
  CAPABILITY_DOMAINS_BY_OBJECT,
  type CapabilityDomainId,
  type CapabilityDomainRecord,
  COMPLETENESS_OBJECTS,
  type CompletenessObject,
  computeMatrixDigest,
  computeMatrixId,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { capabilityMatrixSatisfies, classifyCapabilityMatrix, validate } from '../../src/index.ts';
import { listFixtures } from '../helpers.ts';

const CONTRACT = 'AgentCapabilityDomainMatrixV1';

const satisfied = (domain: CapabilityDomainId): CapabilityDomainRecord => ({
  domain,
  owner: { kind: 'component', name: `${domain}-service` },
  publicPrivateBoundary: 'internal-contract',
  runtimeStatus: 'implemented',
  statusNote: null,
  validationRoute: [{ kind: 'integration-test', ref: `test/${domain}.test.ts`, digest: null }],
});

/** A matrix with correct id, digest and (unless given) the computed verdict. */
function build(
  object: CompletenessObject | null,
  domains: CapabilityDomainRecord[],
  claim: AgentCapabilityDomainMatrixV1['claim'] = 'none',
  verdict?: AgentCapabilityDomainMatrixV1['verdict'],
): AgentCapabilityDomainMatrixV1 {
  const subject = { system: 'test-agent', revision: 'git:0000001' };
  const doc = {
    schemaVersion: CONTRACT,
    matrixId: computeMatrixId({ subject, completenessObject: object }),
    subject,
    completenessObject: object,
    claim,
    evaluatedAt: '2026-10-14T09:00:00Z',
    domains,
    verdict: verdict ?? classifyCapabilityMatrix({ completenessObject: object, domains }),
    matrixDigest: '',
  } as AgentCapabilityDomainMatrixV1;
  doc.matrixDigest = computeMatrixDigest(doc);
  return doc;
}

const codes = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};

describe('classifyCapabilityMatrix: the classification table (35 + 5 cases)', () => {
  for (const object of COMPLETENESS_OBJECTS) {
    const applicable = CAPABILITY_DOMAINS_BY_OBJECT[object];
    it(`${object}: every applicable domain satisfied is complete, and valid with any claim`, () => {
      const doc = build(object, applicable.map(satisfied), 'complete');
      expect(doc.verdict).toEqual({
        result: 'complete-for-declared-object',
        missingDomains: [],
        unsatisfiedDomains: [],
        reasonCodes: [],
      });
      expect(codes(doc)).toEqual([]);
    });
    it(`${object}: removing any one of its ${applicable.length} domains leaves exactly that domain missing`, () => {
      for (const gone of applicable) {
        const v = classifyCapabilityMatrix({
          completenessObject: object,
          domains: applicable.filter((d) => d !== gone).map(satisfied),
        });
        expect(v, gone).toEqual({
          result: 'incomplete',
          missingDomains: [gone],
          unsatisfiedDomains: [],
          reasonCodes: ['CAPABILITY_DOMAIN_MISSING'],
        });
      }
    });
  }

  it('applicable set sizes are 12, 18, 26, 30, 35 and cumulative', () => {
    expect(COMPLETENESS_OBJECTS.map((o) => CAPABILITY_DOMAINS_BY_OBJECT[o].length)).toEqual([
      12, 18, 26, 30, 35,
    ]);
    expect(CAPABILITY_DOMAINS_BY_OBJECT['enterprise-saas']).toEqual(CAPABILITY_DOMAIN_ORDER);
  });

  it('no declared object is incomplete with only CAPABILITY_COMPLETENESS_OBJECT_MISSING, whatever the records', () => {
    expect(
      classifyCapabilityMatrix({ completenessObject: null, domains: CAPABILITY_DOMAIN_ORDER.map(satisfied) }),
    ).toEqual({
      result: 'incomplete',
      missingDomains: [],
      unsatisfiedDomains: [],
      reasonCodes: ['CAPABILITY_COMPLETENESS_OBJECT_MISSING'],
    });
  });

  it('only owned, implemented, executably validated records satisfy; manual review never counts', () => {
    const base = CAPABILITY_DOMAINS_BY_OBJECT.kernel.map(satisfied);
    const variants: Array<[string, (r: CapabilityDomainRecord) => CapabilityDomainRecord]> = [
      ['no owner', (r) => ({ ...r, owner: null })],
      ['partial', (r) => ({ ...r, runtimeStatus: 'partial', statusNote: 'gaps' })],
      ['planned', (r) => ({ ...r, runtimeStatus: 'planned', statusNote: 'later' })],
      ['absent', (r) => ({ ...r, runtimeStatus: 'absent', statusNote: 'none' })],
      ['not-applicable', (r) => ({ ...r, runtimeStatus: 'not-applicable', statusNote: 'n/a' })],
      ['no validation', (r) => ({ ...r, validationRoute: [] })],
      [
        'manual review only',
        (r) => ({ ...r, validationRoute: [{ kind: 'manual-review', ref: 'docs/review.md', digest: null }] }),
      ],
    ];
    for (const [label, edit] of variants) {
      const domains = base.map((r, i) => (i === 4 ? edit(r) : r));
      const v = classifyCapabilityMatrix({ completenessObject: 'kernel', domains });
      expect(v.unsatisfiedDomains, label).toEqual(['execution-tools']);
      expect(v.reasonCodes, label).toEqual(['CAPABILITY_DOMAIN_UNSATISFIED']);
    }
  });

  it('records outside the applicable set do not count towards it', () => {
    const v = classifyCapabilityMatrix({
      completenessObject: 'kernel',
      domains: CAPABILITY_DOMAINS_BY_OBJECT.runtime.filter((d) => d !== 'planning').map(satisfied),
    });
    expect(v.missingDomains).toEqual(['planning']);
  });
});

describe('capabilityMatrixSatisfies: a narrower object never satisfies a wider one', () => {
  const complete = (o: CompletenessObject) =>
    build(o, CAPABILITY_DOMAINS_BY_OBJECT[o].map(satisfied), 'complete');

  it('a complete matrix satisfies its own object and every narrower one, and no wider one', () => {
    for (const have of COMPLETENESS_OBJECTS) {
      for (const want of COMPLETENESS_OBJECTS) {
        const r = capabilityMatrixSatisfies(complete(have), want);
        const wider = COMPLETENESS_OBJECTS.indexOf(want) > COMPLETENESS_OBJECTS.indexOf(have);
        expect(r.ok, `${have} for ${want}`).toBe(!wider);
        if (!r.ok) expect(r.code).toBe('CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED');
      }
    }
  });

  it('a complete kernel does not satisfy runtime; a complete developer-product satisfies kernel and runtime', () => {
    expect(capabilityMatrixSatisfies(complete('kernel'), 'runtime')).toMatchObject({
      ok: false,
      code: 'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED',
    });
    expect(capabilityMatrixSatisfies(complete('developer-product'), 'kernel').ok).toBe(true);
    expect(capabilityMatrixSatisfies(complete('developer-product'), 'runtime').ok).toBe(true);
  });

  it('no declared object satisfies nothing; a wide but incomplete matrix is reported as incomplete', () => {
    expect(capabilityMatrixSatisfies(build(null, []), 'kernel')).toMatchObject({
      ok: false,
      code: 'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED',
    });
    const gap = build('runtime', CAPABILITY_DOMAINS_BY_OBJECT.kernel.map(satisfied));
    expect(capabilityMatrixSatisfies(gap, 'kernel')).toMatchObject({
      ok: false,
      code: 'CAPABILITY_CLAIM_INCOMPLETE',
    });
  });
});

describe('semantic fixtures break exactly their rule', () => {
  // Invariant 10 explains a refused claim with one issue per verdict reason, so those codes travel together.
  const claimFamily = new Set([
    'CAPABILITY_CLAIM_INCOMPLETE',
    'CAPABILITY_COMPLETENESS_OBJECT_MISSING',
    'CAPABILITY_DOMAIN_MISSING',
    'CAPABILITY_DOMAIN_UNSATISFIED',
  ]);
  const semantic = listFixtures().filter((f) => f.contract === CONTRACT && f.expected?.layer === 'semantic');

  it('there is one per code of the page', () => {
    expect(new Set(semantic.map((f) => (f.expected as { code: string }).code)).size).toBe(13);
  });

  for (const f of semantic) {
    const expected = f.expected as { code: string; instancePath: string };
    it(`${f.name}: ${expected.code} at "${expected.instancePath}" and nothing else`, () => {
      const r = validate(f.document);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.issues.some((i) => i.code === expected.code && i.path === expected.instancePath)).toBe(true);
      const family = claimFamily.has(expected.code) ? claimFamily : new Set([expected.code]);
      expect(r.issues.filter((i) => !family.has(i.code))).toEqual([]);
      if (claimFamily.has(expected.code)) {
        expect(r.issues.filter((i) => i.code === 'CAPABILITY_CLAIM_INCOMPLETE').map((i) => i.path)).toEqual([
          '/claim',
        ]);
      }
      for (const i of r.issues) {
        expect(i.rule).toMatch(
          /^(docs\/spec\/agent-capability-domain-completeness-gate\.md#invariants|digest:AgentCapabilityDomainMatrixV1\/matrix(Id|Digest))$/,
        );
        expect(i.severity).toBe('error');
      }
    });
  }
});

describe('rule details', () => {
  const kernel = () => CAPABILITY_DOMAINS_BY_OBJECT.kernel.map(satisfied);

  it('a duplicate suspends the verdict and claim rules: only CAPABILITY_DOMAIN_DUPLICATE is reported', () => {
    const domains = kernel();
    domains.splice(3, 0, { ...domains[3]!, runtimeStatus: 'partial', statusNote: 'second record' });
    const doc = build('kernel', domains, 'complete', {
      result: 'incomplete',
      missingDomains: ['ingress'],
      unsatisfiedDomains: [],
      reasonCodes: ['CAPABILITY_DOMAIN_MISSING'],
    });
    expect(codes(doc)).toEqual(['CAPABILITY_DOMAIN_DUPLICATE /domains/4']);
  });

  it('every later duplicate and every out-of-order record is reported', () => {
    const d = kernel();
    const doc = build('kernel', [d[0]!, d[0]!, d[2]!, d[1]!, d[1]!, ...d.slice(3)]);
    expect(codes(doc).sort()).toEqual(
      [
        'CAPABILITY_DOMAIN_DUPLICATE /domains/1',
        'CAPABILITY_DOMAIN_DUPLICATE /domains/4',
        'CAPABILITY_DOMAIN_ORDER_INVALID /domains/3',
      ].sort(),
    );
  });

  it('with no declared object any catalogue domain may be recorded, and claim none is valid', () => {
    const doc = build(null, [satisfied('ingress'), satisfied('audit-compliance')]);
    expect(codes(doc)).toEqual([]);
  });

  it('a claim without object reports the claim and the missing object only', () => {
    expect(codes(build(null, [satisfied('ingress')], 'no-new-domains')).sort()).toEqual([
      'CAPABILITY_CLAIM_INCOMPLETE /claim',
      'CAPABILITY_COMPLETENESS_OBJECT_MISSING /completenessObject',
    ]);
  });

  it('a claim over two missing and one unsatisfied domain explains each of them', () => {
    const d = kernel().filter((r) => r.domain !== 'ingress' && r.domain !== 'model');
    d[0] = { ...d[0]!, runtimeStatus: 'planned', statusNote: 'soon' };
    const r = validate(build('kernel', d, 'final'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => `${i.code} ${i.path}`)).toEqual([
      'CAPABILITY_CLAIM_INCOMPLETE /claim',
      'CAPABILITY_DOMAIN_MISSING /domains',
      'CAPABILITY_DOMAIN_MISSING /domains',
      'CAPABILITY_DOMAIN_UNSATISFIED /domains/0',
    ]);
    const missing = r.issues.filter((i) => i.code === 'CAPABILITY_DOMAIN_MISSING').map((i) => i.message);
    expect(missing[0]).toContain('"ingress"');
    expect(missing[1]).toContain('"model"');
  });

  it('a stated verdict with the right sets in the wrong order is a mismatch', () => {
    const d = kernel().filter((r) => r.domain !== 'ingress' && r.domain !== 'model');
    const doc = build('kernel', d, 'none', {
      result: 'incomplete',
      missingDomains: ['model', 'ingress'],
      unsatisfiedDomains: [],
      reasonCodes: ['CAPABILITY_DOMAIN_MISSING'],
    });
    expect(codes(doc)).toEqual(['CAPABILITY_VERDICT_MISMATCH /verdict']);
  });

  it('owner, boundary and note rules accept the combinations the spec allows', () => {
    const d = kernel();
    d[0] = { ...d[0]!, owner: null, runtimeStatus: 'absent', statusNote: 'none yet' };
    d[1] = {
      ...d[1]!,
      owner: null,
      runtimeStatus: 'not-applicable',
      publicPrivateBoundary: 'not-applicable',
      statusNote: 'no routing',
    };
    expect(codes(build('kernel', d))).toEqual([]);
    d[1] = { ...d[1], publicPrivateBoundary: 'private-implementation' };
    expect(codes(build('kernel', d))).toEqual([
      'CAPABILITY_DOMAIN_BOUNDARY_INCONSISTENT /domains/1/publicPrivateBoundary',
    ]);
  });
});
