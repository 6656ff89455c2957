// Fault routines of the TaskContinuityWriteGate (fault-anchors F1-F14): the harness plays the
// runtime (it sends the commits and performs the tool call itself), the implementation is the
// store, and every verdict rests on the durable history read back by a fresh process and on the
// fake tool's count, never on what the process under test says about itself.
import { checkFencedInvariants, checkLinearizable, type HistoryEvent } from '@agent-contracts/history';
import { CRASH_POINTS } from '@agent-contracts/protocol';
import { check, checkEqual, FaultCheckFailure, show } from '../check.js';
import {
  Actor,
  type Binding,
  callStore,
  type Envelope,
  expectRefused,
  expectWritten,
  fence,
  newTaskKey,
  prepareEvent,
  sha256,
} from '../store-client.js';
import { type FaultWorld, historyFingerprint, isProcessFault } from '../world.js';
import { type FaultRoutine, listParam, param, stableJson } from './common.js';

const FENCE_MISMATCH = 'LIFECYCLE_STATE_FENCE_MISMATCH';

/** A started task: one process, its holder, the task key. */
async function holderTask(world: FaultWorld) {
  const task = newTaskKey();
  const impl = await world.spawn();
  const holder = new Actor(impl, task, 'holder');
  await holder.acquire();
  return { task, impl, holder };
}

/** Fails unless the durable history is exactly `before` (nothing written in between). */
function checkUnchanged(before: readonly Envelope[], after: readonly Envelope[], what: string): void {
  if (historyFingerprint(before) !== historyFingerprint(after))
    throw new FaultCheckFailure(
      `${what} wrote to durable state: ${before.length} entries before, ${after.length} after (last kinds ${show(after.slice(before.length).map((e) => e.commitKind))})`,
    );
}

/** The durable records of one operation, phase by phase, as the history shows them. */
function phasesOf(history: readonly Envelope[], operationId: string): string[] {
  const out: string[] = [];
  for (const e of history) {
    const u = e.operations.unresolved;
    if (u?.operationId === operationId && out.at(-1) !== u.phase) out.push(u.phase);
    const s = e.operations.settled.find((r) => r.operationId === operationId);
    if (s && out.at(-1) !== s.phase) out.push(s.phase);
  }
  return out;
}

/** Prepare a fresh operation and return its binding. */
async function prepare(actor: Actor, name: string): Promise<Binding> {
  expectWritten(await actor.operation(prepareEvent(name)), `prepare ${name}`);
  return actor.binding();
}

// ---------------------------------------------------------------------------------------------

/** F1: commits with a stale fence (each also with force) are refused with the current fence. */
export const staleFence: FaultRoutine = async (world) => {
  const { task, holder } = await holderTask(world);
  expectWritten(await holder.commitState({ step: 1 }), 'commitState 1');
  const current = expectWritten(await holder.commitState({ step: 2 }), 'commitState 2').fence;
  const view = await holder.view();
  const { stateSequence: s, writerGeneration: g } = current;
  const stale = [fence(s - 1, g), fence(s, g - 1), fence(s + 1, g), fence(s, g + 1), fence(0, 0)];
  const before = await world.audit(task);
  let refusals = 0;
  for (const f of stale)
    for (const force of [false, true]) {
      const what = `commitState with fence (${f.stateSequence}, ${f.writerGeneration})${force ? ' and force' : ''}`;
      const r = expectRefused(
        await holder.commitState({ step: 'stale' }, { view: { ...view, fence: f }, force }),
        what,
        FENCE_MISMATCH,
      );
      check(
        r.currentFence?.stateSequence === s && r.currentFence.writerGeneration === g,
        `${what}: the refusal must carry the current fence (${s}, ${g}), carried ${show(r.currentFence)}`,
      );
      refusals++;
    }
  expectRefused(
    await holder.operation(prepareEvent('stale'), { ...view, fence: fence(s - 1, g) }),
    'prepare with a stale fence',
    FENCE_MISMATCH,
  );
  checkUnchanged(before, await world.audit(task), 'a refused stale-fence commit');
  checkEqual(world.tool.total, 0, 'fake tool calls');
  expectWritten(await holder.commitState({ step: 3 }), 'commitState with the current fence afterwards');
  return `${refusals + 1} stale-fence commits refused with ${FENCE_MISMATCH} and the current fence (${s}, ${g}); durable history unchanged; the current fence still commits`;
};

// ---------------------------------------------------------------------------------------------

