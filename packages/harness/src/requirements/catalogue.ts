// The requirement catalogue: every normative sentence of the pages in REQUIREMENT_PAGES with its
// id, built from the pages (`buildCatalogue`) and committed as conformance/requirements.json,
// which the harness reads at run time (`loadRequirements`) to report coverage.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Level } from '../cases.js';
import { REQUIREMENT_PAGES } from './pages.js';
import { idMarkers, parsePage, REQUIREMENT_ID, type RequirementLevel } from './parse.js';

/** One requirement: a normative sentence of the spec with its stable id. */
export interface Requirement {
  /** `TCW-017`: page prefix and number, never renumbered or reused. */
  readonly id: string;
  readonly level: RequirementLevel;
  /** What its page specifies: a gate name, `Conventions` or `Protocol`. */
  readonly gate: string;
  /** Page path relative to the repository. */
  readonly page: string;
  /** Anchor of its section on the page. */
  readonly anchor: string;
  readonly sentence: string;
  /** Withdrawn requirements keep their id and count for nothing. */
  readonly withdrawn: boolean;
  /** The codes its sentence and the non-normative sentences after it name (see ParsedSentence). */
  readonly codes: readonly string[];
}

/** conformance/requirements.json. */
export interface RequirementCatalogue {
  readonly $comment?: string;
  readonly requirements: readonly Requirement[];
}

/** The catalogue of a set of pages, and every problem that keeps it from being complete. */
export function buildCatalogue(pages: ReadonlyArray<{ page: string; text: string }>): {
  requirements: Requirement[];
  problems: string[];
} {
  const requirements: Requirement[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const { page, text } of pages) {
    const meta = REQUIREMENT_PAGES.find((p) => p.page === page);
    const gate = meta?.gate ?? page;
    const sentences = parsePage(page, text);
    const attached = new Set<string>();
    for (const s of sentences) {
      if (s.id === null) {
        problems.push(
          `${page}:${s.line}: a normative sentence has no requirement id (run \`pnpm requirements:assign\`): ${s.sentence.slice(0, 100)}`,
        );
        continue;
      }
      attached.add(s.id);
      if (meta && !s.id.startsWith(`${meta.prefix}-`))
        problems.push(`${page}:${s.line}: ${s.id} does not carry the page's prefix ${meta.prefix}`);
      const other = seen.get(s.id);
      if (other) problems.push(`${page}:${s.line}: ${s.id} is used twice (also ${other})`);
      seen.set(s.id, `${page}:${s.line}`);
      requirements.push({
        id: s.id,
        level: s.level,
        gate,
        page,
        anchor: s.anchor,
        sentence: s.sentence,
        withdrawn: s.withdrawn,
        codes: s.codes,
      });
    }
    for (const m of idMarkers(text))
      if (!attached.has(m.id))
        problems.push(
          `${page}:${m.line}: ${m.id} marks no normative sentence (a sentence needs a key word in capitals, or the marker belongs elsewhere)`,
        );
  }
  return { requirements, problems };
}

/** The strongest level of the requirements a case names: MAY-only cases are SHOULD (D-GEN-41). */
export function levelOfRequirements(ids: readonly string[], catalogue: readonly Requirement[]): Level {
  const levels = ids.map((id) => catalogue.find((r) => r.id === id)?.level);
  return levels.includes('MUST') ? 'MUST' : 'SHOULD';
}

/** Thrown when conformance/requirements.json is missing or malformed (a harness error, exit 2). */
export class RequirementCatalogueError extends Error {
  readonly code = 'REQUIREMENT_CATALOGUE_INVALID';
}

/** Read conformance/requirements.json; an empty list when the directory has none. */
export function loadRequirements(conformanceDir: string): Requirement[] {
  const file = join(conformanceDir, 'requirements.json');
  if (!existsSync(file)) return [];
  let data: RequirementCatalogue;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as RequirementCatalogue;
  } catch (e) {
    throw new RequirementCatalogueError(
      `${file} is not JSON (${(e as Error).message}); run \`pnpm requirements:generate\``,
    );
  }
  const list = data?.requirements;
  if (!Array.isArray(list) || list.some((r) => !r || typeof r.id !== 'string' || !REQUIREMENT_ID.test(r.id)))
    throw new RequirementCatalogueError(
      `${file} needs a "requirements" array of { id, level, gate, ... }; run \`pnpm requirements:generate\``,
    );
  return list as Requirement[];
}
