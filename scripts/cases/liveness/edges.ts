// Edge rows of the turn state machine, accepted and refused: prompts, tool calls and their
// outputs, compaction and Stop.
import { ev, post, pre, ups } from './events.ts';
import { T0 } from './names.ts';
import { awaiting, edge, started } from './turn.ts';

edge(
  'idle-user-prompt-submit',
  'idle + UserPromptSubmit starts a turn (S): running, checkpoint turn-started',
  (s) => {
    started(s);
    s.classify();
  },
);
edge(
  'idle-user-prompt-submit-derived-key',
  'a host without turn ids gets a turn key derived from the session key',
  (s) => {
    s.set(T0).reset();
    s.events({ type: 'UserPromptSubmit', sessionKey: 'sess_7f3a' });
  },
);
edge(
  'running-user-prompt-submit-supersedes',
  'a new prompt over a running turn ends it as interrupted / superseded-by-new-prompt',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(4000).events(ups('req_02'));
  },
);
edge(
  'awaiting-user-prompt-submit-recovers-stale-turn',
  'a new prompt over a stale awaiting turn emits one card and ends it as stale-turn-recovered-by-new-prompt',
  (s) => {
    awaiting(s);
    s.advance(600_000).events(ups('req_02'));
  },
);
for (const [end, status] of [
  ['Stop', 'completed'],
  ['TurnError', 'error'],
  ['TurnInterrupted', 'interrupted'],
] as const) {
  edge(
    `${status}-user-prompt-submit`,
    `a new prompt after a ${status} turn records it as previousTurn and starts the next`,
    (s) => {
      started(s);
      s.advance(3000).events(ev(end));
      s.advance(3000).events(ups('req_02'));
    },
  );
}
edge(
  'running-pre-tool-use-allowed-leases',
  'an allowed PreToolUse in a running turn gets the agent-owned lease (L)',
  (s) => {
    started(s);
    s.advance(1000).events({
      ...pre('op1', { targets: ['src/app.ts', 'src/app.ts', 'README.md'] }),
      operationRecordDigest: 'a'.repeat(64),
    });
  },
);
edge(
  'awaiting-pre-tool-use-allowed-acknowledges',
  'an allowed PreToolUse while awaiting acknowledges continuation and leases (A)(L)',
  (s) => {
    awaiting(s);
    s.advance(5000).events(pre('op2', { tool: 'Bash', mutating: false }));
  },
);
edge(
  'running-pre-tool-use-lease-held',
  'a second allowed call while a lease is in flight gets no lease: TURN_OPERATION_LEASE_HELD',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).event(pre('op2', { tool: 'Read', mutating: false }));
    s.state();
  },
);
edge(
  'running-pre-tool-use-blocked',
  'a blocked PreToolUse gets no lease and leaves the checkpoint: TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.advance(1000).event(pre('op1', { decision: 'blocked' }));
    s.state();
  },
);
edge(
  'awaiting-pre-tool-use-blocked-acknowledges',
  'a blocked PreToolUse while awaiting acknowledges continuation, without a lease',
  (s) => {
    awaiting(s);
    s.advance(1000).event(pre('op2', { decision: 'blocked' }));
    s.state();
  },
);
edge(
  'running-post-tool-use-success',
  'the PostToolUse of the lease moves to awaiting-continuation (tool-output-persisted, targets as artifacts)',
  (s) => {
    awaiting(s, ['src/app.ts', 'src/lib.ts']);
    s.classify();
  },
);
edge('running-post-tool-use-error', 'an error output writes phase tool-error-observed', (s) => {
  started(s);
  s.advance(1000).events(pre('op1', { tool: 'Bash', mutating: false }));
  s.advance(1000).events(post('op1', { outcome: 'error' }));
});
edge(
  'running-post-tool-use-mutated-targets',
  'the targets the call changed are appended to the checkpoint artifacts',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1', { targets: ['src/a.ts'] }));
    s.advance(1000).events(post('op1', { mutatedTargets: ['src/a.ts', 'src/b.ts'] }));
  },
);
edge(
  'awaiting-post-tool-use-duplicate',
  'a re-delivered PostToolUse moves eventSequence only (awaiting)',
  (s) => {
    awaiting(s);
    s.advance(30_000).events(post('op1'));
    s.advance(30_000).events(post('op1'));
  },
);
edge(
  'running-post-tool-use-duplicate',
  'a re-delivered PostToolUse after the agent continued moves eventSequence only (running)',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('PreCompact'));
    s.advance(1000).events(post('op1'));
  },
);
edge(
  'running-post-tool-use-unmatched',
  'a PostToolUse naming neither the lease nor the last output: TURN_TOOL_OUTPUT_UNMATCHED, lease untouched',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).event(post('op9'));
    s.state();
  },
);
edge(
  'awaiting-post-tool-use-unmatched',
  'an unmatched PostToolUse while awaiting is refused and changes nothing else',
  (s) => {
    awaiting(s);
    s.advance(1000).event(post('op9'));
    s.state();
  },
);
edge(
  'running-pre-compact',
  'PreCompact in a running turn writes phase pre-compact; it is not terminal evidence',
  (s) => {
    started(s);
    s.advance(1000).events(ev('PreCompact'));
  },
);
edge(
  'running-pre-compact-keeps-lease',
  'PreCompact while a lease is in flight keeps the lease and names its operation',
  (s) => {
    started(s);
    s.advance(1000).events(pre('op1'));
    s.advance(1000).events(ev('PreCompact'));
  },
);
edge('awaiting-pre-compact-acknowledges', 'PreCompact while awaiting acknowledges continuation (A)', (s) => {
  awaiting(s);
  s.advance(1000).events(ev('PreCompact'));
});
edge(
  'running-stop-completes',
  'Stop with settled operations completes the turn (T host-stop); post-execution passes',
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.classify();
  },
);
edge('awaiting-stop-completes', 'Stop while awaiting acknowledges and completes the turn', (s) => {
  awaiting(s);
  s.advance(1000).events(ev('Stop'));
});
edge(
  'stop-operations-unsettled',
  'Stop while the task has an unresolved operation: TURN_TERMINAL_OPERATIONS_UNSETTLED, post-execution blocked; a later Stop completes',
  (s) => {
    awaiting(s);
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: true });
    s.state();
    s.advance(1000).event(ev('UnknownHostEvent'), { unresolvedOperation: true });
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: false });
  },
);
/** A `settledSetDigest` the host read before event `n` (1 to 9). */
