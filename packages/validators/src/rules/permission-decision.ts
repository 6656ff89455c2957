// Semantic rules of PermissionDecisionV1 (docs/spec/permission-policy-gate.md#invariants).
// Identity and digest (invariants 1 and 2) are DigestRules with their own codes in
// @agent-contracts/schemas.
import {
  anyPatternCovers,
  credentialValuesIn,
  type PermissionDecisionV1,
  type PermissionReasonCode,
} from '@agent-contracts/schemas';
import { contractRules } from './kit.js';
import type { BundleRule, SemanticRule } from './types.js';

const CONTRACT = 'PermissionDecisionV1';
const PAGE = 'docs/spec/permission-policy-gate.md';
const INVARIANTS = `${PAGE}#invariants`;
const { issue, rule } = contractRules<PermissionDecisionV1>(CONTRACT, INVARIANTS);
/** The longest life of an injected credential (invariant 12). */
export const MAX_CREDENTIAL_TTL_MS = 3_600_000;

/** A rule that judges only `allow` decisions: what an allow needs. */
function allowRule(
  code: string,
  description: string,
  violated: (d: PermissionDecisionV1) => { path: string; message: string } | null,
): SemanticRule {
  return rule(code, description, (d) => {
    if (d.decision !== 'allow') return [];
    const v = violated(d);
    return v ? [issue(code, v.path, v.message)] : [];
  });
}

/** Whether a call on this tool needs a granted approval (invariant 6). */
export function needsConfirmation(tool: PermissionDecisionV1['tool']): boolean {
  return tool.requiresConfirmation || tool.sideEffectLevel === 'irreversible';
}

const DENY_REASONS: ReadonlySet<PermissionReasonCode> = new Set([
  'no-matching-grant',
  'tool-not-in-task-scope',
  'resource-not-in-task-scope',
  'approval-denied',
]);

