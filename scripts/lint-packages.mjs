#!/usr/bin/env node
// Lints the tarballs `scripts/pack.mjs` wrote, as a registry would receive them, offline:
// publint (--strict) and @arethetypeswrong/cli (ESM-only profile) on each, and what neither
// checks: a LICENSE and a README, no `workspace:` range left, no README link that leaves the
// package (`../`) or points at the placeholder repository URL (nor a package.json that names it),
// no TypeScript source (a user runs
// dist/, and types come from the .d.ts files), every source map's sources inside the tarball, and
// dependencies that match the imports: every package a JavaScript file of the tarball imports is
// declared, and every dependency (what each user installs) is imported by one.
// Both run in this one process through their libraries (publint, @arethetypeswrong/core, the
// core of `attw`), so TypeScript loads once, not once per package.
// Usage: node scripts/lint-packages.mjs [<dir-of-tarballs>]; without a directory it packs every
// package (scripts/pack.mjs) into a temporary one first, and removes it after.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

// attw's `esm-only` profile: ESM-only packages neither resolve under node10 nor for require().
const IGNORED_RESOLUTIONS = ['node10', 'node16-cjs'];
let dir = process.argv[2];
let packed = null;
if (!dir) {
  packed = mkdtempSync(join(tmpdir(), 'agent-contracts-packs-'));
  process.stderr.write(`lint-packages: packing every package into ${packed} (scripts/pack.mjs)\n`);
  const pack = spawnSync(process.execPath, [fileURLToPath(new URL('./pack.mjs', import.meta.url)), packed], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (pack.status !== 0) {
    rmSync(packed, { recursive: true, force: true });
    process.stderr.write('lint-packages: packing failed (above); nothing was linted\n');
    process.exit(2);
  }
  dir = packed;
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

/** The repository URL the packages once named, which no one can open. */
const PLACEHOLDER = /https?:\/\/github\.com\/agent-contracts\/agent-contracts\b/;
const BUILTINS = new Set(builtinModules);
/** The package a bare import specifier names (`@scope/name/sub` is `@scope/name`), or null. */
function packageOf(specifier) {
  if (specifier.startsWith('node:') || /^[./]/.test(specifier)) return null;
  const name = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  if (BUILTINS.has(name) || !/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(name)) return null;
  return name;
}

/**
 * The packages the JavaScript and the type declarations (.d.ts) of an unpacked package import: static imports and re-exports
 * (`from "x"`, `import "x"`) and dynamic `import("x")` with a literal specifier, as tsc and
 * esbuild write them. A `require(...)` is not counted: the ESM-only packages have none of their
 * own, and the bundled CommonJS code's are resolved inside the bundle.
 */
function importedPackages(pkgDir) {
  const names = new Set();
  for (const file of walk(pkgDir)) {
    if (!/\.(m?js|d\.m?ts)$/.test(file) || file.includes(`${join('/', 'node_modules', '/')}`)) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["']([^"'\s]+)["']/g)) {
      const name = packageOf(m[1]);
      if (name) names.add(name);
    }
  }
  return names;
}

/** Whether a package.json's exports map has a JavaScript module among its targets. */
function exportsModule(pkg) {
  const targets = (v) =>
    typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(targets) : [];
  return targets(pkg?.exports).some((t) => /\.[cm]?js$/.test(t));
}

/** Problems of one unpacked package that publint and attw do not report. */
function contentProblems(pkgDir) {
  const problems = [];
  for (const f of ['LICENSE', 'README.md']) if (!existsSync(join(pkgDir, f))) problems.push(`no ${f}`);
  const manifest = readFileSync(join(pkgDir, 'package.json'), 'utf8');
  if (manifest.includes('workspace:')) problems.push('package.json keeps a workspace: range');
  const pkg = JSON.parse(manifest);
  for (const field of ['description', 'engines', 'files', 'license'])
    if (pkg[field] === undefined) problems.push(`package.json has no ${field}`);
  if (PLACEHOLDER.test(JSON.stringify(pkg.repository ?? '')))
    problems.push(
      'package.json names the placeholder repository URL; leave repository out until there is a public one',
    );
  if (existsSync(join(pkgDir, 'README.md'))) {
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    for (const m of readme.matchAll(/\]\((\.\.\/[^)]*)\)/g))
      problems.push(`README.md links ${m[1]}, which is outside the package`);
    // The repository URL of package.json is a placeholder no one can open: the docs a README
    // cites ship in @agent-contracts/kit, so a README names them there instead of linking it.
    for (const m of readme.matchAll(new RegExp(`${PLACEHOLDER.source}[^\\s)]*`, 'g')))
      problems.push(
        `README.md links ${m[0]}, the placeholder repository URL; cite the page installed with @agent-contracts/kit`,
      );
  }
  for (const file of walk(pkgDir)) {
    if (/\.(c|m)?tsx?$/.test(file) && !/\.d\.(c|m)?ts$/.test(file))
      problems.push(`${relative(pkgDir, file)} is a TypeScript source: publish dist/ (and .d.ts) only`);
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of map.sources ?? []) {
      const target = resolve(dirname(file), map.sourceRoot ?? '', s);
      if (!existsSync(target))
        problems.push(`${relative(pkgDir, file)} points at ${s}, which is not in the tarball`);
    }
  }
  const imported = importedPackages(pkgDir);
  const declared = new Set(
    ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((f) => Object.keys(pkg[f] ?? {})),
  );
  for (const name of [...imported].sort())
    if (!declared.has(name) && name !== pkg.name)
      problems.push(`imports ${name}, which package.json does not declare`);
  for (const name of Object.keys(pkg.dependencies ?? {}).sort())
    if (!imported.has(name))
      problems.push(
        `depends on ${name}, which no file of it (JavaScript or .d.ts) imports: every user would install it for nothing`,
      );
  return problems;
}

let failed = 0;
for (const tgz of tarballs) {
  const name = relative(dir, tgz);
  const unpacked = mkdtempSync(join(tmpdir(), 'agent-contracts-lint-'));
  const problems = [];
  let manifest = null;
  try {
    const tar = spawnSync('tar', ['-xzf', tgz, '-C', unpacked], { encoding: 'utf8' });
    if (tar.status !== 0) problems.push(`cannot unpack: ${tar.stderr}`);
    else {
      problems.push(...contentProblems(join(unpacked, 'package')));
      manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    }
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  const data = readFileSync(tgz);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const lint = await publint({ pack: { tarball }, strict: true, level: 'warning' });
  for (const m of lint.messages)
    if (m.type !== 'suggestion') problems.push(`publint: ${formatMessage(m, lint.pkg, { color: false })}`);
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
  // A package that exports no module (the CLI: a bin and its package.json) has no types to ship.
  if (analysis.types === false && exportsModule(manifest)) problems.push('attw: the package ships no types');
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
if (packed) rmSync(packed, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
