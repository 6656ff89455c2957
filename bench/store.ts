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

/** Runs `count` more commits of one side (continuing where the previous call stopped). */
type Runner = (count: number) => Promise<void>;
/** Prepares one side for a round (a fresh task, envelopes built ahead); returns its runner. */
type Side = (round: number) => Promise<Runner>;

/**
 * Measures the raw and the fenced side `ROUNDS` times after one warm-up round. Within a round the
 * two sides alternate in chunks of `chunk` commits (which one goes first alternates too), so both
 * see the same machine: a load spike from another process lands on both sides, not on one. Returns
 * the medians of each side's rate and of the per-round ratio fenced / raw. Envelopes are built
 * before timing (digests are the engines' cost, not the store's).
 */
async function interleaved(
  perRound: number,
  chunk: number,
  raw: Side,
  fenced: Side,
): Promise<{ raw: number; fenced: number; ratio: number }> {
  const raws: number[] = [];
  const rates: number[] = [];
  const ratios: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const runRaw = await raw(round);
    const runFenced = await fenced(round);
    let rawMs = 0;
    let fencedMs = 0;
    for (let done = 0, i = 0; done < perRound; done += chunk, i++) {
      const n = Math.min(chunk, perRound - done);
      for (const side of i % 2 === 0 ? ['raw', 'fenced'] : ['fenced', 'raw']) {
        const t0 = performance.now();
        await (side === 'raw' ? runRaw : runFenced)(n);
        if (side === 'raw') rawMs += performance.now() - t0;
        else fencedMs += performance.now() - t0;
      }
    }
    if (round < 0) continue; // warm-up
    raws.push((perRound * 1000) / rawMs);
    rates.push((perRound * 1000) / fencedMs);
    ratios.push(rawMs / fencedMs);
  }
  return { raw: median(raws), fenced: median(rates), ratio: median(ratios) };
}

/** A fenced side on one task: `compareAndAppend` of a prebuilt chain, one envelope per commit. */
async function fencedTask(
  backend: StorageBackend,
  key: TaskKey,
  length: number,
  latencies?: number[],
): Promise<Runner> {
  const envs = chain(key, length);
  await backend.compareAndAppend(key, fenceOf(null), envs[0]!);
  let i = 1;
  return async (count) => {
    for (const end = i + count; i < end; i++) {
      const s = latencies ? performance.now() : 0;
      const r = await backend.compareAndAppend(key, fenceOf(envs[i - 1]!), envs[i]!);
      if (latencies) latencies.push(performance.now() - s);
      if (!r.ok) throw new Error('fence refused in the benchmark');
    }
  };
}

async function benchSqlite(dir: string): Promise<void> {
  const path = join(dir, 'bench.db');
  const backend = createSqliteBackend(path); // WAL + synchronous=FULL (the default)
  // The raw side: a second connection to the same file with the same settings, on a table of the
  // same shape as the store's head table, one BEGIN IMMEDIATE transaction per conditional UPDATE.
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  if (raw.pragma('synchronous', { simple: true }) !== 2) throw new Error('raw side is not synchronous=FULL');
  const tasksDdl = raw
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'tasks'")
    .pluck()
    .get();
  raw.exec(String(tasksDdl).replace(/^CREATE TABLE (IF NOT EXISTS )?"?tasks"?/i, 'CREATE TABLE raw_tasks'));
  const insert = raw.prepare('INSERT INTO raw_tasks VALUES (?, ?, 1, 1)');
  const update = raw.prepare(
    `UPDATE raw_tasks SET state_sequence = ?, writer_generation = ?
      WHERE project_root_identity = ? AND task_id = ? AND state_sequence = ? AND writer_generation = ?`,
  );
  const casOnce = raw.transaction((key: TaskKey, seq: number) => {
    if (update.run(seq + 1, 1, key.projectRootIdentity, key.taskId, seq, 1).changes !== 1)
      throw new Error('raw CAS refused');
  });
  const N = 2000;
  const result = await interleaved(
    N,
    100,
    async (round) => {
      const key = taskKey(`bench-sqlite-raw-${round}`);
      insert.run(key.projectRootIdentity, key.taskId);
      let seq = 1;
      return async (count) => {
        for (const end = seq + count; seq < end; seq++) casOnce.immediate(key, seq);
      };
    },
    (round) => fencedTask(backend, taskKey(`bench-sqlite-${round}`), N),
  );
  log(
    `sqlite (one file, WAL, synchronous=FULL on both sides, BEGIN IMMEDIATE): fenced append ${fmt(result.fenced)}/s, raw conditional UPDATE ${fmt(result.raw)}/s, ratio ${result.ratio.toFixed(2)} (target >= 0.7)`,
  );
  raw.close();
  await backend.close();
}

