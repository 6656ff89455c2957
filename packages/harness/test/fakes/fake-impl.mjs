#!/usr/bin/env node
// A deliberately misbehaving implementation for testing the harness. The first argument picks
// the behaviour; `ok` answers every request correctly (echoing params as the result).
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';
const out = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);
const reply = (id, result) => out({ jsonrpc: '2.0', id, result });
let held = [];

process.stderr.write(`fake-impl starting in mode ${mode}\n`);
// A log line on stdout before anything was asked: colours, and far longer than an error quotes.
if (mode === 'stray-at-start')
  process.stdout.write(`\x1b[32mListening\x1b[0m on 3000 "ready" ${'.'.repeat(500)}\n`);
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  const { id, method, params } = req;
  if (method === 'shutdown' && mode === 'late-shutdown') {
    // Answers shutdown only once stdin closes, which the harness does after giving up on it.
    rl.once('close', () => {
      reply(id, null);
      process.exit(0);
    });
    return;
  }
  if (method === 'shutdown') {
    reply(id, null);
    process.exit(0);
  }
  switch (mode) {
    case 'ok':
    case 'late-shutdown':
    case 'stray-at-start':
      return reply(id, { method, params: params ?? null });
    case 'hang':
      return; // never answers
    case 'garbage':
      return process.stdout.write('this is a log line, not JSON\n');
    case 'not-jsonrpc':
      return out({ id, result: 1 });
    case 'both-result-and-error':
      return out({ jsonrpc: '2.0', id, result: 1, error: { code: 1, message: 'x' } });
    case 'oversized':
      return process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":"${'x'.repeat(3 * 1024 * 1024)}"}\n`);
    case 'wrong-id':
      return reply(id + 1000, { method });
    case 'missing-id':
      return out({ jsonrpc: '2.0', result: { method } });
    case 'rpc-error':
      return out({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
    case 'out-of-order':
      // Hold replies and answer them in reverse once two are waiting.
      held.push([id, { method, params: params ?? null }]);
      if (held.length === 2) {
        for (const [i, r] of held.reverse()) reply(i, r);
        held = [];
      }
      return;
    case 'crash':
      process.stderr.write(`fake-impl crashing on ${method}\n`);
      return process.exit(3);
    case 'kill-self':
      return process.kill(process.pid, 'SIGKILL');
    case 'close-stdout':
      process.stdout.end();
      return; // keeps running with stdout closed
    case 'split':
      // A reply written in two chunks, with a pause in between.
      process.stdout.write(`{"jsonrpc":"2.0","id":${id},`);
      return setTimeout(() => process.stdout.write(`"result":{"method":"${method}"}}\n`), 50);
    case 'crlf':
      return process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { method } })}\r\n`);
    default:
      process.stderr.write(`unknown mode ${mode}\n`);
      process.exit(2);
  }
});
