// The trace recorder: open, append and close rules and their refusals, and the invalid stored
// traces.
import type { TraceAppendInput } from '@agent-contracts/engines';
import { fixture, fixtureNames } from './names.ts';
import { hostAppend, opened, TRACE_T0, traceCase } from './trace-kit.ts';

traceCase(
  'open/new-trace',
  'open writes a new, empty trace with a derived traceId',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceCurrent();
  },
);
traceCase('open/explicit-opened-at', 'open with the turn start time', 'recorder-operations', (s) => {
  s.set(TRACE_T0).traceLoad(null);
  s.traceOpen({ turnKey: 'turn-01', openedAt: '2026-11-30T05:50:00.000Z' });
});
traceCase(
  'open/redelivered-start',
  'a re-delivered turn start returns the current trace unchanged (O1)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.traceOpen({ turnKey: 'turn-01' });
  },
);
for (const [name, input] of [
  ['turn-key-malformed', { turnKey: 'turn 01/bad' }],
  ['turn-key-empty', { turnKey: '' }],
  ['opened-at-malformed', { turnKey: 'turn-01', openedAt: '30/11/2026 05:53' }],
  ['opened-at-offset', { turnKey: 'turn-01', openedAt: '2026-11-30T06:53:08+01:00' }],
] as const)
  traceCase(
    `open/refused-${name}`,
    `open without a valid identity is refused with TRACE_NOT_FOUND (${name})`,
    'recorder-operations',
    (s) => {
      s.set(TRACE_T0).traceLoad(null);
      s.traceOpen(input);
      s.traceCurrent();
    },
  );
for (const reason of ['superseded-by-new-prompt', 'stale-turn-recovered-by-new-prompt'] as const)
  traceCase(
    `open/next-turn-closes-open-trace-${reason}`,
    `open for the next turn closes the open trace with TurnTerminal interrupted (${reason}) first (O2)`,
    'recorder-operations',
    (s) => {
      opened(s);
      s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceOpen({ turnKey: 'turn-02', previousTurnEndReason: reason });
    },
  );
traceCase(
  'open/next-turn-after-complete',
  'open for the next turn replaces a closed trace as it is',
  'state-machine',
  (s) => {
    opened(s);
    s.advance(1000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceClose('complete', 'host-stop');
    s.advance(1000).traceOpen({ turnKey: 'turn-02' });
  },
);
traceCase(
  'open/next-turn-over-invalid-trace',
  'open for the next turn leaves an invalid current trace as it is',
  'recorder-operations',
  (s) => {
    const ref = 'LocalTaskTraceV1/invalid/terminal-not-last.json';
    s.set(TRACE_T0 + 3_600_000).traceLoad(fixture(ref), { $fixture: ref });
    s.traceOpen({ turnKey: 'turn-02' });
  },
);

traceCase(
  'append/three-event-turn-complete',
  'a three-event turn closed by TurnTerminal complete',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1500).traceAppend(
      hostAppend('PreToolUse', 'toolu_01', { toolCallId: 'toolu_01', toolName: 'Read' }),
    );
    s.advance(1500).traceAppend({
      type: 'ToolLeaseStarted',
      result: 'allowed',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', toolName: 'Read' },
    });
    s.advance(1500).traceAppend(
      hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01', toolName: 'Read' }),
    );
    s.advance(10).traceAppend({
      type: 'ToolLeaseCompleted',
      result: 'success',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', toolName: 'Read', artifactPaths: [] },
    });
    s.advance(2000).traceAppend(hostAppend('Stop', 'host-seq-2'));
    s.traceClose('complete', 'host-stop');
    s.traceReplay();
  },
);
for (const [result, reason] of [
  ['failed', 'host-error'],
  ['interrupted', 'host-interrupt'],
] as const)
  traceCase(
    `append/close-${result}`,
    `close with ${result} (${reason}) sets status and completedAt`,
    'state-machine',
    (s) => {
      opened(s);
      s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceClose(result, reason);
    },
  );