/** F2: several processes on one state location race for each fence, released together. */
export const concurrentWriters: FaultRoutine = async (world, scenario) => {
  const writers = param(scenario, 'writers', 4);
  const rounds = param(scenario, 'rounds', 10);
  const task = newTaskKey();
  const actors: Actor[] = [];
  for (let i = 0; i < writers; i++) actors.push(new Actor(await world.spawn(), task, 'holder'));
  const history: HistoryEvent[] = [];
  const digest = (state: unknown) => sha256(stableJson(state));
  const zero = { stateSequence: 0, writerGeneration: 0 };
  history.push({
    type: 'invoke',
    process: 'w0',
    task: task.taskId,
    f: 'commit',
    value: { expected: zero, next: { stateSequence: 1, writerGeneration: 1 }, digest: digest({}) },
  });
  const acquired = await actors[0]!.acquire();
  history.push({
    type: 'ok',
    process: 'w0',
    task: task.taskId,
    f: 'commit',
    value: { expected: zero, next: acquired.fence, digest: digest({}) },
  });
  const winners: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Every writer reads first; then all commits are released at once (the barrier).
    const views = await Promise.all(actors.map((a) => a.view()));
    const states = actors.map((_, w) => ({ round, writer: w }));
    for (const [w, v] of views.entries()) {
      const expected = { stateSequence: v.fence.stateSequence, writerGeneration: v.fence.writerGeneration };
      history.push({
        type: 'invoke',
        process: `w${w}`,
        task: task.taskId,
        f: 'commit',
        value: {
          expected,
          next: { ...expected, stateSequence: expected.stateSequence + 1 },
          digest: digest(states[w]),
        },
      });
    }
    const results = await Promise.all(actors.map((a, w) => a.commitState(states[w]!, { view: views[w]! })));
    let won = 0;
    for (const [w, r] of results.entries()) {
      const expected = {
        stateSequence: views[w]!.fence.stateSequence,
        writerGeneration: views[w]!.fence.writerGeneration,
      };
      const next = { ...expected, stateSequence: expected.stateSequence + 1 };
      if (r.ok && r.status === 'committed') {
        won++;
        history.push({
          type: 'ok',
          process: `w${w}`,
          task: task.taskId,
          f: 'commit',
          value: { expected, next, digest: digest(states[w]) },
        });
      } else if (!r.ok && r.code === FENCE_MISMATCH && r.currentFence) {
        history.push({
          type: 'fail',
          process: `w${w}`,
          task: task.taskId,
          f: 'commit',
          value: { expected, next, digest: digest(states[w]), current: r.currentFence },
        });
      } else
        throw new FaultCheckFailure(
          `round ${round}, writer ${w}: expected committed or ${FENCE_MISMATCH} with the current fence, got ${r.ok ? r.status : `${r.code} (currentFence ${show(r.currentFence)})`}`,
        );
    }
    winners.push(won);
  }
  const log = (await world.audit(task)).map((e) => ({
    sequence: e.sequence,
    writerGeneration: e.writerGeneration,
    digest: digest(e.state),
  }));
  const invariants = checkFencedInvariants(history, new Map([[task.taskId, log]]));
  const linear = checkLinearizable(history);
  const anomalies = [...invariants.anomalies, ...linear.anomalies];
  if (anomalies.length)
    throw new FaultCheckFailure(
      `the history checker found ${anomalies
        .map((a) => `${a.type}: ${a.message}`)
        .slice(0, 3)
        .join('; ')}`,
    );
  const bad = winners.findIndex((n) => n !== 1);
  check(bad === -1, () => `round ${bad + 1}: ${winners[bad]} writers won the same fence; exactly one may`);
  checkEqual(log.length, rounds + 1, 'durable entries (acquire + one per round)');
  return `${writers} processes x ${rounds} rounds on one state location: exactly one winner per fence, the others ${FENCE_MISMATCH}; no lost update, history linearizable, ${log.length} durable entries`;
};

const READBACK_MISMATCH = 'LIFECYCLE_STATE_READBACK_MISMATCH';

/**
 * F2 without a barrier: several processes commit to one task as fast as they can, each taking its
 * next fence from its last answer (the new fence, or the refusal's current fence), for a fixed
 * number of attempts each. Another process committing on top between a write and its readback
 * is the normal case here, so a store that reads back the latest envelope instead of the one it
 * wrote refuses durable commits with LIFECYCLE_STATE_READBACK_MISMATCH: every such refusal is
 * counted (expected: zero), recorded as in-doubt for the history checker, and fails the scenario.
 */
