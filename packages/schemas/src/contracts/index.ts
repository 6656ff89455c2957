// Every contract type of the spec. Each area module also exports its catalogue entries.

export * from './agent-routing.js';
export * from './architecture-report.js';
export * from './budget.js';
export * from './capability-domain.js';
export * from './common.js';
export * from './context-acquisition.js';
export * from './context-identity.js';
export * from './context-memory.js';
export * from './context-receipts.js';
export * from './delegation.js';
export * from './evaluation.js';
export * from './evidence-matrix.js';
export * from './local-task-trace.js';
export * from './permission-decision.js';
export * from './repair-roles.js';
export * from './run-state.js';
export * from './task-continuity.js';
export * from './task-contract.js';
export * from './tool-permission.js';
export * from './turn-liveness.js';
