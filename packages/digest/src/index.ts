import { createHash } from 'node:crypto';
import { canonicalize } from './jcs.js';

export { DigestError, type DigestErrorCode } from './errors.js';
export { canonicalize } from './jcs.js';

/** Pattern of every digest in the spec: SHA-256, lowercase hex. */
export const SHA256_HEX_PATTERN = '^[a-f0-9]{64}$';

/** SHA-256 of a UTF-8 string or of raw bytes, as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The spec's one digest rule: SHA-256 (lowercase hex) of the RFC 8785 canonical UTF-8 bytes.
 *
 * @throws {DigestError} `DIGEST_INPUT_INVALID` when `value` is not plain JSON data.
 * @example
 * digestOf({ a: 1 }) === sha256Hex('{"a":1}');
 */
export function digestOf(value: unknown): string {
  return sha256Hex(canonicalize(value));
}

/**
 * A derived identifier: `prefix` + the first `length` hex characters of `digestOf(value)`.
 *
 * @example
 * derivedId('plan-', { planContentId: 'x' }, 24).length === 5 + 24;
 */
export function derivedId(prefix: string, value: unknown, length = 24): string {
  return prefix + digestOf(value).slice(0, length);
}
