// `conform --isolate`: the implementation under test runs inside bubblewrap (bwrap), a maintained
// unprivileged sandbox. Its own PID namespace (`--unshare-pid`, `--die-with-parent`) makes every
// descendant die with the session, a `setsid` daemon included; it sees a file system made of the
// system's read-only directories, its own directory read-only, its state directory and a private
// temporary directory writable, and nothing else: not the kit's conformance data, not the report
// path, not the home directory (docs/cli.md#threat-model).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** What the sandbox shows the implementation. */
export interface SandboxOptions {
  /** The bwrap executable (default `bwrap`, found on PATH). */
  readonly bwrap?: string;
  /** The implementation's own directory (the working directory): visible, read-only. */
  readonly ownDirectory: string;
  /** Writable inside: the run's state root (every state directory the run hands out). */
  readonly writable: readonly string[];
  /** A private temporary directory, mounted as /tmp (TMPDIR and HOME point there). */
  readonly tmp: string;
  /**
   * Paths that must stay invisible although inside a visible directory (the conformance data,
   * the report file, the baseline): each is covered by an empty directory, or by /dev/null for
   * a file.
   */
  readonly hidden: readonly string[];
  /** More paths to show, read-only; `<path>:rw` writable (`conform --bind`). */
  readonly binds?: readonly string[];
  /** Directories of PATH to show read-only (those outside the home directory). */
  readonly path?: readonly string[];
  /** The home directory, never shown (the binds of PATH skip what is inside it). */
  readonly home?: string;
}

/** Top-level system directories shown read-only (or as the symbolic links they are). */
const SYSTEM = ['usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'etc', 'opt'];

const inside = (path: string, dir: string) => {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/** A path with its symbolic links resolved when it exists (bwrap binds real paths). */
const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * The bwrap argument vector that runs `/bin/sh -c <command>` (appended by the caller) in the
 * sandbox: `[bwrap, ...options, '--']`.
 */
export function sandboxCommand(o: SandboxOptions): string[] {
  const args: string[] = [
    o.bwrap ?? 'bwrap',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
  ];
  for (const name of SYSTEM) {
    const p = `/${name}`;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(p), p);
    else if (st.isDirectory()) args.push('--ro-bind', p, p);
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--bind', o.tmp, '/tmp');
  const home = o.home === undefined ? undefined : real(o.home);
  const shown = new Set<string>();
  const show = (p: string, writable: boolean) => {
    const r = real(p);
    if (!existsSync(r) || shown.has(r)) return;
    shown.add(r);
    args.push(writable ? '--bind' : '--ro-bind', r, r);
  };
  for (const dir of o.path ?? []) {
    const r = real(dir);
    if (home !== undefined && inside(r, home)) continue;
    if (SYSTEM.some((s) => inside(r, `/${s}`))) continue;
    show(r, false);
  }
  show(o.ownDirectory, false);
  for (const b of o.binds ?? []) {
    const rw = b.endsWith(':rw');
    show(rw ? b.slice(0, -3) : b, rw);
  }
  for (const w of o.writable) show(w, true);
  // Last, so that they cover what the binds above showed.
  const covered = new Set<string>();
  for (const h of o.hidden) {
    const r = real(h);
    if (!existsSync(r) || covered.has(r)) continue;
    covered.add(r);
    if (lstatSync(r).isDirectory()) args.push('--tmpfs', r);
    else args.push('--ro-bind', '/dev/null', r);
  }
  args.push('--chdir', real(o.ownDirectory), '--setenv', 'HOME', '/tmp', '--setenv', 'TMPDIR', '/tmp', '--');
  return args;
}

/**
 * Whether bwrap can run here: null when it can, else why not (not installed, or the kernel or
 * the container refuses its namespaces).
 */
export function sandboxProblem(bwrap = 'bwrap'): string | null {
  const r = spawnSync(
    bwrap,
    [
      '--unshare-pid',
      '--die-with-parent',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      '--',
      '/bin/sh',
      '-c',
      'exit 0',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `${bwrap} was not found; install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap)`
      : `${bwrap} could not be started (${r.error.message})`;
  }
  if (r.status !== 0)
    return `${bwrap} cannot create its namespaces here (exit ${r.status}: ${(r.stderr || '').trim().slice(0, 300)}); user namespaces may be disabled, or the container forbids them`;
  return null;
}

/** Where the pieces of a sandbox live, made by the caller: its private /tmp under `root`. */
export const sandboxTmp = (root: string): string => join(root, 'tmp');
