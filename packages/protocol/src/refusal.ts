// A spec refusal (docs/protocol.md#framing-and-errors): the value an implementation throws or
// returns, the JSON-RPC error it becomes on the wire, and the one message a failed request gets.
import { SPEC_ERROR } from './error-codes.js';
import type { ProtocolErrorData } from './messages/error-data.js';

/** A JSON-RPC 2.0 error object. */
export interface JsonRpcError {
  /** The JSON-RPC code: -32000 for a spec refusal, -32601, -32602, ... */
  readonly code: number;
  /** What went wrong, for people. */
  readonly message: string;
  /** For a spec refusal, the spec's code and detail. */
  readonly data?: unknown;
}

/** A spec refusal as a JSON-RPC error: code -32000 with `data.code`. */
export interface SpecRefusalError extends JsonRpcError {
  readonly code: typeof SPEC_ERROR;
  readonly data: ProtocolErrorData;
}

/** A refusal defined by the spec (JSON-RPC error -32000 with `data.code`), thrown by a handler. */
export class ProtocolRefusal extends Error {
  constructor(
    /** The spec's code. */
    readonly code: string,
    message: string,
    /** Detail besides the code (`currentFence`, `state`, `step`, ...). */
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ProtocolRefusal';
  }
}

/** The JSON-RPC error a refusal is on the wire: its `data` is the detail with the spec's code. */
export function refusalError(refusal: ProtocolRefusal): SpecRefusalError {
  return { code: SPEC_ERROR, message: refusal.message, data: { ...refusal.data, code: refusal.code } };
}

/** Whether a JSON-RPC error is a spec refusal (-32000 whose `data.code` is a string). */
export function isSpecRefusal(error: unknown): error is SpecRefusalError {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; data?: unknown };
  const data = e.data as { code?: unknown } | null | undefined;
  return e.code === SPEC_ERROR && !!data && typeof data === 'object' && typeof data.code === 'string';
}

/** The message of a request that was answered with a JSON-RPC error: `<method> failed: <message>`. */
export function rpcFailureMessage(method: string, error: { readonly message?: unknown } | undefined): string {
  return `${method} failed: ${String(error?.message ?? 'error')}`;
}
