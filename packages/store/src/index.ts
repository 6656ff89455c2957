export * from './backend.js';
export * from './backends/errors.js';
export * from './backends/memory.js';
export * from './errors.js';
export * from './evidence.js';
export { openBackend, openStore } from './open.js';
export * from './task-store.js';
