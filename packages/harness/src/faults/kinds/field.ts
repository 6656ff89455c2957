// Fault routines from what agent-runtime users hit in the field (agent-anchors part (c)): a zombie
// writer after SIGSTOP, dropped PostgreSQL connections, recovery while the turn still runs, a
// resume whose recorded steps differ, a whole-turn retry, and versioned state.

import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { checkFencedInvariants, type HistoryEvent } from '@agent-contracts/history';
import { SPEC_ERROR } from '@agent-contracts/protocol';
import { HarnessError } from '../../errors.js';
import { loadPg } from '../../postgres-driver.js';
import { check, checkEqual, FaultCheckFailure, FaultNotApplicable, show } from '../check.js';
import {
  Actor,
  type Binding,
  type Envelope,
  expectRefused,
  expectWritten,
  newTaskKey,
  prepareEvent,
  ReadRefused,
  sha256,
  viewOf,
} from '../store-client.js';
import { type FaultWorld, historyFingerprint, isPostgresLocation } from '../world.js';
import { type FaultRoutine, param, stableJson } from './common.js';

async function holderTask(world: FaultWorld) {
  const task = newTaskKey();
  const impl = await world.spawn();
  const holder = new Actor(impl, task, 'holder');
  await holder.acquire();
  return { task, impl, holder };
}

/** Runs prepare, dispatch (then the tool call), observe and settle of one operation. */
async function settledOperation(world: FaultWorld, actor: Actor, name: string): Promise<Binding> {
  const ev = prepareEvent(name);
  expectWritten(await actor.operation(ev), `prepare ${name}`);
  const b = await actor.binding();
  expectWritten(await world.dispatch(actor, b), `dispatch ${name}`);
  expectWritten(
    await actor.operation({ event: 'observe', ...b, resultDigest: sha256(`result:${name}`) }),
    `observe ${name}`,
  );
  expectWritten(
    await actor.operation({
      event: 'settle',
      ...b,
      effect: 'known-applied',
      evidenceDigest: sha256(`evidence:${name}`),
    }),
    `settle ${name}`,
  );
  return b;
}

const unchanged = (a: readonly Envelope[], b: readonly Envelope[], what: string) => {
  if (historyFingerprint(a) !== historyFingerprint(b))
    throw new FaultCheckFailure(
      `${what} wrote to durable state (${a.length} entries before, ${b.length} after)`,
    );
};

// ---------------------------------------------------------------------------------------------

/**
 * A zombie writer: A is frozen with SIGSTOP with its commit already sent, B takes over and
 * commits, A is resumed with SIGCONT. A's commit must be refused and nothing of A's may land.
 */
