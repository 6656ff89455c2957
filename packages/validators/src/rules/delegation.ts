// Semantic rules of DelegationContractV1 (docs/spec/delegation-gate.md#invariants) and the
// `delegation-chain` bundle (docs/spec/delegation-gate.md#bundles). Identity and digest
// (invariants 1 and 2) are DigestRules with their own codes in @agent-contracts/schemas. The
// containment checks are the ones `delegate` applies (@agent-contracts/schemas, delegation-scope).
import {
  containmentViolations,
  type DelegationContractV1,
  grantToolViolations,
  type ScopeViolation,
  wildcardViolations,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { bundleRule, contractRules } from './kit.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

const CONTRACT = 'DelegationContractV1';
const PAGE = 'docs/spec/delegation-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<DelegationContractV1>(CONTRACT, INVARIANTS);
const BUNDLES = `${PAGE}#bundles`;
/** The bundle kind of a chain of delegations, the delegator's contract first. */
export const DELEGATION_CHAIN = 'delegation-chain';

const asContract = (doc: ContractDocument) => doc as unknown as DelegationContractV1;
const toIssue = (v: ScopeViolation, rule: string, prefix = ''): Issue =>
  issue(v.code, `${prefix}${v.path}`, v.message, rule);

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const DELEGATION_RULES: readonly SemanticRule[] = [
  rule(
    'DELEGATION_WILDCARD_GRANT',
    'No allowed tool, permission tool, resource or action is the wildcard "*" (invariant 3).',
    (d) => wildcardViolations(d).map((v) => toIssue(v, INVARIANTS)),
  ),
  rule(
    'DELEGATION_GRANT_TOOL_NOT_ALLOWED',
    'Every permission is for a tool in allowedTools (invariant 4).',
    (d) => grantToolViolations(d).map((v) => toIssue(v, INVARIANTS)),
  ),
  rule(
    'DELEGATION_PARENT_REF_INCONSISTENT',
    'parent.delegationDigest is null exactly when parent.kind is run (invariant 5).',
    (d) =>
      (d.parent.kind === 'run') === (d.parent.delegationDigest === null)
        ? []
        : [
            issue(
              'DELEGATION_PARENT_REF_INCONSISTENT',
              '/parent/delegationDigest',
              d.parent.kind === 'run'
                ? 'a delegation from a root run has no parent digest: set parent.delegationDigest to null.'
                : "a delegation from a delegate names its parent contract's delegationDigest.",
            ),
          ],
  ),
  rule('DELEGATION_DEADLINE_NOT_AFTER_CREATION', 'deadline is after createdAt (invariant 6).', (d) =>
    Date.parse(d.deadline) > Date.parse(d.createdAt)
      ? []
      : [
          issue(
            'DELEGATION_DEADLINE_NOT_AFTER_CREATION',
            '/deadline',
            `deadline ${d.deadline} is not after createdAt ${d.createdAt}; give the delegate time, or do not delegate.`,
          ),
        ],
  ),
  rule('DELEGATION_CRITERION_DUPLICATE', 'Acceptance criterion ids are unique (invariant 7).', (d) => {
    const seen = new Set<string>();
    const out: Issue[] = [];
    d.acceptanceCriteria.forEach((c, i) => {
      if (seen.has(c.id))
        out.push(
          issue(
            'DELEGATION_CRITERION_DUPLICATE',
            `/acceptanceCriteria/${i}/id`,
            `criterion id "${c.id}" repeats an earlier one; give each criterion its own id.`,
          ),
        );
      seen.add(c.id);
    });
    return out;
  }),
];

const CHAIN_CODES = [
  'DELEGATION_TOOL_NOT_CONTAINED',
  'DELEGATION_PERMISSION_NOT_CONTAINED',
  'DELEGATION_BUDGET_EXCEEDS_PARENT',
  'DELEGATION_DEADLINE_EXCEEDS_PARENT',
] as const;

/** Per pair of the chain (delegator at i - 1, delegate at i), the containment violations with bundle paths. */
function chainIssues(documents: readonly ContractDocument[], code: string): Issue[] {
  const out: Issue[] = [];
  for (let i = 1; i < documents.length; i++) {
    const parent = asContract(documents[i - 1]!);
    const child = asContract(documents[i]!);
    for (const v of containmentViolations(parent, child))
      if (v.code === code) out.push(toIssue(v, BUNDLES, `/documents/${i}`));
  }
  return out;
}

/** Cross-document rules of this area: a chain of delegations, each contained in the one before. */
export const DELEGATION_BUNDLE_RULES: readonly BundleRule[] = [
  bundleRule(
    'DELEGATION_CHAIN_PARENT_MISMATCH',
    DELEGATION_CHAIN,
    BUNDLES,
    "Each contract after the first names the one before as its parent (kind delegation, its delegationId and delegationDigest) and its delegator is that contract's delegate (bundle rule 1).",
    (documents) => {
      const out: Issue[] = [];
      for (let i = 1; i < documents.length; i++) {
        const parent = asContract(documents[i - 1]!);
        const child = asContract(documents[i]!);
        const p = child.parent;
        const named =
          p.kind === 'delegation' &&
          p.ref === parent.delegationId &&
          p.delegationDigest === parent.delegationDigest;
        if (!named)
          out.push(
            issue(
              'DELEGATION_CHAIN_PARENT_MISMATCH',
              `/documents/${i}/parent`,
              `document ${i} does not name document ${i - 1} (${parent.delegationId}) as its parent; a chain lists each delegation after the one it was made under.`,
              BUNDLES,
            ),
          );
        else if (child.delegator !== parent.delegate)
          out.push(
            issue(
              'DELEGATION_CHAIN_PARENT_MISMATCH',
              `/documents/${i}/delegator`,
              `document ${i} is delegated by "${child.delegator}", but document ${i - 1} was given to "${parent.delegate}"; only a delegate delegates further.`,
              BUNDLES,
            ),
          );
      }
      return out;
    },
  ),
  ...CHAIN_CODES.map((code) =>
    bundleRule(
      code,
      DELEGATION_CHAIN,
      BUNDLES,
      {
        DELEGATION_TOOL_NOT_CONTAINED:
          "Each delegate's allowedTools are among its delegator's (bundle rule 2).",
        DELEGATION_PERMISSION_NOT_CONTAINED:
          "Each delegate permission is covered by one of its delegator's: same tool, covering resource pattern, every action (bundle rule 3).",
        DELEGATION_BUDGET_EXCEEDS_PARENT:
          "Each delegate budget limit is at most its delegator's, in the same currency (bundle rule 4).",
        DELEGATION_DEADLINE_EXCEEDS_PARENT:
          "Each delegate deadline is not after its delegator's (bundle rule 5).",
      }[code],
      (documents) => chainIssues(documents, code),
    ),
  ),
];
