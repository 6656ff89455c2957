// A refusal has one wire form: JSON-RPC -32000 whose `data` carries the spec's code.
import { describe, expect, it } from 'vitest';
import { isSpecRefusal, ProtocolRefusal, refusalError, rpcFailureMessage, SPEC_ERROR } from '../src/index.js';

describe('refusal', () => {
  it('becomes -32000 with the code in data, beside its detail', () => {
    const r = new ProtocolRefusal('LIFECYCLE_STATE_FENCE_MISMATCH', 'stale fence', {
      currentFence: { stateSequence: 3, writerGeneration: 1 },
    });
    expect(refusalError(r)).toEqual({
      code: SPEC_ERROR,
      message: 'stale fence',
      data: {
        currentFence: { stateSequence: 3, writerGeneration: 1 },
        code: 'LIFECYCLE_STATE_FENCE_MISMATCH',
      },
    });
    expect(isSpecRefusal(refusalError(r))).toBe(true);
  });

  it('keeps its own code over a `code` in the detail', () => {
    const r = new ProtocolRefusal('TURN_STATE_INVALID', 'bad', { code: 'OTHER' });
    expect(refusalError(r).data.code).toBe('TURN_STATE_INVALID');
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