export const racingWriters: FaultRoutine = async (world, scenario) => {
  const writers = param(scenario, 'writers', 4);
  const attempts = param(scenario, 'attempts', 40);
  const task = newTaskKey();
  const actors = (await Promise.all(Array.from({ length: writers }, () => world.spawn()))).map(
    (impl) => new Actor(impl, task, 'holder'),
  );
  const history: HistoryEvent[] = [];
  const digest = (state: unknown) => sha256(stableJson(state));
  const zero = { stateSequence: 0, writerGeneration: 0 };
  const acquired = await actors[0]!.acquire();
  history.push(
    {
      type: 'invoke',
      process: 'w0',
      task: task.taskId,
      f: 'commit',
      value: { expected: zero, next: acquired.fence, digest: digest({}) },
    },
    {
      type: 'ok',
      process: 'w0',
      task: task.taskId,
      f: 'commit',
      value: { expected: zero, next: acquired.fence, digest: digest({}) },
    },
  );
  const owner = (await actors[0]!.view()).owner;
  let acked = 0;
  let refusedFence = 0;
  const inDoubt: string[] = [];
  const unexpected: string[] = [];
  await Promise.all(
    actors.map(async (actor, w) => {
      // A process id per run of commits: after an in-doubt commit the history checker needs a
      // fresh one (an `info` operation is the last of its process).
      let process = `w${w}`;
      let known = {
        stateSequence: acquired.fence.stateSequence,
        writerGeneration: acquired.fence.writerGeneration,
      };
      for (let i = 0; i < attempts && unexpected.length === 0; i++) {
        const state = { writer: w, attempt: i };
        const expected = known;
        const value = {
          expected,
          next: { ...expected, stateSequence: expected.stateSequence + 1 },
          digest: digest(state),
        };
        history.push({ type: 'invoke', process, task: task.taskId, f: 'commit', value });
        const r = await actor.commitState(state, {
          view: { fence: fence(expected.stateSequence, expected.writerGeneration), owner, envelope: null },
        });
        if (r.ok && r.status === 'committed') {
          acked++;
          history.push({ type: 'ok', process, task: task.taskId, f: 'commit', value });
          known = { stateSequence: r.fence.stateSequence, writerGeneration: r.fence.writerGeneration };
        } else if (!r.ok && r.code === FENCE_MISMATCH && r.currentFence) {
          refusedFence++;
          history.push({
            type: 'fail',
            process,
            task: task.taskId,
            f: 'commit',
            value: { ...value, current: r.currentFence },
          });
          known = r.currentFence;
        } else if (!r.ok && r.code === READBACK_MISMATCH) {
          inDoubt.push(`writer ${w} at (${expected.stateSequence}, ${expected.writerGeneration})`);
          history.push({ type: 'info', process, task: task.taskId, f: 'commit', value });
          process = `w${w}.${i}`;
          known = r.currentFence ?? known;
        } else {
          unexpected.push(
            `writer ${w}, attempt ${i + 1}: expected committed, ${FENCE_MISMATCH} with the current fence or ${READBACK_MISMATCH}, got ${r.ok ? r.status : `${r.code} (currentFence ${show(r.currentFence)})`}`,
          );
          history.push({ type: 'info', process, task: task.taskId, f: 'commit', value });
        }
      }
    }),
  );
  check(unexpected.length === 0, () => unexpected.slice(0, 3).join('; '));
  const durable = await world.audit(task);
  const log = durable.map((e) => ({
    sequence: e.sequence,
    writerGeneration: e.writerGeneration,
    digest: digest(e.state),
  }));
  const { anomalies } = checkFencedInvariants(history, new Map([[task.taskId, log]]));
  if (anomalies.length)
    throw new FaultCheckFailure(
      `the history checker found ${anomalies
        .map((a) => `${a.type}: ${a.message}`)
        .slice(0, 3)
        .join('; ')}`,
    );
  const landed = log.length - 1 - acked;
  check(
    inDoubt.length === 0,
    () =>
      `${inDoubt.length} commits were refused with ${READBACK_MISMATCH} (outcome unknown) while another process committed on top; ${landed} of them are durable (${inDoubt.slice(0, 3).join(', ')}); the readback must read the envelope the commit wrote, not the latest one`,
  );
  checkEqual(log.length, acked + 1, 'durable entries (acquire + one per acknowledged commit)');
  return `${writers} processes x ${attempts} commits without a barrier: ${acked} acknowledged, ${refusedFence} refused with ${FENCE_MISMATCH}, 0 with ${READBACK_MISMATCH}; no lost update, every acknowledged commit durable, ${log.length} durable entries`;
};

// ---------------------------------------------------------------------------------------------

/** F8: SIGKILL between the dispatch commit and the observe commit (before or after the tool call). */
export const crashBetweenDispatchAndObserve: FaultRoutine = async (world, scenario) => {
  const seen: string[] = [];
  for (const variant of listParam(scenario, 'variants', ['before-tool-call', 'after-tool-call'])) {
    const { task, impl, holder } = await holderTask(world);
    const b = await prepare(holder, 'dispatch-observe');
    const r = await holder.operation({ event: 'dispatch', ...b });
    expectWritten(r, 'dispatch');
    if (variant === 'after-tool-call') world.tool.call(b.operationId, b.idempotencyKey);
    const calls = world.tool.count(b.operationId);
    await world.kill(impl);
    const recoverer = new Actor(await world.spawn(), task, 'recoverer');
    const found = (await recoverer.envelope()).operations.unresolved;
    check(
      found?.operationId === b.operationId && found.phase === 'dispatched',
      () =>
        `${variant}: after restart the acknowledged dispatch must be durable (dispatched), found ${show(found?.phase ?? null)}`,
    );
    await recoverer.takeover();
    const again = await world.dispatch(recoverer, b);
    check(
      !(again.ok && again.status === 'committed'),
      `${variant}: the store let the recovering runtime dispatch the operation again`,
    );
    expectRefused(
      await recoverer.operation({ event: 'abort', ...b }),
      `${variant}: abort of a dispatched operation`,
    );
    const terminal = await recoverer.transition('terminal', {
      terminal: await recoverer.terminalMember(dummyEvidence()),
    });
    expectRefused(
      terminal,
      `${variant}: terminal with an unreconciled operation`,
      'TASK_TERMINAL_OPERATION_UNSETTLED',
    );
    expectWritten(await recoverer.operation({ event: 'mark-reconcile', ...b }), `${variant}: mark-reconcile`);
    const effect = variant === 'after-tool-call' ? 'known-applied' : 'known-not-applied';
    expectWritten(
      await recoverer.operation({
        event: 'reconcile',
        ...b,
        effect,
        evidenceDigest: sha256(`ledger:${variant}`),
      }),
      `${variant}: reconcile with evidence`,
    );
    const phases = phasesOf(await world.audit(task), b.operationId);
    check(
      !phases.includes('aborted-zero-effect'),
      `${variant}: a dispatched operation became aborted-zero-effect`,
    );
    checkEqual(
      phases.join(' > '),
      'prepared > dispatched > reconcile-required > settled',
      `${variant}: durable phases`,
    );
    checkEqual(world.tool.count(b.operationId), calls, `${variant}: fake tool calls after recovery`);
    seen.push(`${variant}: tool ${calls}`);
  }
  return `dispatched survives SIGKILL, is never re-dispatched or aborted, terminal refused until reconciled, then reconcile-required > settled (${seen.join('; ')})`;
};

