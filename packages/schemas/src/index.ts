export * from './contracts/index.js';
export { CONTRACTS, DIGEST_RULES, findContract } from './catalog.js';
export type { DigestRule } from './digest-rules.js';
export { GATES, type ContractEntry, type GateName } from './gates.js';
export { SCHEMA_BASE_URI, schemaFileFor, schemaIdFor } from './ids.js';
export { allSchemas, getSchema, getSchemaById, SCHEMA_NAMES, type JsonSchemaDocument } from './registry.js';
