// The stdio server: newline-delimited JSON-RPC 2.0 on stdin/stdout; logs go to stderr.
import { createInterface } from 'node:readline';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, toJsonRpcError } from '@agent-contracts/protocol';
import { createHandler } from './handler.js';

// kill -9 of itself at an armed crash point: no flush, no reply, no exit handlers.
const handler = createHandler({
  die: () => {
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable: SIGKILL was sent');
  },
});
const write = (msg: unknown) => process.stdout.write(`${JSON.stringify(msg)}\n`);

async function onLine(line: string): Promise<void> {
  if (!line.trim()) return;
  let req: { id?: unknown; method?: unknown; params?: unknown };
  try {
    req = JSON.parse(line);
  } catch {
    write({
      jsonrpc: '2.0',
      id: null,
      error: { code: PARSE_ERROR, message: 'parse error: a request is one JSON object per line' },
    });
    return;
  }
  const id = req.id ?? null;
  if (typeof req.method !== 'string') {
    write({
      jsonrpc: '2.0',
      id,
      error: { code: INVALID_REQUEST, message: 'invalid request: "method" must be a string' },
    });
    return;
  }
  try {
    const result = await handler.handle(req.method, req.params);
    write({ jsonrpc: '2.0', id, result: result ?? null });
    if (req.method === 'shutdown') process.exit(0);
  } catch (e) {
    const error = toJsonRpcError(e);
    // A bug, or an engine that broke its own contract (InternalError): the caller gets -32603
    // (docs/protocol.md#framing-and-errors) and the stack goes to stderr.
    if (error.code === INTERNAL_ERROR)
      process.stderr.write(`reference-node: internal error in ${req.method}: ${(e as Error).stack ?? e}\n`);
    write({ jsonrpc: '2.0', id, error });
  }
}

// Requests are answered in order: the harness may pipeline, and state-changing methods must
// apply in the order they were sent.
let queue = Promise.resolve();
createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
  queue = queue.then(() => onLine(line));
});
process.stdin.on('end', () => {
  void queue
    .then(() => handler.close())
    .catch(() => {})
    .then(() => process.exit(0));
});
