export type {
  CommitDecision,
  CommitEnvironment,
  CommitNoWrite,
  CommitRefusal,
  CommitWrite,
} from './commit.js';
export * from './evidence.js';
export * from './fence.js';
export { DEFAULT_LEASE_DURATION_MS } from './lease.js';
export * from './operation-commit.js';
export * from './operation-edges.js';
export * from './owner-commit.js';
export * from './owner-transitions.js';
export * from './requests.js';
export type { TaskCheckResult } from './result.js';
export * from './state-commit.js';
export { emptyOperationSet } from './steps.js';
export * from './stored-envelope.js';
export * from './task-key.js';
export { compareTimestamps } from './time.js';
export * from './write-context.js';
