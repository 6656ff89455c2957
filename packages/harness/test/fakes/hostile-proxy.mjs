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
//   wrong-id            every reply but hello's carries the id of the request plus 1000
//   forged              every reply is followed by a line that is not JSON and a reply to id 999999
//   late-double         every reply is written again, on its own, once the next request has come in
//                       (at once if it came before that reply: a harness that gave up on a request
//                       may send the next one first, and that copy must not be lost to the race)
//   trailing-garbage    replies are untouched; `shutdown` is answered, then a line that is not JSON
//   deep                the result of every request but hello and shutdown is 5000 nested arrays
//   evil-hello          hello's name, version and language carry terminal escapes and newlines
//   flood               before each reply: 2000 lines of garbage on stdout and 256 KiB on stderr
//   grandchild <file>   starts `sleep 600` holding stdout, in its process group; writes its pid
//   escaped <file>      the same, but the sleeper leaves the process group (setsid)
//   env <file>          writes the names and values of its environment to <file> as JSON
//   extras-first <dir>  the first process of the run (numbered in <dir>) writes, in the same
//                       write as its hello reply, a log line, a reply to an id nobody sent and
//                       a second hello reply; later processes are untouched
//   later-no-clock <dir>  every process but the first answers hello with clock: false
//   later-shrink <dir>  every process but the first answers hello declaring no store, liveness,
//                       trace or checkpoint
//   crash-then-shrink <dir>  the first process exits on its first store.* request; every later
//                       one answers hello as later-shrink does
//   record-hello <dir>  appends the params of every hello to <dir>/hello.jsonl
//   flip-odd-validate   the 1st, 3rd, 5th ... validate reply says the opposite (ok and issues)
//   dup-members         every reply but hello's repeats each member name, a wrong value first
//                       (a first-wins reader sees jsonrpc "1.0" and null members)
//   wrong-id-logged <dir>  wrong-id, and writes its own pid and its child's to <dir>
//   no-shutdown         never answers shutdown (and does not exit on it)
//   bad-utf8            every reply but hello's carries a byte that is not UTF-8 inside a string
//   different           a different implementation, not a broken one: `store.transitionOwner`
//                       answers with `status` "semantic-noop", and `store.history` with the
//                       `commitKind` of its first entry "owner-renew" (both valid against their
//                       schemas, so they are differences of value), everything else as the
//                       real implementation answered (the first document of a case differs in
//                       one field, and the case's later behaviour differs too)
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** This process's number in the run: 1 for the first process started with <dir>, then 2, ... */
const ordinal = (() => {
  if (!['extras-first', 'later-no-clock', 'later-shrink', 'crash-then-shrink'].includes(mode)) return 0;
  for (let n = 1; ; n++) {
    try {
      closeSync(openSync(join(file, `process-${n}`), 'wx'));
      return n;
    } catch {}
  }
})();
const shrink = (caps) => ({ ...caps, store: false, liveness: false, trace: false, checkpoint: false });

const real = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
if (mode === 'wrong-id-logged') {
  appendFileSync(join(file, 'pids'), `${process.pid}\n${real.pid}\n`);
}
let validates = 0;
const methods = new Map();
let lateCopy = null;
// late-double: requests read and replies written, and whether the next reply is due twice (the
// request after it came first).
let requestsRead = 0;
let repliesWritten = 0;
let copyDue = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  requestsRead++;
  if (lateCopy !== null) process.stdout.write(lateCopy);
  else if (repliesWritten < requestsRead - 1) copyDue = true;
  lateCopy = null;
  try {
    const { id, method } = JSON.parse(line);
    methods.set(id, method);
    if (mode === 'no-shutdown' && method === 'shutdown') return;
    if (mode === 'record-hello' && method === 'hello')
      appendFileSync(join(file, 'hello.jsonl'), `${JSON.stringify(JSON.parse(line).params)}\n`);
    if (mode === 'crash-then-shrink' && ordinal === 1 && String(method).startsWith('store.')) process.exit(1);
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
    case 'extras-first':
      if (method === 'hello' && ordinal === 1)
        return write(
          `${line}\nstarting up\n${JSON.stringify({ jsonrpc: '2.0', id: 424242, result: null })}\n${line}\n`,
        );
      return write(`${line}\n`);
    case 'later-no-clock':
    case 'later-shrink':
    case 'crash-then-shrink':
      if (method === 'hello' && ordinal > 1) {
        const caps = reply.result.capabilities;
        reply.result.capabilities = mode === 'later-no-clock' ? { ...caps, clock: false } : shrink(caps);
        return write(`${JSON.stringify(reply)}\n`);
      }
      return write(`${line}\n`);
    case 'bad-utf8':
      if (method === 'hello' || method === 'shutdown') return write(`${line}\n`);
      // A string member whose bytes are not UTF-8 (0xff): a lenient reader sees U+FFFD.
      return process.stdout.write(
        Buffer.concat([Buffer.from(`${line.slice(0, -1)},"x":"`), Buffer.from([0xff]), Buffer.from('"}\n')]),
      );
    case 'flip-odd-validate':
      if (method === 'validate' && validates++ % 2 === 0 && reply.result) {
        reply.result = reply.result.ok
          ? { ok: false, issues: [{ code: 'FLIPPED', path: '' }] }
          : { ok: true, issues: [] };
        return write(`${JSON.stringify(reply)}\n`);
      }
      return write(`${line}\n`);
    case 'dup-members': {
      if (method === 'hello') return write(`${line}\n`);
      const doubled = (v) =>
        v !== null && typeof v === 'object' && !Array.isArray(v)
          ? `{${Object.entries(v)
              .map(([k, x]) => `${JSON.stringify(k)}:null,${JSON.stringify(k)}:${JSON.stringify(x)}`)
              .join(',')}}`
          : JSON.stringify(v);
      const body =
        'result' in reply ? `"result":${doubled(reply.result)}` : `"error":${doubled(reply.error)}`;
      return write(`{"jsonrpc":"1.0","jsonrpc":"2.0","id":${reply.id},${body}}\n`);
    }
    case 'wrong-id-logged':
    case 'wrong-id':
      if (method === 'hello') return write(`${line}\n`);
      return write(`${JSON.stringify({ ...reply, id: reply.id + 1000 })}\n`);
    case 'forged':
      return write(
        `${line}\nwarning: cache miss\n${JSON.stringify({ jsonrpc: '2.0', id: 999999, result: {} })}\n`,
      );
    case 'late-double':
      repliesWritten++;
      if (copyDue) {
        copyDue = false;
        return write(`${line}\n${line}\n`);
      }
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
