/**
 * Stable error codes of `@agent-contracts/digest`.
 *
 * - `DIGEST_INPUT_INVALID`: the value is not plain JSON data (undefined, a function, a bigint,
 *   a non-finite number, a class instance, a cycle, or a string with a lone UTF-16 surrogate).
 */
export type DigestErrorCode = 'DIGEST_INPUT_INVALID';

/** Thrown when a value cannot be canonicalized. `path` is a JSON Pointer to the offending value. */
export class DigestError extends Error {
  readonly code: DigestErrorCode;
  readonly path: string;

  constructor(code: DigestErrorCode, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DigestError';
    this.code = code;
    this.path = path;
  }
}
