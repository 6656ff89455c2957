import type { z } from 'zod';
import { ZOD_SCHEMAS } from './generated/contracts.generated.js';

export { hasUniqueItems, isRfc3339DateTime, jsonEqual } from './checks.js';
export * from './generated/contracts.generated.js';

/** Name of a contract that has a zod schema (its `schemaVersion`). */
export type ZodContractName = keyof typeof ZOD_SCHEMAS;

/** Every contract name with a zod schema, in spec order. */
export const ZOD_CONTRACT_NAMES: readonly ZodContractName[] = Object.keys(ZOD_SCHEMAS) as ZodContractName[];

/**
 * The zod schema of a contract by name, e.g. from a document's `schemaVersion`; `undefined` for a
 * name this version of the package does not know.
 *
 * @example
 * const schema = zodSchemaFor('TaskRecoveryCommitFenceV1');
 * const result = schema?.safeParse({ schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 });
 * result?.success === true;
 */
export function zodSchemaFor(contract: string): z.ZodType | undefined {
  return Object.hasOwn(ZOD_SCHEMAS, contract) ? ZOD_SCHEMAS[contract as ZodContractName] : undefined;
}
