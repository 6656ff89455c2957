// `digest` (docs/protocol.md#digest-v1).

/** Params of `digest`. */
export interface DigestParams {
  /** A JSON text, parsed by the implementation's own parser. */
  readonly json: string;
}

/** Result of `digest`: the canonical form and its SHA-256; input that is not I-JSON is refused with `DIGEST_INPUT_INVALID`. */
export interface DigestResult {
  /** The RFC 8785 (JCS) form of the value. */
  readonly canonical: string;
  /** Lowercase hex SHA-256 of the UTF-8 bytes of `canonical`. */
  readonly sha256: string;
}
