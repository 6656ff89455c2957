#!/usr/bin/env node
// An implementation whose replies to one method break that method's schema in one place, built on
// a correct one: this proxy starts the command after `--` (the reference implementation), passes
// every request through, and rewrites the replies to <method>, one way per kind. Every other
// member stays as the real implementation answered, so the members a case compares still match.
//
//   node schema-breaking-proxy.mjs <method> <pointer> <kind> [after=<method>] -- <command...>
//
// With `after=<method>`, only replies to requests sent after a request of that method are
// rewritten (`after=crash.arm`: the commit a crash point was armed for).
//
// Kinds (<pointer> is a JSON Pointer into the result):
//   wrong-type          the value at <pointer> gets another JSON type (a string becomes 12345, a
//                       number "12", a boolean "true", anything else "x")
//   extra               the object at <pointer> gets one more member, "unexpected": true
//   refusal-as-result   a -32000 refusal becomes a result: its `data` ({ code, ok: false, ... })
//                       sent as `result`, which docs/protocol.md does not allow
//   refusal-extra       a -32000 refusal's `data` gets one more member, "unexpected": true
//                       (refusal data is closed: docs/protocol.md PROTO-720)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
const [target, pointer, kind, after] = argv.slice(0, sep);
const trigger = after?.startsWith('after=') ? after.slice('after='.length) : null;
let armed = trigger === null;
const command = argv.slice(sep + 1).join(' ');

const real = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'] });
const methods = new Map();
createInterface({ input: process.stdin }).on('line', (line) => {
  try {
    const { id, method } = JSON.parse(line);
    methods.set(id, armed ? method : null);
    if (method === trigger) armed = true;
  } catch {}
  real.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => real.stdin.end());
real.on('exit', (code) => process.exit(code ?? 1));

const tokens = pointer
  .split('/')
  .slice(1)
  .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

const otherType = (v) =>
  typeof v === 'string' ? 12345 : typeof v === 'number' ? '12' : typeof v === 'boolean' ? 'true' : 'x';

/** The result with the one change of `kind` at `pointer`, or unchanged when there is nothing there. */
function tamper(result) {
  if (tokens.length === 0) {
    if (kind === 'wrong-type') return otherType(result);
    return result && typeof result === 'object' && !Array.isArray(result)
      ? { ...result, unexpected: true }
      : result;
  }
  let parent = result;
  for (const t of tokens.slice(0, -1)) {
    if (!parent || typeof parent !== 'object') return result;
    parent = parent[t];
  }
  const last = tokens.at(-1);
  if (!parent || typeof parent !== 'object' || !Object.hasOwn(parent, last)) return result;
  if (kind === 'wrong-type') parent[last] = otherType(parent[last]);
  else if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
    parent[last].unexpected = true;
  return result;
}

createInterface({ input: real.stdout }).on('line', (line) => {
  let reply;
  try {
    reply = JSON.parse(line);
  } catch {
    return process.stdout.write(`${line}\n`);
  }
  const method = methods.get(reply.id);
  methods.delete(reply.id);
  if (method === target) {
    if (kind === 'refusal-as-result' && reply.error?.code === -32000) {
      const { error: _, ...rest } = reply;
      reply = { ...rest, result: reply.error.data };
    } else if (kind === 'refusal-extra' && reply.error?.code === -32000 && reply.error.data) {
      reply.error.data = { ...reply.error.data, unexpected: true };
    } else if (!kind.startsWith('refusal-') && Object.hasOwn(reply, 'result')) {
      reply.result = tamper(reply.result);
    }
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
});
