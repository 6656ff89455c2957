/**
 * Stable error codes of `@agent-contracts/validators`. Problems *in a document* are never
 * thrown: they are {@link Issue}s in the result of `validate`. These codes are for misuse of
 * the API and for the ahead-of-time generator.
 *
 * - `VALIDATORS_UNKNOWN_CONTRACT`: `options.contract` names no contract this package validates.
 * - `VALIDATORS_INVALID_OPTION`: an option has the wrong type.
 * - `VALIDATORS_UNSUPPORTED_FORMAT`: (generator) a schema uses a `format` with no cheap check in
 *   `src/formats.ts`; add one there.
 * - `VALIDATORS_UNSUPPORTED_RUNTIME`: (generator) ajv's standalone code needs a runtime helper
 *   that `src/runtime.ts` does not provide; add it there.
 */
export type ValidatorsErrorCode =
  | 'VALIDATORS_UNKNOWN_CONTRACT'
  | 'VALIDATORS_INVALID_OPTION'
  | 'VALIDATORS_UNSUPPORTED_FORMAT'
  | 'VALIDATORS_UNSUPPORTED_RUNTIME';

/**
 * Thrown for programmer errors only (bad options, generator input); never for a bad document.
 *
 * @example
 * const err = new ValidatorsError('VALIDATORS_INVALID_OPTION', 'options.digests must be a boolean');
 * err.code === 'VALIDATORS_INVALID_OPTION';
 */
export class ValidatorsError extends Error {
  /** Stable, documented code; match on this, never on the message. */
  readonly code: ValidatorsErrorCode;

  constructor(code: ValidatorsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ValidatorsError';
    this.code = code;
  }
}
