#!/usr/bin/env node
// prepack of every published package (run by `pnpm pack` / `pnpm publish` in the package's
// directory): puts the repository's LICENSE beside package.json, empties dist/, then runs the
// package's own `build` script, so that no tarball is packed from a missing or stale dist/ (tsc
// leaves the outputs of deleted sources, and of options since turned off, such as source maps).
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
copyFileSync(join(root, 'LICENSE'), 'LICENSE');
const build = pkg.scripts?.build;
if (typeof build !== 'string') {
  process.stderr.write(`prepack: ${pkg.name} has no build script\n`);
  process.exit(1);
}
rmSync('dist', { recursive: true, force: true });
const r = spawnSync('/bin/sh', ['-c', build], { stdio: 'inherit' });
process.exit(r.status ?? 1);
