#!/usr/bin/env node
// preinstall of this repository (not of any published package): says, before pnpm goes quiet,
// that better-sqlite3 (the reference store's embedded SQLite) may compile from source, what that
// needs and roughly how long it takes, and whether a Python with the Python reference's pinned
// jsonschema is here. Only a notice: it never fails the install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const store = join(root, 'node_modules/.pnpm');
const built =
  existsSync(store) &&
  readdirSync(store)
    .filter((d) => d.startsWith('better-sqlite3@'))
    .some((d) => existsSync(join(store, d, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')));
if (!built) {
  const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
  const compiler = ['c++', 'g++', 'clang++'].find(has);
  const missing = [
    has('python3') ? null : 'python3',
    has('make') ? null : 'make',
    compiler ? null : 'a C++ compiler',
  ]
    .filter(Boolean)
    .join(', ');
  process.stderr.write(
    [
      '',
      `agent-contracts: better-sqlite3 (the reference store's SQLite) installs next. pnpm downloads a prebuilt binary for ${process.platform}-${process.arch}, Node ABI ${process.versions.modules}; when none exists or the download fails, it compiles from source, which takes about 1-2 minutes (44-106 s measured) while pnpm shows a single line.`,
      missing
        ? `agent-contracts: compiling needs python3, make and a C++ compiler; not found here: ${missing} (Debian: apt-get install build-essential python3).`
        : `agent-contracts: compiling would use ${compiler}, make and python3 (found).`,
      'agent-contracts: the published CLI does not need it: npm install @agent-contracts/cli builds nothing.',
      '',
    ].join('\n'),
  );
}

// The Python reference's schema layer needs jsonschema 4.10.3 (examples/python-reference/README.md);
// say so now when no Python here has it, rather than when its test fails.
const hello =
  '{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocolVersion":1,"stateLocation":null,"localDirectory":null}}\n';
const probe = spawnSync('python3', [join(root, 'examples/python-reference/impl.py')], {
  input: hello,
  encoding: 'utf8',
  timeout: 20_000,
});
const refusal = probe.error ? 'python3 was not found' : probe.status === 3 ? probe.stderr.trim() : '';
if (refusal) {
  process.stderr.write(
    `\nagent-contracts: the tests of examples/python-reference need Python's jsonschema 4.10.3 (apt-get install python3-jsonschema, or pip install jsonschema==4.10.3; .ci/run installs it): ${refusal}\n\n`,
  );
}
