// The size bound of a JSON Schema embedded in a contract document (a tool's input and output
// schemas, a task's json-schema criterion): the TaskContractGate's limits, shared by both rules.
import { canonicalize } from '@agent-contracts/digest';

/** Most UTF-8 bytes of an embedded schema's RFC 8785 form. */
export const EMBEDDED_SCHEMA_MAX_BYTES = 16384;
/** Most nesting depth (objects and arrays) of an embedded schema, the schema object itself being 1. */
export const EMBEDDED_SCHEMA_MAX_DEPTH = 16;

function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value as Record<string, unknown>)) {
    deepest = Math.max(deepest, depthOf(child, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}

/**
 * Why an embedded schema is over the gate's limits, or `null` when it is within them.
 *
 * @example
 * embeddedSchemaExcess({ type: 'object' }); // null
 */
export function embeddedSchemaExcess(schema: unknown): string | null {
  const depth = depthOf(schema, EMBEDDED_SCHEMA_MAX_DEPTH + 1);
  if (depth > EMBEDDED_SCHEMA_MAX_DEPTH)
    return `it is nested more than ${EMBEDDED_SCHEMA_MAX_DEPTH} levels deep`;
  const bytes = new TextEncoder().encode(canonicalize(schema)).length;
  if (bytes > EMBEDDED_SCHEMA_MAX_BYTES)
    return `its RFC 8785 form is ${bytes} bytes, more than ${EMBEDDED_SCHEMA_MAX_BYTES}`;
  return null;
}
