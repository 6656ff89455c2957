// @module-tag integration
// @module-tag slow
// Versions come from changesets: the fixed group is every published package; changesets:check
// (in a temporary git repository) wants a changeset whose bump covers what schema-diff
// classifies and every change of a package's sources; `changeset version` (in a temporary copy
// of this repository's manifests and pending changesets) gives the versions and changelogs the
// fixed group promises.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitIn } from './helpers/git.js';
import { repoRoot, run } from './helpers/packed-project.js';

const config = JSON.parse(readFileSync(join(repoRoot, '.changeset/config.json'), 'utf8'));
const published = readdirSync(join(repoRoot, 'packages'))
  .map((d) => JSON.parse(readFileSync(join(repoRoot, 'packages', d, 'package.json'), 'utf8')))
  .filter((p) => p.private !== true)
  .map((p) => p.name as string)
  .sort();

describe('changeset config', () => {
  it('one fixed group holds every published package, and private examples are not versioned', () => {
    expect(config.fixed).toHaveLength(1);
    expect([...config.fixed[0]].sort()).toEqual(published);
    expect(config.linked).toEqual([]);
    expect(config.privatePackages).toEqual({ version: false, tag: false });
  });
});

describe('changesets:check', () => {
  let repo = '';
  const git = gitIn(() => repo);
  const schemaFile = () => join(repo, 'schemas/contracts/IntentSeedV1.schema.json');
  const editSchema = (edit: (s: { description: string; required: string[]; properties: object }) => object) =>
    writeFileSync(
      schemaFile(),
      `${JSON.stringify(edit(JSON.parse(readFileSync(schemaFile(), 'utf8'))), null, 2)}\n`,
    );
  const changeset = (name: string, releases: Record<string, string>) =>
    writeFileSync(
      join(repo, `.changeset/${name}.md`),
      `---\n${Object.entries(releases)
        .map(([p, b]) => `"${p}": ${b}`)
        .join('\n')}\n---\n\nA change.\n`,
    );
  const check = () =>
    run(
      join(repoRoot, 'node_modules/.bin/tsx'),
      [
        '--conditions=@agent-contracts/source',
        'scripts/changesets/check.ts',
        '--base',
        'base',
        '--root',
        repo,
      ],
      repoRoot,
    );
  /** A fresh branch from the base for each case: commit what the case changed, then check. */
  const commitAndCheck = () => {
    git('add', '-A');
    git('commit', '--quiet', '--allow-empty', '-m', 'change');
    return check();
  };

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'agent-contracts-changesets-'));
    mkdirSync(join(repo, 'schemas/contracts'), { recursive: true });
    cpSync(join(repoRoot, 'schemas/contracts/IntentSeedV1.schema.json'), schemaFile());
    mkdirSync(join(repo, 'packages/digest/src'), { recursive: true });
    writeFileSync(
      join(repo, 'packages/digest/package.json'),
      '{ "name": "@agent-contracts/digest", "version": "1.0.0" }\n',
    );
    writeFileSync(join(repo, 'packages/digest/src/index.ts'), 'export const a = 1;\n');
    mkdirSync(join(repo, '.changeset'));
    cpSync(join(repoRoot, '.changeset/config.json'), join(repo, '.changeset/config.json'));
    git('init', '--quiet', '--initial-branch=main');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'base');
    git('tag', 'base');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const fresh = (branch: string) => git('checkout', '--quiet', '-b', branch, 'base');

  it('nothing changed: nothing needed', () => {
    fresh('nothing');
    const r = commitAndCheck();
    expect(r.stdout).toContain('0 packages need a changeset');
    expect(r.status).toBe(0);
  });

  it('an editorial schema change needs a patch of the schemas package', () => {
    fresh('editorial');
    editSchema((s) => ({ ...s, description: `${s.description} Reworded.` }));
    let r = commitAndCheck();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'CHANGESET_MISSING: @agent-contracts/schemas needs a changeset with at least a patch bump',
    );
    expect(r.stderr).toContain('IntentSeedV1.schema.json is editorial (schema-diff)');
    changeset('reword', { '@agent-contracts/schemas': 'patch' });
    r = commitAndCheck();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a compatible schema change needs a minor: a patch is too low', () => {
    fresh('compatible');
    editSchema((s) => ({ ...s, required: s.required.filter((p) => p !== 'confidence') }));
    changeset('widen', { '@agent-contracts/schemas': 'patch' });
    let r = commitAndCheck();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('CHANGESET_BUMP_TOO_LOW: @agent-contracts/schemas has a patch changeset');
    expect(r.stderr).toContain('is compatible (schema-diff) needs at least minor');
    changeset('widen', { '@agent-contracts/schemas': 'minor' });
    r = commitAndCheck();
    expect(r.status).toBe(0);
  });

  it('a breaking schema change needs a major: a minor is too low', () => {
    fresh('breaking');
    editSchema((s) => ({ ...s, required: [...s.required, 'reviewer'] }));
    changeset('narrow', { '@agent-contracts/schemas': 'minor' });
    let r = commitAndCheck();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is breaking (schema-diff) needs at least major');
    changeset('narrow', { '@agent-contracts/schemas': 'major' });
    r = commitAndCheck();
    expect(r.status).toBe(0);
  });

  it("a change to a package's sources needs a changeset of that package", () => {
    fresh('source');
    writeFileSync(join(repo, 'packages/digest/src/index.ts'), 'export const a = 2;\n');
    changeset('other', { '@agent-contracts/schemas': 'minor' });
    let r = commitAndCheck();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'CHANGESET_MISSING: @agent-contracts/digest needs a changeset with at least a patch bump',
    );
    changeset('digest', { '@agent-contracts/digest': 'patch' });
    r = commitAndCheck();
    expect(r.status).toBe(0);
  });

  it('an unknown base is a git error, exit 2', () => {
    const r = run(
      join(repoRoot, 'node_modules/.bin/tsx'),
      [
        '--conditions=@agent-contracts/source',
        'scripts/changesets/check.ts',
        '--base',
        'no-such-ref',
        '--root',
        repo,
      ],
      repoRoot,
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CHANGESET_CHECK_GIT');
  });
});

