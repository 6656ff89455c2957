export * from './history.js';
export * from './invariants.js';
export * from './linearizability.js';
