export * from './behaviour.js';
export * from './shape.js';
export * from './step.js';
