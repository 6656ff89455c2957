// Exploration of `checkpoint.validate`: evidence items of every kind with matching and
// mismatching event types, both modes and a bogus one, deadlines before and after the clock and
// the evidence, present or missing, with known blocking issues and actions.
import fc from 'fast-check';
import { type CapabilityExplorer, clockCommands, command, iso } from '../command.js';

const HOST_EVENTS = [
  'PostToolUse',
  'PreCompact',
  'PreToolUse',
  'Stop',
  'TurnError',
  'TurnInterrupted',
  'UnknownHostEvent',
  'UserPromptSubmit',
];
const item = fc.oneof(
  fc.record({
    kind: fc.constantFrom('host-event', 'tool-output', 'pre-compact', 'sidecar-observation'),
    eventType: fc.constantFrom(...HOST_EVENTS),
    eventSequence: fc.integer({ min: 0, max: 9 }),
    observedAt: fc.integer({ min: -60, max: 3000 }),
  }),
  fc.record({
    kind: fc.constantFrom('host-terminal-event', 'host-native-terminal-status'),
    eventType: fc.constantFrom('Stop', 'TurnError', 'TurnInterrupted', 'UnknownHostEvent', 'PostToolUse'),
    eventSequence: fc.integer({ min: 0, max: 9 }),
    observedAt: fc.integer({ min: -60, max: 3000 }),
    terminalStatus: fc.constantFrom('completed', 'error', 'interrupted'),
  }),
);

export const checkpointExplorer: CapabilityExplorer = {
  name: 'checkpoint',
  gate: 'TurnLivenessRecoveryGate',
  subject: 'CheckpointValidationResultV1',
  spec: 'docs/spec/turn-liveness-recovery-gate.md#decision-table',
  requires: ['checkpoint', 'clock'],
  setup: (ctx) => [{ method: 'clock.set', params: { now: iso(ctx.t0) } }],
  commands: () => [
    fc
      .record(
        {
          turnKey: fc.constantFrom('req_01', 'req_02'),
          mode: fc.constantFrom('response-time', 'post-execution', 'post-execution', 'bogus'),
          evidence: fc.array(item, { maxLength: 4 }),
          deadline: fc.option(fc.integer({ min: -60, max: 3000 }), { nil: null, freq: 4 }),
          blockingIssues: fc.constantFrom(['task-operation-unsettled'], []),
          requiredActions: fc.constantFrom(['reconcile-operation-before-completion'], []),
        },
        { requiredKeys: ['turnKey', 'mode', 'evidence', 'deadline'] },
      )
      .map(({ deadline, evidence, ...p }) =>
        command(
          `checkpoint.validate ${p.mode} ${evidence.map((e) => e.kind).join(',')}${deadline === null ? '' : ` deadline T0+${deadline}s`}`,
          (ctx) => ({
            method: 'checkpoint.validate',
            params: {
              ...p,
              evidence: evidence.map((e) => ({ ...e, observedAt: iso(ctx.t0 + e.observedAt * 1000) })),
              deadlineAt: deadline === null ? null : iso(ctx.t0 + deadline * 1000),
            },
          }),
        ),
      ),
    ...clockCommands(),
  ],
};
