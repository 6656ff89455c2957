/**
 * Pure engines of the agent-contracts spec: functions of state + input + an injected clock, with
 * no I/O, so the same rules run in-process, behind the conformance protocol and in the store.
 *
 * @packageDocumentation
 */

export * from './checkpoint/index.js';
export * from './clock.js';
export * from './context/index.js';
export * from './delegation/index.js';
export * from './local-task-trace/index.js';
export * from './policy/index.js';
export * from './refusal.js';
export * from './run-control/index.js';
export * from './task-continuity/index.js';
export * from './turn-liveness/index.js';
