// The semantic-rule registry. Each rule states one invariant of docs/spec that a JSON Schema
// cannot express, with a stable code and the spec section it comes from. One file per area;
// rules are taken from the spec pages, never invented here.
import { AGENT_ROUTING_BUNDLE_RULES, AGENT_ROUTING_RULES } from './agent-routing.js';
import {
  ARCHITECTURE_REPORT_BUNDLE_RULES,
  ARCHITECTURE_REPORT_RULE_FILES,
  ARCHITECTURE_REPORT_RULES,
} from './architecture-report/index.js';
import { CAPABILITY_DOMAIN_BUNDLE_RULES, CAPABILITY_DOMAIN_RULES } from './capability-domain.js';
import {
  CONTEXT_ACQUISITION_BUNDLE_RULES,
  CONTEXT_ACQUISITION_RULE_FILES,
  CONTEXT_ACQUISITION_RULES,
} from './context-acquisition/index.js';
import { CONTEXT_MEMORY_BUNDLE_RULES, CONTEXT_MEMORY_RULES } from './context-memory.js';
import {
  CHAIN_RULES as CONTEXT_CHAIN_RULES,
  LEDGER_RULES as CONTEXT_LEDGER_RULES,
  RECEIPT_V1_RULES as CONTEXT_RECEIPT_V1_RULES,
  RECEIPT_V2_RULES as CONTEXT_RECEIPT_V2_RULES,
  CONTEXT_RECEIPTS_BUNDLE_RULES,
  CONTEXT_RECEIPTS_RULES,
  REUSE_RULES as CONTEXT_REUSE_RULES,
} from './context-receipts/index.js';
import { DELEGATION_BUNDLE_RULES, DELEGATION_RULES } from './delegation.js';
import { EVALUATION_BUNDLE_RULES, EVALUATION_RULES } from './evaluation.js';
import { EVIDENCE_MATRIX_BUNDLE_RULES, EVIDENCE_MATRIX_RULES } from './evidence-matrix.js';
import { LOCAL_TASK_TRACE_BUNDLE_RULES, LOCAL_TASK_TRACE_RULES } from './local-task-trace.js';
import { traceIsClean } from './local-task-trace-walk.js';
import { PERMISSION_DECISION_BUNDLE_RULES, PERMISSION_DECISION_RULES } from './permission-decision.js';
import { REPAIR_ROLES_RULES } from './repair-roles.js';
import { RUN_STATE_BUNDLE_RULES, RUN_STATE_RULES } from './run-state.js';
import {
  TASK_CONTINUITY_BUNDLE_RULES,
  TASK_CONTINUITY_RULE_FILES,
  TASK_CONTINUITY_RULES,
} from './task-continuity/index.js';
import { TASK_CONTRACT_BUNDLE_RULES, TASK_CONTRACT_RULES, TOOL_CONTRACT_RULES } from './task-contract.js';
import { TOOL_PERMISSION_BUNDLE_RULES, TOOL_PERMISSION_RULES } from './tool-permission.js';
import {
  TURN_LIVENESS_BUNDLE_RULES,
  TURN_LIVENESS_RULE_FILES,
  TURN_LIVENESS_RULES,
} from './turn-liveness/index.js';
import type { BundleRule, SemanticRule } from './types.js';

export type { Bundle, BundleRule, ContractDocument, SemanticRule } from './types.js';

/** Every semantic rule, in spec order. */
export const SEMANTIC_RULES: readonly SemanticRule[] = [
  ...CONTEXT_ACQUISITION_RULES,
  ...CONTEXT_RECEIPTS_RULES,
  ...TASK_CONTINUITY_RULES,
  ...TURN_LIVENESS_RULES,
  ...LOCAL_TASK_TRACE_RULES,
  ...CAPABILITY_DOMAIN_RULES,
  ...ARCHITECTURE_REPORT_RULES,
  ...AGENT_ROUTING_RULES,
  ...CONTEXT_MEMORY_RULES,
  ...TOOL_PERMISSION_RULES,
  ...TASK_CONTRACT_RULES,
  ...TOOL_CONTRACT_RULES,
  ...EVALUATION_RULES,
  ...EVIDENCE_MATRIX_RULES,
  ...REPAIR_ROLES_RULES,
  ...RUN_STATE_RULES,
  ...PERMISSION_DECISION_RULES,
  ...DELEGATION_RULES,
];

