// Real concurrency: N child processes, released together by a barrier, race fenced appends on one
// task over many rounds, on a SQLite file and on PostgreSQL. Exactly one winner per fence per
// round, every loser refused with the winner's fence, no lost update; the recorded history (with
// CLOCK_MONOTONIC timestamps from each process) passes the invariant and linearizability checkers.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fence } from '@agent-contracts/engines';
import { checkFencedInvariants, checkLinearizable, type HistoryEvent } from '@agent-contracts/history';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, readLines, spawnChild } from './helpers/child-process.js';
import { acquire, fenceOf, taskKey } from './helpers/envelopes.js';
import { type BackendTarget, openBackend, targetEnv } from './helpers/open-backend.js';
import { dropSchema, freshSchema, PG_SKIP, requirePgUrl } from './helpers/postgres-env.js';

const CHILD = fileURLToPath(new URL('./helpers/race-child.ts', import.meta.url));
const WRITERS = 6;
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 40);

interface Msg {
  type: string;
  round: number;
  [k: string]: unknown;
}

/** A queue of one child's messages that a test can await one at a time. */
function mailbox(child: ChildProcess) {
  const queue: Msg[] = [];
  const waiters: ((m: Msg) => void)[] = [];
  const io = readLines(child, (m) => {
    const w = waiters.shift();
    if (w) w(m as Msg);
    else queue.push(m as Msg);
  });
  let dead: string | null = null;
  child.once('exit', (code, signal) => {
    dead = `child exited (${code ?? signal}) early: ${io.stderr()}`;
  });
  return {
    /**
     * The child's next message. `waitMs` is a safety net only (a child that hangs); the first
     * message, which follows the process's start, gets more on a loaded machine.
     */
    next: (waitMs = 20_000): Promise<Msg> =>
      new Promise((resolve, reject) => {
        const m = queue.shift();
        if (m) return resolve(m);
        if (dead) return reject(new Error(dead));
        const timer = setTimeout(
          () => reject(new Error(`no message within ${waitMs / 1000} s: ${io.stderr()}`)),
          waitMs,
        );
        waiters.push((msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
      }),
  };
}

async function race(target: BackendTarget, taskSeed: string) {
  const key = taskKey(taskSeed);
  const setup = await openBackend(target);
  const first = acquire(key);
  expect(await setup.compareAndAppend(key, fenceOf(null), first)).toEqual({ ok: true });
  const history: (HistoryEvent & { t: number })[] = [
    {
      t: 0,
      type: 'invoke',
      process: 'setup',
      task: key.taskId,
      f: 'commit',
      value: { expected: fenceOf(null), next: fenceOf(first), digest: first.envelopeDigest },
    },
    {
      t: 1,
      type: 'ok',
      process: 'setup',
      task: key.taskId,
      f: 'commit',
      value: { expected: fenceOf(null), next: fenceOf(first), digest: first.envelopeDigest },
    },
  ];

  const children = Array.from({ length: WRITERS }, (_, i) =>
    spawnChild(CHILD, { ...targetEnv(target), RACE_WRITER: String(i), RACE_TASK: taskSeed }),
  );
  const boxes = children.map(mailbox);
  const winners: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const ready = await Promise.all(boxes.map((b) => b.next(round === 0 ? 60_000 : 20_000)));
      const fences = ready.map((m) => m.fence as Fence);
      // Every writer read the same fence: the previous round's winner.
      expect(new Set(fences.map((f) => `${f.stateSequence}:${f.writerGeneration}`)).size).toBe(1);
      expect(fences[0]!.stateSequence).toBe(round + 1);
      for (const c of children) c.stdin!.write('go\n'); // the barrier opens
      const results = await Promise.all(boxes.map((b) => b.next()));
      const reads = await Promise.all(boxes.map((b) => b.next()));
      const won = results.filter((r) => r.ok === true);
      winners.push(won.length);
      const winner = won[0]?.value as { next: Fence } | undefined;
      results.forEach((r, i) => {
        const value = r.value as { expected: Fence; next: Fence; digest: string };
        const proc = `w${i}`;
        history.push({
          t: r.t0 as number,
          type: 'invoke',
          process: proc,
          task: key.taskId,
          f: 'commit',
          value,
        });
        if (r.ok)
          history.push({
            t: r.t1 as number,
            type: 'ok',
            process: proc,
            task: key.taskId,
            f: 'commit',
            value,
          });
        else {
          expect(r.current).toEqual(winner?.next);
          history.push({
            t: r.t1 as number,
            type: 'fail',
            process: proc,
            task: key.taskId,
            f: 'commit',
            value: { ...value, current: r.current as Fence },
          });
        }
        const read = reads[i]!;
        history.push({
          t: read.t2 as number,
          type: 'invoke',
          process: proc,
          task: key.taskId,
          f: 'read',
          value: null,
        });
        history.push({
          t: read.t3 as number,
          type: 'ok',
          process: proc,
          task: key.taskId,
          f: 'read',
          value: { fence: read.fence as Fence, digest: read.digest as string },
        });
      });
    }
    for (const c of children) c.stdin!.end('stop\n');
    await Promise.all(boxes.map((b) => b.next())); // the final `ready`
    await Promise.all(children.map(exited));
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  }

  const log = await setup.history(key);
  await setup.close();
  history.sort((a, b) => a.t - b.t);
  return { winners, log, history: history.map(({ t: _t, ...e }) => e as HistoryEvent), key };
}

function assertRace(result: Awaited<ReturnType<typeof race>>) {
  expect(result.winners).toEqual(Array(ROUNDS).fill(1));
  expect(result.log.map((e) => e.sequence)).toEqual(Array.from({ length: ROUNDS + 1 }, (_, i) => i + 1));
  result.log.forEach((e, i) => {
    if (i > 0) expect(e.previousEnvelopeDigest).toBe(result.log[i - 1]!.envelopeDigest);
  });
  const durable = new Map([
    [
      result.key.taskId,
      result.log.map((e) => ({
        sequence: e.sequence,
        writerGeneration: e.writerGeneration,
        digest: e.envelopeDigest,
      })),
    ],
  ]);
  expect(checkFencedInvariants(result.history, durable).anomalies).toEqual([]);
  expect(checkLinearizable(result.history).anomalies).toEqual([]);
}

describe('race: processes released by a barrier on one task', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-race-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`SQLite file: ${WRITERS} processes x ${ROUNDS} rounds, exactly one winner per fence`, async () => {
    assertRace(await race({ kind: 'sqlite', path: join(dir, 'race.db') }, 'race-sqlite'));
  }, 120_000);

  describe.skipIf(PG_SKIP)('PostgreSQL', () => {
    const schema = freshSchema('race');
    afterAll(() => dropSchema(schema));
    it(`PostgreSQL: ${WRITERS} processes x ${ROUNDS} rounds, exactly one winner per fence`, async () => {
      const target = { kind: 'postgres' as const, url: requirePgUrl(), schema };
      await (await openBackend(target)).close(); // create the schema before the children open it
      assertRace(await race(target, 'race-postgres'));
    }, 120_000);
  });
});