/**
 * The terminal evidence items of a scenario: `parameters.terminalEvidence` lists the files every
 * implementation keeps under its project root (docs/protocol.md#terminal-evidence) with their
 * content, from which the harness computes `sha256` and `bytes`.
 */
export function terminalEvidence(s: { parameters: Readonly<Record<string, unknown>> }) {
  const list = s.parameters.terminalEvidence as
    | Array<{ role: string; path: string; content: string }>
    | undefined;
  if (!Array.isArray(list) || list.length !== 4)
    throw new FaultCheckFailure('the scenario lacks parameters.terminalEvidence (four files)');
  return list.map((f) => ({
    role: f.role,
    path: f.path,
    sha256: sha256(f.content),
    bytes: Buffer.byteLength(f.content),
  }));
}

/** Four evidence items with made-up digests: enough to reach the checks that come before evidence. */
function dummyEvidence() {
  return ['change-record', 'completion', 'memory', 'report'].map((role) => ({
    role,
    path: `evidence/${role}.md`,
    sha256: sha256(role),
    bytes: 10,
  }));
}

// ---------------------------------------------------------------------------------------------

/** F9: SIGKILL after prepare, and racing the dispatch commit. */
export const crashBeforeDispatch: FaultRoutine = async (world) => {
  const out: string[] = [];
  for (const variant of ['after-prepare', 'racing-dispatch'] as const) {
    const { task, impl, holder } = await holderTask(world);
    const b = await prepare(holder, 'before-dispatch');
    if (variant === 'racing-dispatch') {
      // The dispatch commit is sent and the process killed without waiting: its outcome is in
      // doubt, so the harness never calls the tool.
      const view = await holder.view();
      const pending = impl.request('store.commitOperation', {
        request: holder.operationRequest({ event: 'dispatch', ...b }, view),
      });
      pending.catch(() => {});
      await world.kill(impl);
    } else await world.kill(impl);
    const recoverer = new Actor(await world.spawn(), task, 'recoverer');
    const found = (await recoverer.envelope()).operations.unresolved;
    check(
      found?.operationId === b.operationId,
      `${variant}: the prepared operation is not durable after restart`,
    );
    await recoverer.takeover();
    if (found!.phase === 'prepared') {
      expectWritten(
        await recoverer.operation({ event: 'abort', ...b }),
        `${variant}: abort of a never-dispatched operation`,
      );
    } else {
      checkEqual(found!.phase, 'dispatched', `${variant}: phase after restart`);
      expectRefused(
        await recoverer.operation({ event: 'abort', ...b }),
        `${variant}: abort of a dispatched operation`,
      );
      expectWritten(
        await recoverer.operation({ event: 'mark-reconcile', ...b }),
        `${variant}: mark-reconcile`,
      );
    }
    const phases = phasesOf(await world.audit(task), b.operationId);
    if (phases.includes('aborted-zero-effect'))
      check(!phases.includes('dispatched'), `${variant}: an operation whose dispatch is durable was aborted`);
    checkEqual(world.tool.count(b.operationId), 0, `${variant}: fake tool calls`);
    out.push(`${variant}: ${phases.join(' > ')}`);
  }
  return `only a never-dispatched operation is aborted; no tool call (${out.join('; ')})`;
};

// ---------------------------------------------------------------------------------------------

/** F6: SIGKILL right after an acknowledgement, and racing a commit; restart and rehydrate. */
export const killAfterAck: FaultRoutine = async (world, scenario) => {
  const commits = param(scenario, 'commits', 5);
  const { task, impl, holder } = await holderTask(world);
  const acked: Array<{ sequence: number; state: string }> = [];
  for (let i = 1; i <= commits; i++) {
    const state = { step: i };
    const r = expectWritten(await holder.commitState(state), `commitState ${i}`);
    acked.push({ sequence: r.fence.stateSequence, state: stableJson(state) });
  }
  // One more commit in doubt: sent, then kill -9 without waiting for its reply.
  const view = await holder.view();
  const doubt = { step: 'in-doubt' };
  const pending = impl.request('store.commitState', { request: holder.stateRequest(doubt, view) });
  pending.catch(() => {});
  await world.kill(impl);
  const fresh = await world.spawn();
  const history = await world.audit(task);
  for (const a of acked) {
    const e = history[a.sequence - 1];
    check(
      e && stableJson(e.state) === a.state,
      () =>
        `the commit acknowledged at sequence ${a.sequence} is not durable after SIGKILL (found ${show(e?.state ?? null)})`,
    );
  }
  const extra = history.slice(acked.at(-1)!.sequence);
  check(
    extra.length <= 1 && extra.every((e) => stableJson(e.state) === stableJson(doubt)),
    () =>
      `after SIGKILL the log holds ${extra.length} entries nobody acknowledged (at most the one in-doubt commit may be there)`,
  );
  // Rehydrate: replay twice in the fresh process; identical, and nothing written.
  const r1 = await callStore(fresh, 'store.replay', { task });
  const r2 = await callStore(fresh, 'store.replay', { task });
  check(r1.ok && r2.ok, 'store.replay was refused on an intact history');
  const env1 = (r1 as { value: { envelopes?: Envelope[] } }).value.envelopes ?? [];
  const env2 = (r2 as { value: { envelopes?: Envelope[] } }).value.envelopes ?? [];
  checkEqual(historyFingerprint(env1), historyFingerprint(history), 'replayed envelopes vs durable history');
  checkEqual(historyFingerprint(env2), historyFingerprint(env1), 'second replay vs first');
  checkUnchanged(history, await world.audit(task), 'rehydration (store.replay)');
  // The restarted runtime continues on the durable fence.
  const resumed = new Actor(fresh, task, 'holder');
  expectWritten(
    await resumed.commitState({ step: 'after-restart' }),
    'commit after restart with the durable fence',
  );
  return `${commits} acknowledged commits durable after SIGKILL, ${extra.length} in-doubt commit landed (at most 1 allowed); replay identical twice and wrote nothing; the restarted runtime commits on`;
};

