// One way for a test to ask the Python reference's modules something off the wire: a snippet
// that reads JSON on stdin (`data`) and writes JSON on stdout, run with agent_ref importable.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** examples/python-reference, the directory agent_ref is imported from. */
export const PYTHON_REFERENCE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Run `body` with `json`, `sys` and agent_ref importable, `data` the parsed stdin (`input`) and
 * `args` as `sys.argv[1:]`; the body writes its answer with `json.dump(..., sys.stdout)`.
 *
 * @example
 * pythonJson<string[]>('json.dump([type(x).__name__ for x in data], sys.stdout)', [1, 'a']);
 */
export function pythonJson<T>(body: string, input: unknown, args: readonly string[] = []): T {
  const script = `import json, sys\nsys.path.insert(0, sys.argv.pop(1))\ndata = json.load(sys.stdin)\n${body}`;
  const r = spawnSync('python3', ['-c', script, PYTHON_REFERENCE_DIR, ...args], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}
