// @module-tag unit
// Step 2 of commitOperation (docs/spec/task-continuity-write-gate.md#operation-events): one event
// of the operation edge table with well-formed members, and `state` a JSON object when present.
// Each malformed member is refused with TASK_OPERATION_TRANSITION_INVALID before the envelope is
// read (no currentFence), and the message names the member; the value next to each limit passes.
// Also TaskOperationRecordV1 invariant 3 on the targets of a prepare (TASK_OPERATION_TARGETS_INVALID).
import { describe, expect, it } from 'vitest';
import { exactTargetsValid } from '../../src/task-continuity/index.js';
import { commit, decide, first, on, prepare, sha, unresolved } from './operation-commit-helpers.js';

/** The refusal of a malformed event: before the read, so without the fence. */
const malformed = (what: string) => ({
  ok: false,
  code: 'TASK_OPERATION_TRANSITION_INVALID',
  message: expect.stringContaining(`malformed (${what})`),
});

const prepared = () => commit(first(), prepare('op-1'));
const dispatched = () => {
  const p = prepared();
  return commit(p, on(p, 'dispatch'));
};

describe('step 2: the event is one of the operation edge table', () => {
  it.each([
    ['null', null],
    ['an array', [prepare('op-1')]],
    ['an event that is not a string', { ...prepare('op-1'), event: 7 }],
    ['an event name in an array (a key that coerces to a row)', { ...prepare('op-1'), event: ['prepare'] }],
    ['an event outside the table', { ...prepare('op-1'), event: 'retry' }],
    ['an inherited member name', { ...prepare('op-1'), event: 'toString' }],
  ])('refuses %s as an unknown event', (_, event) => {
    expect(decide(first(), event)).toEqual(malformed('unknown event'));
  });

  it('refuses a dispatch-shaped event under an unknown name on a prepared record', () => {
    const p = prepared();
    expect(decide(p, on(p, 'retry'))).toEqual(malformed('unknown event'));
    expect(decide(p, { ...on(p, 'dispatch'), event: ['dispatch'] })).toEqual(malformed('unknown event'));
  });
});

describe('step 2: the members every event carries', () => {
  it.each([
    ['a number', 12],
    ['a string outside the pattern', 'op 1'],
    ['a string of 129 characters', `o${'p'.repeat(128)}`],
  ])('refuses operationId as %s', (_, operationId) => {
    expect(decide(first(), prepare('op-1', { operationId }))).toEqual(malformed('operationId'));
  });

  it.each([
    ['a number (whose text would match the pattern)', 5],
    ['an array of one valid key', ['key-1']],
    ['a string outside the pattern', 'key 1'],
    ['a string starting with a separator', '-key'],
  ])('refuses idempotencyKey as %s', (_, idempotencyKey) => {
    expect(decide(first(), prepare('op-1', { idempotencyKey }))).toEqual(malformed('idempotencyKey'));
  });

  it('accepts an idempotencyKey and an operationId of 128 characters', () => {
    const long = `k${'e'.repeat(127)}`;
    const e = commit(first(), prepare(long, { idempotencyKey: long }));
    expect(unresolved(e)).toMatchObject({ operationId: long, idempotencyKey: long });
  });

  it.each([
    ['absent', undefined],
    ['upper-case hex', 'A'.repeat(64)],
    ['63 hex digits', 'a'.repeat(63)],
  ])('refuses beforeDigest %s', (_, beforeDigest) => {
    expect(decide(first(), prepare('op-1', { beforeDigest }))).toEqual(malformed('beforeDigest'));
  });
});

describe('step 2: prepare', () => {
  it.each([
    ['absent', undefined],
    ['a kind in an array (whose text would match the pattern)', ['update']],
    ['not kebab-case', 'Update'],
    ['with a trailing hyphen', 'update-'],
    ['65 characters', 'a'.repeat(65)],
  ])('refuses kind %s', (_, kind) => {
    expect(decide(first(), prepare('op-1', { kind }))).toEqual(malformed('kind'));
  });

  it('accepts a kind of exactly 64 characters', () => {
    const kind = `${'a'.repeat(31)}-${'b'.repeat(32)}`;
    expect(kind).toHaveLength(64);
    expect(unresolved(commit(first(), prepare('op-1', { kind }))).kind).toBe(kind);
  });

  it('refuses a member outside the prepare row, naming it', () => {
    expect(decide(first(), prepare('op-1', { writerGeneration: 1 }))).toEqual({
      ok: false,
      code: 'TASK_OPERATION_TRANSITION_INVALID',
      message: expect.stringContaining('members outside its table: writerGeneration'),
    });
  });
});

