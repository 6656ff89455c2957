// @module-tag unit
// compareTimestamps: contract timestamps (RFC 3339 UTC, zero to nine fractional digits) ordered by
// the instant they name, past the milliseconds Date.parse keeps.
import { describe, expect, it } from 'vitest';
import { compareTimestamps } from '../../src/task-continuity/index.js';

const both = (a: string, b: string) => [compareTimestamps(a, b), compareTimestamps(b, a)];

describe('compareTimestamps', () => {
  it('is 0 for one instant however many fractional digits name it', () => {
    expect(both('2026-11-30T06:00:00Z', '2026-11-30T06:00:00.000Z')).toEqual([0, 0]);
    expect(both('2026-11-30T06:00:00Z', '2026-11-30T06:00:00.000000000Z')).toEqual([0, 0]);
    expect(both('2026-11-30T06:00:00.5Z', '2026-11-30T06:00:00.500Z')).toEqual([0, 0]);
    expect(both('2026-11-30T06:00:00.25Z', '2026-11-30T06:00:00.250000Z')).toEqual([0, 0]);
    expect(compareTimestamps('2026-11-30T06:00:00Z', '2026-11-30T06:00:00Z')).toBe(0);
  });

  it('orders by the seconds, then by the fraction down to the nanosecond', () => {
    expect(both('2026-11-30T06:00:00Z', '2026-11-30T06:00:01Z')).toEqual([-1, 1]);
    expect(both('2026-11-30T06:00:00.999Z', '2026-11-30T06:00:01Z')).toEqual([-1, 1]);
    expect(both('2026-11-30T06:00:00Z', '2026-11-30T06:00:00.001Z')).toEqual([-1, 1]);
    expect(both('2026-11-30T06:00:00.4Z', '2026-11-30T06:00:00.5Z')).toEqual([-1, 1]);
    // Past the milliseconds: Date.parse sees one instant, the order does not.
    expect(both('2026-11-30T06:00:00.000000001Z', '2026-11-30T06:00:00.000000002Z')).toEqual([-1, 1]);
    expect(both('2026-11-30T06:00:00.0000001Z', '2026-11-30T06:00:00.000000099Z')).toEqual([1, -1]);
  });
});
