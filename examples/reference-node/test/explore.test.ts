// @module-tag unit
// Exploration (docs/protocol.md#explore) of the reference implementation in process, through
// `explore` of @agent-contracts/harness: its model is the engines the reference is built on, so
// every capability agrees at every compared pointer. This is also the in-process entry point a
// test command uses (explore with a fixed seed, no subprocess).
import { fileURLToPath } from 'node:url';
import { loadRequirements, runCase, startInProcess } from '@agent-contracts/harness';
import { EXPLORE_CAPABILITIES, explore } from '@agent-contracts/harness/explore';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../src/handler.ts';

const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));

describe('explore, in process', () => {
  it('finds no difference between the reference and the engines it is built on', async () => {
    const impl = await startInProcess(createHandler(), null);
    try {
      const results = await explore({ main: impl }, { seed: 20261201, runs: 25, timeoutMs: 10_000 });
      expect(results.map((r) => [r.id, r.outcome, r.detail])).toEqual(
        EXPLORE_CAPABILITIES.map((c) => [
          `explore/${c}`,
          'pass',
          expect.stringContaining('agreed with the model'),
        ]),
      );
      expect(results.every((r) => r.steps > r.runs)).toBe(true);
    } finally {
      await impl.close();
    }
  }, 120_000);

  it('a broken handler is caught, shrunk, and its golden case fails it as the corpus runner runs it', async () => {
    // The reference with negative zero serialised as "-0" (examples/broken/digest-negative-zero).
    const handler = createHandler();
    const broken = {
      ...handler,
      async handle(method: string, params: unknown) {
        const r = (await handler.handle(method, params)) as { canonical?: string } | null;
        if (method !== 'digest' || !r?.canonical) return r;
        const text = (params as { json: string }).json;
        return /-0(?![.\deE])|-0\.0+(?![\deE])/.test(text)
          ? { ...r, canonical: r.canonical.replace(/(^|[[,:])0(?=[\],}]|$)/, '$1-0') }
          : r;
      },
    };
    const impl = await startInProcess(broken, null);
    try {
      const [r] = await explore(
        { main: impl },
        {
          seed: 1,
          runs: 200,
          timeoutMs: 10_000,
          capabilities: ['digest'],
          catalogue: loadRequirements(conformanceDir),
        },
      );
      expect(r?.outcome).toBe('fail');
      expect(r?.path).toMatch(/^\d+(:\d+)*(@.*)?$/);
      expect(r?.goldenCase?.steps).toHaveLength(1);
      expect(r?.goldenCase?.requirements).toEqual(['GEN-005', 'PROTO-001', 'PROTO-007']);
      const replayed = await runCase(impl, r!.goldenCase!, { conformanceDir, timeoutMs: 10_000 });
      expect(replayed.outcome).toBe('fail');
      // The exploration and its golden case number the step alike, from 1.
      expect(r?.detail).toMatch(/^step 1 \(digest\): /);
      expect(replayed.detail).toMatch(/^step 1 \(digest\): /);
      // The seed and path replay the same minimal sequence.
      const [again] = await explore(
        { main: impl },
        { seed: 1, path: r!.path!, runs: 200, timeoutMs: 10_000, capabilities: ['digest'] },
      );
      expect(again?.counterexample).toEqual(r?.counterexample);
    } finally {
      await impl.close();
    }
  }, 120_000);
});
