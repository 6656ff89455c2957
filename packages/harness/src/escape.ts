// Escaping for the report renderers. Every string in a report is untrusted (reports are CI
// artifacts anyone can craft), so nothing reaches markup unescaped.
import { escapeUTF8 } from 'entities';
import { printable, printableLines } from './text.js';

/**
 * One-line text for XML or HTML, in an attribute value or element content: controls become
 * visible `\uXXXX` escapes (XML 1.0 forbids most C0 controls even as character references),
 * then `& < > " '` become entity references (`entities`' `escapeUTF8`).
 */
export function escapeMarkup(s: string): string {
  return escapeUTF8(printable(s));
}

/** {@link escapeMarkup} for element content that keeps its line feeds and tabs (a stderr tail). */
export function escapeMarkupLines(s: string): string {
  return escapeUTF8(printableLines(s));
}

/**
 * The ASCII punctuation that CommonMark or GitHub Flavored Markdown gives a meaning inside a
 * line: emphasis, code spans, links and images, raw HTML and autolinks, entities, table cells,
 * strikethrough, math, heading closers; and what starts a GFM autolink literal (`http:`, `a@b`,
 * `www.`). CommonMark lets any ASCII punctuation be backslash-escaped (spec section 2.4), and
 * GFM honours `\|` inside a table cell.
 */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>&|~$#!:@]|(?<=www)\./gi;

/**
 * Inline Markdown text that renders as exactly the characters given: controls and line breaks
 * become visible `\uXXXX` escapes (a line break would end a table row), then every punctuation
 * character with a Markdown meaning is backslash-escaped, so no markup, HTML tag or table cell
 * boundary from the input survives. Never put the result at the start of a line or in a code span.
 *
 * @example
 * escapeMarkdown('<img src=x> | *x*'); // '\\<img src=x\\> \\| \\*x\\*'
 */
export function escapeMarkdown(s: string): string {
  return printable(s).replace(MARKDOWN_SPECIAL, '\\$&');
}
