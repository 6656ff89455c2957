// @module-tag unit
// The reference implementation's replies are the messages schemas/protocol/ describes, and the
// golden cases' requests too: the harness checks every request and every reply against the
// schemas METHODS names for its method (docs/protocol.md#every-message-is-checked), so over the
// golden cases no reply breaks its schema and no request of the kit is a harness-error (the
// published schemas are not an aspiration, and the cases never send what the kit forbids).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCases, paramsViolation, readReply, runSuite, startInProcess } from '@agent-contracts/harness';
import { type InProcessAdapter, METHODS, Refusal, toJsonRpcError } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));

/** The handler, recording which methods answered (and refused) and which requests broke their schema. */
function recorded(inner: InProcessAdapter, seen: Set<string>, malformed: string[]): InProcessAdapter {
  return {
    ...inner,
    async handle(method, params) {
      const broken = paramsViolation(method, params);
      if (broken) malformed.push(`${method} ${broken.pointer} ${broken.keyword}`);
      try {
        const result = await inner.handle(method, params);
        seen.add(method);
        return result;
      } catch (e) {
        if (e instanceof Refusal) seen.add(`${method} refusal`);
        throw e;
      }
    },
  };
}

describe('reference-node messages against schemas/protocol', () => {
  it('no reply of the golden cases breaks its schema, and no request is a harness-error', async () => {
    const seen = new Set<string>();
    const malformed: string[] = [];
    const impl = await startInProcess(recorded(createHandler(), seen, malformed), null);
    const cases = loadCases(conformanceDir);
    const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
    const wire = results.filter((r) => r.outcome === 'harness-error' || /breaks its schema/.test(r.detail));
    expect(wire.map((r) => `${r.id}: ${r.outcome}: ${r.detail}`)).toEqual([]);
    // Exactly the requests the cases declare malformed reached the implementation, as declared.
    const declared = cases.flatMap((c) =>
      c.steps.flatMap((s) =>
        s.malformed ? [`${s.method} ${s.malformed.pointer} ${s.malformed.keyword}`] : [],
      ),
    );
    expect(declared.length).toBeGreaterThanOrEqual(15);
    expect(malformed.sort()).toEqual(declared.sort());
    // The cases reach every method the in-process handler has (it has no crash points) and refusals.
    const expected = METHODS.map((m) => m.method).filter((m) => m !== 'crash.arm' && m !== 'shutdown');
    expect(expected.filter((m) => !seen.has(m))).toEqual([]);
    expect([...seen].filter((s) => s.endsWith(' refusal')).length).toBeGreaterThan(10);
    // A safety net only: every golden case in process, on a machine that may be busy.
  }, 180_000);

  it('the check sees a reply that breaks its schema', () => {
    const extra = readReply('digest', { result: { canonical: '1', sha256: 'a'.repeat(64), extra: true } });
    expect(extra).toMatchObject({ invalid: { pointer: '/result/extra', keyword: 'additionalProperties' } });
    const refusal = toJsonRpcError(new Refusal('LIFECYCLE_STATE_UNAVAILABLE', 'x', { ok: 'no' }));
    expect(readReply('store.read', { error: refusal })).toMatchObject({
      invalid: { pointer: '/error/data/ok', keyword: 'type' },
    });
  });

  it('a state location that cannot be opened fails hello with a storage failure its schema allows', async () => {
    // Nothing listens on port 1: the store cannot connect, and hello says so with the storage
    // code, `retryable` and `outcome` (docs/protocol.md#hello-v1), never a reply that breaks its
    // schema (which the harness would report as the implementation's protocol defect instead).
    const local = mkdtempSync(join(tmpdir(), 'ac-hello-'));
    const handler = createHandler();
    try {
      const error = await handler
        .handle('hello', {
          protocolVersion: 1,
          stateLocation: 'postgres://nobody:nothing@127.0.0.1:1/none',
          localDirectory: local,
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(Refusal);
      const reply = readReply('hello', { error: toJsonRpcError(error as Refusal) });
      expect(reply).not.toHaveProperty('invalid');
      expect((error as Refusal).data).toMatchObject({ retryable: expect.any(Boolean) });
    } finally {
      await handler.close?.();
      rmSync(local, { recursive: true, force: true });
    }
  });
});
