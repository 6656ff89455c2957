import { ARCHITECTURE_REPORT_CONTRACTS } from './contracts/architecture-report.js';
import { CAPABILITY_DOMAIN_CONTRACTS } from './contracts/capability-domain.js';
import { CONTEXT_ACQUISITION_CONTRACTS } from './contracts/context-acquisition.js';
import { CONTEXT_IDENTITY_CONTRACTS } from './contracts/context-identity.js';
import { CONTEXT_RECEIPTS_CONTRACTS } from './contracts/context-receipts.js';
import { DELEGATION_CONTRACTS } from './contracts/delegation.js';
import { LOCAL_TASK_TRACE_CONTRACTS } from './contracts/local-task-trace.js';
import { PERMISSION_DECISION_CONTRACTS } from './contracts/permission-decision.js';
import { TASK_CONTINUITY_CONTRACTS } from './contracts/task-continuity.js';
import { TURN_LIVENESS_CONTRACTS } from './contracts/turn-liveness.js';
import type { DigestRule } from './digest-rules.js';
import { ARCHITECTURE_REPORT_DIGEST_RULES } from './digests/architecture-report.js';
import { CAPABILITY_DOMAIN_DIGEST_RULES } from './digests/capability-domain.js';
import { CONTEXT_ACQUISITION_DIGEST_RULES } from './digests/context-acquisition.js';
import { CONTEXT_RECEIPTS_DIGEST_RULES } from './digests/context-receipts.js';
import { DELEGATION_DIGEST_RULES } from './digests/delegation.js';
import { LOCAL_TASK_TRACE_DIGEST_RULES } from './digests/local-task-trace.js';
import { PERMISSION_DECISION_DIGEST_RULES } from './digests/permission-decision.js';
import { TASK_CONTINUITY_DIGEST_RULES } from './digests/task-continuity.js';
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
  ...PERMISSION_DECISION_DIGEST_RULES,
  ...DELEGATION_DIGEST_RULES,
];

/** Look a contract up by name; `undefined` when the spec has no such contract. */
export function findContract(name: string): ContractEntry | undefined {
  return CONTRACTS.find((c) => c.name === name);
}
