// The one directory walker of the kit: every tree of data files it reads (golden cases, fault
// scenarios, OpenTelemetry cases, and the scripts that generate or index them) is listed here, so
// order, links and errors mean the same everywhere.
//
// - Order: the files are sorted by their path relative to the root (`/` separators, UTF-16 code
//   units, as `Array.prototype.sort`), whatever order the file system lists them in.
// - Links: a symbolic link whose name matches is followed when it names a regular file; a link to
//   a directory is never followed (so a link cannot make a loop, nor bring in a tree twice or from
//   elsewhere) and is reported, as is a broken link whose name matches.
// - Errors: a directory that cannot be read, an entry that matches but is not a regular file (a
//   FIFO would block its reader) and a directory deeper than `maxDepth` are reported as problems,
//   never thrown and never skipped in silence; the caller decides what a problem costs.
// - An absent root is an empty tree.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A file the walk found. */
export interface WalkedFile {
  /** The path to open: `root` joined with `relative`. */
  readonly path: string;
  /** The path below the root, with `/` separators (`store/tasks.json`). */
  readonly relative: string;
}

/** An entry the walk could not use, and why (a sentence that says what to do). */
export interface WalkProblem {
  readonly path: string;
  readonly relative: string;
  readonly reason: string;
}

export interface WalkOptions {
  /** The end of the names of the files wanted (`.json`). */
  readonly suffix: string;
  /** How many directories below the root are read; a deeper one is a problem. Default 16. */
  readonly maxDepth?: number;
}

export interface Walk {
  readonly files: readonly WalkedFile[];
  readonly problems: readonly WalkProblem[];
}

/** How many directories below the root a walk reads, unless told otherwise. */
export const WALK_MAX_DEPTH = 16;

const byRelative = (a: { relative: string }, b: { relative: string }) =>
  a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0;

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'unknown error';

/** Every file below `root` whose name ends with `options.suffix`, and the problems met on the way. */
export function walkFiles(root: string, options: WalkOptions): Walk {
  const maxDepth = options.maxDepth ?? WALK_MAX_DEPTH;
  const files: WalkedFile[] = [];
  const problems: WalkProblem[] = [];
  const problem = (path: string, relative: string, reason: string) =>
    problems.push({ path, relative, reason });

  const visit = (dir: string, prefix: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = errorCode(err);
      if (depth === 0 && code === 'ENOENT') return;
      problem(
        dir,
        prefix.replace(/\/$/, ''),
        code === 'ENOTDIR'
          ? 'is not a directory; name a directory'
          : `cannot be read (${code}); check its permissions`,
      );
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const relative = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (depth + 1 > maxDepth)
          problem(path, relative, `is deeper than ${maxDepth} directories below the root; move its files up`);
        else visit(path, `${relative}/`, depth + 1);
      } else if (entry.isSymbolicLink()) {
        let target: ReturnType<typeof statSync> | undefined;
        try {
          target = statSync(path);
        } catch {
          target = undefined;
        }
        if (target?.isDirectory())
          problem(
            path,
            relative,
            'is a symbolic link to a directory, which is not followed; copy the files in',
          );
        else if (entry.name.endsWith(options.suffix)) {
          if (target?.isFile()) files.push({ path, relative });
          else
            problem(
              path,
              relative,
              target
                ? 'is a symbolic link to something other than a regular file; link a file'
                : 'is a broken symbolic link; remove it or fix its target',
            );
        }
      } else if (entry.name.endsWith(options.suffix)) {
        if (entry.isFile()) files.push({ path, relative });
        else
          problem(
            path,
            relative,
            `is not a regular file (${entry.isFIFO() ? 'a FIFO' : entry.isSocket() ? 'a socket' : 'a device'}), so it was not read`,
          );
      }
    }
  };
  visit(root, '', 0);
  return { files: files.sort(byRelative), problems: problems.sort(byRelative) };
}

/** The problems of a walk as `<label>/<relative>: <reason>` lines (`label` names the root). */
export function walkProblemLines(label: string, walk: Walk): string[] {
  return walk.problems.map((p) => `${p.relative ? `${label}/${p.relative}` : label}: ${p.reason}`);
}