// ---------------------------------------------------------------------------------------------

/** F10: identical duplicate, single-field-mutated and late receipts. */
export const receipts: FaultRoutine = async (world, scenario) => {
  const variant = String(scenario.parameters.variant ?? 'duplicate');
  const { task, holder } = await holderTask(world);
  const b = await prepare(holder, 'receipt');
  expectWritten(await world.dispatch(holder, b), 'dispatch');
  const result = sha256('tool result');
  expectWritten(await holder.operation({ event: 'observe', ...b, resultDigest: result }), 'observe');
  if (variant === 'duplicate') {
    const before = await world.audit(task);
    expectWritten(
      await holder.operation({ event: 'observe', ...b, resultDigest: result }),
      'identical duplicate observe',
      'replayed',
    );
    const d = await world.dispatch(holder, b);
    check(
      !(d.ok && d.status === 'committed'),
      'a duplicate dispatch receipt was committed as a new dispatch',
    );
    checkUnchanged(before, await world.audit(task), 'an identical duplicate receipt');
    const settle = { event: 'settle', ...b, effect: 'known-applied', evidenceDigest: sha256('evidence') };
    expectWritten(await holder.operation(settle), 'settle');
    const settled = await world.audit(task);
    expectWritten(await holder.operation(settle), 'identical duplicate settle', 'replayed');
    expectRefused(
      await holder.operation({ event: 'observe', ...b, resultDigest: result }),
      'observe after settle',
      'TASK_OPERATION_CAS_MISMATCH',
    );
    expectRefused(
      await holder.operation({ ...settle, effect: 'known-not-applied' }),
      'settle after settle with another outcome',
      'TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH',
    );
    checkUnchanged(settled, await world.audit(task), 'a receipt after settle');
    checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls');
    return 'identical duplicates replayed (nothing written), a receipt after settle refused or replayed, never a second dispatch';
  }
  if (variant === 'mutated') {
    const before = await world.audit(task);
    const mutations: Array<[keyof Binding, unknown]> = [
      ['operationId', `${b.operationId}x`],
      ['idempotencyKey', `${b.idempotencyKey}x`],
      ['writerGeneration', b.writerGeneration + 1],
      ['targetSetDigest', sha256('other targets')],
      ['beforeDigest', sha256('other before')],
    ];
    for (const [field, value] of mutations) {
      const r = await holder.operation({
        event: 'settle',
        ...b,
        [field]: value,
        effect: 'known-applied',
        evidenceDigest: sha256('e'),
      });
      expectRefused(r, `settle with ${field} mutated`, 'TASK_OPERATION_CAS_MISMATCH');
    }
    expectRefused(
      await holder.operation({ event: 'observe', ...b, resultDigest: sha256('another result') }),
      'observe with another resultDigest',
      'TASK_OPERATION_REPLAY_MISMATCH',
    );
    checkUnchanged(before, await world.audit(task), 'a mutated receipt');
    const phase = (await holder.envelope()).operations.unresolved?.phase;
    checkEqual(phase, 'observed', 'phase after the mutated receipts');
    return 'each receipt with exactly one of the five binding fields mutated refused with TASK_OPERATION_CAS_MISMATCH, another resultDigest with TASK_OPERATION_REPLAY_MISMATCH; nothing written';
  }
  throw new FaultCheckFailure(`unknown receipts variant ${variant}`);
};

/** F10 (late): a receipt of the old generation arrives after an explicit takeover. */
export const lateReceipt: FaultRoutine = async (world) => {
  const { task, holder } = await holderTask(world);
  const b = await prepare(holder, 'late');
  expectWritten(await world.dispatch(holder, b), 'dispatch');
  const oldView = await holder.view();
  const other = new Actor(await world.spawn(), task, 'new-holder');
  await other.takeover();
  const before = await world.audit(task);
  const result = sha256('late result');
  // Delivered to the new holder with its current fence: the receipt's generation is old.
  expectRefused(
    await other.operation({ event: 'observe', ...b, resultDigest: result }),
    'late observe through the new holder',
    'TASK_OPERATION_CAS_MISMATCH',
  );
  // Delivered by the old holder with its old view.
  expectRefused(
    await holder.operation({ event: 'observe', ...b, resultDigest: result }, oldView),
    'late observe from the old holder with its old fence',
    FENCE_MISMATCH,
  );
  checkUnchanged(before, await world.audit(task), 'a late receipt');
  const phase = (await other.envelope()).operations.unresolved?.phase;
  checkEqual(phase, 'dispatched', 'phase after the late receipt');
  expectWritten(await other.operation({ event: 'mark-reconcile', ...b }), 'mark-reconcile by the new holder');
  expectWritten(
    await other.operation({ event: 'reconcile', ...b, effect: 'known-applied', evidenceDigest: result }),
    'reconcile with the late receipt as evidence',
  );
  checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls');
  return 'a receipt of the old generation never advances the operation (refused, nothing written); it serves only as reconcile evidence';
};

