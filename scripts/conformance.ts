// The main job until the conformance harness lands: judge every golden fixture against the
// published schemas and digest rules, and print a summary per contract (stdout) with progress
// on stderr. Exit 0 when the whole corpus behaves as recorded, 1 otherwise.
import { CONTRACTS } from '@agent-contracts/schemas';
import { judge, listFixtures } from './lib/fixture-corpus.ts';

const color = !process.env.NO_COLOR && process.stdout.isTTY;
const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);

const fixtures = listFixtures();
const rows: Array<{ gate: string; contract: string; valid: string; invalid: string; ok: boolean }> = [];
const failures: string[] = [];

for (const contract of CONTRACTS) {
  const mine = fixtures.filter((f) => f.contract === contract.name);
  let validOk = 0;
  let validTotal = 0;
  let invalidOk = 0;
  let invalidTotal = 0;
  for (const f of mine) {
    const v = judge(f);
    if (f.kind === 'valid') {
      validTotal++;
      if (v.ok) validOk++;
    } else {
      invalidTotal++;
      if (v.ok) invalidOk++;
    }
    if (!v.ok) failures.push(`${contract.name}/${f.kind}/${f.name}: ${v.detail}`);
    process.stderr.write(v.ok ? '.' : 'F');
  }
  const ok = validTotal > 0 && invalidTotal > 0 && validOk === validTotal && invalidOk === invalidTotal;
  if (validTotal === 0 || invalidTotal === 0) failures.push(`${contract.name}: no fixtures`);
  rows.push({
    gate: contract.gate,
    contract: contract.name + (contract.compatibility ? ' (read-only)' : ''),
    valid: `${validOk}/${validTotal}`,
    invalid: `${invalidOk}/${invalidTotal}`,
    ok,
  });
}
process.stderr.write('\n');

const width = (k: keyof (typeof rows)[number]) => Math.max(k.length, ...rows.map((r) => String(r[k]).length));
const cols = ['gate', 'contract', 'valid', 'invalid'] as const;
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(width(cols[i]!))).join('  ');
console.log(
  'Golden fixtures against the published schemas (valid: accepted with correct digests; invalid: rejected as recorded)\n',
);
console.log(line(['gate', 'contract', 'valid', 'invalid']) + '  result');
for (const r of rows)
  console.log(
    `${line([r.gate, r.contract, r.valid, r.invalid])}  ${r.ok ? paint(32, 'ok') : paint(31, 'FAIL')}`,
  );
const total = fixtures.length;
const bad = failures.length;
console.log(
  `\n${CONTRACTS.length} contracts, ${total} fixtures, ${rows.filter((r) => r.ok).length}/${rows.length} contracts conform`,
);
if (bad) {
  console.log('\nFailures:');
  for (const f of failures) console.log(`  ${f}`);
  process.exit(1);
}
