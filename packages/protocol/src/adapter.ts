// The in-process adapter (docs/protocol.md#an-in-process-adapter): an implementation in the
// harness's own process, seen through the same interface as a subprocess.

/**
 * An implementation as a request handler. A refusal defined by the spec is thrown as
 * `ProtocolRefusal`; anything else thrown is an implementation error.
 */
export interface InProcessAdapter {
  /** Answer one request: the method's result, or throw. */
  handle(method: string, params: unknown): Promise<unknown>;
  /** Called by a restart: drop in-memory state, reopen durable state. */
  reset?(): Promise<void>;
  /** Release everything the adapter holds. */
  close?(): Promise<void>;
}
