#!/usr/bin/env node
// The mutation run (docs/conformance-quality.md), shard by shard (tooling/mutate/shards.mjs):
//   corepack pnpm mutate [shard...]              every mutant again (`--force`), ~1-30 min a shard
//   corepack pnpm mutate:incremental [shard...]  only mutants whose code or tests changed since
//                                                tooling/mutate/incremental/<shard>.json
//   node tooling/mutate/run.mjs --ci             what CI runs (scripts/test.mjs): for each shard
//     with a committed incremental file, nothing when its sources are the recorded ones, else an
//     incremental run; fails when a shard's score falls below the committed one.
// Each run rewrites the shard's incremental file, trimmed so that it can be committed (no
// machine path; a killed mutant keeps the tests that killed it, not every test that covers it).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHARDS } from './shards.mjs';

const args = process.argv.slice(2);
const ci = args.includes('--ci');
const incremental = ci || args.includes('--incremental');
const named = args.filter((a) => !a.startsWith('--'));
for (const n of named)
  if (!(n in SHARDS)) throw new Error(`unknown shard ${n}: ${Object.keys(SHARDS).join(', ')}`);
const STRYKER = fileURLToPath(
  new URL('../../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url),
);
const incrementalFile = (shard) => `tooling/mutate/incremental/${shard}.json`;

/** The files a shard's globs name (`dir/**\/*.ts`, `dir/*.ts` or a file). */
function filesOf(shard) {
  const out = [];
  const walk = (dir, deep) => {
    for (const e of readdirSync(dir)) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) {
        if (deep) walk(p, deep);
      } else if (p.endsWith('.ts')) out.push(p);
    }
  };
  for (const g of SHARDS[shard].mutate) {
    if (g.endsWith('/**/*.ts')) walk(g.slice(0, -'/**/*.ts'.length), true);
    else if (g.endsWith('/*.ts')) walk(g.slice(0, -'/*.ts'.length), false);
    else out.push(g);
  }
  return out.sort();
}

/** Mutation score of a report: (killed + timeout) / (killed + timeout + survived + no coverage). */
export function scoreOf(report) {
  const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) if (m.status in n) n[m.status]++;
  const valid = n.Killed + n.Timeout + n.Survived + n.NoCoverage;
  return valid ? (100 * (n.Killed + n.Timeout)) / valid : 100;
}

function trim(shard) {
  const path = incrementalFile(shard);
  if (!existsSync(path)) return;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  report.projectRoot = '.';
  for (const f of Object.values(report.files))
    for (const m of f.mutants) if (m.status === 'Killed' || m.status === 'Timeout') delete m.coveredBy;
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

function unchanged(shard) {
  const report = JSON.parse(readFileSync(incrementalFile(shard), 'utf8'));
  const files = filesOf(shard);
  const recorded = Object.keys(report.files).sort();
  // A file without mutants (an index of re-exports) is not in the report.
  const reExports = (text) =>
    text
      .split('\n')
      .every((l) => !l.trim() || /^\s*(\/\/|\/?\*|export (\*|\{[^}]*\}|type \{[^}]*\}) from )/.test(l));
  const same =
    recorded.every((f) => files.includes(f)) &&
    files.every((f) =>
      f in report.files
        ? readFileSync(f, 'utf8') === report.files[f].source
        : reExports(readFileSync(f, 'utf8')),
    );
  return { report, same };
}

const shards = named.length ? named : Object.keys(SHARDS);
let failed = 0;
for (const shard of shards) {
  const started = Date.now();
  let before = null;
  if (ci) {
    if (!existsSync(incrementalFile(shard))) {
      process.stderr.write(
        `mutate ${shard}: no committed incremental file, not run (corepack pnpm mutate ${shard})\n`,
      );
      continue;
    }
    const { report, same } = unchanged(shard);
    before = scoreOf(report);
    if (same) {
      process.stderr.write(`mutate ${shard}: sources as recorded, score ${before.toFixed(2)}%\n`);
      continue;
    }
  }
  process.stderr.write(`\n== mutate ${shard}${incremental ? ' (incremental)' : ''}\n`);
  const r = spawnSync(
    process.execPath,
    [STRYKER, 'run', 'tooling/mutate/stryker.config.mjs', ...(incremental ? [] : ['--force'])],
    {
      stdio: 'inherit',
      env: { ...process.env, MUTATE_SHARD: shard },
    },
  );
  trim(shard);
  const s = Math.round((Date.now() - started) / 1000);
  process.stderr.write(`== mutate ${shard}: exit ${r.status}, ${Math.floor(s / 60)} min ${s % 60} s\n`);
  if (r.status !== 0) failed++;
  if (r.error) process.stderr.write(`mutate ${shard}: ${r.error.message}\n`);
  if (before !== null && existsSync(incrementalFile(shard))) {
    const after = scoreOf(JSON.parse(readFileSync(incrementalFile(shard), 'utf8')));
    process.stderr.write(`mutate ${shard}: score ${before.toFixed(2)}% -> ${after.toFixed(2)}%\n`);
    if (after + 1e-9 < before) {
      process.stderr.write(
        `mutate ${shard}: the change lets mutants survive; kill them with a case (docs/conformance-quality.md) and commit ${incrementalFile(shard)}\n`,
      );
      failed++;
    }
  }
}
process.exit(failed ? 1 : 0);
