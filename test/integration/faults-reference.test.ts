// @module-tag integration
// @module-tag slow
// The reference implementation passes every store scenario of the fault matrix on SQLite.

import { runFaultMatrix } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { REFERENCE, scenarios, target } from './helpers/faults.ts';

describe('fault matrix: reference implementation on SQLite (store scenarios)', () => {
  it('passes every store scenario', async () => {
    const list = scenarios('store/');
    expect(list.length).toBeGreaterThanOrEqual(13);
    const results = await runFaultMatrix(list, target(REFERENCE));
    // Every request a scenario sends is checked against its schema: none of them is the kit's defect.
    expect(results.filter((r) => r.outcome === 'harness-error').map((r) => `${r.id}: ${r.detail}`)).toEqual(
      [],
    );
    const bad = results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome}: ${r.detail}`);
    expect(bad).toEqual([]);
    expect(results).toHaveLength(list.length);
    // A safety net only: thirteen scenarios with real processes, on a machine that may be busy.
  }, 300_000);
});
