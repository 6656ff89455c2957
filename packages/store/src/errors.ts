/**
 * Stable error codes of the store itself (backend failures are `StorageBackendError`s; refused
 * commits are typed results, never errors).
 *
 * - `STATE_LOCATION_INVALID`: `openStore` got a state location that names no store (the code of
 *   `parseStateLocation` in @agent-contracts/protocol).
 * - `STORE_BACKEND_UNAVAILABLE`: the backend module for the URL cannot be loaded (not installed,
 *   native module not built, or the module lacks its factory).
 * - `STORE_EVIDENCE_ROOT_INVALID`: the configured project root for terminal evidence is not a
 *   readable directory.
 */
export type StoreErrorCode =
  | 'STATE_LOCATION_INVALID'
  | 'STORE_BACKEND_UNAVAILABLE'
  | 'STORE_EVIDENCE_ROOT_INVALID';

/**
 * A store failure that is not a commit refusal, with a stable `code`, a message that says what to
 * do next, and the underlying error as `cause`.
 *
 * @example
 * ```ts
 * import { StoreError } from '@agent-contracts/store';
 * const e = new StoreError('STATE_LOCATION_INVALID', 'use a directory, memory:, sqlite:<file> or postgres://...');
 * e.code satisfies string;
 * ```
 */
export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreError';
    this.code = code;
  }
}
