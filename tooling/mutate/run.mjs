#!/usr/bin/env node
// The mutation run (docs/conformance-quality.md), shard by shard (tooling/mutate/shards.mjs):
//   corepack pnpm mutate [shard...]              every mutant again (`--force`), ~1-30 min a shard
//   corepack pnpm mutate:incremental [shard...]  only mutants whose code or tests changed since
//                                                tooling/mutate/incremental/<shard>.json
//   node tooling/mutate/run.mjs --list [shard...] the files each shard mutates
//   node tooling/mutate/run.mjs --ci             what CI runs (scripts/test.mjs): for each shard
//     with a committed incremental file, nothing when its sources are the recorded ones, else an
//     incremental run; fails when a shard's score falls below the committed one.
// Each run rewrites the shard's incremental file, trimmed so that it can be committed (no
// machine path; a killed mutant keeps the tests that killed it, not every test that covers it).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { SHARDS } from './shards.mjs';

// The kit's one directory walker (packages/harness/src/walk.ts), loaded from its source: this
// script runs under plain node, and the walker needs nothing but node:fs.
const { walkFiles, walkProblemLines } = await tsImport('../../packages/harness/src/walk.ts', import.meta.url);

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

/** A glob of a shard (`dir/**\/*.ts`, `dir/*.ts`, `dir/name-*.ts` or a file) as a pattern. */
const globPattern = (glob) =>
  new RegExp(
    `^${glob
      .split(/(\*\*\/|\*)/)
      .map((part) =>
        part === '**/' ? '(?:[^/]+/)*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('')}$`,
  );

/** The files a shard's globs name: those an include names less those a `!` glob excludes. */
function filesOf(shard) {
  const globs = SHARDS[shard].mutate;
  const includes = globs.filter((g) => !g.startsWith('!')).map(globPattern);
  const excludes = globs.filter((g) => g.startsWith('!')).map((g) => globPattern(g.slice(1)));
  const out = [];
  // Every glob starts with a directory without a wildcard: walk only those.
  const roots = new Set(
    globs
      .filter((g) => !g.startsWith('!'))
      .map((g) => g.slice(0, g.includes('*') ? g.lastIndexOf('/', g.indexOf('*')) : g.lastIndexOf('/'))),
  );
  for (const root of roots) {
    const walk = walkFiles(root, { suffix: '' });
    const problems = walkProblemLines(root, walk);
    if (problems.length)
      throw new Error(`shard ${shard}: cannot list its files:\n  ${problems.join('\n  ')}`);
    for (const { path: p } of walk.files)
      if (includes.some((r) => r.test(p)) && !excludes.some((r) => r.test(p))) out.push(p);
  }
  return [...new Set(out)].sort();
}

/** Mutation score of a report: (killed + timeout) / (killed + timeout + survived + no coverage). */
function scoreOf(report) {
  const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) if (m.status in n) n[m.status]++;
  const valid = n.Killed + n.Timeout + n.Survived + n.NoCoverage;
  return valid ? (100 * (n.Killed + n.Timeout)) / valid : 100;
}

/**
 * Trim a shard's incremental file so that it can be committed, and list the shard's files that
 * have no mutant (an index of re-exports, a file of types), which Stryker leaves out, with their
 * source: CI then sees that they are unchanged without re-running the shard.
 */
function trim(shard) {
  const path = incrementalFile(shard);
  if (!existsSync(path)) return;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  report.projectRoot = '.';
  for (const f of Object.values(report.files))
    for (const m of f.mutants) if (m.status === 'Killed' || m.status === 'Timeout') delete m.coveredBy;
  for (const f of filesOf(shard))
    report.files[f] ??= { language: 'typescript', source: readFileSync(f, 'utf8'), mutants: [] };
  report.files = Object.fromEntries(Object.entries(report.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}

/** Whether a shard's files are exactly those its incremental file records, with the same text. */
function unchanged(shard) {
  const report = JSON.parse(readFileSync(incrementalFile(shard), 'utf8'));
  const files = filesOf(shard);
  const recorded = Object.keys(report.files).sort();
  // A file without mutants is in the file since trim() lists it; an older file may lack it, and
  // an index of re-exports is then taken as unchanged.
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
if (args.includes('--list')) {
  // The files each shard mutates, to check the globs (`!` excludes) without running Stryker.
  for (const shard of shards)
    process.stdout.write(
      `${shard}\n${filesOf(shard)
        .map((f) => `  ${f}\n`)
        .join('')}`,
    );
  process.exit(0);
}
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
