// The pages and anchors the liveness, checkpoint and trace cases cite, the fixtures they load
// and the fixed clock they start from.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = join(repo, 'conformance/fixtures');

export const LIVENESS_PAGE = 'docs/spec/turn-liveness-recovery-gate.md';
export const TRACE_PAGE = 'docs/spec/local-task-trace-gate.md';

/** GitHub-style heading anchors of a page (duplicates get `-1`, `-2`, ...). */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of readFileSync(join(repo, page), 'utf8').split('\n')) {
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .trim()
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
const ANCHORS = { [LIVENESS_PAGE]: anchors(LIVENESS_PAGE), [TRACE_PAGE]: anchors(TRACE_PAGE) };
export const spec = (page: keyof typeof ANCHORS, anchor: string): string => {
  if (!ANCHORS[page].has(anchor)) throw new Error(`${page} has no heading #${anchor}`);
  return `${page}#${anchor}`;
};

export const iso = (ms: number) => new Date(ms).toISOString();
export const fixture = (path: string): unknown => JSON.parse(readFileSync(join(fixtures, path), 'utf8'));
export const fixtureNames = (contract: string, kind: 'valid' | 'invalid') =>
  readdirSync(join(fixtures, contract, kind))
    .sort()
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'));

/** T0 of the page's fault scenarios. */
export const T0 = Date.parse('2026-11-30T05:41:12.000Z');

export const LIVE = ['liveness', 'clock'] as const;
export const CHECK = ['checkpoint', 'clock'] as const;
export const TRACE = ['trace', 'clock'] as const;
