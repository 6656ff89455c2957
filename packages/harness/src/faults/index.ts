// The fault matrix: scenarios the harness drives itself (docs/protocol.md#fault-matrix).
export * from './check.js';
export type { FaultRoutine } from './kinds/common.js';
export * from './runner.js';
export * from './scenario.js';
export * from './store-client.js';
export * from './tool.js';
export * from './world.js';
