// Reads the worked examples of the spec pages: a line `<!-- worked-example:<kind> <name> [arg] -->`
// followed, after blank lines only, by a fenced ```json block. The test checks each block against
// the digest package and the validators, so the pages' examples cannot drift from the reference.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './helpers.ts';

/** What a block claims: a valid document, a refusal, or a digest computation. */
export type WorkedExampleKind = 'document' | 'refusal' | 'digest';

/** One marked block of a spec page. */
export interface WorkedExampleBlock {
  /** `docs/spec/<page>.md` */
  readonly page: string;
  /** 1-based line of the marker. */
  readonly line: number;
  readonly kind: WorkedExampleKind;
  /** Unique within the page; a digest or refusal block names a document block by it. */
  readonly name: string;
  /** The contract, for `document` and `refusal` blocks. */
  readonly arg: string | null;
  /** The parsed JSON of the block, or the parse error's message. */
  readonly json: unknown;
  readonly parseError: string | null;
}

const MARKER = /^<!-- worked-example:(document|refusal|digest) ([A-Za-z0-9._-]+)(?: ([A-Za-z0-9]+))? -->$/;
const ANY_MARKER = /^\s*<!-- worked-example/;

/** Problems with the markup itself (a marker without its block, a malformed marker). */
export interface WorkedExampleProblem {
  readonly page: string;
  readonly line: number;
  readonly problem: string;
}

/** Every worked-example block of one page's text, and the markup problems found. */
export function parseWorkedExamples(
  page: string,
  text: string,
): { blocks: WorkedExampleBlock[]; problems: WorkedExampleProblem[] } {
  const lines = text.split('\n');
  const blocks: WorkedExampleBlock[] = [];
  const problems: WorkedExampleProblem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!ANY_MARKER.test(line)) continue;
    const m = MARKER.exec(line.trim());
    if (!m) {
      problems.push({ page, line: i + 1, problem: `malformed marker: ${line.trim()}` });
      continue;
    }
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    if (lines[j]?.trim() !== '```json') {
      problems.push({ page, line: i + 1, problem: 'the marker is not followed by a ```json block' });
      continue;
    }
    const start = j + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    if (end >= lines.length) {
      problems.push({ page, line: i + 1, problem: 'the ```json block is not closed' });
      continue;
    }
    const body = lines.slice(start, end).join('\n');
    let json: unknown = null;
    let parseError: string | null = null;
    try {
      json = JSON.parse(body);
    } catch (e) {
      parseError = (e as Error).message;
    }
    blocks.push({
      page,
      line: i + 1,
      kind: m[1] as WorkedExampleKind,
      name: m[2]!,
      arg: m[3] ?? null,
      json,
      parseError,
    });
    i = end;
  }
  return { blocks, problems };
}

/** The spec pages (`docs/spec/*.md`) with their text. */
export function specPages(): { page: string; text: string }[] {
  const dir = join(repoRoot, 'docs/spec');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => ({ page: `docs/spec/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
}
