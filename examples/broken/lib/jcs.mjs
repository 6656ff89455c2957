// A canonicalizer with one knob per rule of RFC 8785 that a broken implementation gets wrong:
// the digest mutants answer `digest` with it instead of the reference's. With the defaults it is
// RFC 8785 for the values JSON.parse produces (ECMAScript number form, UTF-16 key order).
import { createHash } from 'node:crypto';

const utf16 = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * @param {unknown} value
 * @param {{ compareKeys?: (a: string, b: string) => number, number?: (n: number) => string }} knobs
 * @returns {string}
 */
export function canonicalize(value, knobs = {}) {
  const compare = knobs.compareKeys ?? utf16;
  const number = knobs.number ?? ((n) => JSON.stringify(n));
  const walk = (v) => {
    if (typeof v === 'number') return number(v);
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(walk).join(',')}]`;
    const keys = Object.keys(v).sort(compare);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${walk(v[k])}`).join(',')}}`;
  };
  return walk(value);
}

/** The `digest` result of `canonical`. */
export const digestResult = (canonical) => ({
  canonical,
  sha256: createHash('sha256').update(canonical, 'utf8').digest('hex'),
});