describe('step 2: the binding of the other events', () => {
  it.each([
    ['0', 0],
    ['a fraction', 1.5],
    ['a string', '1'],
  ])('refuses writerGeneration %s', (_, writerGeneration) => {
    const p = prepared();
    expect(decide(p, on(p, 'dispatch', { writerGeneration }))).toEqual(malformed('writerGeneration'));
  });

  it.each([
    ['absent', undefined],
    ['not hex', 'x'.repeat(64)],
  ])('refuses targetSetDigest %s', (_, targetSetDigest) => {
    const p = prepared();
    expect(decide(p, on(p, 'dispatch', { targetSetDigest }))).toEqual(malformed('targetSetDigest'));
  });

  it('refuses an observe without a 64-hex resultDigest, and commits one with it', () => {
    const d = dispatched();
    expect(decide(d, on(d, 'observe'))).toEqual(malformed('resultDigest'));
    expect(decide(d, on(d, 'observe', { resultDigest: 'R'.repeat(64) }))).toEqual(malformed('resultDigest'));
    expect(unresolved(commit(d, on(d, 'observe', { resultDigest: sha('r') }))).resultDigest).toBe(sha('r'));
  });
});

describe('step 2: state, when present, is a JSON object', () => {
  it.each([
    ['an array', [1]],
    ['a string', 'stage'],
    ['null', null],
  ])('refuses state as %s before the read, without the fence', (_, state) => {
    expect(decide(first(), prepare('op-1'), { state })).toEqual({
      ok: false,
      code: 'LIFECYCLE_STATE_SHAPE_INVALID',
      message: expect.stringContaining('JSON object'),
    });
  });

  it('refuses a state that is not plain JSON data after the guards, with the fence read', () => {
    const e = first();
    expect(decide(e, prepare('op-1'), { state: { at: Number.NaN } })).toEqual({
      ok: false,
      code: 'LIFECYCLE_STATE_SHAPE_INVALID',
      message: expect.stringContaining('JSON'),
      currentFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: 1 },
    });
  });

  it('commits the state sent with an event, and keeps the current state without one', () => {
    const e = first();
    const withState = commit(e, prepare('op-1'));
    expect(withState.state).toEqual(e.state);
    const d = decide(e, prepare('op-1'), { state: { stage: 'design' } });
    expect(d.ok && d.status === 'committed' ? d.envelope.state : d).toEqual({ stage: 'design' });
  });
});

describe('exactTargetsValid (TaskOperationRecordV1 invariant 3 and the limits)', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `t/${String(i).padStart(3, '0')}`);

  it('accepts 1 and 256 sorted targets, and a target of 1024 characters', () => {
    expect(exactTargetsValid(['a'])).toBe(true);
    expect(exactTargetsValid(many(256))).toBe(true);
    expect(exactTargetsValid([`a${'b'.repeat(1023)}`])).toBe(true);
  });

  it.each([
    ['not an array', 'a'],
    ['empty', []],
    ['257 targets', many(257)],
    ['a target that is not a string', [5]],
    ['an empty target', ['']],
    ['a target of 1025 characters', [`a${'b'.repeat(1024)}`]],
    ['a target with a backslash', ['docs\\a.md']],
    ['a target with leading white space', [' a']],
    ['a target that is not NFKC-normalised', ['\uFB01le']],
    ['a target with a lone surrogate', ['a\uD800']],
    ['unsorted targets', ['b', 'a']],
    ['duplicate targets', ['a', 'a']],
  ])('refuses %s', (_, targets) => {
    expect(exactTargetsValid(targets)).toBe(false);
  });

  it('refuses invalid targets of a prepare with TASK_OPERATION_TARGETS_INVALID and the fence read', () => {
    expect(decide(first(), prepare('op-1', { exactTargets: ['\uFB01le'] }))).toEqual({
      ok: false,
      code: 'TASK_OPERATION_TARGETS_INVALID',
      message: expect.stringContaining('NFKC'),
      currentFence: { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: 1 },
    });
  });
});