// ---------------------------------------------------------------------------------------------

/** F11: terminal with an unsettled operation, a stale fence, as a non-holder; then correctly. */
export const terminalPreconditions: FaultRoutine = async (world, scenario) => {
  const { task, holder } = await holderTask(world);
  const b = await prepare(holder, 'terminal');
  const before = await world.audit(task);
  const evidence = terminalEvidence(scenario);
  expectRefused(
    await holder.transition('terminal', { terminal: await holder.terminalMember(evidence) }),
    '(a) terminal with an unsettled operation',
    'TASK_TERMINAL_OPERATION_UNSETTLED',
  );
  expectWritten(await holder.operation({ event: 'abort', ...b }), 'abort the prepared operation');
  const view = await holder.view();
  const member = await holder.terminalMember(evidence);
  expectRefused(
    await holder.transition(
      'terminal',
      { terminal: member },
      { ...view, fence: fence(view.fence.stateSequence - 1, view.fence.writerGeneration) },
    ),
    '(b) terminal with a stale fence',
    FENCE_MISMATCH,
  );
  const stranger = new Actor(await world.spawn(), task, 'stranger');
  expectRefused(
    await stranger.transition('terminal', { terminal: await stranger.terminalMember(evidence) }),
    '(c) terminal by a session that is not the holder',
    'TASK_TERMINAL_OWNER_MISMATCH',
  );
  const after = await world.audit(task);
  checkEqual(after.length, before.length + 1, 'durable entries (only the abort was written)');
  check(
    after.every((e) => e.owner.status !== 'terminal'),
    'a refused terminal closed the task',
  );
  const closed = expectWritten(
    await holder.transition('terminal', { terminal: await holder.terminalMember(evidence) }),
    '(d) terminal by the holder, settled, current fence, with the evidence',
  );
  check(closed.receipt?.receiptDigest, '(d) the terminal returned no receipt');
  const final = await world.audit(task);
  checkEqual(final.at(-1)?.owner.status, 'terminal', 'lease status after (d)');
  return 'terminal refused with an unsettled operation (a), a stale fence (b) and from a non-holder (c), nothing written; only the correct closeout (d) committed';
};

