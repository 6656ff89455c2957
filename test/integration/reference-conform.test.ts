// @module-tag integration
// @module-tag slow
// The reference implementation (examples/reference-node) through a real `agent-contracts conform`
// subprocess: its liveness, checkpoint and trace cases, and its store cases on SQLite (one
// directory per job) and on PostgreSQL (one schema per job; skipped loudly without
// AGENT_CONTRACTS_PG_URL outside CI, a failure in CI). The same cases in process, and the state
// across kill -9, are the reference's own tests (examples/reference-node/test/liveness-trace.test.ts
// and store.test.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCases, parseReport } from '@agent-contracts/harness';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE, repoRoot, runCli } from './helpers/cli.ts';
import { PG_SKIP, PG_URL } from './helpers/faults.ts';

const conformanceDir = join(repoRoot, 'conformance');
const storeCases = loadCases(conformanceDir).filter((c) => c.id.startsWith('store/'));
const tmp = mkdtempSync(join(tmpdir(), 'reference-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

if (PG_SKIP)
  process.stderr.write(
    '\n!! reference-node PostgreSQL store runs SKIPPED: AGENT_CONTRACTS_PG_URL is unset. Run `export AGENT_CONTRACTS_PG_URL="$(bash .ci/postgres.sh)"` (CI and AGENT_CONTRACTS_REQUIRE_PG=1 make this a failure).\n\n',
  );
const requirePgUrl = () => {
  if (!PG_URL) throw new Error('AGENT_CONTRACTS_PG_URL is unset but CI requires the PostgreSQL runs');
  return PG_URL;
};

function conform(...args: string[]) {
  const r = runCli(['conform', ...args]);
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('reference-node: liveness, checkpoints and the trace', () => {
  it('passes through a real `agent-contracts conform` subprocess run', () => {
    const report = join(mkdtempSync(join(tmpdir(), 'ref-conform-')), 'report.jsonl');
    const r = runCli(
      [
        'conform',
        '--impl',
        REFERENCE,
        '--filter',
        'liveness/*',
        '--filter',
        'checkpoint/*',
        '--filter',
        'trace/*',
        '--report',
        report,
      ],
      { env: { NO_COLOR: '1' } },
    );
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases.length).toBeGreaterThan(200);
    expect(parsed.cases.filter((c) => c.outcome !== 'pass').map((c) => `${c.id}: ${c.detail}`)).toEqual([]);
  }, 120_000);
});

describe('reference-node store over the protocol', () => {
  it('passes every store case through `agent-contracts conform` on SQLite (a real subprocess)', () => {
    const state = join(tmp, 'conform');
    const report = join(tmp, 'store.jsonl');
    const r = conform(
      '--impl',
      REFERENCE,
      '--filter',
      'store/*',
      '--jobs',
      '2',
      '--state',
      state,
      '--report',
      report,
    );
    expect(r.code, r.out + r.err).toBe(0);
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases.length).toBe(storeCases.length);
    expect(parsed.cases.filter((c) => c.outcome !== 'pass')).toEqual([]);
    // One opaque directory per job (nothing in its name tells the jobs apart), each with its
    // own SQLite file.
    const jobDirs = readdirSync(state);
    expect(jobDirs).toHaveLength(2);
    for (const dir of jobDirs) {
      expect(dir).toMatch(/^s-[0-9a-f]{24}$/);
      expect(existsSync(join(state, dir, 'tasks.db'))).toBe(true);
    }
  });
});

describe.skipIf(PG_SKIP)('reference-node store on PostgreSQL', () => {
  const schemas: string[] = [];
  const fresh = (label: string) => {
    const s = `ac_ref_${label}_${process.pid}_${Date.now().toString(36)}`;
    schemas.push(s);
    return s;
  };
  afterAll(async () => {
    if (!PG_URL) return;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ac_ref_%' OR nspname LIKE 'ac_conform_ref_%'",
      );
      for (const { nspname } of rows)
        if (schemas.some((s) => nspname.startsWith(s)))
          await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    } finally {
      await client.end();
    }
  });

  it('passes every store case through `agent-contracts conform --state-url`, one schema per job', async () => {
    const base = fresh('conform');
    const url = new URL(requirePgUrl());
    url.searchParams.set('schema', base);
    const report = join(tmp, 'pg.jsonl');
    const r = conform(
      '--impl',
      REFERENCE,
      '--filter',
      'store/*',
      '--jobs',
      '2',
      '--state-url',
      url.href,
      '--report',
      report,
    );
    expect(r.code, r.out + r.err).toBe(0);
    const parsed = parseReport(readFileSync(report, 'utf8'));
    expect(parsed.cases.filter((c) => c.outcome !== 'pass')).toEqual([]);
    const client = new pg.Client({ connectionString: requirePgUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        'SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname',
        [[`${base}_1`, `${base}_2`]],
      );
      expect(rows.map((x) => x.nspname)).toEqual([`${base}_1`, `${base}_2`]);
    } finally {
      await client.end();
    }
  });
});
