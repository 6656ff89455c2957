// JSON Pointer (RFC 6901) lookups over untrusted values: own properties only, so `__proto__`,
// `constructor` and other inherited names never resolve to something the document did not contain.

/** Unescape one reference token (`~1` -> `/`, `~0` -> `~`). */
function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Escape a property name for use as a JSON Pointer token. */
export function escapeToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The array index a token spells (`0` or digits without a leading zero), or -1. */
function arrayIndex(token: string): number {
  const n = token.length;
  if (n === 0 || n > 15 || (n > 1 && token.charCodeAt(0) === 48)) return -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

/** The value at `pointer`, or `found: false` when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): { found: boolean; value: unknown } {
  if (pointer === '') return { found: true, value: doc };
  let node: unknown = doc;
  // Walk the tokens with indexOf instead of split: digest checks resolve one pointer per event.
  let start = 1;
  while (start <= pointer.length) {
    let end = pointer.indexOf('/', start);
    if (end < 0) end = pointer.length;
    const raw = pointer.slice(start, end);
    start = end + 1;
    const token = raw.includes('~') ? unescapeToken(raw) : raw;
    if (Array.isArray(node)) {
      const index = arrayIndex(token);
      if (index < 0 || index >= node.length) return { found: false, value: undefined };
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: node };
}

/** A short, safe rendering of any value for a message (never throws, at most ~80 characters). */
export function describeValue(value: unknown): string {
  try {
    if (value === undefined) return 'absent';
    if (typeof value === 'string') {
      const s = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
      return s;
    }
    if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
    if (typeof value === 'bigint') return `${value.toString()}n`;
    if (Array.isArray(value)) return `an array of ${value.length} items`;
    if (typeof value === 'object') return 'an object';
    return `a ${typeof value}`;
  } catch {
    return 'an unprintable value';
  }
}