/**
 * One-walk checks of the contracts validated in bulk: for a document that passed the structural
 * check, `true` only when none of the contract's digest rules and none of its rules in
 * SEMANTIC_RULES would report an issue (validate() then skips them; when `false` it runs them).
 */
export const CLEAN_WALKS: ReadonlyMap<string, (doc: unknown) => boolean> = new Map([
  ['LocalTaskTraceV1', traceIsClean],
]);

/** Every cross-document rule, in spec order. */
export const BUNDLE_RULES: readonly BundleRule[] = [
  ...CONTEXT_ACQUISITION_BUNDLE_RULES,
  ...CONTEXT_RECEIPTS_BUNDLE_RULES,
  ...TASK_CONTINUITY_BUNDLE_RULES,
  ...TURN_LIVENESS_BUNDLE_RULES,
  ...LOCAL_TASK_TRACE_BUNDLE_RULES,
  ...CAPABILITY_DOMAIN_BUNDLE_RULES,
  ...ARCHITECTURE_REPORT_BUNDLE_RULES,
  ...AGENT_ROUTING_BUNDLE_RULES,
  ...CONTEXT_MEMORY_BUNDLE_RULES,
  ...TOOL_PERMISSION_BUNDLE_RULES,
  ...TASK_CONTRACT_BUNDLE_RULES,
  ...EVALUATION_BUNDLE_RULES,
  ...EVIDENCE_MATRIX_BUNDLE_RULES,
  ...RUN_STATE_BUNDLE_RULES,
  ...PERMISSION_DECISION_BUNDLE_RULES,
  ...DELEGATION_BUNDLE_RULES,
];

/**
 * The file of packages/validators/src/rules that defines each rule (docs/rules.md names it beside
 * the code, so a reader opens the right file). Keyed by the rule itself: a code checked on two
 * contracts may live in two files.
 */
export const RULE_FILES: ReadonlyMap<SemanticRule | BundleRule, string> = new Map(
  (
    [
      ['agent-routing.ts', [...AGENT_ROUTING_BUNDLE_RULES, ...AGENT_ROUTING_RULES]],
      ...ARCHITECTURE_REPORT_RULE_FILES,
      ['capability-domain.ts', [...CAPABILITY_DOMAIN_BUNDLE_RULES, ...CAPABILITY_DOMAIN_RULES]],
      ...CONTEXT_ACQUISITION_RULE_FILES,
      ['context-memory.ts', [...CONTEXT_MEMORY_BUNDLE_RULES, ...CONTEXT_MEMORY_RULES]],
      ['context-receipts/chain.ts', [...CONTEXT_CHAIN_RULES]],
      ['context-receipts/ledger.ts', [...CONTEXT_LEDGER_RULES]],
      ['context-receipts/receipt-v1.ts', [...CONTEXT_RECEIPT_V1_RULES]],
      ['context-receipts/receipt-v2.ts', [...CONTEXT_RECEIPT_V2_RULES]],
      ['context-receipts/reuse-decision.ts', [...CONTEXT_REUSE_RULES]],
      ['delegation.ts', [...DELEGATION_BUNDLE_RULES, ...DELEGATION_RULES]],
      ['evaluation.ts', [...EVALUATION_BUNDLE_RULES, ...EVALUATION_RULES]],
      ['evidence-matrix.ts', [...EVIDENCE_MATRIX_BUNDLE_RULES, ...EVIDENCE_MATRIX_RULES]],
      ['local-task-trace.ts', [...LOCAL_TASK_TRACE_BUNDLE_RULES, ...LOCAL_TASK_TRACE_RULES]],
      ['permission-decision.ts', [...PERMISSION_DECISION_BUNDLE_RULES, ...PERMISSION_DECISION_RULES]],
      ['repair-roles.ts', [...REPAIR_ROLES_RULES]],
      ['run-state.ts', [...RUN_STATE_BUNDLE_RULES, ...RUN_STATE_RULES]],
      ...TASK_CONTINUITY_RULE_FILES,
      ['task-contract.ts', [...TASK_CONTRACT_BUNDLE_RULES, ...TASK_CONTRACT_RULES, ...TOOL_CONTRACT_RULES]],
      ['tool-permission.ts', [...TOOL_PERMISSION_BUNDLE_RULES, ...TOOL_PERMISSION_RULES]],
      ...TURN_LIVENESS_RULE_FILES,
    ] as ReadonlyArray<readonly [string, ReadonlyArray<SemanticRule | BundleRule>]>
  ).flatMap(([file, rules]) => rules.map((r) => [r, file] as const)),
);
