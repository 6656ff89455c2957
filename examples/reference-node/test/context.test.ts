// @module-tag unit
// The context methods of the reference (docs/protocol.md#context-v1-capability-context): hello
// declares the capability, the session keeps each plan's receipt and ledger, a plan the session
// never made is refused with its code, and malformed params are -32602, never a crash. The valid
// params are those of the golden scenarios (conformance/cases/context/).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalize } from '@agent-contracts/digest';
import { InvalidParams, Refusal } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

interface Step {
  method: string;
  params: Record<string, unknown>;
  expect: { result?: unknown; match?: unknown; error?: string };
}
const scenario = (family: string, id: string): Step[] => {
  const file = fileURLToPath(new URL(`../../../conformance/cases/context/${family}.json`, import.meta.url));
  const c = (
    JSON.parse(readFileSync(file, 'utf8')) as { cases: Array<{ id: string; steps: Step[] }> }
  ).cases.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return structuredClone(c.steps);
};
const planStep = () => scenario('plan', 'context/plan/fix-testing').find((s) => s.method === 'context.plan')!;

async function handler() {
  const h = createHandler();
  await h.handle('clock.set', { now: '2026-12-02T05:00:00.000Z' });
  return h;
}
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(Refusal);
  return e as Refusal;
};

describe('reference-node: the context capability', () => {
  it('declares context in hello', async () => {
    const h = await handler();
    const hello = (await h.handle('hello', {
      protocolVersion: 1,
      stateLocation: null,
      localDirectory: null,
    })) as {
      capabilities: { context?: boolean };
    };
    expect(hello.capabilities.context).toBe(true);
    await h.close();
  });

  it('answers a whole scenario as the case expects, the receipt kept per plan', async () => {
    const h = createHandler();
    for (const s of scenario('ledger', 'context/ledger/replay-re-executes-nothing')) {
      const got = await h.handle(s.method, s.params);
      if ('result' in s.expect) expect(got).toEqual(s.expect.result);
      else expect(got).toMatchObject(s.expect.match as object);
    }
  });

  it("measures the planning telemetry on the params' RFC 8785 form, whatever the member order", async () => {
    const h = await handler();
    const p = planStep().params;
    const reordered = Object.fromEntries(Object.entries(p).reverse());
    const a = (await h.handle('context.plan', p)) as { planId: string; planningTelemetry: unknown };
    const b = (await h.handle('context.plan', reordered)) as { planId: string; planningTelemetry: unknown };
    const jcs = canonicalize(p);
    expect(a.planningTelemetry).toEqual({
      inputBytes: Buffer.byteLength(jcs, 'utf8'),
      inputChars: [...jcs].length,
      latencyMs: null,
      inputTokens: null,
    });
    expect([b.planId, b.planningTelemetry]).toEqual([a.planId, a.planningTelemetry]);
  });

  it('refuses a plan the session never made, and a replay without a stored ledger', async () => {
    const h = await handler();
    const unknown = await refusal(h.handle('context.receipt', { planId: 'plan-000000000000000000000000' }));
    expect([unknown.code, unknown.data]).toEqual(['CONTEXT_BINDING_PLAN_NOT_FOUND', { path: '/planId' }]);
    const plan = (await h.handle('context.plan', planStep().params)) as { planId: string };
    const replay = await refusal(
      h.handle('context.ledger', { op: 'replay', planId: plan.planId, liveRefs: {} }),
    );
    expect(replay.code).toBe('CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN');
    const observe = await refusal(
      h.handle('context.observe', { planId: plan.planId, event: { event: 'consume' } }),
    );
    expect(observe.code).toBe('CONTEXT_BINDING_REQUIRED');
  });

  it('puts a seed refusal at its path in the params', async () => {
    const h = await handler();
    const p = planStep().params;
    const r = await refusal(h.handle('context.plan', { ...p, seed: { semantic: 'refactor' } }));
    expect([r.code, r.data]).toEqual(['CONTEXT_INTENT_INVALID', { path: '/seed/semantic' }]);
  });

  it('answers malformed params with -32602', async () => {
    const h = await handler();
    const p = planStep().params;
    const malformed: Array<[string, unknown]> = [
      ['context.plan', { ...p, unknown: true }],
      ['context.plan', { ...p, seed: 'fix' }],
      ['context.plan', { ...p, catalogue: { ...(p.catalogue as object), documents: 'none' } }],
      ['context.plan', { ...p, host: 'standalone\ud800' }],
      ['context.plan', { ...p, changeTypes: 7 }],
      ['context.receipt', { planId: 7 }],
      ['context.observe', { planId: 'plan-x', event: { event: 'Notification' } }],
      ['context.ledger', { op: 'merge', planId: 'plan-x' }],
      ['context.reuse', []],
    ];
    for (const [method, params] of malformed)
      await expect(
        h.handle(method, params),
        `${method} ${JSON.stringify(params).slice(0, 80)}`,
      ).rejects.toBeInstanceOf(InvalidParams);
  });
});