const PG_SESSION = '-c synchronous_commit=on -c default_transaction_isolation=read\\ committed';

async function benchPostgres(url: string): Promise<void> {
  const schema = `ac_bench_${process.pid}`;
  const W = 8;
  const backend = await createPostgresBackend(url, { schema, maxConnections: W });
  // The raw side: its own pool of the same size and session settings, on a table of the same
  // shape as the store's head table, one conditional UPDATE statement (one round trip) per commit.
  const raw = new pg.Pool({ connectionString: url, max: W, options: PG_SESSION });
  const head = `"${schema}".raw_tasks`;
  // Same shape as the store's head table: columns, collations, keys, storage parameters.
  await raw.query(`CREATE TABLE ${head} (LIKE "${schema}".tasks INCLUDING ALL)`);
  const relopts = await raw.query<{ reloptions: string[] | null }>(
    'SELECT reloptions FROM pg_class WHERE oid = to_regclass($1)',
    [`"${schema}".tasks`],
  );
  const opts = relopts.rows[0]?.reloptions ?? [];
  if (opts.length > 0) await raw.query(`ALTER TABLE ${head} SET (${opts.join(', ')})`);
  /** A raw side on one task: one named conditional UPDATE per commit, row count checked. */
  const rawTask = async (key: TaskKey, latencies?: number[]): Promise<Runner> => {
    await raw.query(`INSERT INTO ${head} VALUES ($1, $2, 1, 1)`, [key.projectRootIdentity, key.taskId]);
    let seq = 1;
    return async (count) => {
      for (const end = seq + count; seq < end; seq++) {
        const s = latencies ? performance.now() : 0;
        const r = await raw.query({
          name: 'raw_cas',
          text: `UPDATE ${head} SET state_sequence = $3, writer_generation = $4
                  WHERE project_root_identity = $1 AND task_id = $2 AND state_sequence = $5 AND writer_generation = $6`,
          values: [key.projectRootIdentity, key.taskId, seq + 1, 1, seq, 1],
        });
        if (latencies) latencies.push(performance.now() - s);
        if (r.rowCount !== 1) throw new Error('raw CAS refused');
      }
    };
  };
  /** W tasks written concurrently, each by its own writer; a chunk is `count` commits per writer. */
  const concurrent =
    (make: (w: number) => Promise<Runner>): Side =>
    async () => {
      const runners = await Promise.all(Array.from({ length: W }, (_, w) => make(w)));
      return async (count) => {
        await Promise.all(runners.map((run) => run(count / W)));
      };
    };
  try {
    const N = 1000;
    const one = await interleaved(
      N,
      50,
      (round) => rawTask(taskKey(`bench-pg-raw-${round}`)),
      (round) => fencedTask(backend, taskKey(`bench-pg-${round}`), N),
    );
    log(
      `postgres (1 writer, READ COMMITTED, synchronous_commit=on on both sides): fenced append ${fmt(one.fenced)}/s, raw conditional UPDATE ${fmt(one.raw)}/s, ratio ${one.ratio.toFixed(2)} (target >= 0.7)`,
    );

    // 8 concurrent writers, each on its own task (the fleet case), on both sides.
    const PER = 400;
    const fencedLatencies: number[] = [];
    const rawLatencies: number[] = [];
    const conc = await interleaved(
      W * PER,
      W * 25,
      (round) =>
        concurrent((w) =>
          rawTask(taskKey(`bench-pg-raw-conc-${round}-${w}`), round >= 0 ? rawLatencies : undefined),
        )(round),
      (round) =>
        concurrent((w) =>
          fencedTask(
            backend,
            taskKey(`bench-pg-conc-${round}-${w}`),
            PER,
            round >= 0 ? fencedLatencies : undefined,
          ),
        )(round),
    );
    log(
      `postgres (8 concurrent writers, 8 connections per side): fenced append ${fmt(conc.fenced)}/s, raw conditional UPDATE ${fmt(conc.raw)}/s, ratio ${conc.ratio.toFixed(2)} (target >= 0.7)`,
    );
    log(
      `postgres (8 concurrent writers) latency: fenced p50 ${pct(fencedLatencies, 0.5).toFixed(2)} ms, p99 ${pct(fencedLatencies, 0.99).toFixed(2)} ms; raw p50 ${pct(rawLatencies, 0.5).toFixed(2)} ms, p99 ${pct(rawLatencies, 0.99).toFixed(2)} ms`,
    );
  } finally {
    await raw.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw.end();
    await backend.close();
  }
}

