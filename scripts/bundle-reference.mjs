#!/usr/bin/env node
// The reference implementation (examples/reference-node) as plain JavaScript: one esbuild bundle
// of its TypeScript sources and of the workspace packages it imports (from their sources, the
// `@agent-contracts/source` condition), so that a process of it starts without a TypeScript
// loader. Started from the bundle, a reference process costs about a fifth of the CPU it costs
// from the sources through tsx (bench/README.md); the fault matrix starts about a hundred.
//
// The bundle goes to examples/reference-node/dist/ (git-ignored): main.mjs, lazy chunks for the
// SQLite and PostgreSQL backends (whose drivers stay external: native, or optional), and
// bundle.json, the digest of every input. It is rebuilt only when an input changed, so the main
// job pays for it once (about 1 s of CPU) after a change of the sources.
//
// Usage: node scripts/bundle-reference.mjs [--force] [--quiet]; prints the path of main.mjs.
// As a module: `await ensureReferenceBundle()` resolves to that path.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const reference = join(repo, 'examples/reference-node');
const entry = join(reference, 'src/main.ts');
/** Where the bundle lives: one level below the reference's root, as src/ is (store.ts finds conformance-project/ from there). */
export const REFERENCE_BUNDLE_DIR = join(reference, 'dist');
/** The bundle's entry point: `node <this>` is the reference implementation. */
export const REFERENCE_BUNDLE = join(REFERENCE_BUNDLE_DIR, 'main.mjs');
const MANIFEST = 'bundle.json';

/** Every workspace package.json: their exports decide what the bundle resolves. */
function packageJsons() {
  const out = [join(repo, 'package.json')];
  for (const group of ['packages', 'examples']) {
    for (const name of readdirSync(join(repo, group))) {
      const p = join(repo, group, name, 'package.json');
      if (existsSync(p)) out.push(p);
    }
  }
  return out;
}

const digestOf = (file) => {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
};

/** Whether the bundle on disk was built from exactly the files there now. */
function fresh(esbuildVersion) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(REFERENCE_BUNDLE_DIR, MANIFEST), 'utf8'));
  } catch {
    return false;
  }
  if (manifest?.esbuild !== esbuildVersion || !manifest.inputs || !existsSync(REFERENCE_BUNDLE)) return false;
  const inputs = Object.entries(manifest.inputs);
  const pkgs = packageJsons().map((p) => relative(repo, p));
  if (pkgs.some((p) => !(p in manifest.inputs))) return false;
  return inputs.every(([rel, digest]) => digestOf(join(repo, rel)) === digest);
}

/**
 * Build the bundle unless it is fresh; resolves to the path of main.mjs. Safe to call from
 * several processes at once: each builds into a directory of its own and renames it into place.
 */
export async function ensureReferenceBundle({ force = false, quiet = true } = {}) {
  const esbuild = await import('esbuild');
  if (!force && fresh(esbuild.version)) return REFERENCE_BUNDLE;
  const started = performance.now();
  // Built one level below examples/reference-node too (see REFERENCE_BUNDLE_DIR), then renamed.
  const staging = join(reference, `.dist-${process.pid}-${Date.now().toString(36)}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: repo,
      entryPoints: [entry],
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      conditions: ['@agent-contracts/source'],
      // Native or optional drivers are loaded from node_modules, as the sources load them.
      external: ['better-sqlite3', 'pg', 'pg-native'],
      // Whitespace and syntax only: names stay as written, for the stack traces on stderr.
      minifyWhitespace: true,
      minifySyntax: true,
      metafile: true,
      logLevel: 'warning',
    });
    const inputs = {};
    for (const rel of Object.keys(result.metafile.inputs)) {
      inputs[rel] = digestOf(join(repo, rel));
    }
    for (const p of packageJsons()) inputs[relative(repo, p)] = digestOf(p);
    writeFileSync(
      join(staging, MANIFEST),
      `${JSON.stringify({ esbuild: esbuild.version, entry: relative(repo, entry), inputs }, null, 1)}\n`,
    );
    // Into place: the old bundle aside first, then ours; a concurrent builder that won keeps its own.
    const old = `${staging}-old`;
    if (existsSync(REFERENCE_BUNDLE_DIR)) renameSync(REFERENCE_BUNDLE_DIR, old);
    try {
      renameSync(staging, REFERENCE_BUNDLE_DIR);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
    rmSync(old, { recursive: true, force: true });
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  if (!quiet)
    process.stderr.write(
      `bundled the reference implementation into ${relative(repo, REFERENCE_BUNDLE_DIR)}/ in ${Math.round(performance.now() - started)} ms\n`,
    );
  return REFERENCE_BUNDLE;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const file = await ensureReferenceBundle({
    force: args.includes('--force'),
    quiet: args.includes('--quiet'),
  });
  process.stdout.write(`${file}\n`);
}
