// Semantic rules of RepairRoleBoundaryV1 (docs/spec/repair-collaboration-role-boundary-gate.md).
// Identity and digest (invariants 1 and 2) are DigestRules with their own codes in
// @agent-contracts/schemas.
import {
  DIRECT_EVIDENCE_KINDS,
  REPAIR_AUTHORITY_ROLES,
  type RepairParty,
  type RepairRole,
  type RepairRoleBoundaryV1,
  repairRiskClass,
} from '@agent-contracts/schemas';
import { contractRules } from './kit.js';
import type { SemanticRule } from './types.js';

const CONTRACT = 'RepairRoleBoundaryV1';
const PAGE = 'docs/spec/repair-collaboration-role-boundary-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<RepairRoleBoundaryV1>(CONTRACT, INVARIANTS);
const RISK = `${PAGE}#risk-class`;

/** The four roles, in the order the page lists them. */
const ROLES: readonly RepairRole[] = ['decider', 'accepter', 'executor', 'verifier'];
const authority = new Set<RepairRole>(REPAIR_AUTHORITY_ROLES);
const direct = new Set<string>(DIRECT_EVIDENCE_KINDS);

const same = (a: RepairParty, b: RepairParty) => a.kind === b.kind && a.id === b.id;
const name = (p: RepairParty) => `${p.kind} "${p.id}"`;

