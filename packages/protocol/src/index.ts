/**
 * Conformance protocol v1 of agent-contracts (docs/protocol.md): what an implementation under
 * test and the harness say to each other. No dependency on the harness, the store or the engines.
 *
 * @packageDocumentation
 */
export * from './adapter.js';
export * from './capabilities.js';
export * from './crash-points.js';
export * from './error-codes.js';
export * from './errors.js';
export { PROTOCOL_SCHEMAS } from './generated/schemas.generated.js';
export * from './messages/index.js';
export * from './methods.js';
export * from './state-location.js';
export * from './version.js';
