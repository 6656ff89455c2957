/**
 * Absolute path of the conformance data (with a trailing separator): `cases/`, `faults/`,
 * `fixtures/`, `vectors/` and `bundles/`, as `agent-contracts conform --conformance` expects.
 *
 * @example
 * import { conformanceDirectory } from '@agent-contracts/kit';
 * const vectors = `${conformanceDirectory}vectors/jcs.json`;
 */
export declare const conformanceDirectory: string;

/**
 * Absolute path of the kit's documentation (with a trailing separator): `protocol.md`, `cli.md`,
 * `coverage.md`, `spec/<page>.md` and the rest of the repository's docs/, as `agent-contracts docs`
 * lists them.
 *
 * @example
 * import { docsDirectory } from '@agent-contracts/kit';
 * const protocol = `${docsDirectory}protocol.md`;
 */
export declare const docsDirectory: string;
