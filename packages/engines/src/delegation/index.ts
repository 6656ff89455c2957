export * from './delegate.js';
