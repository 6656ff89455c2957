// Exploration of `trace.*`: opening turns (the same and another), appending events of every
// type with fresh and repeated occurrence keys, expected sequences right and wrong, observation
// times before and after, closing, appending after the terminal, replaying, and loading the
// trace read back, with the clock moved.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, iso } from '../command.js';

const TYPES = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'UnknownHostEvent',
  'ToolLeaseStarted',
  'ToolLeaseCompleted',
  'ToolLeaseResultDeferred',
  'TurnTerminal',
  'pre_tool_use',
];
/** Type and result pairs the page allows (the terminal one rarely: it ends the trace). */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['UserPromptSubmit', 'observed'],
  ['PreToolUse', 'observed'],
  ['PostToolUse', 'observed'],
  ['PreCompact', 'observed'],
  ['UnknownHostEvent', 'observed'],
  ['ToolLeaseStarted', 'allowed'],
  ['ToolLeaseCompleted', 'success'],
  ['ToolLeaseCompleted', 'error'],
  ['ToolLeaseResultDeferred', 'duplicate'],
  ['ToolLeaseResultDeferred', 'observed'],
];
const RESULTS = ['observed', 'observed', 'allowed', 'success', 'error', 'duplicate', 'complete', 'ok'];

export const traceExplorer: CapabilityExplorer = {
  name: 'trace',
  gate: 'LocalTaskTraceGate',
  subject: 'LocalTaskTraceV1',
  spec: 'docs/spec/local-task-trace-gate.md#recorder-operations',
  requires: ['trace', 'clock'],
  setup: (ctx) => [
    { method: 'clock.set', params: { now: iso(ctx.t0) } },
    { method: 'trace.load', params: { trace: null } },
  ],
  commands: () => [
    fc
      .record(
        {
          turnKey: fc.constantFrom('turn-1', 'turn-2', 'turn-3'),
          openedAt: fc.integer({ min: -60, max: 600 }),
          previousTurnEndReason: fc.constantFrom(
            'superseded-by-new-prompt',
            'stale-turn-recovered-by-new-prompt',
          ),
        },
        { requiredKeys: ['turnKey'] },
      )
      .map((p) =>
        command(`trace.open ${p.turnKey}`, (ctx) => ({
          method: 'trace.open',
          params: {
            ...p,
            ...(p.openedAt === undefined ? {} : { openedAt: iso(ctx.t0 + p.openedAt * 1000) }),
          },
        })),
      ),
    ...[0, 1].map(() =>
      fc
        .record({
          pair: fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom(...PAIRS) },
            { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...TYPES), fc.constantFrom(...RESULTS)) },
          ),
          occurrenceKey: fc.constantFrom('k1', 'k2', 'k3', 'k4', 'turn-terminal'),
          payload: fc.constantFrom<unknown>(
            {},
            { path: 'src/app.ts' },
            { n: 1, list: [1, 2] },
            { reason: 'done' },
          ),
        })
        .map(({ pair, ...p }) => ({ type: pair[0], result: pair[1], ...p }))
        .chain((p) =>
          fc
            .record({
              expectedSequence: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 4 }),
              observedAt: fc.option(fc.integer({ min: -60, max: 600 }), { nil: undefined, freq: 4 }),
            })
            .map((o) => ({
              ...p,
              ...(o.expectedSequence === undefined ? {} : { expectedSequence: o.expectedSequence }),
              ...(o.observedAt === undefined ? {} : { observedAt: o.observedAt }),
            })),
        )
        .map((p) =>
          command(`trace.append ${p.type}/${p.result} ${p.occurrenceKey}`, (ctx, s) => {
            const params = {
              ...p,
              ...(p.observedAt === undefined ? {} : { observedAt: iso(ctx.t0 + p.observedAt * 1000) }),
            };
            s.memo.set('append', params);
            return { method: 'trace.append', params };
          }),
        ),
    ),
    // A re-delivery: the last append again, with the same or another payload.
    fc.boolean().map((samePayload) =>
      command(`trace.append again${samePayload ? '' : ' (another payload)'}`, (_ctx, s) => {
        const last = s.memo.get('append') as Record<string, unknown> | undefined;
        if (!last) return [];
        const { expectedSequence: _e, observedAt: _o, ...rest } = last;
        return { method: 'trace.append', params: samePayload ? rest : { ...rest, payload: { again: true } } };
      }),
    ),
    fc
      .record({
        result: fc.constantFrom('complete', 'failed', 'interrupted'),
        reason: fc.constantFrom('done', 'user stopped'),
      })
      .map((p) => command(`trace.close ${p.result}`, () => ({ method: 'trace.close', params: p }))),
    fc
      .constantFrom('trace.replay', 'trace.current')
      .map((method) => command(method, () => ({ method, params: {} }))),
    fc.constant(
      command('trace.load (the trace read back)', () => [
        { method: 'trace.current', params: {}, capture: { trace: '' } },
        { method: 'trace.load', params: { trace: { $var: 'trace' } } },
      ]),
    ),
    ...clockCommands(),
  ],
};
