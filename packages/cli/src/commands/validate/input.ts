// Reading one input safely: a size cap checked before reading, strict UTF-8, a UTF-8 BOM
// accepted with a warning, a nesting-depth pre-scan (JSON.parse and every recursive consumer
// after it would otherwise risk the stack), and JSON.parse (which creates `__proto__` as an own
// data property, so no key can reach a prototype).
import { constants } from 'node:fs';
import { open, stat as statPath } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { JsonTextError, nestingDepth, parseJsonText } from '@agent-contracts/digest';
import type { Issue } from '@agent-contracts/validators';
import type { CliCode } from '../../errors.js';

/** Limits applied to every input. */
export interface InputLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
}

/** A parsed document with any input warnings, or the input issue that stopped it. */
export type ParsedInput =
  | { readonly ok: true; readonly value: unknown; readonly warnings: Issue[] }
  | { readonly ok: false; readonly issue: Issue; readonly io: boolean };

const RULE = 'docs/cli.md#error-codes';

/** An issue of the input layer (not of the contract). */
export function inputIssue(code: CliCode, message: string, severity: Issue['severity'] = 'error'): Issue {
  return { code, path: '', message, rule: RULE, severity };
}

function fail(code: CliCode, message: string, io = false): ParsedInput {
  return { ok: false, issue: inputIssue(code, message), io };
}

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) ? 1 : 0)} MiB` : `${n} bytes`;
}

function tooLarge(size: number | null, limits: InputLimits): ParsedInput {
  const what = size === null ? 'more than' : `${mib(size)}, more than`;
  return fail(
    'INPUT_TOO_LARGE',
    `the input is ${what} the ${mib(limits.maxBytes)} limit and was not read; contract documents are small, ` +
      'so check that this is the right file, or raise the limit with --max-bytes.',
  );
}

/** Read a stream up to `maxBytes + 1` bytes, stopping early once over the cap. */
async function readCapped(stream: Readable, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += buf.length;
    if (total > maxBytes) {
      stream.destroy();
      return null;
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

/** How long `validate` waits for a FIFO's writer to write and close it. */
export const FIFO_DEADLINE_MS = 10_000;

/** Read a FIFO without blocking: what its writer writes until it closes, within the deadline. */
async function readFifo(
  path: string,
  limits: InputLimits,
): Promise<{ ok: true; bytes: Buffer } | ParsedInput> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const until = Date.now() + FIFO_DEADLINE_MS;
    for (;;) {
      const buf = Buffer.alloc(64 * 1024);
      let n: number;
      try {
        n = (await handle.read(buf, 0, buf.length, null)).bytesRead;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
        if (Date.now() > until)
          return fail(
            'INPUT_READ_FAILED',
            `it is a FIFO whose writer did not finish within ${FIFO_DEADLINE_MS / 1000} s; validate does not wait longer.`,
            true,
          );
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      if (n === 0) break;
      total += n;
      if (total > limits.maxBytes) return tooLarge(null, limits);
      chunks.push(buf.subarray(0, n));
    }
    if (total === 0)
      return fail(
        'INPUT_READ_FAILED',
        'it is a FIFO and nothing was written to it (no writer had it open); validate does not wait for one.',
        true,
      );
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Read a file (or standard input, as `-`) within the limits. */
export async function readInput(
  path: string,
  stdin: Readable,
  limits: InputLimits,
): Promise<{ ok: true; bytes: Buffer } | ParsedInput> {
  if (path === '-') {
    const bytes = await readCapped(stdin, limits.maxBytes);
    return bytes === null ? tooLarge(null, limits) : { ok: true, bytes };
  }
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // open(2) of a FIFO waits for a writer, for ever: a FIFO is opened without waiting and read
    // within a deadline instead (issue 20, finding 10).
    if ((await statPath(path)).isFIFO()) return await readFifo(path, limits);
    handle = await open(path, 'r');
    const stat = await handle.stat();
    if (stat.isFile()) {
      if (stat.size > limits.maxBytes) return tooLarge(stat.size, limits);
      return { ok: true, bytes: await handle.readFile() };
    }
    // A FIFO, a character device, ...: no size up front, so read with the cap.
    const bytes = await readCapped(handle.createReadStream({ autoClose: false }), limits.maxBytes);
    return bytes === null ? tooLarge(null, limits) : { ok: true, bytes };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail('INPUT_NOT_FOUND', `no such file; check the path.`, true);
    return fail(
      'INPUT_READ_FAILED',
      `cannot read it (${code ?? (err instanceof Error ? err.message : 'unknown error')}); check permissions.`,
      true,
    );
  } finally {
    await handle?.close().catch(() => {});
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decode and parse bytes into a JSON value, or the input issue that prevents it. */
export function parseInput(bytes: Uint8Array, limits: InputLimits): ParsedInput {
  const warnings: Issue[] = [];
  if (bytes.length === 0)
    return fail('INPUT_EMPTY', 'the file is empty; a contract document is a JSON object.');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail(
      'INPUT_INVALID_UTF8',
      'the file is UTF-16 (it starts with a UTF-16 byte order mark); re-encode it as UTF-8.',
    );
  }
  let offset = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    offset = 3;
    warnings.push(
      inputIssue(
        'INPUT_BOM',
        'the file starts with a UTF-8 byte order mark, which JSON texts must not carry (RFC 8259 section 8.1); it was ignored, but remove it.',
        'warning',
      ),
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes.subarray(offset));
  } catch {
    return fail(
      'INPUT_INVALID_UTF8',
      'the file is not valid UTF-8; re-encode it as UTF-8 (JSON texts must be UTF-8).',
    );
  }
  if (text.trim() === '')
    return fail('INPUT_EMPTY', 'the file holds only whitespace; a contract document is a JSON object.');
  const depth = nestingDepth(text, limits.maxDepth);
  if (depth > limits.maxDepth) {
    return fail(
      'INPUT_TOO_DEEP',
      `arrays and objects are nested more than ${limits.maxDepth} levels deep, so the file was not parsed; ` +
        'contract documents are shallow (raise the limit with --max-depth if this one really is that deep).',
    );
  }
  try {
    return { ok: true, value: parseJsonText(text), warnings };
  } catch (err) {
    if (err instanceof JsonTextError && err.problem.kind === 'duplicate-member')
      return fail(
        'INPUT_DUPLICATE_MEMBER',
        `${err.message.replace(/ \(RFC 7493.*$/, '')}; a reader that keeps the first value would judge another document than one that keeps the last. Keep one of them.`,
      );
    if (err instanceof RangeError) {
      return fail('INPUT_TOO_DEEP', 'the file is nested too deeply to parse; lower its nesting.');
    }
    const detail = err instanceof Error ? err.message.slice(0, 200) : 'unknown error';
    return fail('INPUT_NOT_JSON', `the file is not valid JSON (${detail}); fix the syntax.`);
  }
}
