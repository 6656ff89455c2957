/** Base URI of every published schema `$id`. */
export const SCHEMA_BASE_URI = 'https://agent-contracts.dev/schemas/';

/** Path of a contract's schema below `schemas/` (and below {@link SCHEMA_BASE_URI}). */
export function schemaFileFor(contract: string): string {
  return `contracts/${contract}.schema.json`;
}

/** The stable `$id` of a contract's schema. */
export function schemaIdFor(contract: string): string {
  return SCHEMA_BASE_URI + schemaFileFor(contract);
}
