// Gives every normative sentence of a page that has no id the next free id of the page's
// prefix, by inserting `**PFX-NNN** ` at the sentence's start and changing nothing else. Ids
// already written are never touched, so running it again after new sentences arrive (a merge)
// numbers only the new ones.

import { RESERVED_FROM } from './pages.js';
import { parsePage } from './parse.js';

/** Thrown when a prefix has no free number below the reserved range. */
export class RequirementIdsExhaustedError extends Error {
  readonly code = 'REQUIREMENT_IDS_EXHAUSTED';
}

/**
 * The page with ids inserted, and the ids it gave out. `taken` holds every id ever used
 * (the pages and the committed catalogue, withdrawn ones included); new ids continue after the
 * highest taken number below `RESERVED_FROM`.
 */
export function assignIds(
  page: string,
  text: string,
  prefix: string,
  taken: ReadonlySet<string>,
): { text: string; assigned: string[] } {
  const missing = parsePage(page, text).filter((s) => s.id === null);
  let next = 1;
  for (const id of taken) {
    const [p, n] = id.split('-');
    const num = Number(n);
    if (p === prefix && num < RESERVED_FROM && num >= next) next = num + 1;
  }
  const assigned: string[] = [];
  for (const _ of missing) {
    if (next >= RESERVED_FROM)
      throw new RequirementIdsExhaustedError(
        `${page}: ${prefix} has no free id below ${prefix}-${RESERVED_FROM}; choose a new prefix in packages/harness/src/requirements/pages.ts`,
      );
    assigned.push(`${prefix}-${String(next++).padStart(3, '0')}`);
  }
  // Insert from the end so earlier offsets stay valid.
  let out = text;
  for (let i = missing.length - 1; i >= 0; i--) {
    const at = missing[i]!.offset;
    out = `${out.slice(0, at)}**${assigned[i]}** ${out.slice(at)}`;
  }
  return { text: out, assigned };
}
