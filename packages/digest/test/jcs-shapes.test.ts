// @module-tag unit
// canonicalize remembers the sorted order of a few key lists (objects of one shape repeat in
// arrays): objects of a remembered list, of lists that share its first key or its length, in any
// insertion order, with keys that need escaping, and more lists than it remembers, must all give
// the text of sorting every object's keys (its own file: the memory is per module instance).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, DigestError, hasLoneSurrogate } from '../src/index.ts';
import { sortDeep } from './helpers/sort-deep.ts';

const expected = (v: unknown) => JSON.stringify(sortDeep(v));

describe('canonicalize over objects of repeated shapes', () => {
  it('gives the sorted text for lists that share a first key, a length or keys in another order', () => {
    const shapes = [
      ['sourceId', 'bucket', 'kind', 'mandatory'],
      ['sourceId', 'bucket', 'kind', 'authority'],
      ['sourceId', 'kind', 'bucket', 'mandatory'],
      ['sourceId', 'bucket', 'kind'],
      ['sourceId', 'bucket', 'kind', 'mandatory', 'zeta'],
      ['bucket', 'sourceId', 'kind', 'mandatory'],
      ['b', 'a'],
      ['b', 'a\u0000'],
      ['b', '"a"'],
      ['b', 'é', 'a'],
      ['b', 'x'.repeat(65), 'a'],
    ];
    for (let round = 0; round < 3; round++) {
      const items = shapes.map((keys, i) =>
        Object.fromEntries(keys.map((k, j) => [k, `${round}-${i}-${j}`])),
      );
      const doc = { items, again: items.map((o) => ({ ...o })), nested: items.map((o) => ({ o })) };
      expect(canonicalize(doc)).toBe(expected(doc));
      for (const item of items) expect(canonicalize(item)).toBe(expected(item));
    }
  });

  it('never reads a remembered list for another one with its first key and length', () => {
    // a key the object does not have would read as undefined (refused, so the general path would
    // redo it), but an inherited name reads as something: "__proto__" as Object.prototype
    const own = JSON.parse('{"first":1,"second":2,"__proto__":3}');
    expect(canonicalize(own)).toBe('{"__proto__":3,"first":1,"second":2}');
    expect(canonicalize({ first: 1, second: 2, third: 3 })).toBe('{"first":1,"second":2,"third":3}');
    expect(canonicalize([own, { first: 1, second: 2, third: 3 }])).toBe(
      '[{"__proto__":3,"first":1,"second":2},{"first":1,"second":2,"third":3}]',
    );
  });

  it('stays right past the number of lists it remembers', () => {
    for (let n = 0; n < 200; n++) {
      const keys = [`k${n % 70}`, `j${n}`, `a${n % 3}`];
      const o = Object.fromEntries(keys.map((k, i) => [k, i]));
      expect(canonicalize([o, o, { ...o }])).toBe(expected([o, o, o]));
    }
  });

  it('agrees with sorting on arrays of random objects built from a few key lists', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 3 }), { minLength: 2, maxLength: 6 }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        (lists, picks) => {
          const items = picks.map((p, i) => Object.fromEntries(lists[p % lists.length]!.map((k) => [k, i])));
          if (lists.some((keys) => keys.some(hasLoneSurrogate)))
            expect(() => canonicalize(items)).toThrow(DigestError);
          else expect(canonicalize(items)).toBe(expected(items));
        },
      ),
      { numRuns: 300 },
    );
  });
});
