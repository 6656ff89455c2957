// @module-tag unit
// One error family, one wire form each: a refusal is JSON-RPC -32000 whose `data` carries the
// spec's code; the caller's errors are -32601 and -32602; the implementation's own is -32603.
import { describe, expect, it } from 'vitest';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  InternalError,
  InvalidParams,
  isSpecRefusal,
  METHOD_NOT_FOUND,
  MethodNotFound,
  Refusal,
  rpcFailureMessage,
  SPEC_ERROR,
  toJsonRpcError,
} from '../src/index.js';

describe('errors', () => {
  it('a refusal becomes -32000 with the code in data, beside its detail', () => {
    const r = new Refusal('LIFECYCLE_STATE_FENCE_MISMATCH', 'stale fence', {
      currentFence: { stateSequence: 3, writerGeneration: 1 },
    });
    expect(toJsonRpcError(r)).toEqual({
      code: SPEC_ERROR,
      message: 'stale fence',
      data: {
        currentFence: { stateSequence: 3, writerGeneration: 1 },
        code: 'LIFECYCLE_STATE_FENCE_MISMATCH',
      },
    });
    expect(isSpecRefusal(toJsonRpcError(r))).toBe(true);
  });

  it('a refusal keeps its own code over a `code` in the detail', () => {
    const r = new Refusal('TURN_STATE_INVALID', 'bad', { code: 'OTHER' });
    expect(toJsonRpcError(r).data.code).toBe('TURN_STATE_INVALID');
  });

  it("the caller's errors are -32601 and -32602, with their message and no data", () => {
    expect(toJsonRpcError(new MethodNotFound('method x is not implemented'))).toEqual({
      code: METHOD_NOT_FOUND,
      message: 'method x is not implemented',
    });
    expect(toJsonRpcError(new InvalidParams('params.task must be an object'))).toEqual({
      code: INVALID_PARAMS,
      message: 'params.task must be an object',
    });
  });

  it("the implementation's own failure is -32603, whether declared or not", () => {
    expect(toJsonRpcError(new InternalError('the decision breaks its contract'))).toEqual({
      code: INTERNAL_ERROR,
      message: 'internal error: the decision breaks its contract',
    });
    expect(toJsonRpcError(new TypeError('x is undefined'))).toEqual({
      code: INTERNAL_ERROR,
      message: 'internal error: x is undefined',
    });
    expect(toJsonRpcError('thrown text')).toEqual({
      code: INTERNAL_ERROR,
      message: 'internal error: thrown text',
    });
    expect(isSpecRefusal(toJsonRpcError(new InternalError('x')))).toBe(false);
  });

  it('is told apart from other JSON-RPC errors', () => {
    expect(isSpecRefusal({ code: -32601, message: 'no', data: { code: 'X' } })).toBe(false);
    expect(isSpecRefusal({ code: SPEC_ERROR, message: 'no' })).toBe(false);
    expect(isSpecRefusal({ code: SPEC_ERROR, message: 'no', data: { code: 7 } })).toBe(false);
    expect(isSpecRefusal(null)).toBe(false);
  });

  it('gives a failed request one message', () => {
    expect(rpcFailureMessage('store.read', { message: 'refused' })).toBe('store.read failed: refused');
    expect(rpcFailureMessage('hello', undefined)).toBe('hello failed: error');
  });
});
