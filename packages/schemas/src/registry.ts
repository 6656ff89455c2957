import { SCHEMA_DOCUMENTS } from './generated/schemas.generated.js';
import { schemaIdFor } from './ids.js';

/** A draft-07 JSON Schema document as published in `schemas/`. */
export type JsonSchemaDocument = Readonly<Record<string, unknown>>;

const byId = new Map<string, JsonSchemaDocument>();
for (const [name, schema] of Object.entries(SCHEMA_DOCUMENTS)) byId.set(schemaIdFor(name), schema);

/** Names of every contract that has a published schema, in spec order. */
export const SCHEMA_NAMES: readonly string[] = Object.keys(SCHEMA_DOCUMENTS);

/**
 * The published schema of a contract, resolved offline.
 *
 * @example
 * getSchema('IntentSeedV1')?.$id === 'https://agent-contracts.dev/schemas/contracts/IntentSeedV1.schema.json';
 */
export function getSchema(contract: string): JsonSchemaDocument | undefined {
  return Object.hasOwn(SCHEMA_DOCUMENTS, contract) ? SCHEMA_DOCUMENTS[contract] : undefined;
}

/** Resolve a schema by its `$id`, offline; `undefined` for ids this package does not publish. */
export function getSchemaById(id: string): JsonSchemaDocument | undefined {
  return byId.get(id);
}

/** Every `$id` -> schema pair, e.g. to preload into a validator's schema store. */
export function allSchemas(): ReadonlyMap<string, JsonSchemaDocument> {
  return byId;
}
