// The pages whose normative sentences form the requirement catalogue, each with the prefix of
// its requirement ids. A prefix is never changed or reused: ids are cited by cases, baselines and
// reports. docs/spec/decisions.md is rationale, not requirements, so it is not listed.

/** One page of the catalogue. */
export interface RequirementPage {
  /** Path relative to the repository. */
  readonly page: string;
  /** Id prefix: `TCW` gives `TCW-001`, `TCW-002`, ... */
  readonly prefix: string;
  /** What the page specifies (a gate name, `Conventions` or `Protocol`), the unit of coverage. */
  readonly gate: string;
}

/** Every page of the catalogue, in the order coverage lists them. */
export const REQUIREMENT_PAGES: readonly RequirementPage[] = [
  { page: 'docs/spec/index.md', prefix: 'GEN', gate: 'Conventions' },
  { page: 'docs/spec/context-acquisition-gate.md', prefix: 'CAG', gate: 'ContextAcquisitionGate' },
  { page: 'docs/spec/task-continuity-write-gate.md', prefix: 'TCW', gate: 'TaskContinuityWriteGate' },
  { page: 'docs/spec/turn-liveness-recovery-gate.md', prefix: 'TLR', gate: 'TurnLivenessRecoveryGate' },
  { page: 'docs/spec/local-task-trace-gate.md', prefix: 'LTT', gate: 'LocalTaskTraceGate' },
  {
    page: 'docs/spec/agent-capability-domain-completeness-gate.md',
    prefix: 'ACD',
    gate: 'AgentCapabilityDomainCompletenessGate',
  },
  {
    page: 'docs/spec/ai-agent-system-architecture-gate.md',
    prefix: 'ARC',
    gate: 'AiAgentSystemArchitectureGate',
  },
  { page: 'docs/spec/agent-routing-gate.md', prefix: 'RTG', gate: 'AgentRoutingGate' },
  { page: 'docs/spec/context-memory-state-gate.md', prefix: 'CMS', gate: 'ContextMemoryStateGate' },
  {
    page: 'docs/spec/tool-permission-boundary-gate.md',
    prefix: 'TPB',
    gate: 'ToolPermissionBoundaryGate',
  },
  { page: 'docs/spec/task-contract-gate.md', prefix: 'TTC', gate: 'TaskContractGate' },
  { page: 'docs/spec/agent-evaluation-gate.md', prefix: 'EVL', gate: 'AgentEvaluationGate' },
  { page: 'docs/spec/replay-observability-gate.md', prefix: 'ROG', gate: 'ReplayObservabilityGate' },
  {
    page: 'docs/spec/repair-collaboration-role-boundary-gate.md',
    prefix: 'RCR',
    gate: 'RepairCollaborationRoleBoundaryGate',
  },
  { page: 'docs/spec/run-control-gate.md', prefix: 'RUN', gate: 'RunControlGate' },
  { page: 'docs/spec/permission-policy-gate.md', prefix: 'PRM', gate: 'PermissionPolicyGate' },
  { page: 'docs/spec/delegation-gate.md', prefix: 'DLG', gate: 'DelegationGate' },
  { page: 'docs/spec/opentelemetry-mapping.md', prefix: 'OTL', gate: 'OpenTelemetryMapping' },
  { page: 'docs/protocol.md', prefix: 'PROTO', gate: 'Protocol' },
];

/**
 * Numbers from this one upward are kept for sentences written on another branch at the same
 * time (the spec fixes of session 17); `requirements:assign` never hands them out.
 */
export const RESERVED_FROM = 500;
