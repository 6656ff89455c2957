// `pnpm bench store`: fenced appends of the storage backends against a raw conditional UPDATE on
// the same engine, file (or database) and durability setting, measured in the same run and
// interleaved round by round; p50/p99 append latency with 8 concurrent writers on PostgreSQL; the
// memory backend's primitive rate. Prints ratios; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import type { StorageBackend, TaskKey } from '../packages/store/src/backend.js';
import { createMemoryBackend } from '../packages/store/src/backends/memory.js';
import { createPostgresBackend } from '../packages/store/src/backends/postgres.js';
import { createSqliteBackend } from '../packages/store/src/backends/sqlite.js';
import type { BetterSqlite3Module, PgModule } from '../packages/store/test/helpers/driver-types.js';
import { acquire, fenceOf, stateCommit, taskKey } from '../packages/store/test/helpers/envelopes.js';

// The drivers are dependencies of @agent-contracts/store, not of the workspace root.
const requireFromStore = createRequire(new URL('../packages/store/package.json', import.meta.url));
const Database = requireFromStore('better-sqlite3') as BetterSqlite3Module;
const pg = requireFromStore('pg') as PgModule;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
const log = (s: string) => process.stdout.write(`${s}\n`);

/** A chain of `n` envelopes after the task's acquire; built before timing (digests are not the store's cost). */
function chain(key: TaskKey, n: number): TaskRecoveryStateV5[] {
  const out = [acquire(key)];
  for (let i = 1; i <= n; i++)
    out.push(stateCommit(out[i - 1]!, { i, note: 'benchmark state of realistic size' }));
  return out;
}

/** Appends envelopes[1..] after envelopes[0] (already stored); returns commits/s. */
async function fenced(
  backend: StorageBackend,
  key: TaskKey,
  envelopes: TaskRecoveryStateV5[],
): Promise<number> {
  const t0 = performance.now();
  for (let i = 1; i < envelopes.length; i++) {
    const r = await backend.compareAndAppend(key, fenceOf(envelopes[i - 1]!), envelopes[i]!);
    if (!r.ok) throw new Error('fence refused in the benchmark');
  }
  return ((envelopes.length - 1) * 1000) / (performance.now() - t0);
}

async function benchSqlite(dir: string): Promise<void> {
  const path = join(dir, 'bench.db');
  const backend = createSqliteBackend(path); // WAL + synchronous=FULL
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.exec(
    'CREATE TABLE IF NOT EXISTS raw_cas (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, gen INTEGER NOT NULL)',
  );
  raw.prepare('INSERT OR IGNORE INTO raw_cas VALUES (1, 0, 1)').run();
  const update = raw.prepare('UPDATE raw_cas SET seq = ? WHERE id = 1 AND seq = ? AND gen = 1');
  let seq = 0;
  const casOnce = raw.transaction(() => {
    if (update.run(seq + 1, seq).changes !== 1) throw new Error('raw CAS refused');
    seq++;
  });
  const N = 2000;
  const ratios: number[] = [];
  const rates: number[] = [];
  const raws: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) casOnce.immediate();
    const rawRate = (N * 1000) / (performance.now() - t0);
    const key = taskKey(`bench-sqlite-${round}`);
    const envs = chain(key, N);
    await backend.compareAndAppend(key, fenceOf(null), envs[0]!);
    const rate = await fenced(backend, key, envs);
    if (round < 0) continue; // warm-up
    raws.push(rawRate);
    rates.push(rate);
    ratios.push(rate / rawRate);
  }
  log(
    `sqlite (WAL, synchronous=FULL, BEGIN IMMEDIATE): fenced append ${fmt(median(rates))}/s, raw conditional UPDATE ${fmt(median(raws))}/s, ratio ${median(ratios).toFixed(2)} (target >= 0.7)`,
  );
  raw.close();
  await backend.close();
}

