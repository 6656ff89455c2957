// @module-tag integration
// The file-system half of the terminal evidence checks, on real files: each code once,
// TASK_TERMINAL_EVIDENCE_FILE_DRIFT on a file whose reads disagree with its size, and hostile
// files (a FIFO, a 1 GiB sparse file) that must neither block nor exhaust the store.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_EVIDENCE_BYTES, evidenceVerifier } from '../src/evidence.ts';
import { exited, readLines, spawnChild } from './helpers/child-process.js';

const CHILD = fileURLToPath(new URL('./helpers/evidence-child.ts', import.meta.url));
const GIB = 1024 * 1024 * 1024;

/** One line of helpers/evidence-child.ts. */
type ChildAnswer = { result: Record<string, unknown>; peakBeforeBytes: number; maxRssBytes: number };

/**
 * The verifier's result in a process of its own, with what the verifier added to that process's
 * peak RSS (`grownBytes`: the peak after it ran less the peak before, so that what loading the
 * modules took, more under an instrumenting runner such as the mutation tests', is not counted). A
 * verifier that blocks is killed after a generous safety-net delay and reported as `blocked`.
 */
async function verifyInChild(
  root: string,
  claimed: TaskTerminalEvidenceItemV1,
): Promise<{ result: Record<string, unknown>; grownBytes: number } | 'blocked'> {
  const child = spawnChild(CHILD, { EVIDENCE_ROOT: root, EVIDENCE_ITEM: JSON.stringify(claimed) });
  let answer: ChildAnswer | null = null;
  const out = readLines(child, (line) => {
    answer = line as never;
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const end = await exited(child);
  clearTimeout(guard);
  const a = answer as ChildAnswer | null;
  if (a) return { result: a.result, grownBytes: a.maxRssBytes - a.peakBeforeBytes };
  if (end.signal === 'SIGKILL') return 'blocked';
  throw new Error(`the evidence child ended with ${JSON.stringify(end)}: ${out.stderr()}`);
}

const item = (root: string, path: string): TaskTerminalEvidenceItemV1 => {
  const bytes = readFileSync(join(root, path));
  return {
    role: 'change-record',
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
  } as TaskTerminalEvidenceItemV1;
};

describe('evidenceVerifier', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-contracts-evidence-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/report.md'), 'Report: done.\n');

  it('accepts a file with the item’s digest and length', () => {
    expect(evidenceVerifier(root)([item(root, 'docs/report.md')])).toEqual({ ok: true });
  });

  it('refuses a changed file with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH', () => {
    const before = item(root, 'docs/report.md');
    writeFileSync(join(root, 'docs/changed.md'), 'Report: done.\n');
    const changed = { ...item(root, 'docs/changed.md') };
    writeFileSync(join(root, 'docs/changed.md'), 'Report: not done.\n');
    expect(before.sha256).toBe(changed.sha256);
    expect(evidenceVerifier(root)([changed])).toMatchObject({
      ok: false,
      code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    });
  });

  it('refuses a missing root, file or directory with TASK_TERMINAL_EVIDENCE_FILE_INVALID', () => {
    const ok = item(root, 'docs/report.md');
    expect(evidenceVerifier(join(root, 'nope'))([ok])).toMatchObject({
      code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    });
    expect(evidenceVerifier(root)([{ ...ok, path: 'docs/missing.md' }])).toMatchObject({
      code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    });
    expect(evidenceVerifier(root)([{ ...ok, path: 'docs' }])).toMatchObject({
      code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    });
  });

  // sysfs files report a size of one page but read back a few bytes: exactly the disagreement
  // between stat and read that a file being rewritten during the read shows. The store must refuse
  // it as drift, never hash what it happened to read.
  it.runIf(process.platform === 'linux')(
    'refuses a file whose read disagrees with its size with TASK_TERMINAL_EVIDENCE_FILE_DRIFT',
    () => {
      const file = [
        '/sys/kernel/mm/transparent_hugepage/enabled',
        '/sys/kernel/uevent_seqnum',
        '/sys/power/state',
        '/sys/kernel/osrelease',
      ]
        .map((f) => {
          try {
            const real = realpathSync(f);
            return statSync(real).size > readFileSync(real).length && readFileSync(real).length > 0
              ? real
              : null;
          } catch {
            return null;
          }
        })
        .find((f) => f !== null);
      if (!file) expect.fail('no sysfs file whose size disagrees with its contents; is /sys mounted?');
      const bytes = readFileSync(file);
      const claimed = {
        role: 'change-record',
        path: basename(file),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
      } as TaskTerminalEvidenceItemV1;
      const result = evidenceVerifier(dirname(file))([claimed]);
      expect(result).toMatchObject({ ok: false, code: 'TASK_TERMINAL_EVIDENCE_FILE_DRIFT' });
      expect((result as { message: string }).message).toContain('changed while the store read it');
    },
  );

  describe('hostile files', () => {
    const claim = (path: string, bytes: number, sha256 = 'a'.repeat(64)) =>
      ({ role: 'change-record', path, sha256, bytes }) as TaskTerminalEvidenceItemV1;
    mkdirSync(join(root, 'hostile'));

    it.runIf(process.platform !== 'win32')(
      'refuses a FIFO with TASK_TERMINAL_EVIDENCE_FILE_INVALID without blocking on it',
      async () => {
        execFileSync('mkfifo', [join(root, 'hostile/pipe.md')]);
        const r = await verifyInChild(root, claim('hostile/pipe.md', 12));
        expect(r, 'the verifier blocked on opening a FIFO').not.toBe('blocked');
        expect(r === 'blocked' ? null : r.result).toMatchObject({
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
        });
      },
      90_000,
    );

    const sparse = (name: string) => {
      const path = join(root, 'hostile', name);
      const fd = openSync(path, 'w');
      ftruncateSync(fd, GIB);
      closeSync(fd);
      expect(statSync(path).size).toBe(GIB);
      return `hostile/${name}`;
    };

    it('refuses a 1 GiB sparse file declared as 12 bytes with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH, reading 13 bytes of it', async () => {
      const r = await verifyInChild(root, claim(sparse('sparse-small.md'), 12));
      if (r === 'blocked') expect.fail('the verifier did not return');
      expect(r.result).toMatchObject({ ok: false, code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH' });
      expect(r.result.message).toContain(`has ${GIB} bytes, not the item's 12`);
      // Reading the file whole would take at least 1 GiB; the verifier holds one chunk.
      expect(r.grownBytes).toBeLessThan(GIB / 4);
    }, 90_000);

    it('refuses an item declaring more than the limit with TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE before reading it', async () => {
      const path = sparse('sparse-large.md');
      const r = await verifyInChild(root, claim(path, GIB));
      if (r === 'blocked') expect.fail('the verifier did not return');
      expect(r.result).toMatchObject({ ok: false, code: 'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE' });
      expect(r.result.message).toContain(`over the store's limit of ${DEFAULT_MAX_EVIDENCE_BYTES} bytes`);
      expect(r.grownBytes).toBeLessThan(GIB / 4);
    }, 90_000);

    it('applies a configured limit: at the limit the file is read, one byte over it is refused', () => {
      writeFileSync(join(root, 'hostile/twenty.md'), '0123456789abcdefghij');
      const ok = item(root, 'hostile/twenty.md');
      expect(evidenceVerifier(root, { maxBytes: 20 })([ok])).toEqual({ ok: true });
      expect(evidenceVerifier(root, { maxBytes: 19 })([ok])).toMatchObject({
        ok: false,
        code: 'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE',
      });
    });

    it('refuses a file longer than its item with TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH naming its size', () => {
      writeFileSync(join(root, 'hostile/longer.md'), 'Report: done, and more.\n');
      const short = { ...item(root, 'docs/report.md'), path: 'hostile/longer.md' };
      expect(evidenceVerifier(root)([short])).toMatchObject({
        ok: false,
        code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
        message: expect.stringContaining(`has 24 bytes, not the item's ${short.bytes}`),
      });
    });
  });
});
