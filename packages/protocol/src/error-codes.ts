// The JSON-RPC error codes of protocol v1 (docs/protocol.md#framing-and-errors).

/** A refusal defined by the spec: the spec's code is in `data.code`. */
export const SPEC_ERROR = -32000;
/** A line that is not JSON. */
export const PARSE_ERROR = -32700;
/** A JSON value that is not a JSON-RPC request. */
export const INVALID_REQUEST = -32600;
/** A method the implementation does not implement. */
export const METHOD_NOT_FOUND = -32601;
/** Malformed params. */
export const INVALID_PARAMS = -32602;
/** Anything else that went wrong inside the implementation. */
export const INTERNAL_ERROR = -32603;
