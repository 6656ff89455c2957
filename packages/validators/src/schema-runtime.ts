// What code compiled from a JSON Schema needs at run time (the format checks and ajv's helpers),
// as its own entry point, `@agent-contracts/validators/schema-runtime`: the protocol message
// validators of the harness import it without the contract validators of the package's main
// entry, so a bundle of `conform` does not load those (bench/README.md).
export { FORMATS, type FormatDefinition } from './formats.js';
export { RUNTIME_HELPERS } from './runtime.js';
