// Child of crash.test.ts. MODE=work runs a fixed workload of fenced commits on one task (state
// commits and operations prepare -> dispatch -> tool call -> observe -> settle), printing every
// commit's invoke and acknowledgement as NDJSON with writeSync (bytes in the pipe survive
// SIGKILL). CRASH_POINT=<name>:<k> arms one named crash point: on its k-th arrival the child
// prints `crash` and freezes until the parent kills it with SIGKILL. The tool call appends one
// line per effect to the LEDGER file (fsynced), the independent record of dispatched effects.
// MODE=recover is the restarted runtime: it reads the task and moves an unresolved operation
// the way the spec requires (prepared -> abort; dispatched -> mark-reconcile; observed -> settle),
// never calling the tool.
import { appendFileSync, closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import type { StorageBackend } from '../../src/backend.js';
import { acquire, fenceOf, type OperationStep, operationCommit, stateCommit, taskKey } from './envelopes.js';
import { openBackend, targetFromEnv } from './open-backend.js';

const key = taskKey(process.env.CRASH_TASK ?? 'crash');
const ledger = process.env.LEDGER ?? '';
const [point, nth] = (process.env.CRASH_POINT ?? ':').split(':');
const hits = new Map<string, number>();
const say = (msg: unknown) => writeSync(1, `${JSON.stringify(msg)}\n`);

/** A named crash point: freeze (and be SIGKILLed by the parent) on the armed arrival. */
function crashPoint(name: string): void {
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  if (name !== point || n !== Number(nth)) return;
  say({ type: 'crash', point: name, n });
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
  process.exit(3); // the parent did not kill us: the test fails on the exit code
}

async function commit(backend: StorageBackend, prev: TaskRecoveryStateV5 | null, next: TaskRecoveryStateV5) {
  const value = {
    expected: fenceOf(prev),
    next: fenceOf(next),
    digest: next.envelopeDigest,
    kind: next.commitKind,
  };
  crashPoint('before-commit');
  say({ type: 'invoke', value });
  const r = await backend.compareAndAppend(key, fenceOf(prev), next);
  if (!r.ok) {
    say({ type: 'fail', value: { ...value, current: r.current } });
    throw new Error(`unexpected fence refusal at ${JSON.stringify(value)}`);
  }
  crashPoint('after-commit-before-ack');
  say({ type: 'ok', value });
  crashPoint('after-ack');
  return next;
}

function toolCall(opId: string): void {
  const fd = openSync(ledger, 'a');
  appendFileSync(fd, `${JSON.stringify({ operationId: opId, idempotencyKey: `idem-${opId}` })}\n`);
  fsyncSync(fd);
  closeSync(fd);
}

const backend = await openBackend(targetFromEnv());
if (process.env.MODE === 'recover') {
  const latest = await backend.load(key);
  const op = latest?.operations.unresolved ?? null;
  const before = op?.phase ?? null;
  let after = latest;
  if (latest && op) {
    const step: OperationStep =
      op.phase === 'prepared' ? 'abort' : op.phase === 'observed' ? 'settle' : 'mark-reconcile';
    if (op.phase !== 'reconcile-required')
      after = await commit(backend, latest, operationCommit(latest, step, op.operationId));
  }
  say({
    type: 'recovered',
    before,
    after: after?.operations.unresolved?.phase ?? null,
    sequence: after?.sequence ?? 0,
  });
} else {
  let e = await commit(backend, null, acquire(key));
  e = await commit(backend, e, stateCommit(e, { step: 'plan' }));
  for (const opId of ['op-1', 'op-2']) {
    e = await commit(backend, e, operationCommit(e, 'prepare', opId));
    crashPoint('after-prepare');
    e = await commit(backend, e, operationCommit(e, 'dispatch', opId));
    crashPoint('after-dispatch-recorded');
    toolCall(opId);
    crashPoint('after-tool-call-before-observe');
    e = await commit(backend, e, operationCommit(e, 'observe', opId));
    crashPoint('after-observe-before-settle');
    e = await commit(backend, e, operationCommit(e, 'settle', opId));
    e = await commit(backend, e, stateCommit(e, { step: `after-${opId}` }));
  }
  say({ type: 'done', sequence: e.sequence });
}
await backend.close();
process.exit(0);
