// Crash: a child process runs fenced commits and freezes at a named crash point, where the parent
// kills it with SIGKILL; a fresh process then reopens the store and recovers the task. Checked
// against the acknowledgements the child wrote before it died, an independent read of the
// durable log, and the ledger of effects the tool call wrote:
// - every acknowledged commit is durable; at most one commit is durable but unacknowledged;
// - an operation whose dispatch was recorded comes back `dispatched` and the restarted runtime
//   moves it to `reconcile-required` (never `aborted-zero-effect`, never re-dispatched: the
//   ledger does not grow during recovery); only a never-dispatched operation is aborted.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fence } from '@agent-contracts/engines';
import { checkFencedInvariants, type HistoryEvent } from '@agent-contracts/history';
import { afterAll, describe, expect, it } from 'vitest';
import { exited, readLines, spawnChild } from './helpers/child-process.js';
import { taskKey } from './helpers/envelopes.js';
import { type BackendTarget, openBackend, targetEnv } from './helpers/open-backend.js';
import { dropSchema, freshSchema, PG_SKIP, requirePgUrl } from './helpers/postgres-env.js';

const CHILD = fileURLToPath(new URL('./helpers/crash-child.ts', import.meta.url));

interface Scenario {
  /** `<crash point>:<k>`, or `kill-after-ack:<k>`: the parent kills at once when it sees the k-th ack. */
  readonly point: string;
  /** Phase of the unresolved operation the restarted runtime finds, and the one it leaves. */
  readonly found: string | null;
  readonly recovered: string | null;
  /** Effects in the ledger when the child died. */
  readonly effects: number;
}

const SCENARIOS: readonly Scenario[] = [
  { point: 'before-commit:4', found: 'prepared', recovered: null, effects: 0 },
  { point: 'after-commit-before-ack:3', found: 'prepared', recovered: null, effects: 0 },
  { point: 'after-ack:5', found: 'observed', recovered: null, effects: 1 },
  { point: 'after-prepare:1', found: 'prepared', recovered: null, effects: 0 },
  { point: 'after-dispatch-recorded:1', found: 'dispatched', recovered: 'reconcile-required', effects: 0 },
  {
    point: 'after-tool-call-before-observe:1',
    found: 'dispatched',
    recovered: 'reconcile-required',
    effects: 1,
  },
  { point: 'after-dispatch-recorded:2', found: 'dispatched', recovered: 'reconcile-required', effects: 1 },
  { point: 'after-observe-before-settle:2', found: 'observed', recovered: null, effects: 2 },
];

type Line = {
  type: string;
  value?: { expected: Fence; next: Fence; digest: string; kind: string };
  [k: string]: unknown;
};

async function runChild(env: Record<string, string>, killOnAck?: number) {
  const child = spawnChild(CHILD, env);
  const lines: Line[] = [];
  let acks = 0;
  const io = readLines(child, (m) => {
    const line = m as Line;
    lines.push(line);
    if (line.type === 'crash') child.kill('SIGKILL');
    if (line.type === 'ok' && ++acks === killOnAck) child.kill('SIGKILL');
  });
  const exit = await exited(child);
  return { lines, exit, stderr: io.stderr() };
}

const toHistory = (lines: Line[], process: string, task: string): HistoryEvent[] =>
  lines.flatMap((l): HistoryEvent[] => {
    if (!l.value) return [];
    const { expected, next, digest } = l.value;
    if (l.type === 'invoke' || l.type === 'ok')
      return [{ type: l.type, process, task, f: 'commit', value: { expected, next, digest } }];
    return [];
  });

async function crashAndRecover(target: BackendTarget, dir: string, s: Scenario) {
  const seed = `crash-${target.kind}-${s.point}`;
  const key = taskKey(seed);
  const ledger = join(dir, `${seed.replace(/[^a-z0-9-]/gi, '_')}.ledger`);
  const env = { ...targetEnv(target), CRASH_TASK: seed, LEDGER: ledger };
  const [name, k] = s.point.split(':');
  const work =
    name === 'kill-after-ack'
      ? await runChild({ ...env, MODE: 'work' }, Number(k))
      : await runChild({ ...env, MODE: 'work', CRASH_POINT: s.point });
  expect(work.exit.signal, work.stderr).toBe('SIGKILL');
  const effects = () =>
    existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').filter(Boolean) : [];
  const effectsAtCrash = effects();

  const recover = await runChild({ ...env, MODE: 'recover' });
  expect(recover.exit.code, recover.stderr).toBe(0);
  const result = recover.lines.find((l) => l.type === 'recovered')!;

  const reader = await openBackend(target);
  const log = await reader.history(key);
  await reader.close();
  return { work, recover, result, log, effectsAtCrash, effectsAfter: effects(), key };
}

