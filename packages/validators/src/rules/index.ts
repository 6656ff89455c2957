// The semantic-rule registry. Each rule states one invariant of docs/spec that a JSON Schema
// cannot express, with a stable code and the spec section it comes from. One file per area;
// rules are taken from the spec pages, never invented here.
import { AGENT_ROUTING_BUNDLE_RULES, AGENT_ROUTING_RULES } from './agent-routing.js';
import { ARCHITECTURE_REPORT_BUNDLE_RULES, ARCHITECTURE_REPORT_RULES } from './architecture-report.js';
import { CAPABILITY_DOMAIN_BUNDLE_RULES, CAPABILITY_DOMAIN_RULES } from './capability-domain.js';
import { CONTEXT_ACQUISITION_BUNDLE_RULES, CONTEXT_ACQUISITION_RULES } from './context-acquisition.js';
import { CONTEXT_MEMORY_BUNDLE_RULES, CONTEXT_MEMORY_RULES } from './context-memory.js';
import { CONTEXT_RECEIPTS_BUNDLE_RULES, CONTEXT_RECEIPTS_RULES } from './context-receipts.js';
import { DELEGATION_BUNDLE_RULES, DELEGATION_RULES } from './delegation.js';
import { EVALUATION_BUNDLE_RULES, EVALUATION_RULES } from './evaluation.js';
import { EVIDENCE_MATRIX_BUNDLE_RULES, EVIDENCE_MATRIX_RULES } from './evidence-matrix.js';
import { LOCAL_TASK_TRACE_BUNDLE_RULES, LOCAL_TASK_TRACE_RULES } from './local-task-trace.js';
import { PERMISSION_DECISION_BUNDLE_RULES, PERMISSION_DECISION_RULES } from './permission-decision.js';
import { REPAIR_ROLES_RULES } from './repair-roles.js';
import { RUN_STATE_BUNDLE_RULES, RUN_STATE_RULES } from './run-state.js';
import { TASK_CONTINUITY_BUNDLE_RULES, TASK_CONTINUITY_RULES } from './task-continuity.js';
import { TASK_CONTRACT_BUNDLE_RULES, TASK_CONTRACT_RULES, TOOL_CONTRACT_RULES } from './task-contract.js';
import { TOOL_PERMISSION_BUNDLE_RULES, TOOL_PERMISSION_RULES } from './tool-permission.js';
import { TURN_LIVENESS_BUNDLE_RULES, TURN_LIVENESS_RULES } from './turn-liveness.js';
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
