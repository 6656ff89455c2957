// @module-tag integration
// The reference implementation passes the seed-000 liveness scenarios and the field scenarios on
// SQLite (the PostgreSQL-only scenario is not applicable there, and says so).

import { runFaultMatrix } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { REFERENCE, scenarios, target } from './helpers/faults.ts';

describe('fault matrix: reference implementation on SQLite (liveness and field scenarios)', () => {
  it('passes every liveness and field scenario', async () => {
    const list = [...scenarios('liveness/'), ...scenarios('field/')];
    expect(list.length).toBeGreaterThanOrEqual(10);
    const results = await runFaultMatrix(list, target(REFERENCE));
    // Every request a scenario sends is checked against its schema: none of them is the kit's defect.
    expect(results.filter((r) => r.outcome === 'harness-error').map((r) => `${r.id}: ${r.detail}`)).toEqual(
      [],
    );
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('faults/field/pg-connections-dropped')?.outcome).toBe('not-applicable');
    const bad = results
      .filter((r) => r.outcome !== 'pass' && r.id !== 'faults/field/pg-connections-dropped')
      .map((r) => `${r.id}: ${r.outcome}: ${r.detail}`);
    expect(bad).toEqual([]);
  }, 120_000);
});
