// @module-tag unit
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The walker reads directories with node:fs's readdirSync; these tests reorder what it lists and
// make a directory unreadable (chmod does not stop root, which runs CI's containers).
const control = vi.hoisted(() => ({ reverse: false, locked: new Set<string>() }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((path: fs.PathLike, options?: unknown) => {
    if (control.locked.has(String(path)))
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${String(path)}'`), {
        code: 'EACCES',
      });
    const entries = real.readdirSync(path, options as never) as unknown[];
    return control.reverse ? [...entries].reverse() : entries;
  }) as typeof real.readdirSync;
  return { ...real, default: { ...real, readdirSync }, readdirSync };
});

const { CaseCorpusError, loadCases, walkFiles, walkProblemLines, WALK_MAX_DEPTH } = await import(
  '../src/index.ts'
);

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(join(tmpdir(), 'walk-'));
  control.reverse = false;
  control.locked.clear();
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (rel: string, text = '{}') => {
  fs.mkdirSync(join(root, rel, '..'), { recursive: true });
  fs.writeFileSync(join(root, rel), text);
};
const rels = (w: { files: readonly { relative: string }[] }) => w.files.map((f) => f.relative);

describe('walkFiles', () => {
  it('lists the matching files by their path below the root, whatever order readdir gives', () => {
    for (const f of ['b.json', 'a/x.json', 'a-b.json', 'a/c/d.json', 'A.json', 'notes.md', 'a/y.txt'])
      write(f);
    const forward = walkFiles(root, { suffix: '.json' });
    control.reverse = true;
    const reversed = walkFiles(root, { suffix: '.json' });
    // By full path, as Array.prototype.sort orders the paths ('-' sorts before '/').
    expect(rels(forward)).toEqual(['A.json', 'a-b.json', 'a/c/d.json', 'a/x.json', 'b.json']);
    expect(rels(reversed)).toEqual(rels(forward));
    expect(forward.files[2]).toEqual({ path: join(root, 'a', 'c', 'd.json'), relative: 'a/c/d.json' });
    expect(forward.problems).toEqual([]);
  });

  it('is empty when the root is absent, and says so when the root is a file', () => {
    expect(walkFiles(join(root, 'absent'), { suffix: '.json' })).toEqual({ files: [], problems: [] });
    write('file.json');
    const w = walkFiles(join(root, 'file.json'), { suffix: '.json' });
    expect(w.files).toEqual([]);
    expect(w.problems).toEqual([
      { path: join(root, 'file.json'), relative: '', reason: 'is not a directory; name a directory' },
    ]);
    expect(walkProblemLines('cases', w)).toEqual(['cases: is not a directory; name a directory']);
  });

  it('follows a link to a file, never a link to a directory, so a loop ends the walk', () => {
    write('real/a.json');
    write('outside/b.json');
    fs.symlinkSync(join(root, 'real', 'a.json'), join(root, 'real', 'linked.json'));
    fs.symlinkSync('..', join(root, 'real', 'loop'));
    fs.symlinkSync(join(root, 'outside'), join(root, 'real', 'elsewhere.json'));
    fs.symlinkSync(join(root, 'nowhere.json'), join(root, 'real', 'broken.json'));
    fs.symlinkSync('self.json', join(root, 'real', 'self.json'));
    fs.symlinkSync(join(root, 'nowhere'), join(root, 'real', 'broken-other'));
    const w = walkFiles(join(root, 'real'), { suffix: '.json' });
    expect(rels(w)).toEqual(['a.json', 'linked.json']);
    expect(walkProblemLines('real', w)).toEqual([
      'real/broken.json: is a broken symbolic link; remove it or fix its target',
      'real/elsewhere.json: is a symbolic link to a directory, which is not followed; copy the files in',
      'real/loop: is a symbolic link to a directory, which is not followed; copy the files in',
      'real/self.json: is a broken symbolic link; remove it or fix its target',
    ]);
  });

  it('reports a directory it cannot read and goes on with the others', () => {
    write('a/one.json');
    write('b/two.json');
    write('c/three.json');
    control.locked.add(join(root, 'b'));
    const w = walkFiles(root, { suffix: '.json' });
    expect(rels(w)).toEqual(['a/one.json', 'c/three.json']);
    expect(walkProblemLines('cases', w)).toEqual(['cases/b: cannot be read (EACCES); check its permissions']);
  });

  it('reports an entry that matches but is not a regular file, without opening it', async () => {
    write('a.json');
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(join(root, 'socket.json'), done));
    try {
      const w = walkFiles(root, { suffix: '.json' });
      expect(rels(w)).toEqual(['a.json']);
      expect(walkProblemLines('x', w)).toEqual([
        'x/socket.json: is not a regular file (a socket), so it was not read',
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('reads no deeper than maxDepth directories and reports the first one it leaves', () => {
    write('top.json');
    write('1/one.json');
    write('1/2/two.json');
    write('1/2/3/three.json');
    write('1/2/3/4/four.json');
    const w = walkFiles(root, { suffix: '.json', maxDepth: 2 });
    expect(rels(w)).toEqual(['1/2/two.json', '1/one.json', 'top.json']);
    expect(walkProblemLines('r', w)).toEqual([
      'r/1/2/3: is deeper than 2 directories below the root; move its files up',
    ]);
  });

  it('bounds the depth by default', () => {
    const deep = Array.from({ length: WALK_MAX_DEPTH + 1 }, (_, i) => `d${i}`);
    write(`${deep.slice(0, WALK_MAX_DEPTH).join('/')}/kept.json`);
    write(`${deep.join('/')}/lost.json`);
    const w = walkFiles(root, { suffix: '.json' });
    expect(rels(w)).toEqual([`${deep.slice(0, WALK_MAX_DEPTH).join('/')}/kept.json`]);
    expect(w.problems.map((p) => p.relative)).toEqual([deep.join('/')]);
  });
});

describe('the corpus loaders walk with it', () => {
  it('a case tree with a linked directory is a broken corpus, not a smaller one', () => {
    fs.mkdirSync(join(root, 'cases'));
    fs.mkdirSync(join(root, 'elsewhere'));
    fs.symlinkSync(join(root, 'elsewhere'), join(root, 'cases', 'more'));
    expect(() => loadCases(root)).toThrow(CaseCorpusError);
    expect(() => loadCases(root)).toThrow(
      'cases/more: is a symbolic link to a directory, which is not followed; copy the files in',
    );
  });
});
