/**
 * The agent-contracts conformance harness.
 *
 * @packageDocumentation
 */
export * from './baseline.js';
export * from './cases.js';
export * from './causes.js';
export * from './compare/index.js';
export * from './compat-matrix.js';
export * from './compat-matrix-html.js';
export * from './compat-matrix-markdown.js';
export * from './diff.js';
export * from './errors.js';
// Exploration (fast-check, the reference engines) is the subpath `@agent-contracts/harness/explore`,
// so that what imports this barrel does not load it; its names and seed are small and stay here.
export { EXPLORE_CAPABILITY_NAMES, randomSeed } from './explore/names.js';
export * from './faults/index.js';
export * from './implementation.js';
export * from './json-diff.js';
export * from './otel-cases.js';
export * from './postgres-driver.js';
export * from './report.js';
export * from './report-check.js';
export * from './report-html.js';
export * from './report-junit.js';
export * from './report-markdown.js';
export * from './report-read.js';
export * from './report-title.js';
export * from './report-verdict.js';
export * from './requirements/index.js';
export * from './runner.js';
export * from './session.js';
export * from './shard.js';
export * from './text.js';
export * from './transport/process.js';
export * from './transport/sandbox.js';
export * from './walk.js';
export * from './wire/message-schemas.js';
export * from './wire/reply.js';
export * from './wire/request.js';
export * from './wire-log.js';
