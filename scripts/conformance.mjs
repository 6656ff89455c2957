#!/usr/bin/env node
// `pnpm conformance`, the README's main job: `agent-contracts conform` against the reference
// implementation, both started from their bundles of the sources (scripts/bundle-reference.mjs,
// each rebuilt here when one of its sources changed: the same code without a TypeScript loader in
// the CLI's process, which holds the harness), with four jobs: the golden cases on four processes, and the
// fault scenarios four at a time (each has its own processes and state). The scenarios spend most
// of their wall time waiting on the processes they start, so four at a time overlap those waits
// for the same CPU (bench/README.md). Arguments are passed on to `conform` and win over these
// defaults (`pnpm conformance --jobs 1`).
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { ensureBundle, ensureReferenceBundle } from './bundle-reference.mjs';

const bundle = await ensureReferenceBundle({ quiet: false });
const cli = await ensureBundle('cli', { quiet: false });
const args = process.argv.slice(2);
const given = (name) => args.some((a) => a === name || a.startsWith(`${name}=`));
const conform = [
  cli,
  'conform',
  ...(given('--impl') ? [] : ['--impl', `node ${relative(process.cwd(), bundle) || bundle}`]),
  ...(given('--jobs') ? [] : ['--jobs', '4']),
  ...args,
];
const child = spawn(process.execPath, conform, { stdio: 'inherit' });
// The CLI handles SIGINT and SIGTERM itself (it reports what finished); pass them on and wait.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
