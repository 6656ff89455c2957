// One error family: the reference's stdio server (main.ts) and the harness's in-process transport
// turn what the handler throws into the same JSON-RPC error, through the protocol's
// `toJsonRpcError`. Every error reply of the golden cases, and the caller's errors, are the same
// from a subprocess as in process.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Implementation,
  loadCases,
  pointerGet,
  startInProcess,
  startSubprocess,
  substituteVars,
} from '@agent-contracts/harness';
import { INVALID_PARAMS, METHOD_NOT_FOUND, SPEC_ERROR, toJsonRpcError } from '@agent-contracts/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../../tooling/test-helpers/reference.ts';
import { createHandler } from '../src/handler.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** The replies of the stdio server to raw request lines. */
async function rawReplies(requests: readonly unknown[]): Promise<unknown[]> {
  const out = execFileSync('/bin/sh', ['-c', REFERENCE], {
    cwd: repo,
    input: requests.map((r) => `${JSON.stringify(r)}\n`).join(''),
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

// The cases that expect an error, in a few gates whose errors do not depend on the wall clock.
const cases = loadCases(join(repo, 'conformance')).filter(
  (c) =>
    /^(digest|policy|delegation|run|checkpoint|store)\//.test(c.id) &&
    c.steps.some((s) => 'error' in s.expect),
);

/** Every error reply of the cases' steps, run in order on one session, as `<case> <step>: error`. */
async function errorsOf(impl: Implementation): Promise<Map<string, unknown>> {
  const errors = new Map<string, unknown>();
  for (const c of cases) {
    const vars = new Map<string, unknown>();
    for (const [i, step] of c.steps.entries()) {
      let params: unknown;
      try {
        params = substituteVars(step.params, vars);
      } catch {
        break; // a capture an earlier step did not yield: the rest of the case is not sent
      }
      const reply = await impl.call(step.method, params, step.malformed ? { malformed: step.malformed } : {});
      if ('error' in reply) errors.set(`${c.id} ${i}`, reply.error);
      const source = 'result' in reply ? reply.result : 'error' in reply ? reply.error.data : undefined;
      for (const [name, pointer] of Object.entries(step.capture ?? {}))
        vars.set(name, pointerGet(source, pointer));
    }
  }
  return errors;
}

/**
 * Values that differ between any two runs replaced by their kind: the wall clock where a case does
 * not set it, and the digests of what holds it.
 */
const stable = (errors: Map<string, unknown>) =>
  JSON.parse(
    JSON.stringify(Object.fromEntries(errors))
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
      .replace(/\b[a-f0-9]{64}\b/g, '<digest>'),
  );

describe('reference-node errors, subprocess and in process', () => {
  let sub: Implementation;
  let inProcess: Implementation;
  beforeAll(async () => {
    sub = await startSubprocess({ command: REFERENCE, cwd: repo, stateLocation: null });
    inProcess = await startInProcess(createHandler(), null);
  }, 60_000);
  afterAll(async () => {
    await sub?.close();
    await inProcess?.close();
  });

  it('answer every refusal of the golden cases with the same JSON-RPC error', async () => {
    expect(cases.length).toBeGreaterThan(50);
    const fromSub = await errorsOf(sub);
    const fromInProcess = await errorsOf(inProcess);
    // Refusals with their data (fences, paths, required actions), not only their codes.
    const refusals = [...fromSub.values()].filter((e) => (e as { code: number }).code === SPEC_ERROR);
    expect(refusals.length).toBeGreaterThan(50);
    expect(stable(fromInProcess)).toEqual(stable(fromSub));
  }, 120_000);

  it("answer the caller's errors with the same -32601 and -32602", async () => {
    for (const [method, params, malformed] of [
      ['clock.advance', { ms: 'soon' }, { pointer: '/ms', keyword: 'type' }],
      ['digest', { json: 7 }, { pointer: '/json', keyword: 'type' }],
    ] as const) {
      const a = await sub.call(method, params, { malformed });
      expect(await inProcess.call(method, params, { malformed })).toEqual(a);
      expect('error' in a && a.error.code).toBe(INVALID_PARAMS);
    }
    // The harness never sends a method protocol v1 does not have: ask the server directly.
    const [reply] = await rawReplies([{ jsonrpc: '2.0', id: 1, method: 'store.teleport', params: {} }]);
    const thrown = await createHandler()
      .handle('store.teleport', {})
      .catch((e: unknown) => e);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, error: toJsonRpcError(thrown) });
    expect(toJsonRpcError(thrown).code).toBe(METHOD_NOT_FOUND);
  }, 60_000);
});
