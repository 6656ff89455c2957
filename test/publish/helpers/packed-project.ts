// A user's project with the kit installed from tarballs, as from a registry: every package of
// packages/ packed by scripts/pack.mjs (prepack builds it), the tarballs vendored into a fresh
// directory and installed there with npm: no workspace, no pnpm, no link to this repository.
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of every command here: this process's, without NODE_PATH, through which Node
 * would resolve packages the project did not install (from this repository's node_modules).
 */
export function projectEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...rest } = process.env;
  return { ...rest, ...env };
}

export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(command, [...args], {
    cwd,
    env: projectEnv(env),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts a command that runs while the test goes on (its output goes to files, so a blocked
 * event loop cannot stall it) and resolves when it ends.
 */
export function runInBackground(
  command: string,
  args: readonly string[],
  cwd: string,
  logs: string,
): Promise<Run> {
  const out = openSync(`${logs}.out`, 'w');
  const err = openSync(`${logs}.err`, 'w');
  const child = spawn(command, [...args], { cwd, env: projectEnv(), stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (status) =>
      done({
        status,
        stdout: readFileSync(`${logs}.out`, 'utf8'),
        stderr: readFileSync(`${logs}.err`, 'utf8'),
      }),
    );
  });
}

/** Packs every published package into `dest`; returns the tarball paths. */
export function packAll(dest: string): string[] {
  const r = run(process.execPath, [join(repoRoot, 'scripts/pack.mjs'), dest], repoRoot);
  if (r.status !== 0) throw new Error(`pack failed:\n${r.stdout}${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean);
}

/** npm settings of every npm call here: the registry only for what the cache lacks. */
export const NPM_ENV = {
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/**
 * A project at `dir` with `tarballs` vendored into vendor/ and installed as devDependencies by
 * npm. Returns npm's output.
 */
export function installProject(dir: string, tarballs: readonly string[]): Run {
  mkdirSync(join(dir, 'vendor'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'runtime-under-test', private: true, type: 'module' }, null, 2)}\n`,
  );
  const vendored = tarballs.map((t) => {
    copyFileSync(t, join(dir, 'vendor', basename(t)));
    return `./vendor/${basename(t)}`;
  });
  const r = run('npm', ['install', '--save-dev', ...vendored], dir, NPM_ENV);
  if (r.status !== 0) throw new Error(`npm install failed:\n${r.stdout}${r.stderr}`);
  return r;
}

/**
 * A packed package laid out as npm installs it, without npm and without its dependencies: the
 * tarball's package/ folder as `dir`/node_modules/<its name>/ (what npm does with a package that
 * has no install scripts, as none of packages/ has). Returns that directory.
 */
export function unpackPackage(dir: string, tarball: string): string {
  mkdirSync(dir, { recursive: true });
  const pkg = run('tar', ['-xzOf', tarball, 'package/package.json'], dir);
  if (pkg.status !== 0) throw new Error(`tar failed:\n${pkg.stderr}`);
  const into = join(dir, 'node_modules', (JSON.parse(pkg.stdout) as { name: string }).name);
  mkdirSync(into, { recursive: true });
  const r = run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1'], dir);
  if (r.status !== 0) throw new Error(`tar failed:\n${r.stderr}`);
  return into;
}

/** The names of the packages in a project's node_modules (scoped ones as @scope/name). */
export function installedPackages(dir: string): string[] {
  const top = join(dir, 'node_modules');
  return readdirSync(top).flatMap((name) =>
    name.startsWith('@')
      ? readdirSync(join(top, name)).map((n) => `${name}/${n}`)
      : name.startsWith('.')
        ? []
        : [name],
  );
}

/** What an install put into a project's node_modules: bytes of its files and the packages. */
export interface InstallSize {
  /** Sum of the sizes of the regular files (symbolic links not followed), in bytes. */
  readonly bytes: number;
  /** Package directories (a package.json under node_modules/<name> or <@scope>/<name>), nested ones too. */
  readonly packages: number;
}

/** The size of `dir`/node_modules, as docs/cli.md and bench/README.md report it. */
export function installSize(dir: string): InstallSize {
  let bytes = 0;
  let packages = 0;
  const walk = (d: string, inNodeModules: boolean) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isFile()) bytes += statSync(p).size;
      else if (e.isDirectory()) {
        if (
          inNodeModules &&
          !e.name.startsWith('@') &&
          !e.name.startsWith('.') &&
          existsSync(join(p, 'package.json'))
        )
          packages++;
        walk(p, e.name === 'node_modules' || (inNodeModules && e.name.startsWith('@')));
      }
    }
  };
  walk(join(dir, 'node_modules'), true);
  return { bytes, packages };
}

/**
 * The tarballs `npm install @agent-contracts/<name>` would fetch: its own and those of the
 * workspace packages it depends on, transitively (read from the packed package.json files).
 */
export function closureOf(name: string, tarballs: readonly string[]): string[] {
  const byName = new Map(
    tarballs.map((t) => {
      const r = run('tar', ['-xzOf', t, 'package/package.json'], dirname(t));
      const pkg = JSON.parse(r.stdout) as { name: string; dependencies?: Record<string, string> };
      return [pkg.name, { tarball: t, deps: Object.keys(pkg.dependencies ?? {}) }] as const;
    }),
  );
  const seen = new Set<string>();
  const visit = (n: string) => {
    const entry = byName.get(n);
    if (!entry || seen.has(n)) return;
    seen.add(n);
    for (const d of entry.deps) visit(d);
  };
  visit(name);
  return [...seen].map((n) => byName.get(n)!.tarball);
}
