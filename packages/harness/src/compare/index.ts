export * from './step.js';
