// The in-process adapter (docs/protocol.md#an-in-process-adapter): an implementation in the
// harness's own process, seen through the same interface as a subprocess.

/**
 * An implementation as a request handler. What it throws is answered through `toJsonRpcError`,
 * as a stdio server answers it: a spec refusal is thrown as `Refusal`, malformed params as
 * `InvalidParams`, an unknown method as `MethodNotFound`; anything else is an internal error
 * (-32603).
 */
export interface InProcessAdapter {
  /** Answer one request: the method's result, or throw. */
  handle(method: string, params: unknown): Promise<unknown>;
  /** Called by a restart: drop in-memory state, reopen durable state. */
  reset?(): Promise<void>;
  /** Release everything the adapter holds. */
  close?(): Promise<void>;
}
