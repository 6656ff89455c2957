// The requirement catalogue's source: the normative sentences of the spec pages. A sentence is
// normative when it uses a BCP 14 key word in capitals outside code; each one carries its id in
// the page, `**TCW-017**` at its start. This module finds them, with their ids, levels and
// anchors, and the normative sentences that have no id yet (so `requirements:assign` can give
// them one without renumbering anything).

/** How strongly a requirement binds: MUST (MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT),
 *  SHOULD (SHOULD, SHOULD NOT, RECOMMENDED, NOT RECOMMENDED) or MAY (MAY, OPTIONAL). */
export type RequirementLevel = 'MUST' | 'SHOULD' | 'MAY';

/** One normative sentence of a page. */
export interface ParsedSentence {
  /** `TCW-017`, or null when the sentence has no id yet. */
  readonly id: string | null;
  readonly level: RequirementLevel;
  /** Page path relative to the repository, e.g. `docs/spec/task-continuity-write-gate.md`. */
  readonly page: string;
  /** Anchor of the closest heading above it. */
  readonly anchor: string;
  /** The sentence, without its id marker, on one line. */
  readonly sentence: string;
  /** Marked `*(withdrawn)*` right after its id: kept, never counted, never reused. */
  readonly withdrawn: boolean;
  /**
   * The codes (`UPPER_SNAKE_CASE` in code spans) it names, and those the sentences after it in
   * the same paragraph, list item or cell name before the next normative one ("Else `CODE` at
   * ..."): what a case expecting the code checks.
   */
  readonly codes: readonly string[];
  /** Character offset in the page where the sentence (or its id marker) starts. */
  readonly offset: number;
  /** 1-based line of `offset`. */
  readonly line: number;
}

/** The id marker: `**TCW-017**`, optionally followed by `*(withdrawn)*`. */
export const REQUIREMENT_ID = /^[A-Z]{2,6}-\d{3}$/;
const MARKER = /\*\*([A-Z]{2,6}-\d{3})\*\*( \*\(withdrawn\)\*)?\s*/g;
const KEY_WORDS = /\b(MUST|SHOULD|MAY|REQUIRED|RECOMMENDED|SHALL|OPTIONAL)\b/g;

/** The anchor a heading gets (lowercase, punctuation dropped, spaces to hyphens). */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-');
}

/** The strongest level among the key words of a (code-masked) sentence, or null. */
function levelOf(masked: string): RequirementLevel | null {
  const words = masked.match(KEY_WORDS) ?? [];
  if (words.some((w) => w === 'MUST' || w === 'REQUIRED' || w === 'SHALL')) return 'MUST';
  if (words.some((w) => w === 'SHOULD' || w === 'RECOMMENDED')) return 'SHOULD';
  return words.length ? 'MAY' : null;
}

