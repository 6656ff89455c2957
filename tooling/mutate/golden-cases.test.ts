// The golden cases as the tests StrykerJS runs (tooling/mutate/stryker.config.mjs): every case
// against the reference implementation in this process, one test per case, so that Stryker's
// per-test coverage runs only the cases that reach a mutant. A mutant of an engine or of the
// store's commit path is killed when a case that passes on the unmutated code fails.
import { fileURLToPath } from 'node:url';
import { loadCases, runCase, startInProcess } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../examples/reference-node/src/handler.ts';
import { SHARDS } from './shards.mjs';

const conformanceDir = fileURLToPath(new URL('../../conformance/', import.meta.url));
// The run of one shard (MUTATE_SHARD, tooling/mutate/shards.mjs) takes only the cases of its engine.
const shard = process.env.MUTATE_SHARD;
const prefixes = shard ? (SHARDS[shard]?.cases ?? []) : null;
const cases = loadCases(conformanceDir).filter((c) => !prefixes || prefixes.some((p) => c.id.startsWith(p)));

describe('golden case', () => {
  for (const c of cases) {
    it(c.id, async () => {
      const impl = await startInProcess(createHandler(), null);
      try {
        const result = await runCase(impl, c, { conformanceDir, timeoutMs: 10_000 });
        expect(`${result.outcome}${result.outcome === 'pass' ? '' : `: ${result.detail}`}`).toBe('pass');
      } finally {
        await impl.close();
      }
    });
  }
});
