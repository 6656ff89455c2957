// Where a run keeps its implementation's durable state. Every directory the implementation is
// handed has an opaque name, fresh per run, so that its path says nothing about the job or the
// scenario it serves; a `--state` directory that already holds something is refused (leftover
// state turns into false failures), or emptied first with `--clean-state`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printable } from '@agent-contracts/harness';
import { CliError } from '../../errors.js';

/** The state root of a run, and whether the run made it (and so removes it). */
export interface StateRoot {
  readonly root: string;
  readonly owned: boolean;
}

/** A fresh, opaque directory under `root` (created). */
export function opaqueDirectory(root: string): string {
  const dir = join(root, `s-${randomBytes(12).toString('hex')}`);
  mkdirSync(dir);
  return dir;
}

/**
 * The run's state root: a fresh temporary directory, or `--state <dir>`, which must be absent or
 * empty (STATE_NOT_EMPTY), unless `clean` empties it first.
 */
export function prepareStateRoot(dir: string | undefined, clean: boolean): StateRoot {
  if (dir === undefined) return { root: mkdtempSync(join(tmpdir(), 'agent-contracts-state-')), owned: true };
  let entries: string[] | null = null;
  try {
    if (!statSync(dir).isDirectory())
      throw new CliError('USAGE_BAD_VALUE', `--state ${printable(dir)} is not a directory.`);
    entries = readdirSync(dir);
  } catch (e) {
    if (e instanceof CliError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--state ${printable(dir)} cannot be read: ${(e as Error).message}`,
      );
  }
  if (entries?.length) {
    if (!clean)
      throw new CliError(
        'STATE_NOT_EMPTY',
        `--state ${printable(dir)} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, e.g. ${printable(entries[0]!)}): state left by an earlier run would be read back as this run's and turn into false failures. Give an empty or new directory, leave --state out (a fresh temporary directory), or add --clean-state to delete what it holds first.`,
      );
    for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  return { root: dir, owned: false };
}
