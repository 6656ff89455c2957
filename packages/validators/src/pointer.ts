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

/** The value at `pointer`, or `found: false` when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): { found: boolean; value: unknown } {
  if (pointer === '') return { found: true, value: doc };
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= node.length)
        return { found: false, value: undefined };
      node = node[Number(token)];
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
