// The four fault scenarios seed 000 names for the TurnLivenessRecoveryGate
// (docs/spec/turn-liveness-recovery-gate.md#fault-scenarios), driven by direct replay of host
// events through `liveness.event` with the harness's clock, with a real kill -9 and restart for
// restart-rehydrate. Boundary instants are the page's; nothing is taken from the implementation.

import { HarnessError } from '../../errors.js';
import type { Implementation } from '../../implementation.js';
import { check, checkEqual, FaultCheckFailure, show } from '../check.js';
import { FAULT_T0, type FaultWorld } from '../world.js';
import { type FaultRoutine, stableJson } from './common.js';

// Liveness documents are read member by member and compared with checkEqual, which reports any
// shape difference; a loose type keeps those reads short.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Json = Record<string, any>;

const T0 = Date.parse(FAULT_T0);
const at = (ms: number) => new Date(T0 + ms).toISOString();

/** A fresh liveness session: one process, a reset turn state, the clock at T0. */
async function session(world: FaultWorld): Promise<Liveness> {
  await world.setClock(FAULT_T0);
  const impl = await world.spawn();
  const l = new Liveness(world, impl);
  await impl.request('liveness.reset', {});
  return l;
}

class Liveness {
  constructor(
    readonly world: FaultWorld,
    public impl: Implementation,
  ) {}

  /** Deliver a host event at `ms` after T0 (the clock is moved there first). */
  async event(
    type: string,
    ms: number,
    extra: Json = {},
  ): Promise<{ state: Json; card: Json | null; refused?: string }> {
    await this.world.setClock(at(ms));
    try {
      const r = (await this.impl.request('liveness.event', {
        event: { type, at: at(ms), ...extra },
      })) as Json;
      return { state: r.state, card: r.card ?? null };
    } catch (e) {
      const err = e instanceof HarnessError ? (e.detail.error as Json | undefined) : undefined;
      if (err?.code === -32000 && err.data?.state)
        return { state: err.data.state, card: err.data.card ?? null, refused: err.data.code };
      throw e;
    }
  }

  async classifyAt(ms: number): Promise<Json> {
    await this.world.setClock(at(ms));
    return (await this.impl.request('liveness.classify', {})) as Json;
  }

  async state(): Promise<Json> {
    return (await this.impl.request('liveness.state', {})) as Json;
  }
}

function expectClass(c: Json, classification: string, reason: string | null, when: string): void {
  check(
    c.classification === classification && (reason === null || c.reason === reason),
    () =>
      `classify at ${when}: expected ${classification}${reason ? ` / ${reason}` : ''}, got ${show(c.classification)} / ${show(c.reason)}`,
  );
}

/** "Never acts": every action flag of a card false. */
function neverActs(card: Json | null, what: string): void {
  if (!card) return;
  const b = card.capabilityBoundary as Json | undefined;
  check(b && typeof b === 'object', `${what}: the card has no capabilityBoundary`);
  for (const flag of ['stateMutation', 'operationReplay', 'processControl', 'hostWakeup'])
    check(b[flag] === false, `${what}: the card claims ${flag}`);
}

/** The no-continuation setup up to the tool output at T1 = T0+2000. */
async function noContinuationSetup(l: Liveness): Promise<Json> {
  await l.event('UserPromptSubmit', 0, { turnKey: 'turn-faults-1' });
  await l.event('PreToolUse', 1000, {
    operationId: 'op1',
    toolName: 'Edit',
    hostDecision: 'allowed',
    mutating: true,
    targetPaths: ['src/a.ts'],
  });
  return (await l.event('PostToolUse', 2000, { operationId: 'op1' })).state;
}
const T1 = 2000;

// ---------------------------------------------------------------------------------------------

