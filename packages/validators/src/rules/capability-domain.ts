// Semantic rules of AgentCapabilityDomainMatrixV1 (docs/spec/agent-capability-domain-completeness-gate.md),
// and the classification they share with the architecture report's bundle rules. Identity and
// digest (invariants 1 and 2) are DigestRules with their own codes in @agent-contracts/schemas.
import {
  type AgentCapabilityDomainMatrixV1,
  CAPABILITY_DOMAIN_ORDER,
  CAPABILITY_DOMAINS_BY_OBJECT,
  type CapabilityCompletenessVerdict,
  type CapabilityDomainId,
  type CapabilityDomainRecord,
  type CompletenessObject,
  completenessRank,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { contractRules } from './kit.js';
import type { BundleRule, SemanticRule } from './types.js';

const CONTRACT = 'AgentCapabilityDomainMatrixV1';
const PAGE = 'docs/spec/agent-capability-domain-completeness-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<AgentCapabilityDomainMatrixV1>(CONTRACT, INVARIANTS);

const position = new Map<CapabilityDomainId, number>(CAPABILITY_DOMAIN_ORDER.map((id, i) => [id, i]));

/** The records and object the classification reads; a whole matrix document qualifies. */
export type ClassifiableMatrix = Pick<AgentCapabilityDomainMatrixV1, 'completenessObject' | 'domains'>;

/**
 * Whether a domain record is satisfied (invariant 9): it has an owner, `runtimeStatus:
 * implemented` and at least one validation reference that is not `manual-review`.
 *
 * @example
 * isDomainRecordSatisfied({ domain: 'state', owner: { kind: 'team', name: 'store' },
 *   publicPrivateBoundary: 'public-contract', runtimeStatus: 'implemented', statusNote: null,
 *   validationRoute: [{ kind: 'unit-test', ref: 'test/store.test.ts', digest: null }] }); // true
 */
export function isDomainRecordSatisfied(record: CapabilityDomainRecord): boolean {
  return (
    record.owner !== null &&
    record.runtimeStatus === 'implemented' &&
    record.validationRoute.some((v) => v.kind !== 'manual-review')
  );
}

/**
 * The verdict a matrix's records support, computed exactly as invariant 9 of the
 * AgentCapabilityDomainCompletenessGate states: no declared object is always `incomplete`
 * (`CAPABILITY_COMPLETENESS_OBJECT_MISSING`); otherwise every applicable domain of the object,
 * in catalogue order, is missing (no record), unsatisfied, or satisfied. Records outside the
 * object's applicable set are ignored. When a domain has several records (itself invalid,
 * `CAPABILITY_DOMAIN_DUPLICATE`) the first one counts. Pure; never throws on a schema-valid matrix.
 *
 * @example
 * const v = classifyCapabilityMatrix({ completenessObject: 'kernel', domains: [] });
 * v.result; // 'incomplete'
 * v.missingDomains.length; // 12: every kernel domain
 * v.reasonCodes; // ['CAPABILITY_DOMAIN_MISSING']
 */
export function classifyCapabilityMatrix(matrix: ClassifiableMatrix): CapabilityCompletenessVerdict {
  const object = matrix.completenessObject;
  if (object === null) {
    return {
      result: 'incomplete',
      missingDomains: [],
      unsatisfiedDomains: [],
      reasonCodes: ['CAPABILITY_COMPLETENESS_OBJECT_MISSING'],
    };
  }
  const byDomain = new Map<CapabilityDomainId, CapabilityDomainRecord>();
  for (const record of matrix.domains) if (!byDomain.has(record.domain)) byDomain.set(record.domain, record);
  const missingDomains: CapabilityDomainId[] = [];
  const unsatisfiedDomains: CapabilityDomainId[] = [];
  for (const id of CAPABILITY_DOMAINS_BY_OBJECT[object]) {
    const record = byDomain.get(id);
    if (record === undefined) missingDomains.push(id);
    else if (!isDomainRecordSatisfied(record)) unsatisfiedDomains.push(id);
  }
  const reasonCodes: CapabilityCompletenessVerdict['reasonCodes'] = [];
  if (missingDomains.length) reasonCodes.push('CAPABILITY_DOMAIN_MISSING');
  if (unsatisfiedDomains.length) reasonCodes.push('CAPABILITY_DOMAIN_UNSATISFIED');
  return {
    result: reasonCodes.length ? 'incomplete' : 'complete-for-declared-object',
    missingDomains,
    unsatisfiedDomains,
    reasonCodes,
  };
}

/** Result of {@link capabilityMatrixSatisfies}. */
export type CapabilitySatisfaction =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /**
       * `CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED` when the matrix declares no object or a narrower
       * one; `CAPABILITY_CLAIM_INCOMPLETE` when its object is wide enough but its records do not
       * support a complete verdict.
       */
      readonly code: 'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED' | 'CAPABILITY_CLAIM_INCOMPLETE';
      readonly message: string;
    };

