// The errors a request is answered with (docs/protocol.md#framing-and-errors): one family, thrown
// by an implementation's handler and turned into its JSON-RPC error in one place,
// `toJsonRpcError`, by a stdio server and by the harness's in-process transport alike.
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, SPEC_ERROR } from './error-codes.js';
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
export class Refusal extends Error {
  constructor(
    /** The spec's code. */
    readonly code: string,
    message: string,
    /** Detail besides the code (`currentFence`, `state`, `step`, ...). */
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'Refusal';
  }

  /**
   * The refusal an engine answered (`{ ok: false, code, message, ...detail }`): its detail, with no
   * member left undefined, becomes the refusal's `data`; `prefix` goes before its message.
   *
   * @example
   * throw Refusal.from({ ok: false, code: 'TURN_NOT_STARTED', message: 'no turn has started.' }, 'liveness.lease: ');
   */
  static from(
    refused: { readonly ok?: false; readonly code: string; readonly message: string },
    prefix = '',
  ): Refusal {
    const {
      ok: _ok,
      code,
      message,
      ...detail
    } = refused as Readonly<Record<string, unknown>> & typeof refused;
    const data = Object.fromEntries(Object.entries(detail).filter(([, v]) => v !== undefined));
    return new Refusal(code, `${prefix}${message}`, data);
  }
}

/** Malformed params (JSON-RPC -32602): the caller sent what the method's params do not allow. */
export class InvalidParams extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidParams';
  }
}

/** A method the implementation does not have (JSON-RPC -32601). */
export class MethodNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MethodNotFound';
  }
}

/**
 * The implementation broke its own contract (JSON-RPC -32603): e.g. an engine's decision that
 * fails the contract it must satisfy. Never the caller's fault, so never -32602, and not a crash:
 * the implementation is still running and answers the next request.
 */
export class InternalError extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = 'InternalError';
  }
}

/**
 * The JSON-RPC error a thrown value is answered with: a {@link Refusal} is -32000 whose `data` is
 * its detail with the spec's code, {@link MethodNotFound} -32601, {@link InvalidParams} -32602;
 * {@link InternalError} and anything else thrown (a bug) -32603 `internal error: <message>`.
 *
 * @example
 * toJsonRpcError(new Refusal('TURN_NOT_STARTED', 'no turn'));
 * // { code: -32000, message: 'no turn', data: { code: 'TURN_NOT_STARTED' } }
 */
export function toJsonRpcError(error: Refusal): SpecRefusalError;
export function toJsonRpcError(error: unknown): JsonRpcError;
export function toJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof Refusal)
    return { code: SPEC_ERROR, message: error.message, data: { ...error.data, code: error.code } };
  if (error instanceof MethodNotFound) return { code: METHOD_NOT_FOUND, message: error.message };
  if (error instanceof InvalidParams) return { code: INVALID_PARAMS, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: INTERNAL_ERROR, message: `internal error: ${message}` };
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