export const noContinuation: FaultRoutine = async (world) => {
  const l = await session(world);
  const s = await noContinuationSetup(l);
  checkEqual(s.state, 'awaiting-continuation', 'state after the tool output');
  checkEqual(s.inFlightOperation, null, 'inFlightOperation after the tool output');
  checkEqual(s.lastToolOutputAt, at(T1), 'lastToolOutputAt');
  checkEqual(s.checkpoint?.phase, 'tool-output-persisted', 'checkpoint phase');
  const before = stableJson(await l.state());
  const table: Array<[number, string, string | null]> = [
    [119_999, 'awaiting-continuation', 'within-grace'],
    [120_000, 'suspect', 'continuation-grace-expired'],
    [299_999, 'suspect', null],
    [300_000, 'stalled-recoverable', 'continuation-timeout'],
  ];
  for (const [d, c, r] of table) expectClass(await l.classifyAt(T1 + d), c, r, `T1+${d}`);
  checkEqual(
    stableJson(await l.state()),
    before,
    'the state after classification (classification changes no byte)',
  );
  const post = s.checkpointValidation?.postExecution;
  check(
    post?.status === 'unverified' && post.errorCode === 'HOST_RESULT_INCOMPLETE' && post.blocking === true,
    () =>
      `post-execution must stay unverified / HOST_RESULT_INCOMPLETE / blocking, got ${show(post?.status)} / ${show(post?.errorCode)}`,
  );
  const r = await l.event('UnknownHostEvent', T1 + 300_000);
  check(r.card, 'the first event after the stall produced no card');
  checkEqual(r.card.priorState, 'stalled-recoverable', 'card.priorState');
  checkEqual(r.card.reason, 'continuation-timeout', 'card.reason');
  checkEqual(r.card.referenceAt, at(T1), 'card.referenceAt');
  checkEqual(r.card.ageMs, 300_000, 'card.ageMs');
  checkEqual(r.state.state, 'running', 'state after the acknowledging event');
  checkEqual(r.state.continuationAckAt, at(T1 + 300_000), 'continuationAckAt');
  neverActs(r.card, 'no-continuation');
  return 'classification boundaries 119999/120000/299999/300000 ms held without writing; post-execution never passed; exactly one card on the next event; the observer never acted';
};

// ---------------------------------------------------------------------------------------------

export const activeLease: FaultRoutine = async (world) => {
  const l = await session(world);
  await l.event('UserPromptSubmit', 0, { turnKey: 'turn-faults-lease' });
  const T2 = 10_000;
  const s = (
    await l.event('PreToolUse', T2, {
      operationId: 'op2',
      toolName: 'Edit',
      hostDecision: 'allowed',
      mutating: true,
    })
  ).state;
  checkEqual(s.inFlightOperation?.leaseExpiresAt, at(T2 + 1_800_000), 'leaseExpiresAt');
  checkEqual(s.inFlightOperation?.ownedByAgent, true, 'ownedByAgent');
  const rows: Array<[number, string, string | null]> = [
    [1_200_000, 'running', 'active-operation-lease'],
    [1_799_999, 'running', 'active-operation-lease'],
    [1_800_000, 'suspect', 'operation-lease-expired'],
    [2_099_999, 'suspect', null],
    [2_100_000, 'stalled-recoverable', null],
  ];
  for (const [d, c, r] of rows) expectClass(await l.classifyAt(T2 + d), c, r, `T2+${d}`);
  const next = await l.event('PreCompact', T2 + 2_100_000);
  check(next.card, 'no card on the event after the lease stalled');
  checkEqual(next.card.inFlightOperationId, 'op2', 'card.inFlightOperationId');
  checkEqual(
    next.card.recommendedAction,
    'verify-idempotency-then-resume-via-host',
    'card.recommendedAction',
  );
  neverActs(next.card, 'active-lease');
  // Setup B: no tool call.
  const b = await session(world);
  await b.event('UserPromptSubmit', 0, { turnKey: 'turn-faults-lease-b' });
  expectClass(await b.classifyAt(300_000), 'running', 'agent-turn-within-lease', 'T0+300000');
  expectClass(await b.classifyAt(1_799_999), 'running', 'agent-turn-within-lease', 'T0+1799999');
  expectClass(await b.classifyAt(1_800_000), 'suspect', 'agent-turn-lease-expired', 'T0+1800000');
  expectClass(await b.classifyAt(2_100_000), 'stalled-recoverable', 'agent-turn-lease-expired', 'T0+2100000');
  // Setup C: a blocked call gets no lease; a process lease is refused.
  const blocked = await b.event('PreToolUse', 2_100_001, {
    operationId: 'op3',
    toolName: 'Bash',
    hostDecision: 'blocked',
    mutating: true,
  });
  checkEqual(blocked.state.inFlightOperation, null, 'inFlightOperation after a blocked call');
  let refused: string | null = null;
  try {
    await b.impl.request('liveness.lease', { kind: 'pid', pid: 4242 });
  } catch (e) {
    refused = ((e as HarnessError).detail?.error as Json | undefined)?.data?.code ?? null;
  }
  checkEqual(refused, 'TURN_LEASE_NOT_HOST_ALLOWED', 'a lease for a PID');
  return 'the held lease kept the turn running past the ACK threshold until 1800000 ms, then suspect and stalled; the card names op2; no lease for a blocked call or a PID';
};

