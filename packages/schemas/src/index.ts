export { CONTRACTS, DIGEST_RULES, findContract } from './catalog.js';
export {
  compareSchemas,
  type SchemaChange,
  type SchemaComparison,
  type SchemaCompatibility,
} from './compat.js';
export * from './contracts/index.js';
export type { DigestRule } from './digest-rules.js';
export * from './digests/index.js';
export { fillFieldTables, renderFieldTable } from './field-tables.js';
export { type ContractEntry, GATES, type GateName } from './gates.js';
export { SCHEMA_BASE_URI, schemaFileFor, schemaIdFor } from './ids.js';
export * from './policy/index.js';
export { allSchemas, getSchema, getSchemaById, type JsonSchemaDocument, SCHEMA_NAMES } from './registry.js';
