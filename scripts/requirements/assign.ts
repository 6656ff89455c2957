// `pnpm requirements:assign`: gives each normative sentence of the catalogue's pages that has no
// requirement id the next free id of its page (see packages/harness/src/requirements/assign.ts).
// Rerunnable: sentences that have an id keep it; ids in conformance/requirements.json (the
// committed catalogue, withdrawn ones included) are never handed out again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignIds, idMarkers, REQUIREMENT_PAGES } from '@agent-contracts/harness';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const catalogue = join(repo, 'conformance/requirements.json');
const taken = new Set<string>();
if (existsSync(catalogue)) {
  const data = JSON.parse(readFileSync(catalogue, 'utf8')) as { requirements: Array<{ id: string }> };
  for (const r of data.requirements) taken.add(r.id);
}
const texts = REQUIREMENT_PAGES.map((p) => readFileSync(join(repo, p.page), 'utf8'));
for (const text of texts) for (const m of idMarkers(text)) taken.add(m.id);

let total = 0;
for (const [i, p] of REQUIREMENT_PAGES.entries()) {
  const { text, assigned } = assignIds(p.page, texts[i]!, p.prefix, taken);
  if (!assigned.length) continue;
  writeFileSync(join(repo, p.page), text);
  total += assigned.length;
  console.log(`requirements: ${p.page}: ${assigned.join(', ')}`);
}
console.log(`requirements: assigned ${total} new id${total === 1 ? '' : 's'}`);
