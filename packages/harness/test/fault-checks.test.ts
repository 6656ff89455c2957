// @module-tag unit
// A fault scenario's failed check is reported as a golden case's is: by pointer, with the expected
// and the actual value (issue 21).
import { describe, expect, it } from 'vitest';
import { check, checkEqual, checkPointer, FaultCheckFailure } from '../src/faults/check.ts';
import { expectRefused, expectWritten } from '../src/faults/store-client.ts';

const thrown = (f: () => void): FaultCheckFailure => {
  try {
    f();
  } catch (e) {
    if (e instanceof FaultCheckFailure) return e;
    throw e;
  }
  throw new Error('no FaultCheckFailure');
};

describe('fault checks as differences by pointer', () => {
  it('names a check by its words', () => {
    expect(checkPointer('fake tool calls')).toBe('/fake-tool-calls');
    expect(checkPointer('durable entries (acquire + one per round)')).toBe(
      '/durable-entries-acquire-one-per-round',
    );
    expect(checkPointer('')).toBe('/check');
  });

  it('checkEqual: the two values at the check pointer, member by member for objects', () => {
    const e = thrown(() => checkEqual(2, 1, 'fake tool calls'));
    expect(e.message).toBe('fake tool calls: expected 1, got 2');
    expect(e.differences).toEqual([
      { pointer: '/fake-tool-calls', expected: '1', actual: '2', kind: 'behaviour' },
    ]);
    const deep = thrown(() => checkEqual({ a: 1, b: 2 } as unknown, { a: 1, b: 3 } as unknown, 'fence'));
    expect(deep.differences).toEqual([
      { pointer: '/fence/b', expected: '3', actual: '2', kind: 'behaviour' },
    ]);
  });

  it('check: the words before the first colon, expected true', () => {
    const e = thrown(() => check(false, 'replay writes nothing: 2 entries were added'));
    expect(e.differences).toEqual([
      { pointer: '/replay-writes-nothing', expected: 'true', actual: 'false', kind: 'behaviour' },
    ]);
  });

  it('a store write expected and refused, or refused with another code, says which by pointer', () => {
    const refused = { ok: false, code: 'LIFECYCLE_STATE_FENCE_MISMATCH' } as never;
    expect(thrown(() => expectWritten(refused, 'commit 3')).differences).toEqual([
      { pointer: '/commit-3-status', expected: '"committed"', kind: 'behaviour' },
      { pointer: '/commit-3-refusal', actual: '"LIFECYCLE_STATE_FENCE_MISMATCH"', kind: 'behaviour' },
    ]);
    expect(
      thrown(() => expectRefused(refused, 'stale commit', 'TASK_OPERATION_CAS_MISMATCH')).differences,
    ).toEqual([
      {
        pointer: '/stale-commit-refusal',
        expected: '"TASK_OPERATION_CAS_MISMATCH"',
        actual: '"LIFECYCLE_STATE_FENCE_MISMATCH"',
        kind: 'behaviour',
      },
    ]);
  });
});
