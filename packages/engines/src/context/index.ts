export * from './ledger.js';
export * from './plan.js';
export * from './receipt.js';
export * from './records.js';
export * from './reuse.js';
export * from './seed.js';
export * from './shared.js';
