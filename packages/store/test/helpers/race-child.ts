// Child of race.test.ts. Per round: read the task's latest envelope, print `ready`, wait for `go`
// on stdin, then try the fenced append of its own next envelope and print the result with
// CLOCK_MONOTONIC timestamps (comparable across processes on one host), then read again.
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fenceOf, stateCommit, taskKey } from './envelopes.js';
import { openBackend, targetFromEnv } from './open-backend.js';

const id = process.env.RACE_WRITER ?? '0';
const key = taskKey(process.env.RACE_TASK ?? 'race');
const now = () => Number(process.hrtime.bigint());
const say = (msg: unknown) => writeSync(1, `${JSON.stringify(msg)}\n`);

const backend = await openBackend(targetFromEnv());
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
let round = 0;
for (;;) {
  const latest = await backend.load(key);
  if (!latest) throw new Error('the parent creates the task before the race');
  say({ type: 'ready', round, fence: fenceOf(latest) });
  const cmd = await lines.next();
  if (cmd.done || cmd.value === 'stop') break;
  const next = stateCommit(latest, { writer: id, round });
  const expected = fenceOf(latest);
  const value = { expected, next: fenceOf(next), digest: next.envelopeDigest };
  const t0 = now();
  const r = await backend.compareAndAppend(key, expected, next);
  const t1 = now();
  say({ type: 'result', round, t0, t1, value, ok: r.ok, current: r.ok ? null : r.current });
  const t2 = now();
  const seen = await backend.load(key);
  const t3 = now();
  say({ type: 'read', round, t2, t3, fence: fenceOf(seen), digest: seen?.envelopeDigest ?? null });
  round++;
}
await backend.close();
process.exit(0);
