// @module-tag unit
// What the run, policy and delegation methods answer with -32602 (docs/protocol.md, D-GEN-90): a
// member the params schema does not define, a string with a lone surrogate, a deadline outside
// the spec's timestamp profile. The valid params are those of the golden cases.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InvalidParams } from '@agent-contracts/protocol';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

interface CaseFile {
  cases: Array<{ id: string; steps: Array<{ method: string; params: Record<string, unknown> }> }>;
}
const casesOf = (file: string): CaseFile =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../conformance/cases/${file}`, import.meta.url)), 'utf8'),
  );
const paramsOf = (file: string, id: string, method: string): Record<string, unknown> => {
  const c = casesOf(file).cases.find((x) => x.id === id);
  const step = c?.steps.find((s) => s.method === method);
  if (!step) throw new Error(`no ${method} step in ${id}`);
  return structuredClone(step.params);
};

const decide = () =>
  paramsOf(
    'policy/PermissionDecisionV1.json',
    'policy/PermissionDecisionV1/allow/granted-read',
    'policy.decide',
  );
const delegate = () =>
  paramsOf(
    'delegation/DelegationContractV1.json',
    'delegation/DelegationContractV1/accepted/from-grant',
    'delegate',
  );
const start = () => paramsOf('run/start.json', 'run/RunStateV1/start/bounded', 'run.step');

async function handler() {
  const h = createHandler();
  await h.handle('clock.set', { now: '2026-11-30T06:10:00.000Z' });
  return h;
}

describe('reference-node: malformed params of run.step, policy.* and delegate are -32602', () => {
  it('accepts the golden params as they are', async () => {
    const h = await handler();
    await expect(h.handle('policy.decide', decide())).resolves.toMatchObject({ decision: 'allow' });
    await expect(h.handle('delegate', delegate())).resolves.toMatchObject({
      schemaVersion: 'DelegationContractV1',
    });
    await expect(h.handle('run.step', start())).resolves.toMatchObject({ applied: true });
  });

  it('refuses a member the params schema does not define, at every level', async () => {
    const h = await handler();
    const extra = [
      ['policy.decide', { ...decide(), note: 'x' }],
      [
        'policy.decide',
        (() => {
          const p = decide();
          (p.tool as Record<string, unknown>).vendor = 'x';
          return p;
        })(),
      ],
      [
        'policy.decide',
        (() => {
          const p = decide();
          ((p.context as { grants: Record<string, unknown>[] }).grants[0] as Record<string, unknown>).scope =
            'all';
          return p;
        })(),
      ],
      [
        'policy.observe',
        {
          runId: 'r',
          observation: { observationId: 'o', kind: 'web-page', origin: 'a.example', trusted: true },
        },
      ],
      ['delegate', { ...delegate(), note: 'x' }],
      [
        'delegate',
        (() => {
          const p = delegate();
          (p.parent as Record<string, unknown>).credentials = 'inherit';
          return p;
        })(),
      ],
      [
        'delegate',
        (() => {
          const p = delegate();
          (p.request as Record<string, unknown>).inheritAll = true;
          return p;
        })(),
      ],
      ['run.step', { ...start(), note: 'x' }],
    ] as const;
    for (const [method, params] of extra)
      await expect(
        h.handle(method, params),
        `${method} ${JSON.stringify(params).slice(0, 80)}`,
      ).rejects.toBeInstanceOf(InvalidParams);
  });

  it('refuses a lone surrogate as malformed, never as an internal error', async () => {
    const h = await handler();
    const p = decide();
    p.resource = 'repo:/src/\ud800';
    await expect(h.handle('policy.decide', p)).rejects.toBeInstanceOf(InvalidParams);
    const d = delegate();
    (d.request as Record<string, unknown>).delegate = 'agent:\udc00';
    await expect(h.handle('delegate', d)).rejects.toBeInstanceOf(InvalidParams);
  });

  it('refuses a deadline outside the timestamp profile before judging it', async () => {
    const h = await handler();
    const d = delegate();
    (d.request as Record<string, unknown>).deadline = '2026-11-30T07:00:00+01:00';
    await expect(h.handle('delegate', d)).rejects.toBeInstanceOf(InvalidParams);
  });
});
