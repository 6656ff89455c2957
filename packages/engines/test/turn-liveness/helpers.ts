// Shared setup of the turn-liveness tests: the fixed clock of the spec's fault scenarios.
import type { TurnLivenessStateV1, TurnRecoveryCardV1 } from '@agent-contracts/schemas';
import {
  applyTurnEvent,
  createTurnState,
  type TurnEventContext,
  type TurnEventResult,
  type TurnHostEvent,
} from '../../src/index.ts';

/** T0 of the fault scenarios: 2026-11-30T05:41:12.000Z. */
export const T0 = Date.parse('2026-11-30T05:41:12.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();
export const settled: TurnEventContext = { unresolvedOperation: false };
export const unsettled: TurnEventContext = { unresolvedOperation: true };

/** Apply events in order from a fresh idle state (initialised one minute before T0); returns every result. */
export function run(
  events: readonly TurnHostEvent[],
  context: TurnEventContext = settled,
  from?: TurnLivenessStateV1,
) {
  let state = from ?? createTurnState({ initializedAt: T0 - 60_000 });
  const results: TurnEventResult[] = [];
  for (const e of events) {
    const r = applyTurnEvent(state, e, context);
    results.push(r);
    state = r.state;
  }
  return { state, results, last: results[results.length - 1]! };
}

export const prompt = (at: number, turnKey = `req_${at}`): TurnHostEvent => ({
  type: 'UserPromptSubmit',
  at,
  turnKey,
});
export const pre = (
  at: number,
  operationId: string,
  extra: Partial<Extract<TurnHostEvent, { type: 'PreToolUse' }>> = {},
): TurnHostEvent => ({
  type: 'PreToolUse',
  at,
  operationId,
  toolName: 'Edit',
  hostDecision: 'allowed',
  mutating: true,
  targetPaths: ['src/app.ts'],
  ...extra,
});
export const post = (
  at: number,
  operationId: string,
  outcome: 'success' | 'error' = 'success',
): TurnHostEvent => ({
  type: 'PostToolUse',
  at,
  operationId,
  outcome,
});
export const bare = (
  type: 'PreCompact' | 'Stop' | 'TurnError' | 'TurnInterrupted' | 'UnknownHostEvent',
  at: number,
): TurnHostEvent => ({ type, at });

/** A never-acting check: every action flag of a card is false. */
export function neverActs(card: TurnRecoveryCardV1 | null): void {
  if (!card) return;
  const b = card.capabilityBoundary;
  if (
    b.mode !== 'observation-only' ||
    b.stateMutation ||
    b.operationReplay ||
    b.processControl ||
    b.hostWakeup
  )
    throw new Error(`card acts: ${JSON.stringify(b)}`);
}
