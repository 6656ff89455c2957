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
// Usage: node scripts/bundle-reference.mjs
// [reference|cli|cli-published|fault-store-fake|store-children] [--force] [--quiet]; prints the
// path of the bundle's entry. The `cli` target is the CLI for the tests (packages/cli/.bundle/),
// `cli-published` the CLI as packages/cli's build publishes it (packages/cli/dist/, always
// rebuilt: it keeps no bundle.json), `fault-store-fake` the fault-matrix tests' broken store
// (packages/store/.fault-fake/), `store-children` the child processes of the store's tests
// (packages/store/.test-children/, one `<name>.mjs` each; it prints the first).
// As a module: `await ensureReferenceBundle()` resolves to that path.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const reference = join(repo, 'examples/reference-node');
/** Where the bundle lives: one level below the reference's root, as src/ is (store.ts finds conformance-project/ from there). */
export const REFERENCE_BUNDLE_DIR = join(reference, 'dist');
/** The bundle's entry point: `node <this>` is the reference implementation. */
export const REFERENCE_BUNDLE = join(REFERENCE_BUNDLE_DIR, 'main.mjs');
const MANIFEST = 'bundle.json';

/**
 * `import.meta.url` of a module of the repository, as the module's own source URL: the CLI finds
 * the kit's data and its package.json relative to its source files, wherever its bundle is.
 */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${join('/', 'node_modules', '/')}`) || !args.path.startsWith(repo))
        return undefined;
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/** The package.json of the workspace package a file of the repository belongs to, with its directory. */
function owningPackage(file) {
  for (let dir = dirname(file); dir.startsWith(repo) && dir !== repo; dir = dirname(dir)) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) return { dir, pkg: JSON.parse(readFileSync(p, 'utf8')) };
  }
  return null;
}

const CLI_DIR = join(repo, 'packages/cli');
/** Where the published CLI's bundle goes: packages/cli/dist/ (bin/agent-contracts.js imports its bin.mjs). */
const CLI_PUBLISHED_DIR = join(CLI_DIR, 'dist');

/**
 * `import.meta.url` of a module of the published CLI, as where that module is installed: the CLI
 * finds the kit, its package.json and examples/broken relative to its own files. A file of the
 * CLI is where tsc would write it (packages/cli/src/<path>.ts as packages/cli/dist/<path>.js; the
 * bundle's files are in packages/cli/dist/ itself); a file of another workspace package is that package's file where it
 * is installed, found by package resolution from the bundle (`import.meta.resolve` of its
 * package.json, which every package exports). Nothing of the machine that built it is kept.
 */
const installedUrls = {
  name: 'installed-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs|js)$/ }, async (args) => {
      if (args.path.includes(`${join('/', 'node_modules', '/')}`) || !args.path.startsWith(repo))
        return undefined;
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      let url;
      if (args.path.startsWith(join(CLI_DIR, 'src/'))) {
        const rel = relative(join(CLI_DIR, 'src'), args.path).replace(/\.ts$/, '.js');
        url = `new URL(${JSON.stringify(`./${rel.split(sep).join('/')}`)}, import.meta.url).href`;
      } else {
        const owner = owningPackage(args.path);
        const cliDependencies =
          JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')).dependencies ?? {};
        if (
          !owner?.pkg.name ||
          !owner.pkg.exports?.['./package.json'] ||
          owner.pkg.private ||
          !(owner.pkg.name in cliDependencies)
        )
          return {
            errors: [
              {
                text: `${relative(repo, args.path)} reads import.meta.url but is not in a published package that exports ./package.json and that the CLI depends on (the bundle finds the file where that package is installed)`,
              },
            ],
          };
        const rel = relative(owner.dir, args.path).split(sep).join('/');
        url = `new URL(${JSON.stringify(rel)}, import.meta.resolve(${JSON.stringify(`${owner.pkg.name}/package.json`)})).href`;
      }
      return {
        contents: text.replaceAll('import.meta.url', `(${url})`),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/** What can be bundled, where it goes and what stays a runtime import. */
const TARGETS = {
  // The reference implementation, for the main job (and the tests that start it).
  reference: {
    entry: join(reference, 'src/main.ts'),
    dir: REFERENCE_BUNDLE_DIR,
    main: REFERENCE_BUNDLE,
    staging: (tag) => join(reference, `.dist-${tag}`),
    external: ['better-sqlite3', 'pg', 'pg-native'],
    plugins: [],
  },
  // The CLI, for the tests that run it as a process (tooling/test-helpers/run-cli.ts): the same
  // code as from its sources, without a TypeScript loader in every process.
  cli: {
    entry: join(repo, 'packages/cli/src/bin.ts'),
    dir: join(repo, 'packages/cli/.bundle'),
    main: join(repo, 'packages/cli/.bundle/bin.mjs'),
    staging: (tag) => join(repo, `packages/cli/.bundle-${tag}`),
    external: ['better-sqlite3', 'pg', 'pg-native', 'playwright-core'],
    plugins: [sourceUrls],
    // The CommonJS packages it bundles (cli-progress) require Node's modules.
    banner:
      "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  // The published CLI (packages/cli's build): the same code as one bundle, so that a command
  // loads only the modules it uses (the packages' barrels are tree-shaken) from a few files
  // instead of hundreds, with no path of the machine that built it (see installedUrls).
  'cli-published': {
    entry: join(CLI_DIR, 'src/bin.ts'),
    dir: CLI_PUBLISHED_DIR,
    main: join(CLI_PUBLISHED_DIR, 'bin.mjs'),
    staging: (tag) => join(CLI_DIR, `.dist-${tag}`),
    // The kit is data found where it is installed (its own index.js), not bundled.
    external: ['better-sqlite3', 'pg', 'pg-native', 'playwright-core', '@agent-contracts/kit'],
    plugins: [installedUrls],
    banner:
      "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    // What a user installs holds no record of the machine that built it.
    manifest: false,
    // It is published: the notices of the third-party code it copies go with it.
    licenses: 'THIRD_PARTY_LICENSES.txt',
  },
  // The fault-matrix tests' broken store (packages/harness/test/fakes/fault-store-impl.ts), which
  // their scenarios start dozens of times: the same code without a TypeScript loader in each.
  // It goes into the store's package, whose node_modules hold the drivers it loads at run time.
  'fault-store-fake': {
    entry: join(repo, 'packages/harness/test/fakes/fault-store-impl.ts'),
    dir: join(repo, 'packages/store/.fault-fake'),
    main: join(repo, 'packages/store/.fault-fake/fault-store-impl.mjs'),
    staging: (tag) => join(repo, `packages/store/.fault-fake-${tag}`),
    external: ['better-sqlite3', 'pg', 'pg-native'],
    plugins: [],
  },
  // The child processes of the store's crash, race and evidence tests
  // (packages/store/test/helpers/*-child.ts), which those tests start about sixty times: one
  // module each (`<name>.mjs`), the same code without a TypeScript loader in every process. They
  // go into the store's package, whose node_modules hold the drivers they load at run time.
  'store-children': {
    entry: join(repo, 'packages/store/test/helpers/crash-child.ts'),
    entries: ['crash-child', 'race-child', 'evidence-child'].map((n) =>
      join(repo, `packages/store/test/helpers/${n}.ts`),
    ),
    dir: join(repo, 'packages/store/.test-children'),
    main: join(repo, 'packages/store/.test-children/crash-child.mjs'),
    staging: (tag) => join(repo, `packages/store/.test-children-${tag}`),
    external: ['better-sqlite3', 'pg', 'pg-native'],
    plugins: [],
  },
};

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

/**
 * The version of the esbuild this script would build with, read from its package.json without
 * loading it: a process that finds its bundle fresh (every shim of examples/broken, once per
 * broken implementation's process) does not pay for loading esbuild (about 35 ms of CPU).
 */
const esbuildVersion = () =>
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')).version;

/** Whether the bundle on disk was built from exactly the files there now. */
function fresh(target, esbuildVersion) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(target.dir, MANIFEST), 'utf8'));
  } catch {
    return false;
  }
  if (manifest?.esbuild !== esbuildVersion || !manifest.inputs || !existsSync(target.main)) return false;
  const inputs = Object.entries(manifest.inputs);
  const pkgs = packageJsons().map((p) => relative(repo, p));
  if (pkgs.some((p) => !(p in manifest.inputs))) return false;
  if (!(relative(repo, fileURLToPath(import.meta.url)) in manifest.inputs)) return false;
  return inputs.every(([rel, digest]) => digestOf(join(repo, rel)) === digest);
}

/** esbuild's options for `target`, writing into `outdir`. */
function buildOptions(target, outdir) {
  return {
    absWorkingDir: repo,
    entryPoints: target.entries ?? [target.entry],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    conditions: ['@agent-contracts/source'],
    // Native or optional drivers are loaded from node_modules, as the sources load them.
    external: target.external,
    plugins: target.plugins,
    ...(target.banner ? { banner: { js: target.banner } } : {}),
    // Whitespace and syntax only: names stay as written, for the stack traces on stderr.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * The esbuild metafile of a target's bundle, built in memory with the options of
 * {@link ensureBundle} and written nowhere: which source files land in which output file, and
 * which outputs import which (tests hold a command's static imports free of lazily loaded code).
 */
export async function bundleMetafile(name) {
  const target = TARGETS[name];
  if (!target) throw new Error(`no bundle target ${name}; targets: ${Object.keys(TARGETS).join(', ')}`);
  const esbuild = await import('esbuild');
  const result = await esbuild.build({ ...buildOptions(target, join(repo, '.metafile-only')), write: false });
  return result.metafile;
}

/**
 * Build the bundle unless it is fresh; resolves to the path of main.mjs. Safe to call from
 * several processes at once: each builds into a directory of its own and renames it into place.
 */
export async function ensureReferenceBundle({ force = false, quiet = true } = {}) {
  return ensureBundle('reference', { force, quiet });
}

/** {@link ensureReferenceBundle} for any of the targets (`reference`, `cli`). */
export async function ensureBundle(name, { force = false, quiet = true } = {}) {
  const target = TARGETS[name];
  if (!target) throw new Error(`no bundle target ${name}; targets: ${Object.keys(TARGETS).join(', ')}`);
  if (!force && fresh(target, esbuildVersion())) return target.main;
  const esbuild = await import('esbuild');
  const started = performance.now();
  // Built at the same depth as the bundle's place (see REFERENCE_BUNDLE_DIR), then renamed.
  const staging = target.staging(`${process.pid}-${Date.now().toString(36)}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const result = await esbuild.build(buildOptions(target, staging));
    if (target.licenses) {
      const { thirdPartyLicenses } = await import('./lib/third-party-licenses.mjs');
      writeFileSync(join(staging, target.licenses), thirdPartyLicenses(repo, result.metafile));
    }
    if (target.manifest !== false) {
      const inputs = {};
      for (const rel of Object.keys(result.metafile.inputs)) {
        inputs[rel] = digestOf(join(repo, rel));
      }
      for (const p of packageJsons()) inputs[relative(repo, p)] = digestOf(p);
      // This script too: its options make the bundle.
      inputs[relative(repo, fileURLToPath(import.meta.url))] = digestOf(fileURLToPath(import.meta.url));
      writeFileSync(
        join(staging, MANIFEST),
        `${JSON.stringify({ esbuild: esbuild.version, entry: relative(repo, target.entry), inputs }, null, 1)}\n`,
      );
    }
    // Into place: the old bundle aside first, then ours; a concurrent builder that won keeps its own.
    const old = `${staging}-old`;
    if (existsSync(target.dir)) renameSync(target.dir, old);
    try {
      renameSync(staging, target.dir);
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
      `bundled ${{ cli: 'the CLI', 'cli-published': 'the published CLI', reference: 'the reference implementation' }[name] ?? name} into ${relative(repo, target.dir)}/ in ${Math.round(performance.now() - started)} ms\n`,
    );
  return target.main;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const name = args.find((a) => !a.startsWith('--')) ?? 'reference';
  const file = await ensureBundle(name, {
    force: args.includes('--force'),
    quiet: args.includes('--quiet'),
  });
  process.stdout.write(`${file}\n`);
}
