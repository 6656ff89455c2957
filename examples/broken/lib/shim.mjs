// The frame of every broken implementation: it starts the reference implementation
// (examples/reference-node) as a child, passes the harness's requests through, and lets one
// mutant rewrite a request, a reply, or answer by itself. Everything else is the reference's own
// behaviour, so a mutant breaks exactly the rule its hooks touch. No switch of the reference is
// used: the reference does not know it is wrapped.
//
// Requests are handled one at a time, in order (the reference answers in order too). A hook may
// send requests of its own to the reference with `call`; their ids never reach the harness.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../reference-node/src/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/**
 * How the reference starts: from its esbuild bundle (scripts/bundle-reference.mjs, built from the
 * same sources, rebuilt here when one of them changed), which starts without a TypeScript loader
 * (a fifth of the CPU: bench/README.md); from the sources through tsx when no bundle can be had.
 * `agent-contracts mutants` starts one shim, so one reference or more, per broken implementation.
 */
async function referenceCommand() {
  try {
    const { ensureReferenceBundle } = await import('../../../scripts/bundle-reference.mjs');
    return [await ensureReferenceBundle()];
  } catch {
    return ['--conditions=@agent-contracts/source', '--import', TSX, MAIN];
  }
}
const REFERENCE_ARGS = await referenceCommand();

/**
 * @typedef {{ jsonrpc: '2.0', id: unknown, method: string, params?: any }} Request
 * @typedef {{ jsonrpc: '2.0', id: unknown, result?: any, error?: { code: number, message: string, data?: any } }} Reply
 * @typedef {{ call(method: string, params: unknown): Promise<Reply>, die(): void }} Context
 * @typedef {{
 *   request?(req: Request, ctx: Context): Request | { reply: Reply } | Promise<Request | { reply: Reply }>,
 *   reply?(req: Request, reply: Reply, ctx: Context): Reply | Promise<Reply>,
 * }} Hooks
 */

/** The refusal code of a reply (JSON-RPC -32000 carries it in `error.data.code`), or null. */
export const refusalCode = (reply) => reply.error?.data?.code ?? null;

/** A success reply to `req` with `result`. */
export const answer = (req, result) => ({ jsonrpc: '2.0', id: req.id, result });

/**
 * Run the reference implementation behind `hooks` on this process's stdin and stdout.
 *
 * @param {Hooks} hooks
 */
export function runShim(hooks = {}) {
  const child = spawn(process.execPath, REFERENCE_ARGS, {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  // A child killed at a crash point dies by SIGKILL: so does the shim, as the reference would.
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });

  const waiting = new Map();
  let own = 0;
  const send = (msg) =>
    new Promise((resolve) => {
      waiting.set(JSON.stringify(msg.id), resolve);
      child.stdin.write(`${JSON.stringify(msg)}\n`);
    });
  /** @type {Context} */
  const ctx = {
    call: (method, params) => send({ jsonrpc: '2.0', id: `mutant-${++own}`, method, params }),
    // kill -9 of the reference and of the shim, as a crash point would end the process.
    die: () => {
      child.kill('SIGKILL');
      process.kill(process.pid, 'SIGKILL');
    },
  };

  createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    let reply;
    try {
      reply = JSON.parse(line);
    } catch {
      process.stdout.write(`${line}\n`);
      return;
    }
    const key = JSON.stringify(reply?.id ?? null);
    const resolve = waiting.get(key);
    if (!resolve) return void process.stdout.write(`${line}\n`);
    waiting.delete(key);
    resolve(reply);
  });

  const handle = async (line) => {
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      req = null;
    }
    // Lines that are not requests the shim understands go to the reference untouched.
    if (!req || typeof req !== 'object' || typeof req.method !== 'string' || !('id' in req)) {
      child.stdin.write(`${line}\n`);
      return;
    }
    const forwarded = hooks.request ? await hooks.request(req, ctx) : req;
    let reply = 'reply' in forwarded ? forwarded.reply : await send(forwarded);
    if (hooks.reply) reply = await hooks.reply(req, reply, ctx);
    process.stdout.write(`${JSON.stringify(reply)}\n`);
  };

  let queue = Promise.resolve();
  createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    queue = queue.then(() => handle(line));
  });
  process.stdin.on('end', () => {
    void queue.then(() => child.stdin.end());
  });
}