export const zombieWriter: FaultRoutine = async (world) => {
  const { task, impl: a, holder } = await holderTask(world);
  expectWritten(await holder.commitState({ writer: 'A', step: 1 }), 'A commits');
  const viewA = await holder.view();
  const gA = viewA.fence.writerGeneration;
  world.stop(a);
  let zombie: ReturnType<Actor['commitState']> | null = null;
  try {
    // Sent while A is frozen: it waits in A's pipe until SIGCONT.
    zombie = holder.commitState({ writer: 'A', step: 'zombie' }, { view: viewA, timeoutMs: 60_000 });
    zombie.catch(() => {});
    const b = new Actor(await world.spawn(), task, 'B');
    await b.takeover();
    expectWritten(await b.commitState({ writer: 'B', step: 1 }), 'B commits after the takeover');
  } finally {
    world.cont(a);
  }
  const r = await zombie;
  expectRefused(
    r,
    "the zombie A's commit after SIGCONT",
    'LIFECYCLE_STATE_FENCE_MISMATCH',
    'FENCED_TASK_WRITE_OWNER_CAS_MISMATCH',
  );
  // A notices nothing and tries again on a fresh read: it is no longer the holder.
  expectRefused(
    await holder.commitState({ writer: 'A', step: 'zombie-2' }),
    "A's retry on a fresh read",
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  const history = await world.audit(task);
  check(
    history.every((e) => !String(e.state.step).startsWith('zombie')),
    'a write of the zombie A landed in durable state',
  );
  const takeover = history.findIndex((e) => e.commitKind === 'owner-takeover-prepare');
  check(takeover > 0, 'no takeover in the durable history');
  for (const e of history.slice(takeover))
    check(
      e.writerGeneration > gA,
      () => `an entry after the takeover carries the old generation ${gA} (sequence ${e.sequence})`,
    );
  for (let i = 1; i < history.length; i++)
    check(
      history[i]!.writerGeneration >= history[i - 1]!.writerGeneration,
      'the writer generation decreased',
    );
  checkEqual(history.at(-1)?.state.writer, 'B', 'the writer of the tip');
  return `A frozen by SIGSTOP, B took over (generation ${gA} -> ${history.at(-1)!.writerGeneration}) and committed; A's commit after SIGCONT refused (${(r as { code: string }).code}); one chain, B at the tip, nothing of A's after the takeover`;
};

// ---------------------------------------------------------------------------------------------

/**
 * The local TCP ports of every socket held by a process group (Linux /proc): the client ports
 * PostgreSQL shows for the implementation's own connections, so that the harness terminates
 * those and nobody else's (other scenarios, other runs on the same database).
 */
function clientPorts(pgid: number): number[] {
  const inodes = new Set<string>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      }
    } catch {}
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9]!)) ports.push(Number.parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Terminates the implementation's own connections to the database (found by client port). */
async function dropConnections(url: string, pgid: number | undefined): Promise<number> {
  if (pgid === undefined) return 0;
  const ports = clientPorts(pgid);
  if (!ports.length) return 0;
  const pg = await loadPg('the fault scenario that drops PostgreSQL connections');
  // The reference's `schema=` (and any other harness-side) query parameter is not a libpq option.
  const u = new URL(url);
  u.search = '';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    const r = await client.query(
      `SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND client_port IN (${ports.join(',')})`,
    );
    return r.rows.filter((x) => x.t === true).length;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * PostgreSQL connections dropped between operations: after every operation the harness kills
 * the implementation's backend connections; the next operation must either fail with a JSON-RPC
 * error or succeed, and the durable log must hold every acknowledged commit exactly once.
 */
export const pgConnectionsDropped: FaultRoutine = async (world, scenario) => {
  const url = world.target.stateLocation;
  if (!isPostgresLocation(url)) throw new FaultNotApplicable('the state location is not PostgreSQL');
  if (!existsSync('/proc/net/tcp'))
    throw new FaultNotApplicable(
      "the harness finds the implementation's connections through /proc (Linux only)",
    );
  const ops = param(scenario, 'operations', 10);
  const task = newTaskKey();
  const impl = await world.spawn();
  const holder = new Actor(impl, task, 'holder');
  const history: HistoryEvent[] = [];
  const digest = (s: unknown) => sha256(stableJson(s));
  let dropped = 0;
  let coded = 0;
  /** Run `f`, retrying after a coded error; a crash or hang is not retried. */
  const retry = async <T>(_what: string, f: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await f();
      } catch (e) {
        const isCoded =
          (e instanceof HarnessError && e.code === 'IMPL_RPC_ERROR') || e instanceof ReadRefused;
        if (!isCoded || attempt >= 5) throw e;
        coded++;
      }
    }
  };
  dropped += await dropConnections(url, impl.pid);
  // Acquire; a coded failure (a JSON-RPC error or a storage refusal) leaves the outcome in doubt,
  // so re-read before trying again.
  for (let attempt = 1; ; attempt++) {
    if ((await retry('read', () => holder.view())).envelope) break;
    try {
      if ((await holder.transition('acquire', {}, viewOf(null))).ok) break;
      coded++;
    } catch (e) {
      if (!(e instanceof HarnessError) || e.code !== 'IMPL_RPC_ERROR') throw e;
      coded++;
    }
    if (attempt >= 5) throw new FaultCheckFailure('acquire did not succeed in 5 attempts');
    dropped += await dropConnections(url, impl.pid);
  }
  history.push(
    {
      type: 'invoke',
      process: 'p',
      task: task.taskId,
      f: 'commit',
      value: {
        expected: { stateSequence: 0, writerGeneration: 0 },
        next: { stateSequence: 1, writerGeneration: 1 },
        digest: digest({}),
      },
    },
    {
      type: 'ok',
      process: 'p',
      task: task.taskId,
      f: 'commit',
      value: {
        expected: { stateSequence: 0, writerGeneration: 0 },
        next: { stateSequence: 1, writerGeneration: 1 },
        digest: digest({}),
      },
    },
  );
  let proc = 0;
  for (let i = 1; i <= ops; i++) {
    dropped += await dropConnections(url, impl.pid);
    const state = { step: i };
    for (let attempt = 1; ; attempt++) {
      const view = await retry('read', () => holder.view());
      const durable = view.envelope && stableJson(view.envelope.state) === stableJson(state);
      if (durable) break; // an earlier in-doubt attempt landed
      const expected = {
        stateSequence: view.fence.stateSequence,
        writerGeneration: view.fence.writerGeneration,
      };
      const next = { ...expected, stateSequence: expected.stateSequence + 1 };
      const p = `p${proc}`;
      history.push({
        type: 'invoke',
        process: p,
        task: task.taskId,
        f: 'commit',
        value: { expected, next, digest: digest(state) },
      });
      try {
        const r = await holder.commitState(state, { view });
        if (r.ok) {
          history.push({
            type: 'ok',
            process: p,
            task: task.taskId,
            f: 'commit',
            value: { expected, next, digest: digest(state) },
          });
          break;
        }
        if (r.code === 'LIFECYCLE_STATE_FENCE_MISMATCH' && r.currentFence)
          history.push({
            type: 'fail',
            process: p,
            task: task.taskId,
            f: 'commit',
            value: { expected, next, digest: digest(state), current: r.currentFence },
          });
        else {
          coded++;
          history.push({
            type: 'info',
            process: p,
            task: task.taskId,
            f: 'commit',
            value: { expected, next, digest: digest(state) },
          });
        }
        proc++;
      } catch (e) {
        if (!(e instanceof HarnessError) || e.code !== 'IMPL_RPC_ERROR') throw e;
        coded++;
        // Outcome unknown: this logical process never invokes again (Knossos `info`).
        history.push({
          type: 'info',
          process: p,
          task: task.taskId,
          f: 'commit',
          value: { expected, next, digest: digest(state) },
        });
        proc++;
      }
      if (attempt >= 5) throw new FaultCheckFailure(`commit ${i} did not succeed in 5 attempts`);
      dropped += await dropConnections(url, impl.pid);
    }
  }
  const log = (await world.audit(task)).map((e) => ({
    sequence: e.sequence,
    writerGeneration: e.writerGeneration,
    digest: digest(e.state),
  }));
  check(
    dropped > 0,
    "the harness found none of the implementation's PostgreSQL connections to terminate (a fault that was never injected is not a pass)",
  );
  const r = checkFencedInvariants(history, new Map([[task.taskId, log]]));
  if (!r.ok)
    throw new FaultCheckFailure(
      `history checker: ${r.anomalies
        .slice(0, 3)
        .map((a) => `${a.type}: ${a.message}`)
        .join('; ')}`,
    );
  const states = log.map((l) => l.digest);
  check(new Set(states).size === states.length, 'a commit landed twice in the durable log');
  checkEqual(log.length, ops + 1, 'durable entries (acquire + one per operation)');
  return `${ops} commits with ${dropped} backend connections terminated between operations: ${coded} coded errors, no crash or hang, every acknowledged commit durable exactly once`;
};

