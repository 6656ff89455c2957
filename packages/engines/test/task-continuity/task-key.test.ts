// @module-tag unit
// checkTaskKey: step 1 of the commit algorithm for the key (D-TCW-32), with the patterns of the
// published envelope schema.
import { getSchema } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { checkTaskKey } from '../../src/task-continuity/task-key.js';

const UUID = '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6';
const ROOT = 'a'.repeat(64);

describe('checkTaskKey', () => {
  it('accepts a key whose members match the TaskRecoveryStateV5 patterns', () => {
    expect(checkTaskKey({ projectRootIdentity: ROOT, taskId: UUID })).toEqual({ ok: true });
    const props = getSchema('TaskRecoveryStateV5')?.properties as Record<string, { pattern: string }>;
    expect(new RegExp(props.taskId!.pattern).test(UUID)).toBe(true);
    expect(new RegExp(props.projectRootIdentity!.pattern).test(ROOT)).toBe(true);
  });

  it.each([
    ['a missing taskId', { projectRootIdentity: ROOT }],
    ['an empty projectRootIdentity', { projectRootIdentity: '', taskId: UUID }],
    ['a number as taskId', { projectRootIdentity: ROOT, taskId: 7 }],
    // Arrays whose text matches the patterns: only a string is a key member.
    ['an array as taskId', { projectRootIdentity: ROOT, taskId: [UUID] }],
    ['an array as projectRootIdentity', { projectRootIdentity: [ROOT], taskId: UUID }],
    ['no object at all', null],
    ['an SQL fragment', { projectRootIdentity: ROOT, taskId: "'; DROP TABLE tasks; --" }],
    ['a path traversal', { projectRootIdentity: '../../etc/passwd', taskId: UUID }],
    ['__proto__', { projectRootIdentity: ROOT, taskId: '__proto__' }],
    ['a NUL byte', { projectRootIdentity: ROOT, taskId: `${UUID}\u0000` }],
    ['a lone surrogate', { projectRootIdentity: ROOT, taskId: `${UUID.slice(0, -1)}\ud800` }],
    ['an upper-case UUID', { projectRootIdentity: ROOT, taskId: UUID.toUpperCase() }],
    ['upper-case hex', { projectRootIdentity: ROOT.toUpperCase(), taskId: UUID }],
  ])('refuses %s with LIFECYCLE_TASK_IDENTITY_REQUIRED', (_, key) => {
    expect(checkTaskKey(key)).toMatchObject({ ok: false, code: 'LIFECYCLE_TASK_IDENTITY_REQUIRED' });
  });

  it('refuses a 10 MB id without repeating it in the message', () => {
    const r = checkTaskKey({ projectRootIdentity: ROOT, taskId: `${UUID}${'a'.repeat(10 * 1024 * 1024)}` });
    expect(r).toMatchObject({ ok: false, code: 'LIFECYCLE_TASK_IDENTITY_REQUIRED' });
    expect(r.ok ? '' : r.message.length).toBeLessThan(400);
    expect(r.ok ? '' : r.message).toContain(
      `taskId (${36 + 10 * 1024 * 1024} characters) is not a lowercase UUID`,
    );
  });

  it('names each malformed member, by its length only', () => {
    const r = checkTaskKey({ projectRootIdentity: 'abc', taskId: 'task-1' });
    expect(r.ok ? '' : r.message).toContain(
      'taskId (6 characters) is not a lowercase UUID and projectRootIdentity (3 characters) is not 64 lowercase hex characters',
    );
    const root = checkTaskKey({ projectRootIdentity: 'abc', taskId: UUID });
    expect(root.ok ? '' : root.message).toContain(
      'malformed: projectRootIdentity (3 characters) is not 64 lowercase hex characters;',
    );
  });
});
