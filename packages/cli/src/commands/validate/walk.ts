// Expands arguments into the inputs to validate, lazily: a directory is walked one level at a
// time (entries sorted for a stable order), so memory grows with the largest directory listing,
// never with the number or size of files validated.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Issue } from '@agent-contracts/validators';
import { inputIssue } from './input.js';

/** One input to validate, or an argument that could not be expanded. */
export type Target =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'error'; readonly path: string; readonly issue: Issue };

function ioError(path: string, err: unknown): Target {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? {
        kind: 'error',
        path,
        issue: inputIssue('INPUT_NOT_FOUND', 'no such file or directory; check the path.'),
      }
    : {
        kind: 'error',
        path,
        issue: inputIssue(
          'INPUT_READ_FAILED',
          `cannot read it (${code ?? 'unknown error'}); check permissions.`,
        ),
      };
}

async function* walkDirectory(dir: string): AsyncGenerator<Target> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    yield ioError(dir, err);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkDirectory(path);
    else if (entry.name.endsWith('.json')) {
      if (entry.isFile()) yield { kind: 'file', path };
      else if (entry.isSymbolicLink()) {
        // Links to files are followed; links to directories are not (no cycles).
        const target = await stat(path).catch(() => null);
        if (target?.isFile()) yield { kind: 'file', path };
      } else {
        // A FIFO, a socket or a device named *.json is reported, never skipped in silence (nor
        // read: a FIFO would wait for a writer).
        yield {
          kind: 'error',
          path,
          issue: inputIssue(
            'INPUT_READ_FAILED',
            `it is not a regular file (${entry.isFIFO() ? 'a FIFO' : entry.isSocket() ? 'a socket' : 'a device'}), so it was not read; name it as an argument to read it.`,
          ),
        };
      }
    }
  }
}

/**
 * The inputs named by the command's arguments: `-` is standard input, a file is itself (whatever
 * its name), a directory is every `*.json` file below it, recursively.
 */
export async function* expandArguments(args: readonly string[]): AsyncGenerator<Target> {
  for (const arg of args) {
    if (arg === '-') {
      yield { kind: 'file', path: '-' };
      continue;
    }
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(arg);
    } catch (err) {
      yield ioError(arg, err);
      continue;
    }
    if (info.isDirectory()) yield* walkDirectory(arg);
    else yield { kind: 'file', path: arg };
  }
}
