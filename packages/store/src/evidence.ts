import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { refusal, type TaskCheckResult } from '@agent-contracts/engines';
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';

/** Default of {@link EvidenceVerifierOptions.maxBytes}: 64 MiB per evidence file. */
export const DEFAULT_MAX_EVIDENCE_BYTES = 64 * 1024 * 1024;

/** Options of {@link evidenceVerifier}. */
export interface EvidenceVerifierOptions {
  /**
   * The store's documented size limit of one evidence file, in bytes: an item declaring more is
   * refused with `TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE` before its file is read. Default
   * {@link DEFAULT_MAX_EVIDENCE_BYTES}.
   */
  readonly maxBytes?: number;
}

const inside = (root: string, target: string) => {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

// O_NONBLOCK: opening a FIFO (or a device) for reading must not wait for a writer; a regular file
// ignores the flag. O_NOFOLLOW: the path was resolved already, a link swapped in since is refused.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const CHUNK = 64 * 1024;

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

type Read =
  | { readonly sha256: string; readonly length: number }
  | { readonly larger: number }
  | 'drift'
  | 'invalid';

/**
 * Hash the regular file at `path` without reading past `declared` + 1 bytes and without holding
 * more than one chunk in memory. A non-regular file is refused before it is opened (and again on
 * the descriptor, in case it was swapped in between), so a FIFO never blocks the store.
 */
function readStable(path: string, declared: number): Read {
  let first: Stats;
  try {
    first = lstatSync(path);
  } catch {
    return 'invalid';
  }
  if (!first.isFile() || first.size < 1) return 'invalid';
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return 'invalid';
  }
  try {
    const before = fstatSync(fd);
    if (!before.isFile() || before.size < 1) return 'invalid';
    if (!sameFile(first, before)) return 'drift';
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(Math.min(CHUNK, declared + 1));
    let length = 0;
    while (length <= declared) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, declared + 1 - length), null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      length += n;
    }
    // More bytes than the item declares: a larger file is the item's mismatch; a file that was
    // not larger when opened grew during the read.
    if (length > declared) return before.size > declared ? { larger: before.size } : 'drift';
    const after = statSync(path);
    if (
      length !== before.size ||
      !sameFile(before, after) ||
      after.size !== before.size ||
      after.mtimeMs !== before.mtimeMs
    )
      return 'drift';
    return { sha256: hash.digest('hex'), length };
  } catch {
    return 'invalid';
  } finally {
    closeSync(fd);
  }
}

/**
 * The file-system half of the terminal evidence checks: each path resolves inside `projectRoot`
 * without a link leading out of it (`TASK_TERMINAL_EVIDENCE_SCOPE_INVALID`), is a readable
 * regular file of at least one byte (`TASK_TERMINAL_EVIDENCE_FILE_INVALID`; a FIFO, socket or
 * device is refused without blocking), declares at most `maxBytes`
 * (`TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE`), does not change while the store reads it
 * (`TASK_TERMINAL_EVIDENCE_FILE_DRIFT`), and has the item's SHA-256 and length
 * (`TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH`; a file larger than the item declares is refused after
 * reading one byte past the declared length). The store reads every file itself, one chunk at a
 * time, never more than the declared length plus one byte.
 *
 * @example
 * ```ts
 * const verify = evidenceVerifier('/repo');
 * verify([{ role: 'change-record', path: 'CHANGES.md', sha256: '...', bytes: 12 }]);
 * ```
 */
export function evidenceVerifier(
  projectRoot: string,
  options: EvidenceVerifierOptions = {},
): (items: readonly TaskTerminalEvidenceItemV1[]) => TaskCheckResult {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_EVIDENCE_BYTES;
  return (items) => {
    let root: string;
    try {
      root = realpathSync(projectRoot);
    } catch {
      return refusal(
        'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
        `The project root ${projectRoot} cannot be read; configure the store with an existing directory.`,
      );
    }
    for (const item of items) {
      const lexical = resolve(root, item.path);
      if (!inside(root, lexical)) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
          `${item.path} resolves outside the project root; keep evidence inside it.`,
        );
      }
      let real: string;
      try {
        real = realpathSync(lexical);
      } catch {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
          `${item.path} does not exist or cannot be read; write the file, then close.`,
        );
      }
      if (!inside(root, real)) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
          `${item.path} leads outside the project root through a link; keep evidence inside it.`,
        );
      }
      if (!Number.isSafeInteger(item.bytes) || item.bytes < 1) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          `${item.path}: the item's bytes (${String(item.bytes)}) is not a positive length; recompute the item from the final file.`,
        );
      }
      if (item.bytes > maxBytes) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_FILE_TOO_LARGE',
          `${item.path} declares ${item.bytes} bytes, over the store's limit of ${maxBytes} bytes per evidence file; shorten the file (or keep the bulk elsewhere and cite it), then close.`,
        );
      }
      const read = readStable(real, item.bytes);
      if (read === 'invalid') {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
          `${item.path} is missing, unreadable, empty or not a regular file (a directory, FIFO, socket or device); write the file, then close.`,
        );
      }
      if (read === 'drift') {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_FILE_DRIFT',
          `${item.path} changed while the store read it; finish writing the file, then close.`,
        );
      }
      if ('larger' in read) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          `${item.path} has ${read.larger} bytes, not the item's ${item.bytes}; recompute the item from the final file.`,
        );
      }
      if (read.sha256 !== item.sha256 || read.length !== item.bytes) {
        return refusal(
          'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
          `${item.path} has SHA-256 ${read.sha256} and ${read.length} bytes, not the item's; recompute the item from the final file.`,
        );
      }
    }
    return { ok: true };
  };
}
