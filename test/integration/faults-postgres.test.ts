// @module-tag integration
// @module-tag slow
// The reference implementation passes the whole fault matrix with its state in PostgreSQL,
// including dropped connections. Needs AGENT_CONTRACTS_PG_URL (skipped loudly without it, a
// failure in CI).
import { randomBytes } from 'node:crypto';
import { runFaultMatrix } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { PG_REQUIRED, PG_SKIP, PG_URL, REFERENCE, scenarios, target } from './helpers/faults.ts';

if (PG_SKIP)
  process.stderr.write(
    '\n!! PostgreSQL fault matrix SKIPPED: AGENT_CONTRACTS_PG_URL is unset. Run `export AGENT_CONTRACTS_PG_URL="$(bash .ci/postgres.sh)"` to run it (CI and AGENT_CONTRACTS_REQUIRE_PG=1 make this a failure).\n\n',
  );

describe.skipIf(PG_SKIP)('fault matrix: reference implementation on PostgreSQL', () => {
  it('has a database', () => {
    expect(PG_URL, `AGENT_CONTRACTS_PG_URL must be set when ${PG_REQUIRED ? 'CI' : 'required'}`).not.toBe('');
  });

  it('passes every scenario that applies to PostgreSQL', async () => {
    const url = new URL(PG_URL);
    url.searchParams.set('schema', `ac_faults_${randomBytes(4).toString('hex')}`);
    const list = scenarios();
    const results = await runFaultMatrix(list, { ...target(REFERENCE, url.href), jobs: 3 });
    const byId = new Map(results.map((r) => [r.id, r]));
    const dropped = byId.get('faults/field/pg-connections-dropped');
    expect(dropped?.outcome, dropped?.detail).toBe('pass');
    // The turn state is durable in the host-local directory hello names beside the database URL.
    expect(byId.get('faults/liveness/restart-rehydrate')?.outcome).toBe('pass');
    const bad = results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.outcome}: ${r.detail}`);
    expect(bad).toEqual([]);
  }, 180_000);
});
