// The file-system half of the terminal evidence checks, on real files: each code once, and
// TASK_TERMINAL_EVIDENCE_FILE_DRIFT on a file whose reads disagree with its size.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { evidenceVerifier } from '../src/evidence.ts';

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
});