/**
 * The next envelope as the engines build it (task-continuity `buildEnvelope`): a new root object
 * and a fresh copy of `state`, sharing owner, operations and terminal lineage with the envelope it
 * follows. Digests are not recomputed: this measures the primitive, not hashing.
 */
function engineLike(prev: TaskRecoveryStateV5, template: TaskRecoveryStateV5): TaskRecoveryStateV5 {
  return {
    schemaVersion: template.schemaVersion,
    taskId: prev.taskId,
    projectRootIdentity: prev.projectRootIdentity,
    sequence: prev.sequence + 1,
    writerGeneration: prev.writerGeneration,
    lifecycleRevision: prev.lifecycleRevision,
    commitKind: template.commitKind,
    committedAt: template.committedAt,
    previousEnvelopeDigest: prev.envelopeDigest,
    owner: prev.owner,
    operations: prev.operations,
    terminalReceipt: prev.terminalReceipt,
    terminalLineage: prev.terminalLineage,
    state: structuredClone(template.state),
    stateDigest: template.stateDigest,
    envelopeDigest: template.envelopeDigest,
  };
}

async function benchMemory(): Promise<void> {
  const N = 200_000;
  const template = chain(taskKey('bench-memory'), 1)[1]!;
  const rates: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    // A fresh backend and task per round, so every round appends to a log of the same length.
    const backend = createMemoryBackend();
    const key = taskKey(`bench-memory-${round}`);
    const first = acquire(key);
    await backend.compareAndAppend(key, fenceOf(null), first);
    // Built before timing (the engines' cost, not the store's); each shares its subtrees with the
    // one before it, which is what the store has frozen by the time the next one is appended.
    const batch: TaskRecoveryStateV5[] = [];
    let prev = first;
    for (let i = 0; i < N; i++) {
      prev = engineLike(prev, template);
      batch.push(prev);
    }
    prev = first;
    const t0 = performance.now();
    for (const next of batch) {
      const r = await backend.compareAndAppend(key, fenceOf(prev), next);
      if (!r.ok) throw new Error('fence refused in the benchmark');
      prev = next;
    }
    const rate = (N * 1000) / (performance.now() - t0);
    if (round >= 0) rates.push(rate);
    await backend.close();
  }
  log(
    `memory (envelopes checked as JSON data and deep-frozen on append): compareAndAppend ${fmt(median(rates))}/s (target >= 1 M/s)`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-bench-'));
try {
  log(`store benchmark, median of ${ROUNDS} interleaved rounds (node ${process.version})`);
  // BENCH_ONLY=memory|sqlite|postgres runs one section.
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'memory') await benchMemory();
  if (!only || only === 'sqlite') await benchSqlite(dir);
  if (!only || only === 'postgres') {
    const url = process.env.AGENT_CONTRACTS_PG_URL;
    if (url) await benchPostgres(url);
    else log('postgres: skipped (set AGENT_CONTRACTS_PG_URL, e.g. "$(bash .ci/postgres.sh)")');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
