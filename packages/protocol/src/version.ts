// The protocol version (docs/protocol.md).

/** The protocol version this package describes, and the one the harness speaks. */
export const PROTOCOL_VERSION = 1;
