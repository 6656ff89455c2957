#!/usr/bin/env node
// Misbehaving implementations for testing `agent-contracts conform` end to end. Mode in argv[2].
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'liar';
const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const caps = (over = {}) => ({
  contracts: ['TaskRecoveryCommitFenceV1', 'IntentSeedV1'],
  bundles: [],
  digest: false,
  store: false,
  liveness: false,
  checkpoint: false,
  trace: false,
  clock: false,
  crashPoints: [],
  ...over,
});
const hello = (id, over) =>
  out({
    jsonrpc: '2.0',
    id,
    result: {
      name: `fake-${mode}`,
      version: '1.0.0',
      language: 'javascript',
      protocolVersion: 1,
      capabilities: caps(over),
    },
  });

if (mode === 'exit-at-start') {
  process.stderr.write('fake: refusing to start\n');
  process.exit(7);
}
if (mode === 'garbage-hello') process.stdout.write('Starting server on stdio...\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  if (method === 'shutdown') {
    out({ jsonrpc: '2.0', id, result: null });
    process.exit(0);
  }
  if (method === 'hello') {
    if (mode === 'bad-hello') return out({ jsonrpc: '2.0', id, result: { name: 'x' } });
    if (mode === 'nothing-declared') return hello(id, { contracts: [] });
    if (mode === 'checkpoint-no-clock') return hello(id, { checkpoint: true });
    if (mode === 'slow-hello') return setTimeout(() => hello(id), 1500);
    return hello(id);
  }
  switch (mode) {
    case 'liar': // claims every document is valid
    case 'garbage-hello':
    case 'checkpoint-no-clock':
    case 'slow-hello':
      return out({ jsonrpc: '2.0', id, result: { ok: true, issues: [] } });
    case 'hang-after-hello':
      return;
    case 'crash-on-validate':
      process.stderr.write('fake: segfault in validate\n');
      return process.exit(139);
    case 'nothing-declared':
      return out({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } });
    default:
      process.exit(2);
  }
});