/**
 * Whether a matrix satisfies a required completeness object ("Satisfaction across objects"):
 * it declares an object at least as wide as `required` and its records classify as
 * `complete-for-declared-object`. A complete wider object satisfies every narrower one; a
 * narrower object never satisfies a wider one, whatever its records say. The caller is
 * responsible for the matrix passing its own invariants (`validate` it first).
 *
 * @example
 * capabilityMatrixSatisfies(kernelMatrix, 'runtime');
 * // { ok: false, code: 'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED', message: '...' }
 */
export function capabilityMatrixSatisfies(
  matrix: ClassifiableMatrix,
  required: CompletenessObject,
): CapabilitySatisfaction {
  const object = matrix.completenessObject;
  if (object === null || completenessRank(object) < completenessRank(required)) {
    return {
      ok: false,
      code: 'CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED',
      message: `the matrix declares ${object === null ? 'no completeness object' : `"${object}"`}, which cannot satisfy "${required}"; evaluate a matrix for "${required}" or a wider object.`,
    };
  }
  const verdict = classifyCapabilityMatrix(matrix);
  if (verdict.result !== 'complete-for-declared-object') {
    return {
      ok: false,
      code: 'CAPABILITY_CLAIM_INCOMPLETE',
      message: `the matrix for "${object}" is incomplete (${describeGaps(verdict)}); close those domains before claiming "${required}".`,
    };
  }
  return { ok: true };
}

function describeGaps(v: CapabilityCompletenessVerdict): string {
  const parts: string[] = [];
  if (v.missingDomains.length) parts.push(`missing: ${v.missingDomains.join(', ')}`);
  if (v.unsatisfiedDomains.length) parts.push(`unsatisfied: ${v.unsatisfiedDomains.join(', ')}`);
  return parts.join('; ') || 'no object declared';
}

