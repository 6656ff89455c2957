// How deeply JSON text nests, measured on the text before anything parses it: JSON.parse copes
// with any depth, but every recursive consumer after it (JSON.stringify, deep equality, the
// canonicalizer, a schema validator) overflows the stack somewhere past a few thousand levels.

/**
 * Deepest nesting of arrays and objects in JSON text, scanning strings correctly; stops and
 * returns as soon as it exceeds `limit`. Linear in the text, no recursion.
 *
 * @example
 * nestingDepth('{"a":[1,[2]]}', 512) === 3;
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}
