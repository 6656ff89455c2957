// @module-tag unit
// The diff behind every failed comparison: each reported pointer names a place where the two
// values really differ, equal values have none, and long values keep the part that differs.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { elideAround, jsonDifferences, partialMismatch, pointerGet, VALUE_CHARS } from '../src/index.ts';

describe('jsonDifferences', () => {
  it('lists every differing leaf by pointer, with both values as JSON text', () => {
    expect(jsonDifferences({ a: 1, b: [1, 2], c: 'x' }, { a: 2, b: [1], c: 'x', d: null }, 'equal')).toEqual({
      total: 3,
      listed: [
        { pointer: '/a', expected: '1', actual: '2' },
        { pointer: '/b/1', expected: '2' },
        { pointer: '/d', actual: 'null' },
      ],
    });
  });

  it('contains: members only the actual value has are no difference; elements are', () => {
    expect(jsonDifferences({ a: { b: 1 } }, { a: { b: 1, c: 2 }, z: 0 }, 'contains').total).toBe(0);
    expect(jsonDifferences({ a: [1] }, { a: [1, 2] }, 'contains').listed).toEqual([
      { pointer: '/a/1', actual: '2' },
    ]);
    expect(jsonDifferences({ a: { b: 1 } }, { a: [1] }, 'contains').listed).toEqual([
      { pointer: '/a', expected: '{"b":1}', actual: '[1]' },
    ]);
  });

  it('escapes ~ and / in member names (RFC 6901)', () => {
    expect(jsonDifferences({ 'a/b~c': 1 }, { 'a/b~c': 2 }, 'equal').listed[0]!.pointer).toBe('/a~1b~0c');
  });

  it('lists at most the limit and counts the rest', () => {
    const e = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const a = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, -i - 1]));
    const d = jsonDifferences(e, a, 'equal');
    expect(d.total).toBe(30);
    expect(d.listed).toHaveLength(20);
    expect(d.listed.at(-1)!.pointer).toBe('/k19');
  });

  it('a long value is elided in the middle and keeps where it differs', () => {
    const long = 'x'.repeat(5000);
    const d = jsonDifferences(`${long}open${long}`, `${long}done${long}`, 'equal').listed[0]!;
    expect(d.expected).toContain('xopenx');
    expect(d.actual).toContain('xdonex');
    expect(d.expected!.length).toBeLessThanOrEqual(VALUE_CHARS);
    expect(d.expected!.startsWith('"xxx')).toBe(true);
    expect(d.expected!.endsWith('…')).toBe(true);
  });
});

describe('elideAround', () => {
  it('keeps short text whole and never splits a surrogate pair', () => {
    expect(elideAround('abc', 'abd')).toBe('abc');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 300, maxLength: 800 }), fc.nat(900), (s, at) => {
        const other = `${s.slice(0, at)}#`;
        const out = elideAround(s, other, 120);
        expect(out.length).toBeLessThanOrEqual(122);
        expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      }),
    );
  });
});

const json = fc.jsonValue({ maxDepth: 4 });
/** Pairs that share most of their structure, so that differences are deep as well as shallow. */
const pair = fc.oneof(
  fc.tuple(json, json),
  json.chain((v) => fc.tuple(fc.constant(v), fc.constant(structuredClone(v)))),
  json.chain((v) =>
    fc.tuple(
      fc.constant(v),
      json.map((w) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? { ...v, k: w } : [v, w])),
    ),
  ),
);

describe('jsonDifferences, for random JSON pairs', () => {
  it('equal: none exactly when deep-equal; every pointer resolves to values that differ', () => {
    fc.assert(
      fc.property(pair, ([e, a]) => {
        const d = jsonDifferences(e, a, 'equal', 1000);
        expect(d.total === 0).toBe(isDeepStrictEqual(e, a));
        expect(d.listed).toHaveLength(d.total);
        for (const x of d.listed) {
          const ev = pointerGet(e, x.pointer);
          const av = pointerGet(a, x.pointer);
          expect(isDeepStrictEqual(ev, av)).toBe(false);
          expect(x.expected === undefined).toBe(ev === undefined);
          expect(x.actual === undefined).toBe(av === undefined);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('contains: none exactly when the match expectation holds', () => {
    fc.assert(
      fc.property(pair, ([e, a]) => {
        const d = jsonDifferences(e, a, 'contains', 1000);
        expect(d.total === 0).toBe(partialMismatch(e, a) === null);
        for (const x of d.listed)
          expect(isDeepStrictEqual(pointerGet(e, x.pointer), pointerGet(a, x.pointer))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('a document compared with itself has none', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(jsonDifferences(v, structuredClone(v), 'equal').total).toBe(0);
        expect(jsonDifferences(v, v, 'contains').total).toBe(0);
      }),
    );
  });
});
