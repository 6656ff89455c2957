/** The gates of the spec, one page each under docs/spec/. */
export const GATES = {
  ContextAcquisitionGate: 'docs/spec/context-acquisition-gate.md',
  TaskContinuityWriteGate: 'docs/spec/task-continuity-write-gate.md',
  TurnLivenessRecoveryGate: 'docs/spec/turn-liveness-recovery-gate.md',
  LocalTaskTraceGate: 'docs/spec/local-task-trace-gate.md',
  AgentCapabilityDomainCompletenessGate: 'docs/spec/agent-capability-domain-completeness-gate.md',
  AiAgentSystemArchitectureGate: 'docs/spec/ai-agent-system-architecture-gate.md',
  AgentRoutingGate: 'docs/spec/agent-routing-gate.md',
  ContextMemoryStateGate: 'docs/spec/context-memory-state-gate.md',
  ToolPermissionBoundaryGate: 'docs/spec/tool-permission-boundary-gate.md',
  TaskContractGate: 'docs/spec/task-contract-gate.md',
  AgentEvaluationGate: 'docs/spec/agent-evaluation-gate.md',
  ReplayObservabilityGate: 'docs/spec/replay-observability-gate.md',
  RepairCollaborationRoleBoundaryGate: 'docs/spec/repair-collaboration-role-boundary-gate.md',
  RunControlGate: 'docs/spec/run-control-gate.md',
  PermissionPolicyGate: 'docs/spec/permission-policy-gate.md',
  DelegationGate: 'docs/spec/delegation-gate.md',
} as const;

/** Name of a gate of the spec. */
export type GateName = keyof typeof GATES;

/** One contract of the spec: its name is its `schemaVersion` discriminator and never changes. */
export interface ContractEntry {
  /** Contract name, equal to the `schemaVersion` value of its documents, e.g. `IntentSeedV1`. */
  readonly name: string;
  /** The gate whose page specifies it. */
  readonly gate: GateName;
  /** One sentence: what the document is evidence of. */
  readonly summary: string;
  /** `read-only` for compatibility versions that implementations read but never write. */
  readonly compatibility?: 'read-only';
}
