export * from './decide.js';
export * from './provenance.js';
export * from './session.js';
