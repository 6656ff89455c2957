// Exploration of `liveness.*`: host events of one turn (prompts with good and malformed keys,
// allowed and blocked tool calls, outputs matched and unmatched, compaction, terminals), event
// times before and after the last one, classification, evidence, watchdog ticks, lease requests
// and rehydration of the state read back, with the clock moved across every threshold. A turn is
// also driven straight to awaiting-continuation (a prompt, an allowed call and its output) and then
// sent the event that acknowledges the continuation, or one that does not: random events alone
// almost never line up into that edge.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, hex, iso } from '../command.js';

const opId = fc.constantFrom('op-1', 'op-2');
const at = fc.option(fc.integer({ min: -120, max: 2400 }), { nil: undefined, freq: 3 });

const event = fc.oneof(
  fc.record(
    {
      type: fc.constant('UserPromptSubmit'),
      turnKey: fc.constantFrom('req_1', 'req_2', 'bad key!'),
      sessionKey: fc.constantFrom('session-1', 'session-2'),
      taskTraceId: fc.constantFrom('trace-1', 'trace-2', 'bad id!'),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('PreToolUse'),
      operationId: opId,
      toolName: fc.constantFrom('repo.write_file', 'shell.run'),
      hostDecision: fc.constantFrom('allowed', 'allowed', 'blocked'),
      mutating: fc.boolean(),
      targetPaths: fc.constantFrom(['src/app.ts'], ['src/app.ts', 'src/util.ts'], []),
      operationRecordDigest: fc.constantFrom<string | null>(hex('operation record 1'), null),
    },
    { requiredKeys: ['type', 'operationId', 'toolName', 'hostDecision', 'mutating'] },
  ),
  fc.record(
    {
      type: fc.constant('PostToolUse'),
      operationId: opId,
      outcome: fc.constantFrom('success', 'error'),
      mutatedTargets: fc.constantFrom(['src/app.ts'], ['src/app.ts', 'src/util.ts'], []),
    },
    { requiredKeys: ['type', 'operationId'] },
  ),
  fc.record({
    type: fc.constantFrom('PreCompact', 'Stop', 'TurnError', 'TurnInterrupted', 'UnknownHostEvent'),
  }),
);

const context = fc.option(
  fc.record(
    {
      unresolvedOperation: fc.boolean(),
      observer: fc.constantFrom('hook-event-time', 'host-native-watchdog'),
      taskOperationSetDigest: fc.constantFrom<string | null>(hex('operation set 1'), null),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined, freq: 2 },
);

/** What follows a tool output: the events that acknowledge the continuation, and two that do not. */
const afterOutput = fc.constantFrom<Record<string, unknown>>(
  { type: 'PreCompact' },
  { type: 'UnknownHostEvent' },
  {
    type: 'PreToolUse',
    operationId: 'op-2',
    toolName: 'shell.run',
    hostDecision: 'allowed',
    mutating: false,
  },
  { type: 'PreToolUse', operationId: 'op-2', toolName: 'shell.run', hostDecision: 'blocked', mutating: true },
  { type: 'Stop' },
);

/** A prompt, an allowed tool call and its output (awaiting-continuation), then `next`. */
const awaitingThen = fc
  .tuple(fc.constantFrom('req_1', 'req_2'), fc.constantFrom('success', 'error'), afterOutput)
  .map(([turnKey, outcome, next]) =>
    command(`liveness.event a turn awaiting continuation, then ${JSON.stringify(next)}`, () =>
      [
        { type: 'UserPromptSubmit', turnKey, sessionKey: 'session-1', taskTraceId: 'trace-1' },
        {
          type: 'PreToolUse',
          operationId: 'op-1',
          toolName: 'repo.write_file',
          hostDecision: 'allowed',
          mutating: true,
          targetPaths: ['src/app.ts'],
        },
        { type: 'PostToolUse', operationId: 'op-1', outcome },
        next,
      ].map((event) => ({ method: 'liveness.event', params: { event } })),
    ),
  );

export const livenessExplorer: CapabilityExplorer = {
  name: 'liveness',
  gate: 'TurnLivenessRecoveryGate',
  subject: 'TurnLivenessStateV1',
  spec: 'docs/spec/turn-liveness-recovery-gate.md#state-machine',
  requires: ['liveness', 'clock'],
  setup: (ctx) => [
    { method: 'clock.set', params: { now: iso(ctx.t0) } },
    { method: 'liveness.reset', params: {} },
  ],
  commands: () => [
    fc.tuple(event, at, context).map(([e, s, c]) =>
      command(
        `liveness.event ${e.type}${s === undefined ? '' : ` at T0${s >= 0 ? '+' : ''}${s}s`}`,
        (ctx) => ({
          method: 'liveness.event',
          params: {
            event: { ...e, ...(s === undefined ? {} : { at: iso(ctx.t0 + s * 1000) }) },
            ...(c ? { context: c } : {}),
          },
        }),
      ),
    ),
    fc.tuple(event, at, context).map(([e, s, c]) =>
      command(`liveness.event ${e.type}`, (ctx) => ({
        method: 'liveness.event',
        params: {
          event: { ...e, ...(s === undefined ? {} : { at: iso(ctx.t0 + s * 1000) }) },
          ...(c ? { context: c } : {}),
        },
      })),
    ),
    fc
      .constantFrom('liveness.classify', 'liveness.state', 'liveness.evidence', 'liveness.watchdog')
      .map((method) => command(method, () => ({ method, params: {} }))),
    fc
      .constantFrom<Record<string, unknown>>(
        { kind: 'tool-call', hostDecision: 'allowed' },
        { kind: 'tool-call', hostDecision: 'blocked' },
        { kind: 'user-process' },
        { kind: 'pid', pid: 4242 },
      )
      .map((p) =>
        command(`liveness.lease ${JSON.stringify(p)}`, () => ({ method: 'liveness.lease', params: p })),
      ),
    fc
      .option(
        fc.record(
          {
            suspectAfterMs: fc.constantFrom(60_000, 120_000, 600_000),
            stalledAfterMs: fc.constantFrom(30_000, 300_000, 900_000),
            operationLeaseMs: fc.constantFrom(60_000, 1_800_000),
          },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      )
      .map((t) =>
        command(`liveness.reset ${JSON.stringify(t ?? {})}`, () => ({
          method: 'liveness.reset',
          params: t ? { thresholds: t } : {},
        })),
      ),
    fc.constant(
      command('liveness.rehydrate (the state read back)', () => [
        { method: 'liveness.state', params: {}, capture: { turn: '' } },
        { method: 'liveness.rehydrate', params: { state: { $var: 'turn' } } },
      ]),
    ),
    awaitingThen,
    ...clockCommands(),
  ],
};
