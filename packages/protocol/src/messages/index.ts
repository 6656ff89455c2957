// Every message shape of protocol v1: the source of schemas/protocol/.
export * from './checkpoint.js';
export * from './clock.js';
export * from './context.js';
export * from './crash.js';
export * from './delegation.js';
export * from './digest.js';
export * from './error-data.js';
export * from './hello.js';
export * from './liveness.js';
export * from './policy.js';
export * from './run.js';
export * from './session.js';
export * from './store.js';
export * from './trace.js';
export * from './validate.js';
