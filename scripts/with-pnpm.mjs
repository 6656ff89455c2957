#!/usr/bin/env node
// Runs a command with a `pnpm` binary on PATH. turbo and publint look for `pnpm` on PATH, which
// corepack alone does not put there (only `corepack enable` does): the shim forwards to the pnpm
// that runs this script (npm_execpath) or, started outside pnpm, to `corepack pnpm`.
// Usage: node scripts/with-pnpm.mjs <command> [args...]
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pnpmCommand } from './lib/pnpm-command.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-pnpm.mjs <command> [args...]\n');
  process.exit(2);
}

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const pnpm = pnpmCommand();
const target = [pnpm.command, ...pnpm.args].map(quote).join(' ');
const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-pnpm-'));
const shim = join(dir, 'pnpm');
writeFileSync(shim, `#!/bin/sh\nexec ${target} "$@"\n`);
chmodSync(shim, 0o755);

const r = spawnSync(command, args, {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` },
});
rmSync(dir, { recursive: true, force: true });
if (r.error) {
  process.stderr.write(`cannot run ${command}: ${r.error.message}\n`);
  process.exit(2);
}
process.exit(r.status ?? 1);
