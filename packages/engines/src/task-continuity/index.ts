export * from './commit.js';
export * from './operation-edges.js';
export * from './owner-transitions.js';
export * from './requests.js';
export type { TaskCheckResult } from './result.js';
export * from './stored-envelope.js';
export * from './task-key.js';
export { compareTimestamps } from './time.js';
export * from './write-context.js';
