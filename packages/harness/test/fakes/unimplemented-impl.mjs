#!/usr/bin/env node
// A hostile implementation that declares digest and the fence contract, answers hello, and then
// either answers -32601 (method not found) to every request (`unimplemented`) or never answers
// again (`silent`). Nothing it does is a pass; with a baseline that names its cases it must still
// never conform.
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'unimplemented';
const caps = {
  contracts: ['TaskRecoveryCommitFenceV1'],
  bundles: [],
  digest: true,
  store: false,
  liveness: false,
  checkpoint: false,
  trace: false,
  clock: false,
  crashPoints: [],
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method } = JSON.parse(line);
  const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, ...msg })}\n`);
  if (method === 'hello')
    return send({
      result: { name: 'unimplemented', version: '1', language: 'js', protocolVersion: 1, capabilities: caps },
    });
  if (method === 'shutdown') {
    send({ result: null });
    return process.exit(0);
  }
  if (mode === 'silent') return;
  send({ error: { code: -32601, message: `${method} is not implemented` } });
});
