#!/usr/bin/env node
// Lints the tarballs `scripts/pack.mjs` wrote, as a registry would receive them, offline:
// publint (--strict) and @arethetypeswrong/cli (ESM-only profile) on each, and what neither
// checks: a LICENSE and a README, no `workspace:` range left, no README link that leaves the
// package (`../`) or points at the placeholder repository URL, and every source map's sources inside the tarball.
// Both run in this one process through their libraries (publint, @arethetypeswrong/core, the
// core of `attw`), so TypeScript loads once, not once per package.
// Usage: node scripts/lint-packages.mjs <dir-of-tarballs>
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

// attw's `esm-only` profile: ESM-only packages neither resolve under node10 nor for require().
const IGNORED_RESOLUTIONS = ['node10', 'node16-cjs'];
const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node scripts/lint-packages.mjs <dir-of-tarballs>\n');
  process.exit(2);
}
const tarballs = readdirSync(dir)
  .filter((f) => f.endsWith('.tgz'))
  .sort()
  .map((f) => resolve(dir, f));
if (tarballs.length === 0) {
  process.stderr.write(`lint-packages: no *.tgz in ${dir}; run node scripts/pack.mjs ${dir} first\n`);
  process.exit(2);
}

function* walk(d) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** Problems of one unpacked package that publint and attw do not report. */
function contentProblems(pkgDir) {
  const problems = [];
  for (const f of ['LICENSE', 'README.md']) if (!existsSync(join(pkgDir, f))) problems.push(`no ${f}`);
  const manifest = readFileSync(join(pkgDir, 'package.json'), 'utf8');
  if (manifest.includes('workspace:')) problems.push('package.json keeps a workspace: range');
  const pkg = JSON.parse(manifest);
  for (const field of ['description', 'repository', 'engines', 'files', 'license'])
    if (pkg[field] === undefined) problems.push(`package.json has no ${field}`);
  if (existsSync(join(pkgDir, 'README.md'))) {
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    for (const m of readme.matchAll(/\]\((\.\.\/[^)]*)\)/g))
      problems.push(`README.md links ${m[1]}, which is outside the package`);
    // The repository URL of package.json is a placeholder no one can open: the docs a README
    // cites ship in @agent-contracts/kit, so a README names them there instead of linking it.
    for (const m of readme.matchAll(/https?:\/\/github\.com\/agent-contracts\/agent-contracts\b[^\s)]*/g))
      problems.push(
        `README.md links ${m[0]}, the placeholder repository URL; cite the page installed with @agent-contracts/kit`,
      );
  }
  for (const file of walk(pkgDir)) {
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of map.sources ?? []) {
      const target = resolve(dirname(file), map.sourceRoot ?? '', s);
      if (!existsSync(target))
        problems.push(`${relative(pkgDir, file)} points at ${s}, which is not in the tarball`);
    }
  }
  return problems;
}

let failed = 0;
for (const tgz of tarballs) {
  const name = relative(dir, tgz);
  const unpacked = mkdtempSync(join(tmpdir(), 'agent-contracts-lint-'));
  const problems = [];
  try {
    const tar = spawnSync('tar', ['-xzf', tgz, '-C', unpacked], { encoding: 'utf8' });
    if (tar.status !== 0) problems.push(`cannot unpack: ${tar.stderr}`);
    else problems.push(...contentProblems(join(unpacked, 'package')));
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  const data = readFileSync(tgz);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const lint = await publint({ pack: { tarball }, strict: true, level: 'warning' });
  for (const m of lint.messages)
    if (m.type !== 'suggestion') problems.push(`publint: ${formatMessage(m, lint.pkg, { color: false })}`);
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
  if (analysis.types === false) problems.push('attw: the package ships no types');
  for (const p of analysis.problems ?? [])
    if (!('resolutionKind' in p) || !IGNORED_RESOLUTIONS.includes(p.resolutionKind))
      problems.push(
        `attw: ${p.kind}${'entrypoint' in p ? ` at ${p.entrypoint}` : ''}${'resolutionKind' in p ? ` (${p.resolutionKind})` : ''}`,
      );
  if (problems.length) {
    failed++;
    process.stdout.write(`FAIL ${name}\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  } else process.stdout.write(`ok   ${name}\n`);
}
process.stdout.write(`${tarballs.length} packages: ${tarballs.length - failed} ok, ${failed} failing\n`);
process.exit(failed ? 1 : 0);
