// @module-tag unit
import { describe, expect, it } from 'vitest';
import { isDate, isDateTime, isUuid } from '../src/formats.ts';
import { equal, ucs2length } from '../src/runtime.ts';

describe('date-time (the spec profile of RFC 3339: UTC, Z)', () => {
  it.each([
    '2026-11-30T05:53:08Z',
    '2026-11-30T05:53:08.000Z',
    '2026-11-30T05:53:08.123456789Z',
    '2024-02-29T00:00:00Z',
    '2000-02-29T23:59:59.9Z',
    '2016-12-31T23:59:60Z',
    '0000-01-01T00:00:00Z',
  ])('accepts %s', (s) => expect(isDateTime(s)).toBe(true));

  it.each([
    '2026-02-29T00:00:00Z', // not a leap year
    '1900-02-29T00:00:00Z', // century, not a leap year
    '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-00-01T00:00:00Z',
    '2026-01-00T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2026-01-01T12:00:60Z', // leap second only at 23:59
    '2026-01-01T00:00:00.Z',
    '2026-01-01T00:00:00.1234567890Z',
    '2026-01-01T00:00:00+02:00',
    '2026-01-01t00:00:00z',
    '2026-01-01 00:00:00Z',
    '2026-1-01T00:00:00Z',
    '２０２６-01-01T00:00:00Z',
    '',
  ])('rejects %j', (s) => expect(isDateTime(s)).toBe(false));

  it('agrees with Date on every day of a leap and a common year', () => {
    for (const year of [2023, 2024]) {
      for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
        expect(isDateTime(new Date(t).toISOString())).toBe(true);
      }
    }
  });
});

describe('date and uuid', () => {
  it('checks calendar dates', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2023-02-29')).toBe(false);
    expect(isDate('2024-02-29T00:00:00Z')).toBe(false);
  });
  it('checks hyphenated UUIDs', () => {
    expect(isUuid('0b6d4c9e-2f1a-4e3b-9c8d-7a6f5e4d3c2b')).toBe(true);
    expect(isUuid('0B6D4C9E-2F1A-4E3B-9C8D-7A6F5E4D3C2B')).toBe(true);
    expect(isUuid('0b6d4c9e2f1a4e3b9c8d7a6f5e4d3c2b')).toBe(false);
    expect(isUuid('urn:uuid:0b6d4c9e-2f1a-4e3b-9c8d-7a6f5e4d3c2b')).toBe(false);
    expect(isUuid('0b6d4c9e-2f1a-4e3b-9c8d-7a6f5e4d3c2g')).toBe(false);
  });
});

describe('runtime helpers', () => {
  it('counts code points', () => {
    expect(ucs2length('abc')).toBe(3);
    expect(ucs2length('😀a')).toBe(2);
    expect(ucs2length('\ud800')).toBe(1);
  });
  it('compares JSON values deeply', () => {
    expect(equal({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(equal({ a: 1 }, { b: 1 })).toBe(false);
    expect(equal([1], { 0: 1 })).toBe(false);
    expect(equal({ a: undefined }, { b: undefined })).toBe(false);
  });
});
