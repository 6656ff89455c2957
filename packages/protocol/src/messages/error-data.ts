// The `data` of a JSON-RPC error that carries a spec refusal (docs/protocol.md#framing-and-errors).

/**
 * A JSON-RPC -32000 error's `data`: the spec's code for a refused operation (e.g.
 * `LIFECYCLE_STATE_FENCE_MISMATCH`) and any detail (e.g. the current fence).
 */
export interface ProtocolErrorData {
  /** The spec's code. */
  readonly code: string;
  readonly [key: string]: unknown;
}

/** Error `data` of `PROTOCOL_VERSION_UNSUPPORTED`, `DIGEST_INPUT_INVALID` and the other refusals without detail of their own. */
export interface CodeOnlyErrorData {
  /** The spec's code. */
  readonly code: string;
  /** Where in the input the refusal applies, when known (e.g. a lone surrogate's JSON Pointer). */
  readonly path?: string;
}
