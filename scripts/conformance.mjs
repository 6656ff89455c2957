#!/usr/bin/env node
// `pnpm conformance`, the README's main job: `agent-contracts conform` (the CLI from its sources)
// against the reference implementation started from its bundle (scripts/bundle-reference.mjs,
// rebuilt here when a source changed), with four jobs: the golden cases on four processes, and the
// fault scenarios four at a time (each has its own processes and state). The scenarios spend most
// of their wall time waiting on the processes they start, so four at a time overlap those waits
// for the same CPU (bench/README.md). Arguments are passed on to `conform` and win over these
// defaults (`pnpm conformance --jobs 1`).
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureReferenceBundle } from './bundle-reference.mjs';

const repo = fileURLToPath(new URL('../', import.meta.url));
const bundle = await ensureReferenceBundle({ quiet: false });
const args = process.argv.slice(2);
const given = (name) => args.some((a) => a === name || a.startsWith(`${name}=`));
const conform = [
  '--conditions=@agent-contracts/source',
  '--import',
  'tsx',
  join(repo, 'packages/cli/src/bin.ts'),
  'conform',
  ...(given('--impl') ? [] : ['--impl', `node ${relative(process.cwd(), bundle) || bundle}`]),
  ...(given('--jobs') ? [] : ['--jobs', '4']),
  ...args,
];
const child = spawn(process.execPath, conform, { stdio: 'inherit' });
// The CLI handles SIGINT and SIGTERM itself (it reports what finished); pass them on and wait.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
