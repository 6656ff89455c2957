#!/usr/bin/env node
// Packs every published package (packages/*, not private) with `pnpm pack` into <dest>: each
// package's prepack builds it first, and pnpm replaces `workspace:` ranges by real versions.
// Packages build independently (tsc reads other packages' sources), so two pack at a time.
// Prints one tarball path a line on stdout. Usage: node scripts/pack.mjs <dest>
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpmCommand } from './lib/pnpm-command.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dest = process.argv[2];
if (!dest) {
  process.stderr.write('usage: node scripts/pack.mjs <dest>\n');
  process.exit(2);
}
const out = resolve(dest);
mkdirSync(out, { recursive: true });

/** The directories of the published packages, sorted by name. */
function publishedPackages() {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((name) => join(root, 'packages', name))
    .filter((dir) => {
      try {
        return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true;
      } catch {
        return false;
      }
    });
}

const pnpm = pnpmCommand();

function pack(dir) {
  return new Promise((done) => {
    const child = spawn(pnpm.command, [...pnpm.args, 'pack', '--pack-destination', out, '--json'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => done({ dir, code, stdout, stderr }));
  });
}

const dirs = publishedPackages();
const results = [];
let next = 0;
await Promise.all(
  [0, 1].map(async () => {
    while (next < dirs.length) results.push(await pack(dirs[next++]));
  }),
);
let failed = false;
for (const r of results.sort((a, b) => (a.dir < b.dir ? -1 : 1))) {
  if (r.code !== 0) {
    failed = true;
    process.stderr.write(`pack failed in ${r.dir}:\n${r.stdout}${r.stderr}\n`);
    continue;
  }
  // pnpm prints the prepack output before the JSON; the JSON is the last object.
  const json = JSON.parse(r.stdout.slice(r.stdout.lastIndexOf('\n{') + 1));
  console.log(json.filename);
}
process.exit(failed ? 1 : 0);
