// @module-tag unit
// Tests import another package's code by its name (its exports), or from a helpers folder, never
// by a relative path into that package's directory (DEVELOPERS.md, the house rules): a relative
// import skips the package's exports, so a test can pass on code no user can reach. Every file of
// a test/ folder (tests and their helpers) is read; a relative specifier that lands in the
// directory of another workspace package (packages/* or examples/* with a package.json) fails.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE = /\.(ts|mts|js|mjs)$/;
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The files below `dir` (relative to the root), without node_modules. */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    if (name === 'node_modules') continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) out.push(...filesBelow(rel));
    else if (SOURCE.test(name)) out.push(rel);
  }
  return out;
}

/** Every file of a test/ folder: the root's and each package's. */
function testTreeFiles(): string[] {
  const dirs = ['test'];
  for (const group of ['packages', 'examples'])
    for (const name of readdirSync(join(root, group)).sort())
      if (existsSync(join(root, group, name, 'test'))) dirs.push(`${group}/${name}/test`);
  return dirs.flatMap(filesBelow);
}

/** The workspace package directory (`packages/x`) a repository path lies in, or null. */
function packageOf(rel: string): string | null {
  const m = /^(packages|examples)\/([^/]+)\//.exec(rel);
  return m && existsSync(join(root, m[1]!, m[2]!, 'package.json')) ? `${m[1]}/${m[2]}` : null;
}

/** `file -> target` for each relative import of `text` (in `file`) into another package. */
function crossPackageImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(RELATIVE)) {
    const target = relative(root, resolve(dirname(join(root, file)), m[1]!))
      .split(sep)
      .join('/');
    const to = packageOf(target);
    if (to !== null && to !== packageOf(file)) out.push(`${file} -> ${target}`);
  }
  return out;
}

/** An import statement of `specifier`, built so that this file's own source holds none. */
const importOf = (specifier: string) => ['import { a } from ', `'${specifier}';`].join('');

describe('relative imports of tests', () => {
  it('are found: a root test or another package importing a package by path is named', () => {
    expect(
      crossPackageImports('test/integration/x.test.ts', importOf('../../packages/cli/src/otel/judge.ts')),
    ).toEqual(['test/integration/x.test.ts -> packages/cli/src/otel/judge.ts']);
    expect(
      crossPackageImports(
        'packages/harness/test/x.test.ts',
        ['const m = await import(', `'../../store/src/index.ts');`].join(''),
      ),
    ).toEqual(['packages/harness/test/x.test.ts -> packages/store/src/index.ts']);
    expect(crossPackageImports('packages/harness/test/x.test.ts', importOf('../src/index.ts'))).toEqual([]);
    expect(crossPackageImports('test/suite/x.test.ts', importOf('../../tooling/vitest/suites.ts'))).toEqual(
      [],
    );
  });

  it('never land in another workspace package', () => {
    const files = testTreeFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => crossPackageImports(f, readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });
});
