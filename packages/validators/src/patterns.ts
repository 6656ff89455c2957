// Hand-written matchers for the schema patterns that validation meets most often (every digest,
// every derived id, every timestamp, every key). A regular expression call costs 25-90 ns even for
// these simple shapes; a charCodeAt walk costs a third to a half of that. The generator swaps a
// pattern for its matcher only when the pattern's source is listed here, and only after checking
// that matcher and RegExp agree on a corpus of matching, near-miss and random strings
// (scripts/generate.ts), so a matcher can never silently accept what the schema refuses.

/** A pattern check as ajv's standalone code calls it: `pattern.test(value)`. */
export interface PatternMatcher {
  readonly test: (value: string) => boolean;
}

const isLowerHex = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** `^<prefix>[a-f0-9]{<count>}$`: the shape of every digest and derived id. */
function prefixedHex(prefix: string, count: number): PatternMatcher {
  const n = prefix.length + count;
  return {
    test(s: string): boolean {
      if (s.length !== n || !s.startsWith(prefix)) return false;
      for (let i = prefix.length; i < n; i++) if (!isLowerHex(s.charCodeAt(i))) return false;
      return true;
    },
  };
}

/** `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$` (ASCII digits, as `\d` is under the u flag). */
function isTimestampShape(s: string): boolean {
  const n = s.length;
  if (n < 20 || n === 21 || n > 30 || s.charCodeAt(n - 1) !== 90) return false;
  for (let i = 0; i < 19; i++) {
    const c = s.charCodeAt(i);
    const ok =
      i === 4 || i === 7 ? c === 45 : i === 10 ? c === 84 : i === 13 || i === 16 ? c === 58 : isDigit(c);
    if (!ok) return false;
  }
  if (n === 20) return true;
  if (s.charCodeAt(19) !== 46) return false;
  for (let i = 20; i < n - 1; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

/** `^[A-Za-z0-9][A-Za-z0-9._:@-]*$`: turn keys and occurrence keys. */
function isKeyShape(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (alnum) continue;
    if (i === 0 || !(c === 46 || c === 95 || c === 58 || c === 64 || c === 45)) return false;
  }
  return true;
}

const PREFIXED_HEX = /^\^([a-z:-]*)\[a-f0-9\]\{(\d+)\}\$$/;

/**
 * The matcher for a pattern source, or `undefined` when the pattern keeps its RegExp.
 *
 * @example
 * patternMatcher('^[a-f0-9]{64}$')?.test('0'.repeat(64)) === true;
 */
export function patternMatcher(source: string): PatternMatcher | undefined {
  const hex = PREFIXED_HEX.exec(source);
  if (hex) return prefixedHex(hex[1]!, Number(hex[2]));
  if (source === '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$')
    return { test: isTimestampShape };
  if (source === '^[A-Za-z0-9][A-Za-z0-9._:@-]*$') return { test: isKeyShape };
  return undefined;
}
