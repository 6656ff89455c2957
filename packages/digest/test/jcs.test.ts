// @module-tag unit
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  DigestError,
  derivedId,
  digestOf,
  hasLoneSurrogate,
  JsonTextError,
  parseJsonText,
  sha256Hex,
} from '../src/index.ts';
import { sortDeep } from './helpers/sort-deep.ts';

interface Vector {
  id: string;
  input: string;
  canonical?: string;
  sha256?: string;
  error?: string;
}
const vectors = (
  JSON.parse(
    readFileSync(fileURLToPath(new URL('../../../conformance/vectors/jcs.json', import.meta.url)), 'utf8'),
  ) as {
    vectors: Vector[];
  }
).vectors;

describe('conformance/vectors/jcs.json', () => {
  it('has unique ids and covers the RFC examples', () => {
    const ids = vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('jcs-rfc-3.2.2-primitives');
    expect(ids).toContain('jcs-rfc-3.2.3-sorting');
    expect(ids.filter((id) => id.startsWith('jcs-rfc-appendix-b-')).length).toBe(24);
  });

  // The digest method's input is a JSON text (docs/protocol.md#digest-v1): a text that is not
  // JSON is refused like any other input that is not I-JSON, so the vectors are read as text.
  const refusalOf = (input: string): string | undefined => {
    // Read as the spec reads it: a repeated member name is refused before canonicalizing.
    let parsed: unknown;
    try {
      parsed = parseJsonText(input);
    } catch (e) {
      if (e instanceof JsonTextError) return 'DIGEST_INPUT_INVALID';
      throw e;
    }
    try {
      canonicalize(parsed);
    } catch (e) {
      if (e instanceof DigestError) return e.code;
      throw e;
    }
    return undefined;
  };

  for (const v of vectors) {
    it(v.id, () => {
      if (v.error) {
        expect(refusalOf(v.input)).toBe(v.error);
        return;
      }
      expect(refusalOf(v.input)).toBeUndefined();
      const parsed = parseJsonText(v.input);
      expect(canonicalize(parsed)).toBe(v.canonical);
      expect(sha256Hex(v.canonical!)).toBe(v.sha256);
      expect(digestOf(parsed)).toBe(v.sha256);
    });
  }
});

describe('canonicalize', () => {
  it('matches the RFC 8785 section 3.2.2 output byte for byte', () => {
    const input = {
      // biome-ignore lint/correctness/noPrecisionLoss: the RFC's own example input
      numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001],
      string: '\u20ac$\u000F\u000aA\'\u0042\u0022\u005c\\"/',
      literals: [null, true, false],
    };
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it.each([
    ['undefined', undefined, ''],
    ['NaN', { a: Number.NaN }, '/a'],
    ['Infinity', [1, Number.POSITIVE_INFINITY], '/1'],
    ['a bigint', { n: 1n }, '/n'],
    ['a function', { f: () => 1 }, '/f'],
    ['a Date', { d: new Date(0) }, '/d'],
    ['a Map', new Map(), ''],
    ['an undefined property', { a: { b: undefined } }, '/a/b'],
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is being tested
    ['an array hole', [1, , 3], '/1'],
    ['a key with a slash', { 'a/b': Number.NaN }, '/a~1b'],
  ])('refuses %s with DIGEST_INPUT_INVALID and a JSON Pointer', (_label, value, path) => {
    try {
      canonicalize(value);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DigestError);
      expect((e as DigestError).code).toBe('DIGEST_INPUT_INVALID');
      expect((e as DigestError).path).toBe(path);
      expect((e as DigestError).message).toMatch(/plain JSON data/);
    }
  });

  it('refuses cycles but accepts shared (acyclic) references', () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalize(cyclic)).toThrowError(/cycle/);
  });

  it('accepts objects with a null prototype', () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.b = 1;
    o.a = 2;
    expect(canonicalize(o)).toBe('{"a":2,"b":1}');
  });

  it('is a fixed point: parsing the canonical form and canonicalizing again gives the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value);
        expect(canonicalize(JSON.parse(once))).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on property insertion order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalize(reversed)).toBe(canonicalize(dict));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts the keys of objects of any size, in any insertion order, as the default sort does', () => {
    // canonicalize sorts a few keys by insertion and hands larger objects to Array.prototype.sort.
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 70 }),
        fc.infiniteStream(fc.nat()),
        (keys, stream) => {
          const order = keys.map((k) => [k, stream.next().value] as const).sort((a, b) => a[1] - b[1]);
          const value = Object.fromEntries(order.map(([k], i) => [k, i]));
          const sorted = Object.keys(value).sort();
          const expected = `{${sorted.map((k) => `${JSON.stringify(k)}:${value[k]}`).join(',')}}`;
          if (keys.some(hasLoneSurrogate)) expect(() => canonicalize(value)).toThrow(DigestError);
          else expect(canonicalize(value)).toBe(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('agrees with JSON.stringify on key-sorted data without lone surrogates', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        const text = JSON.stringify(sortDeep(value));
        expect(canonicalize(value)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('digestOf and derivedId', () => {
  it('hash the canonical UTF-8 bytes', () => {
    expect(digestOf({ b: 1, a: 'é' })).toBe(sha256Hex('{"a":"é","b":1}'));
    expect(digestOf({ b: 1, a: 'é' })).toMatch(/^[a-f0-9]{64}$/);
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('derive a prefixed id from a digest prefix', () => {
    const id = derivedId('plan-', { planContentId: 'x' }, 24);
    expect(id).toBe(`plan-${digestOf({ planContentId: 'x' }).slice(0, 24)}`);
  });
});

describe('hasLoneSurrogate', () => {
  it('finds an unpaired high or low surrogate, and only those', () => {
    for (const s of ['\ud800', 'a\udc00', '\udc00\ud800', 'x\ud83dy'])
      expect(hasLoneSurrogate(s), s).toBe(true);
    for (const s of ['', 'plain', '\ud83d\ude00', 'é']) expect(hasLoneSurrogate(s), s).toBe(false);
  });

  it('agrees with canonicalize: exactly the strings it refuses', () => {
    for (const s of ['\ud800', 'ok', '\ud83d\ude00', 'a\udfff'])
      expect(hasLoneSurrogate(s)).toBe(
        (() => {
          try {
            canonicalize(s);
            return false;
          } catch (e) {
            return e instanceof DigestError;
          }
        })(),
      );
  });
});