// ---------------------------------------------------------------------------------------------

export const restartRehydrate: FaultRoutine = async (world) => {
  const l = await session(world);
  await noContinuationSetup(l);
  const persisted = stableJson(await l.state());
  await world.kill(l.impl);
  await world.setClock(at(T1 + 600_000));
  const fresh = new Liveness(world, await world.spawn());
  const rehydrated = stableJson(await fresh.state());
  checkEqual(rehydrated, persisted, 'the state rehydrated after kill -9 (JCS equal, nothing rewritten)');
  expectClass(
    await fresh.classifyAt(T1 + 600_000),
    'stalled-recoverable',
    'continuation-timeout',
    'T1+600000 after restart',
  );
  checkEqual(stableJson(await fresh.state()), persisted, 'the state after a read-only observation');
  const r = await fresh.event('UserPromptSubmit', T1 + 600_000, { turnKey: 'turn-faults-2' });
  check(r.card, 'the next prompt after the restart produced no card');
  checkEqual(r.card.priorState, 'stalled-recoverable', 'card.priorState');
  const prev = r.state.previousTurn;
  checkEqual(prev?.turnKey, 'turn-faults-1', 'previousTurn.turnKey');
  checkEqual(
    prev?.terminalReason ?? prev?.reason,
    'stale-turn-recovered-by-new-prompt',
    'previousTurn reason',
  );
  check(r.state.turnKey !== 'turn-faults-1', 'the new turn reused the old turn key');
  checkEqual(r.state.inFlightOperation, null, 'inFlightOperation of the new turn');
  checkEqual(r.state.checkpoint?.phase, 'turn-started', 'checkpoint phase of the new turn');
  checkEqual(r.state.lastRecoveryNoticeKey, null, 'lastRecoveryNoticeKey of the new turn');
  neverActs(r.card, 'restart-rehydrate');
  return 'state survived kill -9 byte-identical, rehydration wrote nothing, classified stalled at T1+600000, the next prompt yielded one card and a fresh turn with previousTurn interrupted';
};

// ---------------------------------------------------------------------------------------------

export const duplicateRecovery: FaultRoutine = async (world) => {
  const l = await session(world);
  await noContinuationSetup(l);
  const pre = await l.state();
  const first = await l.event('PreCompact', T1 + 300_000);
  check(first.card, 'no card for the stalled turn');
  const k = first.card.noticeKey;
  checkEqual(first.state.lastRecoveryNoticeKey, k, 'lastRecoveryNoticeKey');
  // Re-deliver: the same pre-event state classified again at the same instant (a watchdog or a
  // re-delivered event) gives the same key and no second card.
  await l.impl.request('liveness.rehydrate', { state: pre });
  const again = await l.event('PreCompact', T1 + 300_000);
  checkEqual(again.card?.noticeKey ?? k, k, 'the notice key of the same condition');
  await l.impl.request('liveness.rehydrate', { state: first.state });
  const watchdog = (await l.impl.request('liveness.watchdog', {})) as Json;
  checkEqual(watchdog.card ?? null, null, 'a watchdog card after the card of the same condition');
  const second = await l.event('PreCompact', T1 + 301_000);
  checkEqual(second.card, null, 'a card for the fresh, running turn');
  const before = second.state;
  const dup = await l.event('PostToolUse', T1 + 302_000, { operationId: 'op1' });
  const s = dup.state;
  checkEqual(s.eventSequence, before.eventSequence + 1, 'eventSequence after a duplicate tool output');
  checkEqual(s.lastToolOutputAt, before.lastToolOutputAt, 'lastToolOutputAt after a duplicate');
  checkEqual(s.checkpoint?.resumeToken, before.checkpoint?.resumeToken, 'resumeToken after a duplicate');
  checkEqual(
    s.checkpoint?.idempotencyKey,
    before.checkpoint?.idempotencyKey,
    'idempotencyKey after a duplicate',
  );
  checkEqual(s.inFlightOperation, before.inFlightOperation, 'lease after a duplicate');
  check(!['completed', 'error', 'interrupted'].includes(s.state), 'a duplicate tool output ended the turn');
  neverActs(first.card, 'duplicate-recovery');
  return `one card (${String(k).slice(0, 20)}…) per stale condition: re-delivery and the watchdog emitted none; a duplicate tool output moved only eventSequence`;
};

void FaultCheckFailure;