function assertCrash(r: Awaited<ReturnType<typeof crashAndRecover>>, s: Scenario) {
  // Acknowledged commits are durable; at most one durable commit is unacknowledged.
  const history = [
    ...toHistory(r.work.lines, 'worker', r.key.taskId),
    ...toHistory(r.recover.lines, 'recover', r.key.taskId),
  ];
  const durable = new Map([
    [
      r.key.taskId,
      r.log.map((e) => ({
        sequence: e.sequence,
        writerGeneration: e.writerGeneration,
        digest: e.envelopeDigest,
      })),
    ],
  ]);
  expect(checkFencedInvariants(history, durable).anomalies).toEqual([]);
  const acked =
    r.work.lines.filter((l) => l.type === 'ok').length +
    r.recover.lines.filter((l) => l.type === 'ok').length;
  expect(r.log.length - acked).toBeGreaterThanOrEqual(0);
  expect(r.log.length - acked).toBeLessThanOrEqual(1);
  if (s.point.startsWith('after-commit-before-ack')) expect(r.log.length - acked).toBe(1);

  // What the restarted runtime found and did.
  expect(r.result.before).toBe(s.found);
  expect(r.result.after).toBe(s.recovered);
  expect(r.effectsAtCrash).toHaveLength(s.effects);
  expect(r.effectsAfter).toEqual(r.effectsAtCrash); // recovery never re-dispatches

  // Only a never-dispatched operation is ever aborted; a dispatched one never becomes aborted.
  const dispatched = new Set(
    r.log
      .filter((e) => e.operations.unresolved?.phase === 'dispatched')
      .map((e) => e.operations.unresolved!.operationId),
  );
  const last = r.log.at(-1)!;
  for (const ref of last.operations.settled)
    if (ref.phase === 'aborted-zero-effect') {
      expect(dispatched.has(ref.operationId)).toBe(false);
      expect(r.effectsAfter.filter((l) => l.includes(`"${ref.operationId}"`))).toEqual([]);
    }
  if (s.found === 'dispatched') expect(last.operations.unresolved?.phase).toBe('reconcile-required');
  // Every effect in the ledger belongs to an operation whose dispatch is durable.
  for (const line of r.effectsAfter) expect(dispatched.has(JSON.parse(line).operationId)).toBe(true);
}

describe('crash: SIGKILL at named crash points, recovery in a fresh process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sqlite: BackendTarget = { kind: 'sqlite', path: join(dir, 'crash.db') };

  for (const s of SCENARIOS)
    it(`SQLite: ${s.point}`, async () => {
      assertCrash(await crashAndRecover(sqlite, dir, s), s);
    });

  it('SQLite: killed at an arbitrary moment right after an acknowledgement (inside the next commit)', async () => {
    for (const k of [2, 4, 7]) {
      const r = await crashAndRecover(sqlite, dir, {
        point: `kill-after-ack:${k}`,
        found: null,
        recovered: null,
        effects: 0,
      });
      const acked = r.work.lines.filter((l) => l.type === 'ok').length;
      const history = toHistory(r.work.lines, 'worker', r.key.taskId).concat(
        toHistory(r.recover.lines, 'recover', r.key.taskId),
      );
      const durable = new Map([
        [
          r.key.taskId,
          r.log.map((e) => ({
            sequence: e.sequence,
            writerGeneration: e.writerGeneration,
            digest: e.envelopeDigest,
          })),
        ],
      ]);
      expect(acked).toBeGreaterThanOrEqual(k);
      expect(checkFencedInvariants(history, durable).anomalies).toEqual([]);
      expect(r.result.after === null || r.result.after === 'reconcile-required').toBe(true);
      expect(r.effectsAfter).toEqual(r.effectsAtCrash);
    }
  });

  describe.skipIf(PG_SKIP)('PostgreSQL', () => {
    const schema = freshSchema('crash');
    afterAll(() => dropSchema(schema));
    for (const s of SCENARIOS)
      it(`PostgreSQL: ${s.point}`, async () => {
        const target: BackendTarget = { kind: 'postgres', url: requirePgUrl(), schema };
        await (await openBackend(target)).close();
        assertCrash(await crashAndRecover(target, dir, s), s);
      });
  });
});
