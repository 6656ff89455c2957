/**
 * Scalar building blocks shared by every contract. Each alias carries its JSON Schema
 * constraints as JSDoc tags, which typescript-json-schema copies into every schema that uses it.
 */

/**
 * A SHA-256 digest as 64 lowercase hex characters (RFC 8785 JCS + SHA-256 unless the field says otherwise).
 * @pattern ^[a-f0-9]{64}$
 */
export type Sha256Hex = string;

/**
 * An RFC 3339 timestamp in UTC with a `Z` offset, e.g. `2026-11-30T05:53:08.000Z`.
 * @format date-time
 * @pattern ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$
 */
export type Timestamp = string;

/**
 * A non-empty string.
 * @minLength 1
 */
export type NonEmptyString = string;

/**
 * An integer from 0 to 2^53 - 1.
 * @TJS-type integer
 * @minimum 0
 * @maximum 9007199254740991
 */
export type NonNegativeInteger = number;

/**
 * An integer from 1 to 2^53 - 1.
 * @TJS-type integer
 * @minimum 1
 * @maximum 9007199254740991
 */
export type PositiveInteger = number;

/**
 * A SHA-256 digest (64 lowercase hex characters), or `null` where the field says what null means.
 * @pattern ^[a-f0-9]{64}$
 */
export type NullableSha256Hex = string | null;

/**
 * An RFC 3339 UTC timestamp, or `null` where the field says what null means.
 * @format date-time
 * @pattern ^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$
 */
export type NullableTimestamp = string | null;

/**
 * A non-empty string, or `null`.
 * @minLength 1
 */
export type NullableNonEmptyString = string | null;
