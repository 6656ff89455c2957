// @module-tag unit
// The write context of an envelope read back and the owner ref of a lease (public API of the
// engine): readAt is clamped only when the clock is behind the envelope, and a task without a
// lease has the absent ref.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { buildWriteContext, ownerRefOf, ownerRefsMatch } from '../../src/task-continuity/index.js';

const FIXTURE = fileURLToPath(
  new URL('../../../../conformance/fixtures/TaskRecoveryStateV5/valid/first-acquire.json', import.meta.url),
);
const stored = (): TaskRecoveryStateV5 => JSON.parse(readFileSync(FIXTURE, 'utf8')) as TaskRecoveryStateV5;

describe('buildWriteContext: readAt', () => {
  it('keeps a readAt at or after committedAt and clamps one before it', () => {
    const e = stored();
    expect(buildWriteContext(e, 'runtime-1', '2026-11-30T05:41:13.000Z').readAt).toBe(
      '2026-11-30T05:41:13.000Z',
    );
    expect(buildWriteContext(e, 'runtime-1', '2026-11-30T05:41:11.999Z').readAt).toBe(e.committedAt);
    // The same instant as committedAt, written otherwise: the reading is kept as it is.
    expect(buildWriteContext(e, 'runtime-1', '2026-11-30T05:41:12Z').readAt).toBe('2026-11-30T05:41:12Z');
  });
});

describe('ownerRefOf', () => {
  it('is the absent ref without a lease, else the four members of the lease', () => {
    expect(ownerRefOf(null)).toEqual({ mode: 'absent' });
    expect(ownerRefOf(undefined)).toEqual({ mode: 'absent' });
    const o = stored().owner;
    const ref = ownerRefOf(o);
    expect(ref).toEqual({
      ownerGeneration: o.ownerGeneration,
      ownerNonce: o.ownerNonce,
      leaseRevision: o.leaseRevision,
      leaseDigest: o.leaseDigest,
    });
    expect(ownerRefsMatch(ownerRefOf(null), { mode: 'absent' })).toBe(true);
    expect(ownerRefsMatch(ref, ownerRefOf(o))).toBe(true);
  });
});
