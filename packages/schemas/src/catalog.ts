import { AGENT_ROUTING_CONTRACTS } from './contracts/agent-routing.js';
import { ARCHITECTURE_REPORT_CONTRACTS } from './contracts/architecture-report.js';
import { CAPABILITY_DOMAIN_CONTRACTS } from './contracts/capability-domain.js';
import { CONTEXT_ACQUISITION_CONTRACTS } from './contracts/context-acquisition.js';
import { CONTEXT_IDENTITY_CONTRACTS } from './contracts/context-identity.js';
import { CONTEXT_MEMORY_CONTRACTS } from './contracts/context-memory.js';
import { CONTEXT_RECEIPTS_CONTRACTS } from './contracts/context-receipts.js';
import { DELEGATION_CONTRACTS } from './contracts/delegation.js';
import { EVALUATION_CONTRACTS } from './contracts/evaluation.js';
import { EVIDENCE_MATRIX_CONTRACTS } from './contracts/evidence-matrix.js';
import { LOCAL_TASK_TRACE_CONTRACTS } from './contracts/local-task-trace.js';
import { PERMISSION_DECISION_CONTRACTS } from './contracts/permission-decision.js';
import { REPAIR_ROLES_CONTRACTS } from './contracts/repair-roles.js';
import { RUN_STATE_CONTRACTS } from './contracts/run-state.js';
import { TASK_CONTINUITY_CONTRACTS } from './contracts/task-continuity.js';
import { TASK_CONTRACT_CONTRACTS } from './contracts/task-contract.js';
import { TOOL_PERMISSION_CONTRACTS } from './contracts/tool-permission.js';
import { TURN_LIVENESS_CONTRACTS } from './contracts/turn-liveness.js';
import type { DigestRule } from './digest-rules.js';
import { AGENT_ROUTING_DIGEST_RULES } from './digests/agent-routing.js';
import { ARCHITECTURE_REPORT_DIGEST_RULES } from './digests/architecture-report.js';
import { CAPABILITY_DOMAIN_DIGEST_RULES } from './digests/capability-domain.js';
import { CONTEXT_ACQUISITION_DIGEST_RULES } from './digests/context-acquisition.js';
import { CONTEXT_MEMORY_DIGEST_RULES } from './digests/context-memory.js';
import { CONTEXT_RECEIPTS_DIGEST_RULES } from './digests/context-receipts.js';
import { DELEGATION_DIGEST_RULES } from './digests/delegation.js';
import { EVALUATION_DIGEST_RULES } from './digests/evaluation.js';
import { EVIDENCE_MATRIX_DIGEST_RULES } from './digests/evidence-matrix.js';
import { LOCAL_TASK_TRACE_DIGEST_RULES } from './digests/local-task-trace.js';
import { PERMISSION_DECISION_DIGEST_RULES } from './digests/permission-decision.js';
import { REPAIR_ROLES_DIGEST_RULES } from './digests/repair-roles.js';
import { RUN_STATE_DIGEST_RULES } from './digests/run-state.js';
import { TASK_CONTINUITY_DIGEST_RULES } from './digests/task-continuity.js';
import { TASK_CONTRACT_DIGEST_RULES } from './digests/task-contract.js';
import { TOOL_PERMISSION_DIGEST_RULES } from './digests/tool-permission.js';
import { TURN_LIVENESS_DIGEST_RULES } from './digests/turn-liveness.js';
import type { ContractEntry } from './gates.js';

/** Every contract of the spec, grouped by gate, in spec order. */
export const CONTRACTS: readonly ContractEntry[] = [
  ...CONTEXT_ACQUISITION_CONTRACTS,
  ...CONTEXT_IDENTITY_CONTRACTS,
  ...CONTEXT_RECEIPTS_CONTRACTS,
  ...TASK_CONTINUITY_CONTRACTS,
  ...TURN_LIVENESS_CONTRACTS,
  ...LOCAL_TASK_TRACE_CONTRACTS,
  ...CAPABILITY_DOMAIN_CONTRACTS,
  ...ARCHITECTURE_REPORT_CONTRACTS,
  ...AGENT_ROUTING_CONTRACTS,
  ...CONTEXT_MEMORY_CONTRACTS,
  ...TOOL_PERMISSION_CONTRACTS,
  ...TASK_CONTRACT_CONTRACTS,
  ...EVALUATION_CONTRACTS,
  ...EVIDENCE_MATRIX_CONTRACTS,
  ...REPAIR_ROLES_CONTRACTS,
  ...RUN_STATE_CONTRACTS,
  ...PERMISSION_DECISION_CONTRACTS,
  ...DELEGATION_CONTRACTS,
];

/** Every digest and derived-id rule of the spec. */
export const DIGEST_RULES: readonly DigestRule[] = [
  ...CONTEXT_ACQUISITION_DIGEST_RULES,
  ...CONTEXT_RECEIPTS_DIGEST_RULES,
  ...TASK_CONTINUITY_DIGEST_RULES,
  ...TURN_LIVENESS_DIGEST_RULES,
  ...LOCAL_TASK_TRACE_DIGEST_RULES,
  ...CAPABILITY_DOMAIN_DIGEST_RULES,
  ...ARCHITECTURE_REPORT_DIGEST_RULES,
  ...AGENT_ROUTING_DIGEST_RULES,
  ...CONTEXT_MEMORY_DIGEST_RULES,
  ...TOOL_PERMISSION_DIGEST_RULES,
  ...TASK_CONTRACT_DIGEST_RULES,
  ...EVALUATION_DIGEST_RULES,
  ...EVIDENCE_MATRIX_DIGEST_RULES,
  ...REPAIR_ROLES_DIGEST_RULES,
  ...RUN_STATE_DIGEST_RULES,
  ...PERMISSION_DECISION_DIGEST_RULES,
  ...DELEGATION_DIGEST_RULES,
];

/** Look a contract up by name; `undefined` when the spec has no such contract. */
export function findContract(name: string): ContractEntry | undefined {
  return CONTRACTS.find((c) => c.name === name);
}
