// @module-tag integration
// @module-tag slow
// scripts/lint-packages.mjs fails a tarball for each thing it checks: a negative control with
// one defect of each kind, beside a tarball that has none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, run } from './helpers/packed-project.js';

const work = mkdtempSync(join(tmpdir(), 'agent-contracts-lint-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tarball of `files` under package/, as npm and pnpm pack them. */
function tarball(dir: string, name: string, files: Record<string, string>): void {
  const src = join(work, `src-${name}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(src, 'package', path, '..'), { recursive: true });
    writeFileSync(join(src, 'package', path), text);
  }
  mkdirSync(dir, { recursive: true });
  const r = run('tar', ['-czf', join(dir, `${name}.tgz`), '-C', src, 'package'], work);
  expect(r.status).toBe(0);
}

const manifest = (extra: object) =>
  JSON.stringify({
    name: 'lint-fixture',
    version: '1.0.0',
    type: 'module',
    description: 'A package for the lint test.',
    license: 'Apache-2.0',
    repository: { type: 'git', url: 'git+https://example.invalid/x.git', directory: 'packages/x' },
    engines: { node: '>=20.11' },
    files: ['index.js', 'index.d.ts'],
    ...extra,
  });

describe('lint-packages', () => {
  it('passes a tarball with nothing wrong', () => {
    const dir = join(work, 'good');
    tarball(dir, 'good', {
      'package.json': manifest({ exports: { '.': { types: './index.d.ts', default: './index.js' } } }),
      'index.js': 'export const x = 1;\n',
      'index.d.ts': 'export declare const x: number;\n',
      'README.md': '# lint-fixture\n',
      LICENSE: 'Apache License\n',
    });
    const r = run(process.execPath, [join(repoRoot, 'scripts/lint-packages.mjs'), dir], repoRoot);
    expect(r.stdout).toContain('1 packages: 1 ok, 0 failing');
    expect(r.status).toBe(0);
  }, 120_000);

  it('fails each defect by name', () => {
    const dir = join(work, 'bad');
    tarball(dir, 'bad', {
      'package.json': manifest({
        exports: { '.': { import: './index.js' }, './gone': './gone.js' },
        dependencies: { other: 'workspace:*' },
        repository: { type: 'git', url: 'git+https://github.com/agent-contracts/agent-contracts.git' },
      }),
      'index.js': "export const x = 1;\nexport const y = () => import('undeclared-pkg/sub');\n",
      'index.js.map': JSON.stringify({ version: 3, sources: ['../src/index.ts'], mappings: '' }),
      'README.md':
        '# lint-fixture\n\nSee [the docs](../../docs/cli.md) and [the protocol](https://github.com/agent-contracts/agent-contracts/blob/main/docs/protocol.md).\n',
    });
    // A TypeScript source apart: attw would take it for types of the other tarball's code.
    tarball(dir, 'bad-ts', {
      'package.json': manifest({ exports: { '.': { types: './index.d.ts', default: './index.js' } } }),
      'index.js': 'export const x = 1;\n',
      'index.d.ts': 'export declare const x: number;\n',
      'lib/other.ts': 'export const z: number = 1;\n',
      'README.md': '# lint-fixture\n',
      LICENSE: 'Apache License\n',
    });
    const r = run(process.execPath, [join(repoRoot, 'scripts/lint-packages.mjs'), dir], repoRoot);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('FAIL bad.tgz');
    expect(r.stdout).toContain('FAIL bad-ts.tgz');
    expect(r.stdout).toContain('no LICENSE');
    expect(r.stdout).toContain('package.json keeps a workspace: range');
    expect(r.stdout).toContain('README.md links ../../docs/cli.md, which is outside the package');
    expect(r.stdout).toContain(
      'README.md links https://github.com/agent-contracts/agent-contracts/blob/main/docs/protocol.md, the placeholder repository URL',
    );
    expect(r.stdout).toContain('index.js.map points at ../src/index.ts, which is not in the tarball');
    expect(r.stdout).toMatch(/publint: .*gone\.js/);
    expect(r.stdout).toContain('attw: the package ships no types');
    expect(r.stdout).toContain('package.json names the placeholder repository URL');
    expect(r.stdout).toContain('lib/other.ts is a TypeScript source: publish dist/ (and .d.ts) only');
    expect(r.stdout).toContain('imports undeclared-pkg, which package.json does not declare');
    expect(r.stdout).toContain('depends on other, which no file of it (JavaScript or .d.ts) imports');
  }, 120_000);

  it('fails types that describe another module format than the code (attw)', () => {
    const dir = join(work, 'mistyped');
    tarball(dir, 'mistyped', {
      'package.json': manifest({
        files: ['index.js', 'index.d.cts'],
        exports: { '.': { types: './index.d.cts', default: './index.js' } },
      }),
      'index.js': 'export const x = 1;\n',
      'index.d.cts': 'declare const x: number;\nexport = x;\n',
      'README.md': '# lint-fixture\n',
      LICENSE: 'Apache License\n',
    });
    const r = run(process.execPath, [join(repoRoot, 'scripts/lint-packages.mjs'), dir], repoRoot);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('attw: FalseCJS');
  }, 120_000);
});
