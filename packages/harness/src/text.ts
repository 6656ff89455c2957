// Text that an implementation or a report file controls, made safe for a terminal. An
// implementation's name, its messages and its stderr can carry ANSI escape sequences, carriage
// returns and bidirectional overrides that would redraw what the harness printed (a fake "1110
// pass" and a green CONFORMS over the real verdict). Every such character is shown as a visible
// escape instead, so the reader sees what was sent and the terminal interprets nothing.

// C0 controls but tab and newline, DEL, C1 controls, the bidirectional embeddings, overrides and
// isolates, the line and paragraph separators, and lone surrogates.
const UNSAFE = new RegExp(
  [
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]',
    '[\\ud800-\\udbff](?![\\udc00-\\udfff])',
    '(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
  ].join('|'),
  'g',
);
const UNSAFE_ONE_LINE = new RegExp(`${UNSAFE.source}|[\\t\\n]`, 'g');

const visible = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `value` as text a terminal shows literally: every control character (and, unless `multiline`,
 * tab and newline too) becomes a visible `\uXXXX` escape. A non-string is shown as JSON.
 *
 * @example
 * printable('ok\u001b[2J') === 'ok\\u001b[2J';
 */
export function printable(value: unknown, options: { multiline?: boolean } = {}): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.replace(options.multiline ? UNSAFE : UNSAFE_ONE_LINE, visible);
}
