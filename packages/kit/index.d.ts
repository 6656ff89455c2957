/**
 * Absolute path of the conformance data (with a trailing separator): `cases/`, `faults/`,
 * `fixtures/`, `vectors/` and `bundles/`, as `agent-contracts conform --conformance` expects.
 *
 * @example
 * import { conformanceDirectory } from '@agent-contracts/kit';
 * const vectors = `${conformanceDirectory}vectors/jcs.json`;
 */
export declare const conformanceDirectory: string;
