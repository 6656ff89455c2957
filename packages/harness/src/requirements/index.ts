export * from './assign.js';
export * from './pages.js';
export * from './parse.js';
