// Durable JSON documents of the reference implementation's per-process state (the turn liveness
// state, the current trace): one file each under the state directory `hello` names, replaced
// atomically (write a temporary file beside it, then rename), so a process killed at any instant
// leaves either the whole previous document or the whole new one (LocalTaskTraceGate A11).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The file `name` in the state location when that location is a directory, else `null` (no
 * location, or a URL such as `memory:`, `sqlite:...` or `postgres://...`: the state is then kept
 * in memory only). A scheme has two characters at least, so a path is never mistaken for one.
 */
export function stateFile(location: string | null, name: string): string | null {
  if (location === null || /^[a-z][a-z0-9+.-]+:/i.test(location)) return null;
  try {
    if (!statSync(location).isDirectory()) return null;
  } catch {
    mkdirSync(location, { recursive: true });
  }
  return join(location, name);
}

/** Read a JSON document; `undefined` when the file does not exist, `{ text }` when it is not JSON. */
export function readJson(file: string): { readonly value: unknown } | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    process.stderr.write(`reference-node: ${file} is not JSON; it is treated as unreadable\n`);
    return { value: undefined };
  }
}

let counter = 0;

/** Replace `file` with `value` (JSON) atomically; `undefined` removes the file. */
export function writeJsonAtomic(file: string, value: unknown): void {
  if (value === undefined) {
    rmSync(file, { force: true });
    return;
  }
  const tmp = `${file}.${process.pid}.${++counter}.tmp`;
  writeFileSync(tmp, JSON.stringify(value));
  renameSync(tmp, file);
}
