// pnpm changesets:check --base <ref>: a change since <ref> comes with changesets whose bumps
// cover it.
//   schemas/**/*.schema.json   classified by `agent-contracts schema-diff --json` against the
//                              schemas of <ref>: editorial needs a patch of @agent-contracts/schemas,
//                              compatible or added a minor, breaking or removed a major;
//   packages/<p>/src/**        what <p> publishes: at least a patch of <p>.
// Only changesets added since <ref> count. Exit 0 covered, 1 not, 2 git or usage error.
// Usage: pnpm changesets:check --base <ref> [--root <dir>]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { atLeast, type Bump, pendingBumps } from '../lib/changeset-bumps.js';

const SCHEMAS_PACKAGE = '@agent-contracts/schemas';
const STATUS_BUMP: Record<string, Bump> = {
  identical: 'none',
  editorial: 'patch',
  compatible: 'minor',
  added: 'minor',
  breaking: 'major',
  removed: 'major',
};

const repo = fileURLToPath(new URL('../..', import.meta.url));
const { values } = parseArgs({ options: { base: { type: 'string' }, root: { type: 'string' } } });
if (!values.base) {
  console.error('usage: pnpm changesets:check --base <git ref> [--root <dir>]');
  process.exit(2);
}
const base = values.base;
const root = resolve(values.root ?? repo);

function git(args: string[]): string {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    console.error(`changesets:check: CHANGESET_CHECK_GIT: git ${args.join(' ')}: ${r.stderr.trim()}`);
    process.exit(2);
  }
  return r.stdout;
}

const mergeBase = git(['merge-base', base, 'HEAD']).trim();
const changed = git(['diff', '--name-only', mergeBase]).split('\n').filter(Boolean);
const needed = new Map<string, { bump: Bump; why: string }>();
/** Records that `pkg` needs at least `bump`, keeping the strongest reason. */
const need = (pkg: string, bump: Bump, why: string) => {
  const known = needed.get(pkg);
  if (!known || !atLeast(known.bump, bump)) needed.set(pkg, { bump, why });
};

// Packages by directory.
for (const file of changed) {
  const m = /^packages\/([^/]+)\/src\//.exec(file);
  if (!m) continue;
  const manifest = join(root, 'packages', m[1]!, 'package.json');
  if (!existsSync(manifest)) continue;
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; private?: boolean };
  if (!pkg.private) need(pkg.name, 'patch', `${file} changed`);
}

// Schemas, through schema-diff.
if (changed.some((f) => f.startsWith('schemas/') && f.endsWith('.schema.json'))) {
  const before = mkdtempSync(join(tmpdir(), 'changesets-check-'));
  try {
    const archive = spawnSync('git', ['archive', mergeBase, 'schemas'], {
      cwd: root,
      maxBuffer: 256 * 1024 * 1024,
    });
    mkdirSync(join(before, 'schemas'), { recursive: true });
    if (archive.status === 0 && archive.stdout.length > 0) {
      const tar = spawnSync('tar', ['-x', '-C', before], { input: archive.stdout });
      if (tar.status !== 0) {
        console.error('changesets:check: CHANGESET_CHECK_GIT: cannot unpack the schemas of the base');
        process.exit(2);
      }
    }
    // The CLI from its bundle (scripts/bundle-reference.mjs, rebuilt first when a source changed):
    // the same code as its sources, without compiling them in a TypeScript loader on every check.
    const bundled = spawnSync(
      process.execPath,
      [join(repo, 'scripts/bundle-reference.mjs'), 'cli', '--quiet'],
      {
        encoding: 'utf8',
      },
    );
    if (bundled.status !== 0) {
      console.error(`changesets:check: schema-diff failed: the CLI could not be bundled:\n${bundled.stderr}`);
      process.exit(2);
    }
    const cli = bundled.stdout.trim();
    const diff = spawnSync(
      process.execPath,
      [
        cli,
        'schema-diff',
        '--json',
        '--fail-on',
        'editorial',
        join(before, 'schemas'),
        join(root, 'schemas'),
      ],
      { cwd: repo, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (diff.status !== 0 && diff.status !== 1) {
      console.error(`changesets:check: schema-diff failed:\n${diff.stderr}`);
      process.exit(2);
    }
    const out = JSON.parse(diff.stdout) as { results: { id: string; status: string }[] };
    for (const r of out.results) {
      const bump = STATUS_BUMP[r.status] ?? 'major';
      if (bump !== 'none') need(SCHEMAS_PACKAGE, bump, `${r.id} is ${r.status} (schema-diff)`);
    }
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}

const pending = await pendingBumps(root, mergeBase);
const failures: string[] = [];
for (const [pkg, { bump, why }] of [...needed].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const have = pending.get(pkg) ?? 'none';
  if (atLeast(have, bump)) continue;
  failures.push(
    have === 'none'
      ? `CHANGESET_MISSING: ${pkg} needs a changeset with at least a ${bump} bump (${why}). Run \`pnpm changeset\`.`
      : `CHANGESET_BUMP_TOO_LOW: ${pkg} has a ${have} changeset, but ${why} needs at least ${bump}.`,
  );
}
for (const f of failures) console.error(`changesets:check: ${f}`);
console.log(
  `changesets:check: ${changed.length} files changed since ${base}, ${needed.size} packages need a changeset, ${failures.length} not covered`,
);
process.exit(failures.length ? 1 : 0);