traceCase(
  'append/no-trace',
  'append with no trace is refused with TRACE_NOT_FOUND (A1)',
  'recorder-operations',
  (s) => {
    s.set(TRACE_T0).traceLoad(null);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.traceClose('complete', 'host-stop');
    s.traceReplay();
  },
);
traceCase(
  'append/after-terminal',
  'append after the terminal event is refused with TRACE_TERMINAL_INVALID (A3); the trace is unchanged',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceClose('complete', 'host-stop');
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_late', { toolCallId: 'toolu_late' }));
    s.traceClose('failed', 'host-error');
    s.traceCurrent();
  },
);
traceCase(
  'append/duplicate-delivery',
  'a re-delivered occurrence is refused with TRACE_DUPLICATE_EVENT (A7); the existing event stands',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01' }));
    s.advance(1000).traceAppend(
      hostAppend('PostToolUse', 'toolu_01', { toolCallId: 'toolu_01', again: true }),
    );
    s.traceAppend({
      type: 'ToolLeaseResultDeferred',
      result: 'duplicate',
      occurrenceKey: 'toolu_01',
      payload: { toolCallId: 'toolu_01', reason: 'duplicate' },
    });
    s.traceCurrent();
  },
);
traceCase(
  'append/expected-sequence',
  'expectedSequence must be sequence + 1 (A4)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend({ ...hostAppend('UserPromptSubmit', 'host-seq-1'), expectedSequence: 1 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 3 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 1 });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), expectedSequence: 2 });
  },
);
for (const [name, input, code] of [
  [
    'terminal-result-on-post-tool-use',
    { type: 'PostToolUse', result: 'complete', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'turn-terminal-with-observed',
    { type: 'TurnTerminal', result: 'observed', occurrenceKey: 'turn-terminal', payload: {} },
    'A5',
  ],
  [
    'type-outside-enumeration',
    { type: 'pre_tool_use', result: 'observed', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'result-outside-vocabulary',
    { type: 'PreToolUse', result: 'ok', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'result-of-another-type',
    { type: 'ToolLeaseStarted', result: 'success', occurrenceKey: 'toolu_01', payload: {} },
    'A5',
  ],
  [
    'occurrence-key-malformed',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: '-toolu 01', payload: {} },
    'A5',
  ],
  [
    'payload-not-object',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: 'toolu_01', payload: 'rm -rf /' },
    'A5',
  ],
  [
    'payload-array',
    { type: 'PreToolUse', result: 'observed', occurrenceKey: 'toolu_01', payload: ['a'] },
    'A5',
  ],
  [
    'payload-over-32-keys',
    {
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: 'toolu_01',
      payload: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])),
    },
    'A5',
  ],
  [
    'payload-over-8192-bytes',
    {
      type: 'PreToolUse',
      result: 'observed',
      occurrenceKey: 'toolu_01',
      payload: { blob: 'x'.repeat(8182) },
    },
    'A6',
  ],
] as const)
  traceCase(
    `append/refused-${name}`,
    `append refused at ${code}: ${name}; nothing is written`,
    'recorder-operations',
    (s) => {
      opened(s);
      s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
      s.advance(1000).traceAppend(input as TraceAppendInput);
      s.traceCurrent();
    },
  );
traceCase(
  'append/payload-8192-bytes-accepted',
  'a payload of exactly 8192 JCS bytes is accepted',
  'limits',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('PreToolUse', 'toolu_01', { blob: 'x'.repeat(8181) }), 'brief');
  },
);
traceCase(
  'append/clock-step-back-clamped',
  'a clock that steps back is clamped to the last event time (A8)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.advance(5000).traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(-60_000).traceAppend(hostAppend('PreCompact', 'host-seq-2'));
    s.advance(120_000).traceAppend(hostAppend('UnknownHostEvent', 'host-seq-3'));
  },
);
traceCase(
  'append/observed-at-given',
  'a given observedAt is used; earlier than the last event or malformed is TRACE_SEQUENCE_INVALID (A8)',
  'recorder-operations',
  (s) => {
    opened(s);
    s.traceAppend({
      ...hostAppend('UserPromptSubmit', 'host-seq-1'),
      observedAt: '2026-11-30T05:53:09.000Z',
    });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: '2026-11-30T05:53:08.999Z' });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: 'yesterday' });
    s.traceAppend({ ...hostAppend('PreCompact', 'host-seq-2'), observedAt: '2026-11-30T05:53:09.000Z' });
  },
);
traceCase(
  'append/tool-result-never-closes',
  'PostToolUse and ToolLeaseCompleted never close the trace',
  'enumerations',
  (s) => {
    opened(s);
    s.traceAppend(hostAppend('UserPromptSubmit', 'host-seq-1'));
    s.advance(1000).traceAppend(hostAppend('PostToolUse', 'toolu_01'));
    s.traceAppend({ type: 'ToolLeaseCompleted', result: 'error', occurrenceKey: 'toolu_01', payload: {} });
    s.traceReplay();
  },
);
for (const f of fixtureNames('LocalTaskTraceV1', 'invalid')) {
  const ref = `LocalTaskTraceV1/invalid/${f}`;
  traceCase(
    `append/refused-invalid-stored/${f.slice(0, -5)}`,
    `append to the invalid stored trace ${f.slice(0, -5)} is refused with its verdict (A2); replay copies nothing`,
    'recorder-operations',
    (s) => {
      s.set(Date.parse('2026-12-01T00:00:00.000Z')).traceLoad(fixture(ref), { $fixture: ref });
      s.traceAppend(hostAppend('UnknownHostEvent', 'host-seq-999'));
      s.traceReplay();
    },
  );
}
