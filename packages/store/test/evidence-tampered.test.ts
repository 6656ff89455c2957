// @module-tag unit
// The evidence verifier against a file system that changes under it, at each step of its read:
// between the lstat and the open, between the open and the read, during the read and after it.
// Each change is made by a hook on one `node:fs` call (helpers/tampered-fs.ts), so that it lands
// at exactly that step on every run; each test changes one thing only, so that each check of the
// verifier is the one that refuses.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_EVIDENCE_BYTES, evidenceVerifier } from '../src/evidence.ts';
import { withTamperedFs } from './helpers/tampered-fs.js';

const root = mkdtempSync(join(tmpdir(), 'agent-contracts-evidence-tampered-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh file under the root with `text`, its mtime set to a whole second (2020-01-01). */
function file(text: string | Buffer): { path: string; abs: string } {
  const path = `f-${++n}.md`;
  const abs = join(root, path);
  writeFileSync(abs, text);
  utimesSync(abs, SECOND, SECOND);
  return { path, abs };
}
const SECOND = 1_577_836_800;
const itemOf = (path: string, bytes = readFileSync(join(root, path))): TaskTerminalEvidenceItemV1 =>
  ({
    role: 'change-record',
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  }) as TaskTerminalEvidenceItemV1;
const verify = (item: TaskTerminalEvidenceItemV1) => evidenceVerifier(root)([item]);
const code = (r: ReturnType<typeof verify>) => (r.ok ? 'ok' : r.code);

describe('evidenceVerifier: the file as it is', () => {
  it('accepts a one-byte file (the smallest valid file)', () => {
    const f = file('x');
    expect(verify(itemOf(f.path))).toEqual({ ok: true });
  });

  it('refuses an empty file with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const f = file('');
    expect(code(verify({ ...itemOf(f.path, Buffer.from('x')) }))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID');
  });

  it('accepts a file whose name starts with two dots', () => {
    writeFileSync(join(root, '..dots.md'), 'dots\n');
    expect(verify(itemOf('..dots.md'))).toEqual({ ok: true });
  });

  it('refuses a path above the root with TASK_TERMINAL_EVIDENCE_SCOPE_INVALID, even one that does not exist', () => {
    const ok = itemOf(file('x').path);
    for (const path of ['../no-such-file.md', '../../no/such/file.md'])
      expect(code(verify({ ...ok, path })), path).toBe('TASK_TERMINAL_EVIDENCE_SCOPE_INVALID');
  });

  it('refuses a link to a file outside the root with TASK_TERMINAL_EVIDENCE_SCOPE_INVALID', () => {
    const outside = mkdtempSync(join(tmpdir(), 'agent-contracts-evidence-outside-'));
    try {
      writeFileSync(join(outside, 'secret.md'), 'secret\n');
      symlinkSync(join(outside, 'secret.md'), join(root, 'link-out.md'));
      expect(code(verify({ ...itemOf('link-out.md', Buffer.from('secret\n')) }))).toBe(
        'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
      );
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses an item whose bytes is not a positive integer with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH', () => {
    const ok = itemOf(file('x').path);
    for (const bytes of [0, -1, 0.5, Number.NaN, 2 ** 53])
      expect(code(verify({ ...ok, bytes })), String(bytes)).toBe('TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH');
  });

  it('refuses an item over the default limit with TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE before reading it', () => {
    const f = file('x');
    const item = itemOf(f.path);
    const reads = withTamperedFs({ readSync: (orig) => orig }, () => {
      expect(code(verify({ ...item, bytes: DEFAULT_MAX_EVIDENCE_BYTES + 1 }))).toBe(
        'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE',
      );
    });
    expect(reads.calls.readSync).toBe(0);
    expect(code(verify({ ...itemOf(f.path), bytes: DEFAULT_MAX_EVIDENCE_BYTES }))).toBe(
      'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    );
  });

  it('refuses a file with another digest of the same length with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH', () => {
    const f = file('abc');
    expect(code(verify({ ...itemOf(f.path), sha256: 'f'.repeat(64) }))).toBe(
      'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    );
  });

  it('reads a large file one chunk of at most 64 KiB at a time, never past the declared length plus one byte, and closes it', () => {
    const big = Buffer.alloc(150 * 1024, 7);
    const f = file(big);
    const sizes: number[] = [];
    const spy = (orig: typeof import('node:fs').readSync) =>
      ((fd: number, buffer: Buffer, offset: number, length: number, position: null) => {
        sizes.push(length);
        return orig(fd, buffer, offset, length, position);
      }) as typeof orig;
    const all = itemOf(f.path);
    const whole = withTamperedFs({ readSync: spy }, () => expect(verify(all)).toEqual({ ok: true }));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
    expect(whole.calls.openSync).toBe(whole.calls.closeSync);
    sizes.length = 0;
    const declared = 100 * 1024;
    const head = itemOf(f.path, big.subarray(0, declared));
    const part = withTamperedFs({ readSync: spy }, () =>
      expect(code(verify(head))).toBe('TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH'),
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(declared + 1);
    expect(part.calls.openSync).toBe(1);
    expect(part.calls.closeSync).toBe(1);
  });
});

describe('evidenceVerifier: the file changes while it is read', () => {
  it('refuses a file removed between its resolution and its lstat with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const f = file('gone\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        lstatSync: (orig) =>
          ((p: string) => {
            if (p === f.abs) rmSync(f.abs);
            return orig(p);
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
  });

  it('refuses a file replaced by another between its lstat and its open with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('first\n');
    const item = itemOf(f.path);
    const other = file('other\n');
    withTamperedFs(
      {
        lstatSync: (orig) =>
          ((p: string) => {
            const s = orig(p);
            if (p === f.abs) renameSync(other.abs, f.abs);
            return s;
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('refuses a file emptied between its lstat and its open with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const f = file('soon empty\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        lstatSync: (orig) =>
          ((p: string) => {
            const s = orig(p);
            if (p === f.abs) truncateSync(f.abs, 0);
            return s;
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
  });

  it('refuses a directory swapped in between the lstat and the open with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const f = file('soon a directory\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        lstatSync: (orig) =>
          ((p: string) => {
            const s = orig(p);
            if (p === f.abs) {
              rmSync(f.abs);
              mkdirSync(f.abs);
            }
            return s;
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
  });

  it('refuses a link swapped in between the lstat and the open with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const f = file('soon a link\n');
    const item = itemOf(f.path);
    const target = file('soon a link\n');
    withTamperedFs(
      {
        lstatSync: (orig) =>
          ((p: string) => {
            const s = orig(p);
            if (p === f.abs) {
              rmSync(f.abs);
              symlinkSync(target.abs, f.abs);
            }
            return s;
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
  });

  it('refuses a file whose read fails with TASK_TERMINAL_EVIDENCE_FILE_INVALID and closes it', () => {
    const f = file('unreadable\n');
    const item = itemOf(f.path);
    const calls = withTamperedFs(
      {
        readSync: () =>
          (() => {
            throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
          }) as never,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
    expect(calls.calls.closeSync).toBe(1);
  });

  it('refuses a file that grows during the read with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('growing\n');
    const item = itemOf(f.path);
    let first = true;
    withTamperedFs(
      {
        readSync: (orig) =>
          ((...a: Parameters<typeof orig>) => {
            if (first) appendFileSync(f.abs, 'more bytes\n');
            first = false;
            return orig(...a);
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('refuses a file whose read gives fewer bytes than its size, its size unchanged after, with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    // The stat of the descriptor and of the path both report one byte more than the read gives
    // (what a file rewritten during the read, or a sysfs file, shows): only the length differs.
    const f = file('short read\n');
    const item = itemOf(f.path);
    const larger = <S extends { size: number }>(s: S): S =>
      Object.assign(Object.create(Object.getPrototypeOf(s)), s, { size: s.size + 1 });
    withTamperedFs(
      {
        fstatSync: (orig) => ((fd: number) => larger(orig(fd))) as typeof orig,
        statSync: (orig) => ((p: string) => larger(orig(p))) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('refuses a file replaced after the read by one of the same size and mtime with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('replaced\n');
    const item = itemOf(f.path);
    const twin = file('replaced\n');
    withTamperedFs(
      {
        statSync: (orig) =>
          ((p: string) => {
            if (p === f.abs) renameSync(twin.abs, f.abs);
            return orig(p);
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('refuses a file that grew after the read, its mtime kept, with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('appended later\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        statSync: (orig) =>
          ((p: string) => {
            if (p === f.abs) {
              appendFileSync(f.abs, 'x');
              utimesSync(f.abs, SECOND, SECOND);
            }
            return orig(p);
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('refuses a file rewritten in place after the read, its size kept, with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('rewritten\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        statSync: (orig) =>
          ((p: string) => {
            if (p === f.abs) {
              writeFileSync(f.abs, 'REWRITTEN\n');
              utimesSync(f.abs, SECOND + 60, SECOND + 60);
            }
            return orig(p);
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });

  it('accepts a file copied over by an identical one before the read starts (the same inode is all that is read)', () => {
    const f = file('same\n');
    const item = itemOf(f.path);
    const copy = join(root, 'copy-source.md');
    writeFileSync(copy, 'same\n');
    withTamperedFs(
      {
        fstatSync: (orig) =>
          ((fd: number) => {
            copyFileSync(copy, f.abs);
            utimesSync(f.abs, SECOND, SECOND);
            return orig(fd);
          }) as typeof orig,
      },
      () => expect(verify(item)).toEqual({ ok: true }),
    );
  });
});

describe('evidenceVerifier: the checks before the read', () => {
  it('refuses the project root itself and its parent with TASK_TERMINAL_EVIDENCE_SCOPE_INVALID', () => {
    const ok = itemOf(file('x').path);
    for (const path of ['.', '..', './', '../'])
      expect(code(verify({ ...ok, path })), path).toBe('TASK_TERMINAL_EVIDENCE_SCOPE_INVALID');
  });

  it('refuses a directory, an empty file and a socket with TASK_TERMINAL_EVIDENCE_FILE_INVALID without opening them', async () => {
    mkdirSync(join(root, 'a-directory'));
    // A Unix socket is the non-regular file this process can make without starting one (a unit
    // test starts no process: test/suite/suites.test.ts); it exists while the server listens.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, 'a-socket'), resolve));
    try {
      const ok = itemOf(file('x').path);
      for (const path of ['a-directory', file('').path, 'a-socket']) {
        const r = withTamperedFs({}, () =>
          expect(code(verify({ ...ok, path })), path).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
        );
        expect(r.calls.openSync, path).toBe(0);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a length below one with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH before opening the file, an empty one too', () => {
    const empty = file('');
    const some = file('abc');
    const abc = itemOf(some.path);
    for (const [path, bytes] of [
      [empty.path, 0],
      [some.path, 0],
      [some.path, -1],
    ] as const) {
      const r = withTamperedFs({}, () =>
        expect(code(verify({ ...abc, path, bytes })), `${path} ${bytes}`).toBe(
          'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
        ),
      );
      expect(r.calls.openSync).toBe(0);
    }
  });

  it('takes maxBytes as the limit of one file: TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE above it before opening the file, accepted at it', () => {
    const over = itemOf(file('0123456789a').path);
    const r = withTamperedFs({}, () =>
      expect(code(evidenceVerifier(root, { maxBytes: 10 })([over]))).toBe(
        'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE',
      ),
    );
    expect(r.calls.openSync).toBe(0);
    expect(evidenceVerifier(root, { maxBytes: 10 })([itemOf(file('0123456789').path)])).toEqual({ ok: true });
  });

  it('refuses a small file declaring more bytes than a buffer can hold (a limit raised that far) with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH: no buffer of the declared length', () => {
    const item = { ...itemOf(file('abc').path), bytes: 2 ** 50 };
    const r = evidenceVerifier(root, { maxBytes: Number.MAX_SAFE_INTEGER })([item]);
    expect(code(r)).toBe('TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH');
  });
});

describe('evidenceVerifier: what the disk answers', () => {
  it('reads a file given one byte per read (short reads): accepted when exact, TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH when larger than declared', () => {
    const f = file('0123456789');
    const oneByte = {
      readSync: (orig: typeof import('node:fs').readSync) =>
        ((fd: number, buffer: Buffer, offset: number, length: number, position: null) =>
          orig(fd, buffer, offset, Math.min(1, length), position)) as typeof orig,
    };
    withTamperedFs(oneByte, () => expect(verify(itemOf(f.path))).toEqual({ ok: true }));
    withTamperedFs(oneByte, () =>
      expect(code(verify({ ...itemOf(f.path, Buffer.from('01234')) }))).toBe(
        'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
      ),
    );
  });

  it('refuses a file the store may not open (EACCES) with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const item = itemOf(file('forbidden\n').path);
    withTamperedFs(
      {
        openSync: () =>
          (() => {
            throw Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
          }) as never,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_INVALID'),
    );
  });

  it('refuses a descriptor whose stat names another device than the path (same inode number) with TASK_TERMINAL_EVIDENCE_FILE_DRIFT', () => {
    const f = file('another device\n');
    const item = itemOf(f.path);
    withTamperedFs(
      {
        fstatSync: (orig) =>
          ((fd: number) => {
            const s = orig(fd);
            return Object.assign(Object.create(Object.getPrototypeOf(s)), s, { dev: s.dev + 1 });
          }) as typeof orig,
      },
      () => expect(code(verify(item))).toBe('TASK_TERMINAL_EVIDENCE_FILE_DRIFT'),
    );
  });
});
