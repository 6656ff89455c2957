#!/usr/bin/env node
// `corepack pnpm mutate [shard...]`: the full mutation run, shard by shard (every mutant again,
// `--force`); `corepack pnpm mutate:incremental [shard...]`: only the mutants whose code or tests
// changed since tooling/mutate/incremental/<shard>.json, which the run then rewrites. Prints each
// shard's duration; the reports are .reports/mutation/<shard>.{json,html}.
import { spawnSync } from 'node:child_process';
import { SHARDS } from './shards.mjs';

const args = process.argv.slice(2);
const incremental = args.includes('--incremental');
const named = args.filter((a) => !a.startsWith('--'));
for (const n of named)
  if (!(n in SHARDS)) throw new Error(`unknown shard ${n}: ${Object.keys(SHARDS).join(', ')}`);
const shards = named.length ? named : Object.keys(SHARDS);
let failed = 0;
for (const shard of shards) {
  const started = Date.now();
  process.stderr.write(`\n== mutate ${shard}${incremental ? ' (incremental)' : ''}\n`);
  const r = spawnSync(
    'stryker',
    ['run', 'tooling/mutate/stryker.config.mjs', ...(incremental ? [] : ['--force'])],
    {
      stdio: 'inherit',
      env: { ...process.env, MUTATE_SHARD: shard },
    },
  );
  const s = Math.round((Date.now() - started) / 1000);
  process.stderr.write(`== mutate ${shard}: exit ${r.status}, ${Math.floor(s / 60)} min ${s % 60} s\n`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
