/**
 * A digest or derived-id field of a contract, and how to recompute it.
 *
 * Every digest in the spec is RFC 8785 JCS + SHA-256 (lowercase hex) over an explicitly named
 * set of fields (`covers`); derived ids are a prefix plus a digest or part of one. Validators
 * recompute `compute(document)` and compare it with the value at `pointer`.
 */
export interface DigestRule {
  /** Contract name (the document's `schemaVersion`). */
  readonly contract: string;
  /**
   * JSON Pointer of the digest field inside the document. A `*` token stands for every index of
   * an array, e.g. `/events/*\/eventDigest`.
   */
  readonly pointer: string;
  /** Human-readable statement of exactly what is hashed, copied into the spec. */
  readonly covers: string;
  /**
   * The spec's error code for a value that does not recompute (e.g. `TASK_OPERATION_RECORD_DIGEST_MISMATCH`).
   * Validators report `DIGEST_MISMATCH` when a rule names none.
   */
  readonly code?: string;
  /**
   * Recompute every value the rule describes. Returns one entry per concrete pointer (so rules
   * over arrays return one per element). `expected` is `null` where the field must be null.
   */
  compute(document: unknown): Array<{ pointer: string; expected: string | null }>;
  /**
   * Optional, for rules over long arrays: exactly the entries of `compute` whose value in the
   * document (own properties only, `undefined` when absent) differs from `expected`, each with that
   * value as `actual`. Validators call it instead of `compute` to skip building one entry per
   * element that agrees; a test holds the two to the same answer.
   */
  mismatches?(document: unknown): Array<{ pointer: string; expected: string | null; actual: unknown }>;
}