/** Semantic rules of this area's contracts (one per code), in spec order. */
export const PERMISSION_DECISION_RULES: readonly SemanticRule[] = [
  allowRule(
    'PERMISSION_ALLOW_WITHOUT_GRANT',
    'Default deny: an allow rests on a matched grant (invariant 3).',
    (d) =>
      d.matchedGrant === null
        ? {
            path: '/matchedGrant',
            message:
              'the call is allowed but no grant covers it; default is deny: decide deny, or name the grant that covers the tool, resource and action.',
          }
        : null,
  ),
  allowRule(
    'PERMISSION_GRANT_FROM_UNTRUSTED_CONTENT',
    'No allow rests on a grant whose origin is untrusted content (invariant 4).',
    (d) =>
      d.matchedGrant?.origin === 'untrusted-content'
        ? {
            path: '/matchedGrant/origin',
            message: `grant "${d.matchedGrant.grantId}" comes from untrusted content, which cannot change rules; decide without it (deny unless a trusted grant covers the call).`,
          }
        : null,
  ),
  allowRule(
    'PERMISSION_TOOL_OUT_OF_SCOPE',
    "An allowed tool is in the task scope's allowedTools (invariant 5).",
    (d) =>
      d.inputs.taskScope.allowedTools.includes(d.tool.toolName)
        ? null
        : {
            path: '/tool/toolName',
            message: `tool "${d.tool.toolName}" is not in the task scope's allowedTools; deny the call, or change the task contract (not the decision).`,
          },
  ),
  allowRule(
    'PERMISSION_RESOURCE_OUT_OF_SCOPE',
    "An allowed resource is covered by the task scope's allowedResources (invariant 5).",
    (d) =>
      anyPatternCovers(d.inputs.taskScope.allowedResources, d.resource)
        ? null
        : {
            path: '/resource',
            message: `resource "${d.resource}" is not covered by the task scope's allowedResources; deny the call.`,
          },
  ),
  allowRule(
    'PERMISSION_CONFIRMATION_MISSING',
    'A tool that requires confirmation, or is irreversible, is allowed only with a granted approval (invariant 6).',
    (d) =>
      needsConfirmation(d.tool) && d.inputs.approval.state !== 'granted'
        ? {
            path: '/inputs/approval/state',
            message: `tool "${d.tool.toolName}" needs a granted approval (approval is ${d.inputs.approval.state}); decide requires-approval and ask a person.`,
          }
        : null,
  ),
  allowRule(
    'PERMISSION_TAINTED_EGRESS',
    'A run that read untrusted content sends data out only under a data-flow policy or a granted approval (invariant 7).',
    (d) =>
      d.inputs.provenance.tainted &&
      d.tool.networkEgress &&
      d.dataFlowPolicyRef === null &&
      d.inputs.approval.state !== 'granted'
        ? {
            path: '/dataFlowPolicyRef',
            message: `the run read untrusted content (${d.inputs.provenance.taintSources.length} source(s)) and "${d.tool.toolName}" sends data out, with no data-flow policy and no granted approval; decide requires-approval or deny.`,
          }
        : null,
  ),
  rule(
    'PERMISSION_PROVENANCE_INCONSISTENT',
    'provenance.tainted is true exactly when taintSources is not empty (invariant 8).',
    (d) => {
      const p = d.inputs.provenance;
      if (p.tainted === p.taintSources.length > 0) return [];
      return [
        issue(
          'PERMISSION_PROVENANCE_INCONSISTENT',
          '/inputs/provenance/tainted',
          `tainted is ${p.tainted} with ${p.taintSources.length} taint source(s); a run is tainted exactly when it has read untrusted content.`,
        ),
      ];
    },
  ),
  rule(
    'PERMISSION_APPROVAL_REF_INCONSISTENT',
    'approval.approvalRef is null exactly when approval.state is none (invariant 9).',
    (d) => {
      const a = d.inputs.approval;
      if ((a.state === 'none') === (a.approvalRef === null)) return [];
      return [
        issue(
          'PERMISSION_APPROVAL_REF_INCONSISTENT',
          '/inputs/approval/approvalRef',
          a.state === 'none'
            ? 'approval state is none but an approvalRef is given; state the approval, or drop the ref.'
            : `approval state is ${a.state} without an approvalRef; name the approval request or record.`,
        ),
      ];
    },
  ),
  rule(
    'PERMISSION_REASON_MISMATCH',
    'reasonCodes is ["granted"] for allow; otherwise it holds no "granted" and a deny holds a deny reason (invariant 10).',
    (d) => {
      const r = d.reasonCodes;
      const bad =
        d.decision === 'allow'
          ? !(r.length === 1 && r[0] === 'granted')
          : r.includes('granted') || (d.decision === 'deny') !== r.some((c) => DENY_REASONS.has(c));
      return bad
        ? [
            issue(
              'PERMISSION_REASON_MISMATCH',
              '/reasonCodes',
              `reasonCodes ${JSON.stringify(r)} do not explain decision "${d.decision}"; list the reasons that apply, in the page's order.`,
            ),
          ]
        : [];
    },
  ),
  rule(
    'PERMISSION_CREDENTIAL_WITHOUT_ALLOW',
    'A credential reference is given only with an allow (invariant 11).',
    (d) =>
      d.credential !== null && d.decision !== 'allow'
        ? [
            issue(
              'PERMISSION_CREDENTIAL_WITHOUT_ALLOW',
              '/credential',
              `decision "${d.decision}" carries a credential; the host injects a credential only for an allowed call: set it to null.`,
            ),
          ]
        : [],
  ),
  rule(
    'PERMISSION_CREDENTIAL_NOT_SHORT_LIVED',
    'An injected credential expires after decidedAt and at most 3600 s later (invariant 12).',
    (d) => {
      if (d.credential === null) return [];
      const left = Date.parse(d.credential.expiresAt) - Date.parse(d.decidedAt);
      if (left > 0 && left <= MAX_CREDENTIAL_TTL_MS) return [];
      return [
        issue(
          'PERMISSION_CREDENTIAL_NOT_SHORT_LIVED',
          '/credential/expiresAt',
          `the credential expires ${left / 1000} s after the decision; a host-injected credential lives more than 0 and at most 3600 s.`,
        ),
      ];
    },
  ),
  rule(
    'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
    'No string of the decision, member names included, has the shape of a credential value (invariant 13).',
    (d) =>
      credentialValuesIn(d).map((f) =>
        issue(
          'PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT',
          f.path,
          `this value has the shape of a ${f.shape}; a decision (and anything that can reach a model's context) carries only a credential reference (credref:...): remove the value and rotate the credential.`,
        ),
      ),
  ),
];

/** Cross-document rules of this area: none (a decision is judged on its own). */
export const PERMISSION_DECISION_BUNDLE_RULES: readonly BundleRule[] = [];