/** Indexes of records that repeat the domain of an earlier record. */
function duplicateIndexes(domains: readonly CapabilityDomainRecord[]): number[] {
  const seen = new Set<CapabilityDomainId>();
  const out: number[] = [];
  domains.forEach((r, i) => {
    if (seen.has(r.domain)) out.push(i);
    else seen.add(r.domain);
  });
  return out;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function sameVerdict(a: CapabilityCompletenessVerdict, b: CapabilityCompletenessVerdict): boolean {
  return (
    a.result === b.result &&
    sameList(a.missingDomains, b.missingDomains) &&
    sameList(a.unsatisfiedDomains, b.unsatisfiedDomains) &&
    sameList(a.reasonCodes, b.reasonCodes)
  );
}

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const CAPABILITY_DOMAIN_RULES: readonly SemanticRule[] = [
  rule(
    'CAPABILITY_DOMAIN_DUPLICATE',
    'No two domain records name the same domain (invariant 3); each later duplicate is reported.',
    (m) =>
      duplicateIndexes(m.domains).map((i) =>
        issue(
          'CAPABILITY_DOMAIN_DUPLICATE',
          `/domains/${i}`,
          `/domains/${i} is a second record for domain "${m.domains[i]!.domain}"; merge it into the first one (one record per domain).`,
        ),
      ),
  ),
  rule(
    'CAPABILITY_DOMAIN_ORDER_INVALID',
    'Domain records follow the canonical catalogue order (invariant 4): no record comes before the catalogue position of its predecessor.',
    (m) => {
      const out: Issue[] = [];
      for (let i = 1; i < m.domains.length; i++) {
        const prev = m.domains[i - 1]!.domain;
        const cur = m.domains[i]!.domain;
        if (position.get(cur)! < position.get(prev)!) {
          out.push(
            issue(
              'CAPABILITY_DOMAIN_ORDER_INVALID',
              `/domains/${i}`,
              `domain "${cur}" (catalogue #${position.get(cur)! + 1}) follows "${prev}" (#${position.get(prev)! + 1}); sort the records by catalogue order.`,
            ),
          );
        }
      }
      return out;
    },
  ),
  rule(
    'CAPABILITY_DOMAIN_OUT_OF_SCOPE',
    'When completenessObject is declared, every record names a domain applicable to it (invariant 5).',
    (m) => {
      const object = m.completenessObject;
      if (object === null) return [];
      const applicable = new Set(CAPABILITY_DOMAINS_BY_OBJECT[object]);
      const out: Issue[] = [];
      m.domains.forEach((r, i) => {
        if (!applicable.has(r.domain)) {
          out.push(
            issue(
              'CAPABILITY_DOMAIN_OUT_OF_SCOPE',
              `/domains/${i}/domain`,
              `domain "${r.domain}" is not applicable to "${object}"; remove the record, or declare the wider object that includes it (with claim "none" for an inventory).`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'CAPABILITY_DOMAIN_OWNER_MISSING',
    'owner is null only when runtimeStatus is absent or not-applicable (invariant 6).',
    (m) => {
      const out: Issue[] = [];
      m.domains.forEach((r, i) => {
        if (r.owner === null && r.runtimeStatus !== 'absent' && r.runtimeStatus !== 'not-applicable') {
          out.push(
            issue(
              'CAPABILITY_DOMAIN_OWNER_MISSING',
              `/domains/${i}/owner`,
              `domain "${r.domain}" is ${r.runtimeStatus} but has no owner; name the accountable owner ({kind, name}).`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'CAPABILITY_DOMAIN_BOUNDARY_INCONSISTENT',
    'publicPrivateBoundary is not-applicable if and only if runtimeStatus is not-applicable (invariant 7).',
    (m) => {
      const out: Issue[] = [];
      m.domains.forEach((r, i) => {
        const naBoundary = r.publicPrivateBoundary === 'not-applicable';
        const naStatus = r.runtimeStatus === 'not-applicable';
        if (naBoundary !== naStatus) {
          out.push(
            issue(
              'CAPABILITY_DOMAIN_BOUNDARY_INCONSISTENT',
              `/domains/${i}/publicPrivateBoundary`,
              naBoundary
                ? `domain "${r.domain}" has boundary not-applicable but status ${r.runtimeStatus}; state the real boundary, or mark the status not-applicable too.`
                : `domain "${r.domain}" is not-applicable but has boundary ${r.publicPrivateBoundary}; set the boundary to not-applicable, or state the real status.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'CAPABILITY_DOMAIN_STATUS_NOTE_MISSING',
    'statusNote is non-null whenever runtimeStatus is not implemented (invariant 8).',
    (m) => {
      const out: Issue[] = [];
      m.domains.forEach((r, i) => {
        if (r.runtimeStatus !== 'implemented' && r.statusNote === null) {
          out.push(
            issue(
              'CAPABILITY_DOMAIN_STATUS_NOTE_MISSING',
              `/domains/${i}/statusNote`,
              `domain "${r.domain}" is ${r.runtimeStatus} without a statusNote; say what is missing, what is planned or why it does not apply.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'CAPABILITY_VERDICT_MISMATCH',
    'verdict deep-equals the classification the records support (invariant 9); not evaluated when a domain is duplicated.',
    (m) => {
      if (duplicateIndexes(m.domains).length) return [];
      const computed = classifyCapabilityMatrix(m);
      if (sameVerdict(m.verdict, computed)) return [];
      return [
        issue(
          'CAPABILITY_VERDICT_MISMATCH',
          '/verdict',
          `verdict differs from the classification of the records, which is ${JSON.stringify(computed)}; replace the verdict with it (and recompute matrixDigest).`,
        ),
      ];
    },
  ),
  rule(
    'CAPABILITY_CLAIM_INCOMPLETE',
    'A completeness claim (claim other than none) needs records that classify as complete-for-declared-object (invariant 10).',
    (m) => claimIssues(m).filter((i) => i.code === 'CAPABILITY_CLAIM_INCOMPLETE'),
  ),
  rule(
    'CAPABILITY_COMPLETENESS_OBJECT_MISSING',
    'A completeness claim declares its completenessObject (invariants 9 and 10).',
    (m) => claimIssues(m).filter((i) => i.code === 'CAPABILITY_COMPLETENESS_OBJECT_MISSING'),
  ),
  rule(
    'CAPABILITY_DOMAIN_MISSING',
    'A completeness claim has a record for every domain applicable to its object (invariants 9 and 10); one issue per missing domain.',
    (m) => claimIssues(m).filter((i) => i.code === 'CAPABILITY_DOMAIN_MISSING'),
  ),
  rule(
    'CAPABILITY_DOMAIN_UNSATISFIED',
    'A completeness claim has every applicable record owned, implemented and executably validated (invariants 9 and 10); one issue per unsatisfied record.',
    (m) => claimIssues(m).filter((i) => i.code === 'CAPABILITY_DOMAIN_UNSATISFIED'),
  ),
];

/**
 * Invariant 10, judged on the classification of the records (not on the stated verdict, which
 * invariant 9 checks separately), and not evaluated when a domain is duplicated (D-CAP-14).
 */
function claimIssues(m: AgentCapabilityDomainMatrixV1): Issue[] {
  if (m.claim === 'none' || duplicateIndexes(m.domains).length) return [];
  const v = classifyCapabilityMatrix(m);
  if (v.result === 'complete-for-declared-object') return [];
  const out: Issue[] = [
    issue(
      'CAPABILITY_CLAIM_INCOMPLETE',
      '/claim',
      `claim "${m.claim}" is not supported: the records classify as incomplete (${describeGaps(v)}); withdraw the claim (claim "none"), declare a narrower object, or close the listed domains.`,
    ),
  ];
  if (m.completenessObject === null) {
    out.push(
      issue(
        'CAPABILITY_COMPLETENESS_OBJECT_MISSING',
        '/completenessObject',
        `claim "${m.claim}" is made without a completenessObject; declare the object the claim is about.`,
      ),
    );
  }
  for (const id of v.missingDomains) {
    out.push(
      issue(
        'CAPABILITY_DOMAIN_MISSING',
        '/domains',
        `domain "${id}" applies to "${m.completenessObject}" but has no record; add a record for it.`,
      ),
    );
  }
  for (const id of v.unsatisfiedDomains) {
    const i = m.domains.findIndex((r) => r.domain === id);
    const r = m.domains[i]!;
    const why = [
      r.owner === null ? 'no owner' : null,
      r.runtimeStatus !== 'implemented' ? `status ${r.runtimeStatus}` : null,
      r.validationRoute.some((x) => x.kind !== 'manual-review') ? null : 'no executable validation',
    ]
      .filter(Boolean)
      .join(', ');
    out.push(
      issue(
        'CAPABILITY_DOMAIN_UNSATISFIED',
        `/domains/${i}`,
        `domain "${id}" is not satisfied (${why}); implement, assign and validate it (manual review does not count), or withdraw the claim.`,
      ),
    );
  }
  return out;
}

/**
 * Cross-document rules of this area. The satisfaction rule ("a narrower object never satisfies a
 * wider one", `CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED`) is judged where a claim refers to a
 * matrix: in the architecture report's bundles (ARCHITECTURE_REPORT_BUNDLE_RULES), and by
 * {@link capabilityMatrixSatisfies} for any other consumer.
 */
export const CAPABILITY_DOMAIN_BUNDLE_RULES: readonly BundleRule[] = [];
