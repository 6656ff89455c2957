// Durable JSON documents of the reference implementation's per-process state (the turn liveness
// state, the current trace): one file each under the state directory `hello` names, replaced
// atomically (write a temporary file beside it, then rename), so a process killed at any instant
// leaves either the whole previous document or the whole new one (LocalTaskTraceGate A11).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { directoryOf } from '@agent-contracts/protocol';

/**
 * The file `name` in the state location when that location is a directory (`directoryOf` of the
 * protocol's parser), else `null` (no location, or `memory:`, `sqlite:...` or `postgres://...`:
 * the state is then kept in memory only).
 */
export function stateFile(location: string | null, name: string): string | null {
  const directory = directoryOf(location);
  if (directory === null) return null;
  try {
    if (!statSync(directory).isDirectory()) return null;
  } catch {
    mkdirSync(directory, { recursive: true });
  }
  return join(directory, name);
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