/** F13: reopen after terminal raises lifecycleRevision and writerGeneration; the old fence is dead. */
export const reopenInvalidatesFence: FaultRoutine = async (world, scenario) => {
  const { task, holder } = await holderTask(world);
  expectWritten(await holder.commitState({ step: 1 }), 'commitState');
  const oldView = await holder.view();
  const closed = expectWritten(
    await holder.transition('terminal', {
      terminal: await holder.terminalMember(terminalEvidence(scenario)),
    }),
    'terminal',
  );
  const atTerminal = await holder.envelope();
  const reopener = new Actor(await world.spawn(), task, 'reopener');
  expectWritten(
    await reopener.transition('reopen', { terminalReceiptDigest: closed.receipt!.receiptDigest }),
    'reopen',
  );
  const reopened = await reopener.envelope();
  checkEqual(reopened.lifecycleRevision, atTerminal.lifecycleRevision + 1, 'lifecycleRevision after reopen');
  checkEqual(reopened.writerGeneration, atTerminal.writerGeneration + 1, 'writerGeneration after reopen');
  const before = await world.audit(task);
  expectRefused(
    await holder.commitState({ step: 'old-fence' }, { view: oldView }),
    'the old holder commits with its pre-terminal fence',
    FENCE_MISMATCH,
  );
  const terminalView = {
    ...oldView,
    fence: {
      ...oldView.fence,
      stateSequence: atTerminal.sequence,
      writerGeneration: atTerminal.writerGeneration,
    },
  };
  expectRefused(
    await holder.commitState({ step: 'terminal-fence' }, { view: terminalView }),
    "a commit with the terminal envelope's fence",
    FENCE_MISMATCH,
  );
  expectRefused(
    await holder.commitState({ step: 'fresh-read' }),
    'the old holder on a fresh read',
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  const after = await world.audit(task);
  checkUnchanged(before, after, 'a commit with an invalidated fence');
  // TCW-014: the reopened lease never carries a nonce an earlier owner generation had (the
  // durable history just read holds every generation of the task).
  const generationsOf = new Map<string, Set<number>>();
  for (const e of after) {
    const seen = generationsOf.get(e.owner.ownerNonce) ?? new Set<number>();
    seen.add(e.owner.ownerGeneration);
    generationsOf.set(e.owner.ownerNonce, seen);
  }
  const reused = [...generationsOf].find(([, gens]) => gens.size > 1);
  check(
    !reused,
    () =>
      `owner nonce ${reused![0]} is reused by owner generations ${[...reused![1]].join(', ')} of one task`,
  );
  expectWritten(await reopener.commitState({ step: 2 }), 'the reopening holder commits');
  return `reopen: lifecycleRevision ${atTerminal.lifecycleRevision} -> ${reopened.lifecycleRevision}, writerGeneration ${atTerminal.writerGeneration} -> ${reopened.writerGeneration}; the old fences refused, nothing written`;
};

// ---------------------------------------------------------------------------------------------

/** F12: replay, read and readWriteContext write nothing. */
export const replayWritesNothing: FaultRoutine = async (world, scenario) => {
  const times = param(scenario, 'replays', 5);
  const { task, holder, impl } = await holderTask(world);
  expectWritten(await holder.commitState({ step: 1 }), 'commitState');
  const b = await prepare(holder, 'replay');
  expectWritten(await world.dispatch(holder, b), 'dispatch');
  expectWritten(await holder.operation({ event: 'observe', ...b, resultDigest: sha256('r') }), 'observe');
  const before = await world.audit(task);
  let first: string | null = null;
  for (let i = 0; i < times; i++) {
    const r = await callStore(impl, 'store.replay', { task });
    check(r.ok, () => `store.replay was refused (${(r as { code: string }).code})`);
    const envs = ((r as { value: { envelopes?: Envelope[] } }).value.envelopes ?? []) as Envelope[];
    const f = historyFingerprint(envs);
    first ??= f;
    checkEqual(f, first, `replay ${i + 1} vs replay 1`);
    await holder.view();
    await holder.writeContext();
  }
  checkEqual(first, historyFingerprint(before), 'replayed envelopes vs durable history');
  checkUnchanged(before, await world.audit(task), `${times} replays, reads and write-context reads`);
  checkEqual(world.tool.count(b.operationId), 1, 'fake tool calls');
  return `${times} replays identical to the durable history; durable history unchanged; no tool call`;
};

// ---------------------------------------------------------------------------------------------

/** F3/F4/F14: clock jumps forward past the lease and backwards; expiry decides nothing. */
export const clockJumps: FaultRoutine = async (world, scenario) => {
  const forward = param(scenario, 'forwardMs', 3_600_000);
  const backward = param(scenario, 'backwardMs', 7_200_000);
  const { task, holder } = await holderTask(world);
  const stranger = new Actor(await world.spawn(), task, 'stranger');
  expectWritten(await holder.commitState({ step: 1 }), 'commit before the jumps');
  await world.advance(forward);
  expectRefused(
    await stranger.commitState({ step: 'stolen' }),
    'a second session commits after the lease expired (no takeover)',
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  expectWritten(await holder.commitState({ step: 2 }), 'the holder commits after its lease expired');
  await world.advance(-backward);
  expectWritten(await holder.commitState({ step: 3 }), 'the holder commits after the clock went back');
  expectRefused(
    await stranger.commitState({ step: 'stolen-2' }),
    'a second session after the backward jump',
    'TASK_WRITE_OWNER_SESSION_MISMATCH',
  );
  await world.advance(500);
  expectWritten(await holder.commitState({ step: 4 }), 'commit after a small forward step');
  const history = await world.audit(task);
  const steps = history.map((e) => e.state.step).filter((s) => s !== undefined);
  checkEqual(steps.join(','), '1,2,3,4', 'durable order of the commits');
  check(
    new Set(history.map((e) => e.writerGeneration)).size === 1,
    'a clock jump changed the writer generation',
  );
  for (let i = 1; i < history.length; i++)
    check(
      Date.parse(history[i]!.committedAt) >= Date.parse(history[i - 1]!.committedAt),
      () => `committedAt went backwards at sequence ${history[i]!.sequence} after the clock jumped back`,
    );
  return `forward ${forward} ms and back ${backward} ms: expiry granted nothing to a second session, the holder kept committing, order by sequence, committedAt never backwards`;
};

// ---------------------------------------------------------------------------------------------

/** F5: two recoverers race a takeover; the generation moves exactly once; a duplicate is replayed. */
export const duplicateTakeover: FaultRoutine = async (world) => {
  const { task, impl, holder } = await holderTask(world);
  expectWritten(await holder.commitState({ step: 1 }), 'commitState');
  const g = (await holder.envelope()).writerGeneration;
  await world.kill(impl);
  const rs = [
    new Actor(await world.spawn(), task, 'recoverer-1'),
    new Actor(await world.spawn(), task, 'recoverer-2'),
  ];
  const prepared = await Promise.all(
    rs.map(async (r) => {
      const ctx = await r.writeContext();
      const view = await r.view();
      return { r, view, ctx };
    }),
  );
  const results = await Promise.all(
    prepared.map(({ r, view, ctx }) =>
      r.transition(
        'takeover-prepare',
        {
          targetSessionDigest: r.session,
          takeoverEvidence: {
            readbackContextDigest: ctx.contextDigest,
            livenessEvidenceDigest: sha256('no live turn'),
            reconcileReceiptDigest: sha256('reconciled'),
          },
        },
        view,
      ),
    ),
  );
  const winners = results.filter((r) => r.ok && r.status === 'committed').length;
  checkEqual(winners, 1, 'recoverers whose takeover-prepare committed');
  const loser = results.find((r) => !r.ok);
  check(loser, 'the losing takeover was not refused');
  const winner = rs[results.findIndex((r) => r.ok)]!;
  const ref = (await winner.envelope()).owner.takeoverRef?.refDigest;
  check(ref, 'no takeoverRef after takeover-prepare');
  const acceptView = await winner.view();
  expectWritten(
    await winner.transition('takeover-accept', { takeoverRefDigest: ref }, acceptView),
    'takeover-accept',
  );
  const before = await world.audit(task);
  expectWritten(
    await winner.transition('takeover-accept', { takeoverRefDigest: ref }, acceptView),
    'the identical takeover-accept again',
    'replayed',
  );
  checkUnchanged(before, await world.audit(task), 'a duplicate recovery');
  const gens = before.map((e) => e.writerGeneration);
  checkEqual(gens.at(-1), g + 1, 'writer generation after one recovery');
  checkEqual(
    before.filter((e) => e.commitKind === 'owner-takeover-prepare').length,
    1,
    'durable takeover-prepare entries',
  );
  checkEqual(world.tool.total, 0, 'fake tool calls');
  return `two racing recoverers: one takeover committed, the other refused (${(loser as { code: string }).code}); generation ${g} -> ${g + 1} exactly once; the duplicate accept replayed`;
};

// ---------------------------------------------------------------------------------------------

/**
 * Named crash points (docs/protocol.md#crash-points): the implementation kills itself at a point
 * inside a commit, a state commit and an operation's dispatch commit in turn. Before the write
 * nothing of the commit may be durable and the old fence stays current; after the write the commit
 * is durable exactly once, the old fence is stale, and a dispatch that landed is reconciled, never
 * aborted or repeated.
 */
export const crashPoints: FaultRoutine = async (world, scenario) => {
  const commits = param(scenario, 'commits', 3);
  const out: string[] = [];
  for (const point of CRASH_POINTS) {
    for (const kind of ['state', 'dispatch'] as const) {
      const what = `${kind} commit killed at ${point}`;
      const { task, impl, holder } = await holderTask(world);
      for (let i = 1; i <= commits; i++)
        expectWritten(await holder.commitState({ step: i }), `commitState ${i}`);
      const b = kind === 'dispatch' ? await prepare(holder, 'armed-dispatch') : null;
      const view = await holder.view();
      const before = await world.audit(task);
      const armed = await impl.request('crash.arm', { point });
      check(armed !== null && typeof armed === 'object', `crash.arm answered ${show(armed)}, not an object`);
      let answered: unknown;
      try {
        answered = await impl.request(kind === 'state' ? 'store.commitState' : 'store.commitOperation', {
          request:
            kind === 'state'
              ? holder.stateRequest({ step: 'armed' }, view)
              : holder.operationRequest({ event: 'dispatch', ...b! }, view),
        });
      } catch (e) {
        if (!isProcessFault(e)) throw e;
      }
      check(
        answered === undefined,
        () => `${what}: the implementation answered ${show(answered)} instead of dying at the armed point`,
      );
      await world.kill(impl);
      const after = await world.audit(task);
      checkEqual(
        historyFingerprint(after.slice(0, before.length)),
        historyFingerprint(before),
        `${what}: the durable history before the killed commit`,
      );
      const landed = after.slice(before.length);
      const fresh = new Actor(await world.spawn(), task, 'holder');
      if (point === 'commit-before-write') {
        checkEqual(landed.length, 0, `${what}: entries of the killed commit that are durable`);
        if (kind === 'state')
          expectWritten(
            await fresh.commitState({ step: 'retried' }, { view }),
            `${what}: the retried commit on the unchanged fence`,
          );
        else {
          checkEqual(
            (await fresh.envelope()).operations.unresolved?.phase,
            'prepared',
            `${what}: phase after restart`,
          );
          await fresh.takeover();
          expectWritten(
            await fresh.operation({ event: 'abort', ...b! }),
            `${what}: abort of the never-dispatched operation`,
          );
        }
      } else {
        checkEqual(landed.length, 1, `${what}: entries of the killed commit that are durable`);
        const refused = expectRefused(
          await fresh.commitState({ step: 'stale' }, { view }),
          `${what}: a commit on the fence from before the crash`,
          FENCE_MISMATCH,
        );
        checkEqual(
          refused.currentFence?.stateSequence,
          landed[0]!.sequence,
          `${what}: currentFence of the refusal`,
        );
        if (kind === 'state') {
          checkEqual(
            stableJson(landed[0]!.state),
            stableJson({ step: 'armed' }),
            `${what}: the durable state`,
          );
          expectWritten(await fresh.commitState({ step: 'next' }), `${what}: a commit on the durable fence`);
        } else {
          checkEqual(landed[0]!.operations.unresolved?.phase, 'dispatched', `${what}: durable phase`);
          await fresh.takeover();
          expectRefused(
            await fresh.operation({ event: 'abort', ...b! }),
            `${what}: abort of an operation whose dispatch is durable`,
          );
          expectWritten(await fresh.operation({ event: 'mark-reconcile', ...b! }), `${what}: mark-reconcile`);
        }
      }
      if (b) checkEqual(world.tool.count(b.operationId), 0, `${what}: fake tool calls`);
      out.push(`${point}/${kind}: ${landed.length}`);
      await world.kill(fresh.impl);
    }
  }
  return `killed inside ${out.length} commits; entries that became durable per point/commit: ${out.join(', ')} (0 before the write, exactly 1 after it); stale fences refused, no dispatch aborted or repeated`;
};
