// Strict readers of the rendered formats: a real XML parser and a GFM Markdown renderer.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { SaxesParser } from 'saxes';

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  text: string;
}

/** Parse XML 1.0 strictly (saxes); every well-formedness error is returned, with the elements. */
export function parseXml(text: string): { errors: string[]; elements: XmlElement[] } {
  const errors: string[] = [];
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  const parser = new SaxesParser();
  parser.on('error', (e) => errors.push(e.message));
  parser.on('opentag', (tag) => {
    const el = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '' };
    elements.push(el);
    open.push(el);
  });
  parser.on('text', (t) => {
    const top = open.at(-1);
    if (top) top.text += t;
  });
  parser.on('closetag', () => open.pop());
  parser.write(text).close();
  return { errors, elements };
}

/** Markdown as GitHub renders it (CommonMark + GFM), raw HTML let through so that none hides. */
export function markdownHtml(md: string): string {
  return micromark(md, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** Names of the elements in HTML text, by a scan for `<name` (text is escaped, so each is real). */
export function tagNames(html: string): Set<string> {
  return new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));
}
