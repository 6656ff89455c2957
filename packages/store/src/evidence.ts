import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TaskCheckResult } from '@agent-contracts/engines';
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';

const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

function readStable(path: string): { bytes: Buffer } | 'drift' | 'invalid' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'invalid';
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile() || before.size < 1) return 'invalid';
    const bytes = Buffer.alloc(before.size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      if (n === 0) break;
      length += n;
      if (length === bytes.length) return 'drift';
    }
    const after = statSync(path);
    if (length !== before.size || after.size !== before.size || after.mtimeMs !== before.mtimeMs)
      return 'drift';
    return { bytes: bytes.subarray(0, length) };
  } catch {
    return 'invalid';
  } finally {
    closeSync(fd);
  }
}

/**
 * The file-system half of the terminal evidence checks: each path resolves inside `projectRoot`
 * without a link leading out of it (`TASK_TERMINAL_EVIDENCE_SCOPE_INVALID`), is a readable
 * regular file of at least one byte (`TASK_TERMINAL_EVIDENCE_FILE_INVALID`), does not change
 * while the store reads it (`TASK_TERMINAL_EVIDENCE_FILE_DRIFT`), and has the item's SHA-256 and
 * length (`TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH`). The store reads every file itself.
 *
 * @example
 * ```ts
 * const verify = evidenceVerifier('/repo');
 * verify([{ role: 'change-record', path: 'CHANGES.md', sha256: '...', bytes: 12 }]);
 * ```
 */
export function evidenceVerifier(
  projectRoot: string,
): (items: readonly TaskTerminalEvidenceItemV1[]) => TaskCheckResult {
  return (items) => {
    let root: string;
    try {
      root = realpathSync(projectRoot);
    } catch {
      return {
        ok: false,
        code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
        message: `The project root ${projectRoot} cannot be read; configure the store with an existing directory.`,
      };
    }
    for (const item of items) {
      const lexical = resolve(root, item.path);
      if (!inside(root, lexical)) {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
          message: `${item.path} resolves outside the project root; keep evidence inside it.`,
        };
      }
      let real: string;
      try {
        real = realpathSync(lexical);
      } catch {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
          message: `${item.path} does not exist or cannot be read; write the file, then close.`,
        };
      }
      if (!inside(root, real)) {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
          message: `${item.path} leads outside the project root through a link; keep evidence inside it.`,
        };
      }
      const read = readStable(real);
      if (read === 'invalid') {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
          message: `${item.path} is missing, unreadable, empty or not a regular file; write the file, then close.`,
        };
      }
      if (read === 'drift') {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_FILE_DRIFT',
          message: `${item.path} changed while the store read it; finish writing the file, then close.`,
        };
      }
      const sha256 = createHash('sha256').update(read.bytes).digest('hex');
      if (sha256 !== item.sha256 || read.bytes.length !== item.bytes) {
        return {
          ok: false,
          code: 'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          message: `${item.path} has SHA-256 ${sha256} and ${read.bytes.length} bytes, not the item's; recompute the item from the final file.`,
        };
      }
    }
    return { ok: true };
  };
}