// ---------------------------------------------------------------------------------------------

/** Recovery started while the turn is still running: the running operation is never dispatched twice. */
export const recoveryWhileRunning: FaultRoutine = async (world) => {
  const { task, holder } = await holderTask(world);
  expectWritten(await holder.operation(prepareEvent('running')), 'prepare');
  const b = await holder.binding();
  expectWritten(await world.dispatch(holder, b), 'dispatch (the turn is now running its tool)');
  const viewA = await holder.view();
  const rec = new Actor(await world.spawn(), task, 'recoverer');
  // Without a takeover the recoverer can neither write nor re-dispatch.
  // An identical dispatch is an exact duplicate (`replayed`, nothing written) or refused; never a new dispatch.
  const d1 = await world.dispatch(rec, b);
  check(
    !(d1.ok && d1.status === 'committed'),
    'the recoverer dispatched the running operation again without a takeover',
  );
  expectRefused(
    await rec.operation(prepareEvent('second')),
    'the recoverer prepares another operation',
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  await rec.takeover();
  const d2 = await world.dispatch(rec, b);
  check(
    !(d2.ok && d2.status === 'committed'),
    'after the takeover the recoverer dispatched the running operation again',
  );
  // The first runtime finishes its tool and reports: its fence and its generation are gone.
  const result = sha256('result of the running turn');
  expectRefused(
    await holder.operation({ event: 'observe', ...b, resultDigest: result }, viewA),
    'the running turn observes with its old fence',
    'LIFECYCLE_STATE_FENCE_MISMATCH',
  );
  expectRefused(
    await holder.operation({ event: 'observe', ...b, resultDigest: result }),
    'the running turn observes on a fresh read',
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  expectWritten(await rec.operation({ event: 'mark-reconcile', ...b }), 'mark-reconcile');
  expectWritten(
    await rec.operation({ event: 'reconcile', ...b, effect: 'known-applied', evidenceDigest: result }),
    "reconcile with the running turn's result",
  );
  const history = await world.audit(task);
  checkEqual(
    history.filter((e) => e.commitKind === 'operation-dispatch').length,
    1,
    'durable dispatch entries',
  );
  checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls');
  return "recovery during a running turn: no re-dispatch before or after the takeover, the running turn's late result refused and used only as reconcile evidence; tool called once";
};

// ---------------------------------------------------------------------------------------------

/** A resume whose recorded step sequence differs: each divergent step is a typed refusal, no effect. */
export const resumeStepMismatch: FaultRoutine = async (world) => {
  const { task, impl, holder } = await holderTask(world);
  const recorded = prepareEvent('recorded');
  expectWritten(await holder.operation(recorded), 'prepare');
  const b = await holder.binding();
  expectWritten(await world.dispatch(holder, b), 'dispatch');
  expectWritten(await holder.operation({ event: 'observe', ...b, resultDigest: sha256('r1') }), 'observe');
  expectWritten(
    await holder.operation({ event: 'settle', ...b, effect: 'known-applied', evidenceDigest: sha256('e1') }),
    'settle',
  );
  await world.kill(impl);
  const resumed = new Actor(await world.spawn(), task, 'holder');
  const before = await world.audit(task);
  const divergent: Array<[string, Record<string, unknown>, string[]]> = [
    ['a different tool (kind)', { ...recorded, kind: 'shell-exec' }, ['TASK_OPERATION_ALREADY_SETTLED']],
    [
      'a different target',
      { ...recorded, exactTargets: ['src/other.ts'] },
      ['TASK_OPERATION_ALREADY_SETTLED'],
    ],
    [
      'the same key under another id',
      { ...recorded, operationId: `${b.operationId}-b` },
      ['TASK_OPERATION_IDEMPOTENCY_KEY_REUSED'],
    ],
    [
      'another observed result',
      { event: 'observe', ...b, resultDigest: sha256('r2') },
      ['TASK_OPERATION_CAS_MISMATCH'],
    ],
    [
      'another settlement',
      { event: 'settle', ...b, effect: 'known-not-applied', evidenceDigest: sha256('e2') },
      ['TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH'],
    ],
  ];
  for (const [what, event, codes] of divergent)
    expectRefused(await resumed.operation(event), `resume with ${what}`, ...codes);
  const again = await world.dispatch(resumed, b);
  check(!(again.ok && again.status === 'committed'), 'resume re-dispatched the settled operation');
  unchanged(before, await world.audit(task), 'a divergent resume');
  checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls');
  return `${divergent.length + 1} divergent resume steps refused with typed codes; durable history unchanged; tool called once`;
};

// ---------------------------------------------------------------------------------------------

/** A whole-turn retry after op 1 settled must not re-dispatch it, and reuses its settled result. */
export const wholeTurnRetry: FaultRoutine = async (world) => {
  const { task, impl, holder } = await holderTask(world);
  const b = await settledOperation(world, holder, 'turn-op-1');
  expectWritten(await holder.commitState({ turn: 'failed-after-op-1' }), 'the turn fails');
  const before = await world.audit(task);
  // Retry 1: the same process replays the whole turn from the start.
  // Retry 2: a fresh process (the orchestrator restarted) does the same.
  const out: string[] = [];
  for (const label of ['same process', 'restarted process'] as const) {
    const actor = label === 'same process' ? holder : new Actor(await world.restart(impl), task, 'holder');
    const prepared = await actor.operation({
      event: 'prepare',
      operationId: b.operationId,
      idempotencyKey: b.idempotencyKey,
      kind: 'file-write',
      exactTargets: ['src/turn-op-1.ts'],
      beforeDigest: b.beforeDigest,
    });
    expectRefused(
      prepared,
      `${label}: the retried turn prepares op 1 again`,
      'TASK_OPERATION_ALREADY_SETTLED',
    );
    const d = await world.dispatch(actor, b);
    check(!(d.ok && d.status === 'committed'), `${label}: the retried turn re-dispatched op 1`);
    const settled = (await actor.envelope()).operations.settled.find((r) => r.operationId === b.operationId);
    check(settled?.effect === 'known-applied', `${label}: op 1's settled outcome is not readable for reuse`);
    out.push(label);
  }
  unchanged(before, await world.audit(task), 'the whole-turn retry');
  checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls for op 1');
  return `whole-turn retry (${out.join(', ')}): op 1 not prepared or dispatched again, its settled outcome reused; tool called once`;
};

// ---------------------------------------------------------------------------------------------

/**
 * Versioned state: a document of the previous contract version is read per its rule (accepted,
 * read-only), one of an unknown future version is refused, and the store refuses a request
 * carrying a future fence version before any write.
 */
export const versionedState: FaultRoutine = async (world, scenario) => {
  const conformanceDir = world.target.conformanceDir ?? '';
  const impl = await world.spawn();
  const caps = impl.hello.capabilities;
  const done: string[] = [];
  const fixture = (p: string) =>
    JSON.parse(readFileSync(join(conformanceDir, 'fixtures', p), 'utf8')) as Record<string, unknown>;
  const legacy = String(
    scenario.parameters.previousVersionFixture ?? 'ContextReadPlanV1/valid/v1-dev-targeted.json',
  );
  const current = String(scenario.parameters.currentVersionFixture ?? 'TaskRecoveryStateV5/valid');
  if (caps.contracts.includes(legacy.split('/')[0]!)) {
    const r = (await impl.request('validate', { document: fixture(legacy) })) as { ok?: unknown };
    check(r?.ok === true, `the previous version (${legacy}) was not read per its rule: ${show(r)}`);
    done.push('previous version read');
  }
  const currentName = current.split('/')[0]!;
  if (caps.contracts.includes(currentName)) {
    const dir = join(conformanceDir, 'fixtures', current);
    const first = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()[0];
    const doc = {
      ...fixture(`${current}/${first}`),
      schemaVersion: currentName.replace(/V(\d+)$/, (_, n) => `V${Number(n) + 1}`),
    };
    let refused = false;
    try {
      const r = (await impl.request('validate', { document: doc })) as { ok?: unknown };
      refused = r?.ok === false;
    } catch (e) {
      const err =
        e instanceof HarnessError
          ? (e.detail.error as { code?: unknown; data?: { code?: unknown } })
          : undefined;
      refused = err?.code === SPEC_ERROR && typeof err.data?.code === 'string';
      if (!refused) throw e;
    }
    check(refused, `a document of an unknown future version (${doc.schemaVersion}) was accepted`);
    done.push('future version refused');
  }
  if (caps.store) {
    const task = newTaskKey();
    const a = new Actor(impl, task, 'holder');
    await a.acquire();
    const before = await world.audit(task);
    const view = await a.view();
    const r = await a.commitState(
      { v: 'future' },
      {
        view: {
          ...view,
          fence: { ...view.fence, schemaVersion: 'TaskRecoveryCommitFenceV2' as 'TaskRecoveryCommitFenceV1' },
        },
        // Sent on purpose against the schema (D-GEN-10), to see it refused.
        malformed: { pointer: '/request/expectedFence/schemaVersion', keyword: 'const' },
      },
    );
    expectRefused(
      r,
      'a commit carrying a fence of an unknown future version',
      'LIFECYCLE_STATE_FENCE_REQUIRED',
    );
    unchanged(before, await world.audit(task), 'a request of an unknown future version');
    done.push('future fence version refused before any write');
  }
  if (!done.length)
    throw new FaultNotApplicable('the implementation declares neither the versioned contracts nor the store');
  return done.join('; ');
};
