// Runtime helpers that ajv's standalone code would otherwise `require` from ajv itself. The
// generator rewrites those requires to imports from here, so the published package has no
// runtime dependency on ajv and no CommonJS in its module graph.

/**
 * Length of a string in Unicode code points, as JSON Schema's minLength/maxLength count it
 * (ajv's `ucs2length`).
 */
export function ucs2length(s: string): number {
  let length = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    length++;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return length;
}

/** Deep equality of JSON values, as JSON Schema's const, enum and uniqueItems compare them. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN is not JSON, but keep ajv's (fast-deep-equal's) answer for it.
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** The runtime helpers by the name ajv gives them under `ajv/dist/runtime/`. */
export const RUNTIME_HELPERS = { ucs2length, equal } as const;
