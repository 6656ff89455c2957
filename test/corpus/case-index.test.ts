// @module-tag unit
// The committed case index (conformance/index.tsv) lists every golden case and fault scenario
// once, in id order, with the level, requirements and title the corpus gives it; and
// `cases:check` sees a case whose line is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAULT_KIND_NAMES, loadCases, loadFaultScenarios, loadOtelCases } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { caseIndex, INDEX_COLUMNS, INDEX_FILE } from '../../scripts/cases/index.ts';

const conformance = fileURLToPath(new URL('../../conformance/', import.meta.url));
const committed = readFileSync(join(conformance, INDEX_FILE), 'utf8');

describe('the case index', () => {
  it('has one line per case and scenario, in id order, as the corpus states them', () => {
    const [header, ...lines] = committed.trimEnd().split('\n');
    expect(header).toBe(INDEX_COLUMNS.join('\t'));
    const otel = loadOtelCases(conformance);
    expect(otel.length).toBeGreaterThanOrEqual(21);
    const all = [
      ...loadCases(conformance),
      ...loadFaultScenarios(conformance, FAULT_KIND_NAMES),
      ...otel,
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(all.length).toBeGreaterThan(1000);
    expect(lines).toHaveLength(all.length);
    for (const [i, c] of all.entries()) {
      const [id, level, requirements, title, ...rest] = lines[i]!.split('\t');
      expect({ id, level, requirements, rest }).toEqual({
        id: c.id,
        level: c.level,
        requirements: c.requirements.join(','),
        rest: [],
      });
      expect(title).toBe(c.title.replace(/\s+/g, ' ').trim());
    }
  });

  it('changes when a case does, and keeps one line for a title with tabs and line breaks', () => {
    const file = 'digest/jcs.json';
    const text = readFileSync(join(conformance, 'cases', file), 'utf8');
    const data = JSON.parse(text) as { cases: Array<{ id: string; title: string }> };
    const owned = (f: string) => f === file;
    expect(caseIndex(conformance, new Map([[file, text]]), owned)).toBe(committed);
    data.cases[0]!.title = 'a title\twith a tab\nand a line break';
    const changed = caseIndex(conformance, new Map([[file, JSON.stringify(data)]]), owned);
    expect(changed).not.toBe(committed);
    expect(changed.split('\n')).toHaveLength(committed.split('\n').length);
    expect(changed).toContain(`${data.cases[0]!.id}\t`);
    expect(changed).toContain('\ta title with a tab and a line break\n');
  });
});
