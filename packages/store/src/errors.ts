/**
 * Stable error codes of the store itself (backend failures are `StorageBackendError`s; refused
 * commits are typed results, never errors).
 *
 * - `STORE_URL_INVALID`: `openStore` got a URL or path it cannot map to a backend.
 * - `STORE_BACKEND_UNAVAILABLE`: the backend module for the URL cannot be loaded (not installed,
 *   native module not built, or the module lacks its factory).
 * - `STORE_EVIDENCE_ROOT_INVALID`: the configured project root for terminal evidence is not a
 *   readable directory.
 */
export type StoreErrorCode =
  | 'STORE_URL_INVALID'
  | 'STORE_BACKEND_UNAVAILABLE'
  | 'STORE_EVIDENCE_ROOT_INVALID';

/**
 * A store failure that is not a commit refusal, with a stable `code`, a message that says what to
 * do next, and the underlying error as `cause`.
 *
 * @example
 * ```ts
 * import { StoreError } from '@agent-contracts/store';
 * const e = new StoreError('STORE_URL_INVALID', 'use memory:, sqlite:<path> or postgres://...');
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