async function benchPostgres(url: string): Promise<void> {
  const schema = `ac_bench_${process.pid}`;
  const backend = await createPostgresBackend(url, { schema, maxConnections: 8 });
  const raw = new pg.Pool({ connectionString: url, max: 8, options: '-c synchronous_commit=on' });
  await raw.query(
    `CREATE TABLE "${schema}".raw_cas (id int PRIMARY KEY, seq bigint NOT NULL, gen bigint NOT NULL)`,
  );
  await raw.query(`INSERT INTO "${schema}".raw_cas SELECT g, 0, 1 FROM generate_series(0, 7) g`);
  const seqs = new Array<number>(8).fill(0);
  const rawCas = async (id: number) => {
    const r = await raw.query({
      name: 'raw_cas',
      text: `UPDATE "${schema}".raw_cas SET seq = $1 WHERE id = $2 AND seq = $3 AND gen = 1`,
      values: [seqs[id]! + 1, id, seqs[id]],
    });
    if (r.rowCount !== 1) throw new Error('raw CAS refused');
    seqs[id]!++;
  };
  try {
    const N = 1000;
    const ratios: number[] = [];
    const rates: number[] = [];
    const raws: number[] = [];
    for (let round = -1; round < ROUNDS; round++) {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await rawCas(0);
      const rawRate = (N * 1000) / (performance.now() - t0);
      const key = taskKey(`bench-pg-${round}`);
      const envs = chain(key, N);
      await backend.compareAndAppend(key, fenceOf(null), envs[0]!);
      const rate = await fenced(backend, key, envs);
      if (round < 0) continue;
      raws.push(rawRate);
      rates.push(rate);
      ratios.push(rate / rawRate);
    }
    log(
      `postgres (1 writer, READ COMMITTED, synchronous_commit=on): fenced append ${fmt(median(rates))}/s, raw conditional UPDATE ${fmt(median(raws))}/s, ratio ${median(ratios).toFixed(2)} (target >= 0.7)`,
    );

    // 8 concurrent writers, each on its own task (the fleet case), and the same for raw UPDATEs.
    const W = 8;
    const PER = 400;
    const latencies: number[] = [];
    const chains = Array.from({ length: W }, (_, w) => chain(taskKey(`bench-pg-conc-${w}`), PER));
    for (const [w, envs] of chains.entries())
      await backend.compareAndAppend(taskKey(`bench-pg-conc-${w}`), fenceOf(null), envs[0]!);
    const t0 = performance.now();
    await Promise.all(
      chains.map(async (envs, w) => {
        const key = taskKey(`bench-pg-conc-${w}`);
        for (let i = 1; i < envs.length; i++) {
          const s = performance.now();
          const r = await backend.compareAndAppend(key, fenceOf(envs[i - 1]!), envs[i]!);
          latencies.push(performance.now() - s);
          if (!r.ok) throw new Error('fence refused in the benchmark');
        }
      }),
    );
    const concRate = (W * PER * 1000) / (performance.now() - t0);
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: W }, async (_, w) => {
        for (let i = 0; i < PER; i++) await rawCas(w);
      }),
    );
    const rawConc = (W * PER * 1000) / (performance.now() - t1);
    log(
      `postgres (8 concurrent writers): fenced append ${fmt(concRate)}/s, raw ${fmt(rawConc)}/s, ratio ${(concRate / rawConc).toFixed(2)}; latency p50 ${pct(latencies, 0.5).toFixed(2)} ms, p99 ${pct(latencies, 0.99).toFixed(2)} ms`,
    );
  } finally {
    await raw.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw.end();
    await backend.close();
  }
}

async function benchMemory(): Promise<void> {
  const backend = createMemoryBackend();
  const key = taskKey('bench-memory');
  const N = 200_000;
  const envs = chain(key, 64);
  // Reuse a short chain's shapes with rising sequence numbers: the primitive cost, not digests.
  const rates: number[] = [];
  let prev = envs[0]!;
  await backend.compareAndAppend(key, fenceOf(null), prev);
  for (let round = -1; round < ROUNDS; round++) {
    const batch: TaskRecoveryStateV5[] = [];
    for (let i = 0; i < N; i++) batch.push({ ...envs[1]!, sequence: prev.sequence + 1 + i });
    const t0 = performance.now();
    for (const next of batch) {
      const r = await backend.compareAndAppend(key, fenceOf(prev), next);
      if (!r.ok) throw new Error('fence refused in the benchmark');
      prev = next;
    }
    const rate = (N * 1000) / (performance.now() - t0);
    if (round >= 0) rates.push(rate);
  }
  log(`memory: compareAndAppend ${fmt(median(rates))}/s (target >= 1 M/s)`);
}

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-bench-'));
try {
  log(`store benchmark, median of ${ROUNDS} interleaved rounds (node ${process.version})`);
  await benchMemory();
  await benchSqlite(dir);
  const url = process.env.AGENT_CONTRACTS_PG_URL;
  if (url) await benchPostgres(url);
  else log('postgres: skipped (set AGENT_CONTRACTS_PG_URL, e.g. "$(bash .ci/postgres.sh)")');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
