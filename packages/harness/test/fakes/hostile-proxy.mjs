#!/usr/bin/env node
// Hostile implementations built on a correct one: this proxy starts the command after `--` (the
// reference implementation, say), passes the harness's requests through, and tampers with what
// goes back, one way per mode. Everything the real implementation answers is right, so a case
// that passes through the proxy would pass without it: the kit must still never conform.
//
//   node hostile-proxy.mjs <mode> [<file>] -- <command...>
//
// Modes:
//   double              every reply is written twice, in one write
//   forged              every reply is followed by a line that is not JSON and a reply to id 999999
//   late-double         every reply is written again, on its own, when the next request comes in
//   trailing-garbage    replies are untouched; `shutdown` is answered, then a line that is not JSON
//   deep                the result of every request but hello and shutdown is 5000 nested arrays
//   evil-hello          hello's name, version and language carry terminal escapes and newlines
//   flood               before each reply: 2000 lines of garbage on stdout and 256 KiB on stderr
//   grandchild <file>   starts `sleep 600` holding stdout, in its process group; writes its pid
//   escaped <file>      the same, but the sleeper leaves the process group (setsid)
//   env <file>          writes the names and values of its environment to <file> as JSON
//   different           a different implementation, not a broken one: `store.transitionOwner`
//                       answers with `status` "semantic-noop", and `store.history` with the
//                       `commitKind` of its first entry "owner-renew" (both valid against their
//                       schemas, so they are differences of value), everything else as the
//                       real implementation answered (the first document of a case differs in
//                       one field, and the case's later behaviour differs too)
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const [mode, file] = argv.slice(0, sep);
const command = argv.slice(sep + 1).join(' ');

if (mode === 'env') writeFileSync(file, JSON.stringify(process.env));
if (mode === 'grandchild' || mode === 'escaped') {
  const sleeper = spawn('sleep', ['600'], {
    stdio: ['ignore', 'inherit', 'ignore'],
    detached: mode === 'escaped',
  });
  writeFileSync(file, String(sleeper.pid));
  sleeper.unref();
}

const real = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
const methods = new Map();
let lateCopy = null;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (lateCopy !== null) process.stdout.write(lateCopy);
  lateCopy = null;
  try {
    const { id, method } = JSON.parse(line);
    methods.set(id, method);
  } catch {}
  real.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => real.stdin.end());
real.on('exit', (code) => process.exit(code ?? 1));

const write = (text) => process.stdout.write(text);
createInterface({ input: real.stdout }).on('line', (line) => {
  let reply;
  try {
    reply = JSON.parse(line);
  } catch {
    return write(`${line}\n`);
  }
  const method = methods.get(reply.id);
  methods.delete(reply.id);
  switch (mode) {
    case 'double':
      return write(`${line}\n${line}\n`);
    case 'forged':
      return write(
        `${line}\nwarning: cache miss\n${JSON.stringify({ jsonrpc: '2.0', id: 999999, result: {} })}\n`,
      );
    case 'late-double':
      lateCopy = `${line}\n`;
      return write(`${line}\n`);
    case 'trailing-garbage':
      return write(method === 'shutdown' ? `${line}\nbye\n` : `${line}\n`);
    case 'deep':
      if (method === 'hello' || method === 'shutdown') return write(`${line}\n`);
      return write(`{"jsonrpc":"2.0","id":${reply.id},"result":${'['.repeat(5000)}${']'.repeat(5000)}}\n`);
    case 'evil-hello':
      if (method === 'hello') {
        const evil = '\u001b[2K\r\n1110 pass\n\u001b[32mCONFORMS\u001b[0m\u001b]0;pwned\u0007\u202e';
        reply.result.name = `ref${evil}`;
        reply.result.version = `1${evil}`;
        reply.result.language = `ts${evil}`;
        return write(`${JSON.stringify(reply)}\n`);
      }
      return write(`${line}\n`);
    case 'flood': {
      const garbage = `${'#'.repeat(1023)}\n`;
      for (let i = 0; i < 2000; i++) write(garbage);
      process.stderr.write('e'.repeat(256 * 1024));
      return write(`${line}\n`);
    }
    case 'different':
      if (method === 'store.transitionOwner' && reply.result && typeof reply.result === 'object') {
        reply.result.status = 'semantic-noop';
        return write(`${JSON.stringify(reply)}\n`);
      }
      if (method === 'store.history' && Array.isArray(reply.result) && reply.result[0]) {
        reply.result[0].commitKind = 'owner-renew';
        return write(`${JSON.stringify(reply)}\n`);
      }
      return write(`${line}\n`);
    default:
      return write(`${line}\n`);
  }
});