/** Same-length copy of `text` with code spans, links' targets, HTML comments and ids blanked. */
function mask(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/(`+)[\s\S]*?\1/g, blank)
    .replace(/\]\([^)\n]*\)/g, blank)
    .replace(/\*\*[A-Z]{2,6}-\d{3}\*\*( \*\(withdrawn\)\*)?/g, blank);
}

/** The line under a table's header row: `|---|:--:|`. */
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/**
 * Abbreviations whose period ends no sentence (`e.g.`, `i.e.`, `etc.`, `cf.`, `vs.`): the text
 * before a period that is one of them, case aside.
 */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|cf|vs|viz|incl|approx|resp|et al)$/i;

interface Unit {
  readonly start: number;
  readonly end: number;
  readonly anchor: string;
}

/**
 * The prose units of a page: paragraphs, list items and table cells (not those of a header row,
 * which name columns), with the anchor of their section. Headings, fenced code, blockquotes (the key-word legend) and generated blocks
 * (`<!-- fields:X -->` ... `<!-- /fields:X -->`, `<!-- protocol:m -->` ...) are not prose: a
 * generated table repeats a schema description whose normative sentence is in the prose.
 */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let anchor = 'top';
  let inFence = false;
  let generated: string | null = null;
  let open: { start: number; end: number } | null = null;
  const close = () => {
    if (open) units.push({ ...open, anchor });
    open = null;
  };
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    const end = offset + line.length;
    offset = end + 1;
    const trimmed = line.trim();
    if (generated !== null) {
      if (trimmed === `<!-- /${generated} -->`) generated = null;
      continue;
    }
    if (/^(```|~~~)/.test(trimmed)) {
      close();
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const gen = /^<!-- ((?:fields|protocol):[^ ]+) -->$/.exec(trimmed);
    if (gen) {
      close();
      generated = gen[1]!;
      continue;
    }
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) {
      close();
      anchor = headingAnchor(heading[1]!);
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('>')) {
      close();
      continue;
    }
    if (trimmed.startsWith('|')) {
      close();
      // A header row (the row above the `|---|` line) names columns: it requires nothing.
      const following = text.slice(
        offset,
        text.indexOf('\n', offset) === -1 ? undefined : text.indexOf('\n', offset),
      );
      if (TABLE_SEPARATOR.test(following)) continue;
      // One unit per cell; a `|` inside a code span does not split.
      const masked = mask(line);
      let cell = masked.indexOf('|');
      while (cell !== -1) {
        const next = masked.indexOf('|', cell + 1);
        if (next === -1) break;
        let from = cell + 1;
        while (from < next && line[from] === ' ') from++;
        units.push({ start: start + from, end: start + next, anchor });
        cell = next;
      }
      continue;
    }
    const item = /^(\s*)([-*+]|\d+\.) /.exec(line);
    if (item) {
      close();
      open = { start: start + item[0].length, end };
      continue;
    }
    if (open) open.end = end;
    else open = { start: start + line.search(/\S/), end };
  }
  close();
  return units;
}

/**
 * Sentence ranges of one unit: a sentence ends at `.`, `!` or `?` (outside code) followed by space
 * and a capital, a code span, emphasis or a bracket, unless the period ends an abbreviation
 * (`e.g.`, `i.e.`, `etc.`, ...).
 */
function sentencesOf(text: string, masked: string, unit: Unit): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const end = /[.!?](?:\*\*|\)|")?(?=\s)/g;
  end.lastIndex = unit.start;
  let from = unit.start;
  for (let m = end.exec(masked); m && m.index < unit.end; m = end.exec(masked)) {
    let next = m.index + m[0].length;
    while (next < unit.end && /\s/.test(text[next]!)) next++;
    if (next >= unit.end || !/[A-Z`*("[]/.test(text[next]!)) continue;
    if (text[m.index] === '.' && ABBREVIATION.test(text.slice(Math.max(unit.start, m.index - 12), m.index)))
      continue;
    out.push([from, m.index + m[0].length]);
    from = next;
  }
  if (from < unit.end) out.push([from, unit.end]);
  return out.filter(([a, b]) => b > a);
}

/** Every normative sentence of a page, in page order. */
export function parsePage(page: string, text: string): ParsedSentence[] {
  const masked = mask(text);
  const out: ParsedSentence[] = [];
  const codesIn = (t: string) => [...t.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]!);
  for (const unit of unitsOf(text)) {
    let last: { codes: string[] } | null = null;
    for (const [a, b] of sentencesOf(text, masked, unit)) {
      const maskedSentence = masked.slice(a, b);
      const level = levelOf(maskedSentence);
      if (!level) {
        if (last) for (const c of codesIn(text.slice(a, b))) if (!last.codes.includes(c)) last.codes.push(c);
        continue;
      }
      const raw = text.slice(a, b);
      // The key-word legend names the words; it requires nothing.
      if (/RFC 2119|BCP 14/.test(raw)) continue;
      const markers = [...raw.matchAll(MARKER)];
      const first = markers[0];
      const sentence = raw.replace(MARKER, '').replace(/\s+/g, ' ').trim();
      const entry = {
        id: first ? first[1]! : null,
        level,
        page,
        anchor: unit.anchor,
        sentence,
        withdrawn: Boolean(first?.[2]),
        codes: [...new Set(codesIn(raw))],
        offset: a,
        line: text.slice(0, a).split('\n').length,
      };
      out.push(entry);
      last = entry;
    }
  }
  return out;
}

/** Every id marker of a page with its line, including ones outside normative sentences. */
export function idMarkers(text: string): Array<{ id: string; line: number }> {
  return [...text.matchAll(MARKER)].map((m) => ({
    id: m[1]!,
    line: text.slice(0, m.index).split('\n').length,
  }));
}
