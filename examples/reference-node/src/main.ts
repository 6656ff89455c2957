// The stdio server: newline-delimited JSON-RPC 2.0 on stdin/stdout; logs go to stderr.
import { createInterface } from 'node:readline';
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  ProtocolRefusal,
  refusalError,
} from '@agent-contracts/protocol';
import { createHandler, InvalidParams, MethodNotFound } from './handler.js';

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
    if (e instanceof ProtocolRefusal) {
      write({ jsonrpc: '2.0', id, error: refusalError(e) });
    } else if (e instanceof MethodNotFound) {
      write({ jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: e.message } });
    } else if (e instanceof InvalidParams) {
      write({ jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: e.message } });
    } else {
      process.stderr.write(`reference-node: internal error in ${req.method}: ${(e as Error).stack ?? e}\n`);
      write({
        jsonrpc: '2.0',
        id,
        error: { code: INTERNAL_ERROR, message: `internal error: ${(e as Error).message}` },
      });
    }
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
