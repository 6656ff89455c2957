// The case index (conformance/index.tsv): one line per golden case and fault scenario, sorted by
// id, with its level, the requirements it checks and its title, so a reviewer reads what the
// corpus checks without opening 15 MB of JSON. scripts/cases/generate.ts writes it with the
// cases and `cases:check` fails when it differs, so it never lags the cases it lists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CaseFile,
  FAULT_KIND_NAMES,
  loadFaultScenarios,
  loadOtelCases,
  walkFiles,
  walkProblemLines,
} from '@agent-contracts/harness';

/** Path of the index, relative to the conformance directory. */
export const INDEX_FILE = 'index.tsv';

/** The columns of the index, in order (its first line). */
export const INDEX_COLUMNS = ['id', 'level', 'requirements', 'title'] as const;

interface Row {
  readonly id: string;
  readonly level: string;
  readonly requirements: readonly string[];
  readonly title: string;
}

/** One cell: tabs, line breaks and other control characters become a space. */
const cell = (s: string) => s.replace(/[\s\p{Cc}]+/gu, ' ').trim();

/** Every case file under `<conformance>/cases`, relative to that directory with `/` separators. */
function caseFilesOnDisk(casesDir: string): string[] {
  const walk = walkFiles(casesDir, { suffix: '.json' });
  const problems = walkProblemLines('cases', walk);
  if (problems.length) throw new Error(`the case files cannot be listed:\n  ${problems.join('\n  ')}`);
  return walk.files.map((f) => f.relative);
}

/**
 * The text of the index. `generated` maps a case file (relative to conformance/cases) to the text
 * the generators produce for it: those files are read from it, every other case file from disk
 * (the cases written by hand), so `--check` indexes what the generators would write.
 */
export function caseIndex(
  conformanceDir: string,
  generated: ReadonlyMap<string, string>,
  owned: (file: string) => boolean,
): string {
  const casesDir = join(conformanceDir, 'cases');
  const files = new Set([...generated.keys(), ...caseFilesOnDisk(casesDir).filter((f) => !owned(f))]);
  const rows: Row[] = [];
  for (const f of files) {
    const text = generated.get(f) ?? readFileSync(join(casesDir, f), 'utf8');
    for (const c of (JSON.parse(text) as CaseFile).cases) rows.push(c);
  }
  rows.push(...loadFaultScenarios(conformanceDir, FAULT_KIND_NAMES), ...loadOtelCases(conformanceDir));
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.id)) throw new Error(`cases: the id ${r.id} is used twice`);
    seen.add(r.id);
  }
  const lines = rows.map((r) => [r.id, r.level, r.requirements.join(','), cell(r.title)].join('\t'));
  return `${[INDEX_COLUMNS.join('\t'), ...lines].join('\n')}\n`;
}