describe('changeset version, in a temporary copy', () => {
  let copy = '';
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'agent-contracts-version-'));
    for (const f of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(repoRoot, f), join(copy, f));
    cpSync(join(repoRoot, '.changeset'), join(copy, '.changeset'), { recursive: true });
    for (const group of ['packages', 'examples'])
      for (const d of readdirSync(join(repoRoot, group))) {
        try {
          const text = readFileSync(join(repoRoot, group, d, 'package.json'), 'utf8');
          mkdirSync(join(copy, group, d), { recursive: true });
          writeFileSync(join(copy, group, d, 'package.json'), text);
        } catch {}
      }
    // The changelog generator named in config.json resolves from the copy's node_modules.
    symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('bumps every published package to one version, writes their changelogs, leaves examples alone', () => {
    const pending = readdirSync(join(copy, '.changeset')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    expect(pending.length).toBeGreaterThan(0);
    const before = JSON.parse(readFileSync(join(copy, 'packages/cli/package.json'), 'utf8'))
      .version as string;
    const r = run(join(repoRoot, 'node_modules/.bin/changeset'), ['version'], copy);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    // Every pending changeset is at most minor and the group is at 0.x: one minor for everyone.
    const [major, minor] = before.split('.').map(Number) as [number, number];
    const expected = `${major}.${minor + 1}.0`;
    for (const name of published) {
      const dir = name.replace('@agent-contracts/', '');
      const pkg = JSON.parse(readFileSync(join(copy, 'packages', dir, 'package.json'), 'utf8'));
      expect(pkg.version, name).toBe(expected);
      for (const [dep, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }))
        if (dep.startsWith('@agent-contracts/')) expect(range, `${name} -> ${dep}`).toBe('workspace:*');
      const changelog = readFileSync(join(copy, 'packages', dir, 'CHANGELOG.md'), 'utf8');
      expect(changelog.startsWith(`# ${name}\n\n## ${expected}\n`)).toBe(true);
    }
    expect(readFileSync(join(copy, 'packages/kit/CHANGELOG.md'), 'utf8')).toContain(
      'New package `@agent-contracts/kit`',
    );
    expect(JSON.parse(readFileSync(join(copy, 'examples/reference-node/package.json'), 'utf8')).version).toBe(
      '0.0.0',
    );
    expect(readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md'))).toEqual(['README.md']);
  });
});
