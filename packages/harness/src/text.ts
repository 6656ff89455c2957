// Strings that came from an implementation or a report file, made safe to show: every character
// that could move the cursor, recolour or clear a terminal, reorder what is shown (bidi controls),
// hide itself (zero-width characters) or break a line becomes a visible `\uXXXX` escape.

/**
 * C0 controls, DEL, C1 controls, the bidi embedding/override/isolate controls and marks, the
 * zero-width characters, the line and paragraph separators, the byte order mark and the two
 * noncharacters U+FFFE/U+FFFF (not XML characters), and lone surrogates (no character at all).
 */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Like {@link UNPRINTABLE} but keeps tab and line feed, for multi-line text. */
const UNPRINTABLE_IN_LINES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `s` on one line with every control, bidi, invisible or unpaired character shown as a `\uXXXX`
 * escape (line feeds too), so it cannot draw on a terminal or disguise what it says. Everything
 * else, backslashes included, is kept as it is.
 *
 * @example
 * printable('ok\x1b[2K\nCONFORMS'); // 'ok\\u001b[2K\\u000aCONFORMS'
 */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, visible);
}

/**
 * {@link printable}, but tab and line feed are kept: for multi-line text such as an
 * implementation's stderr tail. A carriage return is escaped, so it cannot overwrite a line.
 *
 * @example
 * printableLines('panic\n\x1b[31mred\x1b[0m'); // 'panic\n\\u001b[31mred\\u001b[0m'
 */
export function printableLines(s: string): string {
  return s.replace(UNPRINTABLE_IN_LINES, visible);
}

/** `s` cut to at most `max` characters (an ellipsis marks the cut), never inside a surrogate pair. */
export function truncated(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}
