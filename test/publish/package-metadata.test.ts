// @module-tag unit
// Every published package carries what a registry user needs: a description, the Node range, an
// explicit file list, a prepack that builds, a README whose links survive the tarball, and only
// export targets that ship: dist/ and data, never the TypeScript sources (publishConfig.exports
// is the exports map without the workspace's `@agent-contracts/source` condition). The packed tarballs are checked in
// installed.test.ts; this is the cheap part, on the package.json files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

interface Manifest {
  name: string;
  private?: boolean;
  description?: string;
  license?: string;
  repository?: unknown;
  engines?: { node?: string };
  files?: string[];
  scripts?: Record<string, string>;
  exports?: Record<string, unknown>;
  publishConfig?: { exports?: Record<string, unknown> };
  dependencies?: Record<string, string>;
}

const published = readdirSync(join(root, 'packages'))
  .sort()
  .map((dir) => ({
    dir,
    pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ pkg }) => pkg.private !== true);

/** Every string target of an exports map, through nested conditions. */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

describe('published packages', () => {
  it('are all of packages/ and include the kit data package', () => {
    expect(published.map((p) => p.pkg.name)).toContain('@agent-contracts/kit');
    expect(published.length).toBeGreaterThanOrEqual(11);
  });

  it('the repository has the LICENSE its package.json names', () => {
    expect(rootPkg.license).toBe('Apache-2.0');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(
      /Apache License\s+Version 2\.0, January 2004/,
    );
  });

  for (const { dir, pkg } of published) {
    describe(pkg.name, () => {
      it('has the metadata a registry shows', () => {
        expect(pkg.description?.length ?? 0).toBeGreaterThan(40);
        expect(pkg.license).toBe(rootPkg.license);
        // No repository URL until there is a public one: a placeholder sends users nowhere.
        expect(pkg.repository).toBeUndefined();
        expect(pkg.engines?.node).toBe(rootPkg.engines.node);
      });

      it('builds before it is packed', () => {
        expect(pkg.scripts?.prepack).toBe('node ../../scripts/prepack.mjs');
        expect(pkg.scripts?.build).toBeTruthy();
      });

      it('publishes every export target, and no TypeScript source', () => {
        expect(pkg.files?.length ?? 0).toBeGreaterThan(0);
        expect(pkg.files).not.toContain('src');
        const shipped = (target: string) => {
          const first = target.replace(/^\.\//, '').split('/')[0] ?? '';
          return first === 'package.json' || (pkg.files ?? []).includes(first);
        };
        const publishedExports = pkg.publishConfig?.exports ?? pkg.exports;
        for (const target of targets(publishedExports)) expect(shipped(target), target).toBe(true);
        // What is published is the workspace's map without its source condition, subpath for subpath.
        const withoutSource = (v: unknown): unknown =>
          v && typeof v === 'object'
            ? Object.fromEntries(
                Object.entries(v)
                  .filter(([c]) => c !== '@agent-contracts/source')
                  .map(([c, t]) => [c, withoutSource(t)]),
              )
            : v;
        if (existsSync(join(root, 'packages', dir, 'src')) && pkg.exports)
          expect(publishedExports).toEqual(withoutSource(pkg.exports));
      });

      it('has a README whose links do not leave the package', () => {
        const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
        expect(readme.startsWith(`# ${pkg.name}\n`)).toBe(true);
        expect(readme).not.toMatch(/\]\(\.\.\//);
      });
    });
  }

  it('the CLI needs no native module: nothing it installs depends on the store', () => {
    const byName = new Map(published.map(({ pkg }) => [pkg.name, pkg]));
    const seen = new Set<string>();
    const visit = (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const dep of Object.keys(byName.get(name)?.dependencies ?? {})) visit(dep);
    };
    visit('@agent-contracts/cli');
    expect(seen).toContain('@agent-contracts/kit');
    expect(seen).not.toContain('@agent-contracts/store');
    expect(seen).not.toContain('better-sqlite3');
  });
});