/** The party of the first assignment of `role`, if any. */
const holder = (b: RepairRoleBoundaryV1, role: RepairRole) =>
  b.roleAssignments.find((a) => a.role === role)?.party;

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const REPAIR_ROLES_RULES: readonly SemanticRule[] = [
  rule('REPAIR_ROLE_ASSIGNMENT_DUPLICATE', 'Each role is assigned at most once (invariant 3).', (b) => {
    const seen = new Set<RepairRole>();
    return b.roleAssignments.flatMap((a, i) => {
      if (!seen.has(a.role)) {
        seen.add(a.role);
        return [];
      }
      return [
        issue(
          'REPAIR_ROLE_ASSIGNMENT_DUPLICATE',
          `/roleAssignments/${i}/role`,
          `role ${a.role} is assigned a second time; one party holds each role, so keep one assignment.`,
        ),
      ];
    });
  }),
  rule(
    'REPAIR_ROLE_ASSIGNMENT_MISSING',
    'Each of the four roles (decider, accepter, executor, verifier) is assigned (invariant 4).',
    (b) =>
      ROLES.filter((r) => holder(b, r) === undefined).map((r) =>
        issue(
          'REPAIR_ROLE_ASSIGNMENT_MISSING',
          '/roleAssignments',
          `no party holds role ${r}; assign it to a party of its side (decider and accepter decide and accept, executor and verifier execute and verify).`,
        ),
      ),
  ),
  rule(
    'REPAIR_ROLE_SEPARATION_VIOLATED',
    'No party holds both an authority-side role (decider, accepter) and an execution-side role (executor, verifier) (invariant 5).',
    (b) =>
      b.roleAssignments.flatMap((a, i) => {
        const other = b.roleAssignments
          .slice(0, i)
          .find((e) => same(e.party, a.party) && authority.has(e.role) !== authority.has(a.role));
        return other === undefined
          ? []
          : [
              issue(
                'REPAIR_ROLE_SEPARATION_VIOLATED',
                `/roleAssignments/${i}/party`,
                `${name(a.party)} holds ${other.role} and ${a.role}: deciding/accepting and executing/verifying are separate; give ${a.role} to another party.`,
              ),
            ];
      }),
  ),
  rule(
    'REPAIR_ROLE_AUTHORIZATION_DUPLICATE',
    'Each role has at most one authorization entry (invariant 6).',
    (b) => {
      const seen = new Set<RepairRole>();
      return b.authorizationEvidence.flatMap((a, i) => {
        if (!seen.has(a.role)) {
          seen.add(a.role);
          return [];
        }
        return [
          issue(
            'REPAIR_ROLE_AUTHORIZATION_DUPLICATE',
            `/authorizationEvidence/${i}/role`,
            `role ${a.role} has a second authorization entry; merge their evidence into one entry.`,
          ),
        ];
      });
    },
  ),
  rule(
    'REPAIR_ROLE_AUTHORIZATION_MISSING',
    'Once the task is past proposed, every assigned role has an authorization entry (invariant 7).',
    (b) => {
      if (b.status === 'proposed') return [];
      const assigned = ROLES.filter((r) => holder(b, r) !== undefined);
      return assigned
        .filter((r) => !b.authorizationEvidence.some((a) => a.role === r))
        .map((r) =>
          issue(
            'REPAIR_ROLE_AUTHORIZATION_MISSING',
            '/authorizationEvidence',
            `the task is ${b.status} but role ${r} has no authorization evidence; record who granted it, when, and the pinned grant record.`,
          ),
        );
    },
  ),
  rule(
    'REPAIR_ROLE_AUTHORIZATION_UNPINNED',
    'Every authorization entry has at least one evidence entry pinned by a non-null digest (invariant 8).',
    (b) =>
      b.authorizationEvidence.flatMap((a, i) =>
        a.evidence.some((e) => e.digest !== null)
          ? []
          : [
              issue(
                'REPAIR_ROLE_AUTHORIZATION_UNPINNED',
                `/authorizationEvidence/${i}/evidence`,
                `the authorization of ${a.role} has no pinned evidence (every digest is null); pin the grant record by its SHA-256.`,
              ),
            ],
      ),
  ),
  rule(
    'REPAIR_ROLE_AUTHORIZATION_GRANTOR_INVALID',
    "No party grants its own role, and an execution-side role (executor, verifier) is granted by the decider's party (invariant 9).",
    (b) =>
      b.authorizationEvidence.flatMap((a, i) => {
        const holds = holder(b, a.role);
        const decider = holder(b, 'decider');
        let problem: string | null = null;
        if (holds !== undefined && same(holds, a.grantedBy)) {
          problem = `${name(a.grantedBy)} granted its own role ${a.role}; the grant comes from someone else`;
        } else if (!authority.has(a.role) && decider !== undefined && !same(decider, a.grantedBy)) {
          problem = `${a.role} was granted by ${name(a.grantedBy)}, not by the decider ${name(decider)}; the decider grants the execution-side roles`;
        }
        return problem === null
          ? []
          : [
              issue(
                'REPAIR_ROLE_AUTHORIZATION_GRANTOR_INVALID',
                `/authorizationEvidence/${i}/grantedBy`,
                `${problem}.`,
              ),
            ];
      }),
  ),
  rule(
    'REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT',
    "The re-review is made by a party other than the executor's, acting in a role other than executor (invariant 10).",
    (b) => {
      const r = b.independentReReview;
      if (r === null) return [];
      const executor = holder(b, 'executor');
      if (r.role === 'executor') {
        return [
          issue(
            'REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT',
            '/independentReReview/role',
            'the re-review is made in the executor role; an independent re-review is made in another role.',
          ),
        ];
      }
      if (executor !== undefined && same(executor, r.party)) {
        return [
          issue(
            'REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT',
            '/independentReReview/party',
            `the re-review is made by the executor ${name(executor)}; have a different party re-review the repair.`,
          ),
        ];
      }
      return [];
    },
  ),
  rule(
    'REPAIR_ROLE_REREVIEW_EVIDENCE_NOT_OWN',
    "The re-review has its own evidence: a pinned entry of a direct kind whose digest is not one of the executor's executionEvidence digests (invariant 11).",
    (b) => {
      const r = b.independentReReview;
      if (r === null) return [];
      const executors = new Set(b.executionEvidence.flatMap((e) => e.digest ?? []));
      const own = r.evidence.some((e) => direct.has(e.kind) && e.digest !== null && !executors.has(e.digest));
      return own
        ? []
        : [
            issue(
              'REPAIR_ROLE_REREVIEW_EVIDENCE_NOT_OWN',
              '/independentReReview/evidence',
              "the re-review has no pinned hook, runtime, replay or tests evidence of its own (it only repeats the executor's evidence, or is unpinned or prose); re-run the check and pin its result.",
            ),
          ];
    },
  ),
  rule(
    'REPAIR_ROLE_RISK_CLASS_MISMATCH',
    'riskClass equals the class the coded criteria compute (side effect, blast radius, data sensitivity); no party, model or agent name sets it (invariant 12).',
    (b) => {
      const want = repairRiskClass(b.risk);
      return b.risk.riskClass === want
        ? []
        : [
            issue(
              'REPAIR_ROLE_RISK_CLASS_MISMATCH',
              '/risk/riskClass',
              `riskClass is ${b.risk.riskClass} but the criteria (${b.risk.sideEffectLevel}, ${b.risk.blastRadius}, ${b.risk.dataSensitivity}) compute ${want}; set riskClass ${want}, or correct the criteria.`,
              RISK,
            ),
          ];
    },
    RISK,
  ),
  rule(
    'REPAIR_ROLE_REREVIEW_MISSING',
    'A high or critical repair (by the computed class) is verified or accepted only after an independent re-review (invariant 13).',
    (b) => {
      const cls = repairRiskClass(b.risk);
      if ((cls !== 'high' && cls !== 'critical') || (b.status !== 'verified' && b.status !== 'accepted'))
        return [];
      return b.independentReReview !== null
        ? []
        : [
            issue(
              'REPAIR_ROLE_REREVIEW_MISSING',
              '/independentReReview',
              `the repair is ${cls} risk and ${b.status} without an independent re-review; have a party other than the executor re-review it with its own evidence first.`,
            ),
          ];
    },
  ),
  rule(
    'REPAIR_ROLE_ACCEPTED_AFTER_REJECTION',
    'A repair whose re-review is rejected is never accepted (invariant 14).',
    (b) =>
      b.status === 'accepted' && b.independentReReview?.outcome === 'rejected'
        ? [
            issue(
              'REPAIR_ROLE_ACCEPTED_AFTER_REJECTION',
              '/status',
              'the repair is accepted although its independent re-review rejected it; reject it, or repair again and have it re-reviewed.',
            ),
          ]
        : [],
  ),
];
