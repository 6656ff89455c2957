// @module-tag integration
// `agent-contracts docs` and the docs/ paths every command prints: each names a page the kit
// installs, as a path that exists from where the CLI runs.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages } from '../src/commands/docs/index.ts';
import { docPath, docRefs } from '../src/doc-path.ts';
import { main } from '../src/main.ts';
import { memoryIo, repoRoot, runCli, tempDir } from './helpers.ts';

/** The file of a printed `path#anchor`, resolved against `cwd`. */
const fileOf = (printed: string, cwd: string) => {
  const path = printed.split('#')[0]!;
  return isAbsolute(path) ? path : join(cwd, path);
};

describe('agent-contracts docs', () => {
  it('lists every page with its title', async () => {
    const io = memoryIo();
    expect(await main(['docs'], io)).toBe(0);
    expect(io.stdout).toMatch(/^ {2}protocol +Conformance protocol, version 1$/m);
    expect(io.stdout).toMatch(/^ {2}cli +`agent-contracts` command line$/m);
    expect(io.stdout).toMatch(/^ {2}spec\/task-continuity-write-gate +TaskContinuityWriteGate$/m);
    expect(io.stdout).toContain("The kit's docs are installed at docs/\n");
  });

  it('lists the pages of a folder top level first, and refuses one it cannot list in full', () => {
    const { dir, cleanup } = tempDir();
    try {
      mkdirSync(join(dir, 'spec'));
      for (const f of ['spec/b.md', 'spec/a.md', 'z.md', 'notes.txt']) writeFileSync(join(dir, f), '# t\n');
      expect(docPages(dir).map((p) => p.page)).toEqual(['z.md', 'spec/a.md', 'spec/b.md']);
      // A linked folder is not followed: the docs cannot be listed, rather than a page fewer.
      mkdirSync(join(dir, 'elsewhere'));
      symlinkSync(join(dir, 'elsewhere'), join(dir, 'linked'));
      expect(() => docPages(dir)).toThrow(expect.objectContaining({ code: 'INPUT_READ_FAILED' }));
      expect(() => docPages(dir)).toThrow(/linked: is a symbolic link to a directory/);
    } finally {
      cleanup();
    }
  });

  it('prints where a page is, by topic, last part or cited path, the anchor kept', async () => {
    for (const [topic, printed] of [
      ['protocol#hello', 'docs/protocol.md#hello'],
      ['task-continuity-write-gate', 'docs/spec/task-continuity-write-gate.md'],
      [
        'docs/spec/index.md#conventions-apply-to-every-page',
        'docs/spec/index.md#conventions-apply-to-every-page',
      ],
    ] as const) {
      const io = memoryIo();
      expect(await main(['docs', topic], io)).toBe(0);
      expect(io.stdout).toBe(`${printed}\n`);
    }
  });

  it('--print prints the page itself', async () => {
    const io = memoryIo();
    expect(await main(['docs', 'cli', '--print'], io)).toBe(0);
    expect(io.stdout).toBe(readFileSync(join(repoRoot, 'docs/cli.md'), 'utf8'));
  });

  it('refuses an unknown topic with DOCS_UNKNOWN_TOPIC and the closest topics', async () => {
    const io = memoryIo();
    expect(await main(['docs', 'protocl'], io)).toBe(2);
    expect(io.stderr).toContain('agent-contracts: DOCS_UNKNOWN_TOPIC: no page "protocl"');
    expect(io.stderr).toContain('did you mean protocol');
    expect(io.stdout).toBe('');
  });

  it('outside the directory of the docs, prints absolute paths that exist', () => {
    const { dir, cleanup } = tempDir();
    try {
      const r = runCli(['docs', 'coverage'], { cwd: dir });
      expect(r.status).toBe(0);
      const printed = r.stdout.trim();
      expect(isAbsolute(printed)).toBe(true);
      expect(readFileSync(printed, 'utf8')).toBe(readFileSync(join(repoRoot, 'docs/coverage.md'), 'utf8'));
      // And the pages a help cites are the same installed pages.
      const help = runCli(['conform', '--help'], { cwd: dir }).stdout;
      expect(help).not.toMatch(/[\s(]docs\/protocol\.md/);
      expect(help).toContain(`${join(repoRoot, 'docs/protocol.md')}`);
      const top = runCli(['--help'], { cwd: dir }).stdout;
      expect(top).not.toContain('github.com');
      expect(top).toContain(`Docs: ${join(repoRoot, 'docs/cli.md')}`);
    } finally {
      cleanup();
    }
  });
});

describe('docPath / docRefs', () => {
  it('resolve a page of the kit from any working directory, and leave other text alone', () => {
    const { dir, cleanup } = tempDir();
    try {
      for (const cwd of [repoRoot, dir]) {
        const p = docPath('docs/protocol.md#framing-and-errors', cwd);
        expect(p.endsWith('protocol.md#framing-and-errors')).toBe(true);
        expect(existsSync(fileOf(p, cwd))).toBe(true);
      }
      expect(docRefs('see docs/no-such-page.md and docs/coverage.md.', dir)).toBe(
        `see docs/no-such-page.md and ${join(repoRoot, 'docs/coverage.md')}.`,
      );
    } finally {
      cleanup();
    }
  });
});
