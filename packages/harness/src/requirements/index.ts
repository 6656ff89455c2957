export * from './assign.js';
export * from './catalogue.js';
export * from './coverage.js';
export * from './coverage-doc.js';
export * from './pages.js';
export * from './parse.js';
