// Edge rows about what the state records: the task operation set digest, artifacts, host errors
// and unknown events, the event time and the thresholds.
import { ev, post, pre, ups } from './events.ts';
import { iso, T0 } from './names.ts';
import { awaiting, edge, started } from './turn.ts';

const setDigest = (n: number) => String(n).repeat(64);
edge(
  'task-operation-set-digest-copied',
  'a supplied taskOperationSetDigest is stored by every processed event, a refused or duplicate one included, and left alone by an event that is only counted',
  (s) => {
    s.set(T0).reset();
    s.event(ups('req_01'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(1) });
    s.advance(1000).event(pre('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(2) });
    // Refused (a lease is in flight), still processed beyond counting.
    s.advance(1000).event(pre('op2', { tool: 'Read', mutating: false }), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(3),
    });
    s.state();
    s.advance(1000).event(post('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(4) });
    // A duplicate result while awaiting continuation.
    s.advance(1000).event(post('op1'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(5) });
    s.state();
    s.advance(1000).event(ev('Stop'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(6) });
    // Only counted in a terminal state: the stored digest stays that of the Stop.
    s.advance(1000).event(pre('op3'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(7) });
    s.state();
  },
);
edge(
  'refused-prompt-copies-task-operation-set-digest',
  'a UserPromptSubmit refused for its turn key or trace id, in idle and while running, still stores the supplied taskOperationSetDigest (TLR-500: every UserPromptSubmit is processed beyond counting)',
  (s) => {
    s.set(T0).reset();
    s.event(ups('bad key!'), { unresolvedOperation: false, taskOperationSetDigest: setDigest(1) });
    s.state();
    s.advance(1000).event(ups('req_01', { taskTraceId: 'bad id!' }), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(2),
    });
    s.state();
    s.advance(1000).event(ups('req_01'), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(3),
    });
    s.advance(1000).event(ups('bad key!'), {
      unresolvedOperation: false,
      taskOperationSetDigest: setDigest(4),
    });
    s.state();
  },
);
edge(
  'read-only-output-adds-no-artifact',
  'the output of a call that is not mutating, with declared target paths and no mutatedTargets, adds nothing to the checkpoint artifacts; a mutating one adds its targets',
  (s) => {
    s.set(T0).reset();
    s.event(ups('req_01'));
    s.advance(1000).event(pre('op1', { tool: 'Read', mutating: false, targets: ['src/app.ts'] }));
    s.advance(1000).event(post('op1', { outcome: 'success' }));
    s.advance(1000).event(pre('op2', { targets: ['src/util.ts'] }));
    s.advance(1000).event(post('op2', { outcome: 'success' }));
    s.state();
  },
);
edge('running-turn-error', 'TurnError ends the turn as error (T host-error)', (s) => {
  started(s);
  s.advance(1000).events(ev('TurnError'));
});
edge(
  'awaiting-turn-interrupted',
  'TurnInterrupted while awaiting ends the turn as interrupted (A)(T host-interrupt)',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('TurnInterrupted'));
  },
);
edge(
  'running-unknown-host-event',
  'UnknownHostEvent in a running turn is counted and keeps it running',
  (s) => {
    started(s);
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
edge(
  'awaiting-unknown-host-event-acknowledges',
  'UnknownHostEvent while awaiting acknowledges continuation',
  (s) => {
    awaiting(s);
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
edge(
  'event-time-behind-is-raised',
  'an event time earlier than lastEventAt is raised to it: time evidence never moves backwards',
  (s) => {
    started(s);
    s.advance(60_000).events(pre('op1'));
    s.events({ ...post('op1'), at: iso(T0 + 10_000) });
    s.classify();
  },
);
edge('event-at-host-time', 'the host event time, not the observer clock, is what the state records', (s) => {
  s.set(T0 + 3_600_000).reset();
  s.events({ ...ups('req_01'), at: iso(T0 + 3_600_000 + 1000) });
  s.events({ ...pre('op1'), at: iso(T0 + 3_600_000 + 2000) });
});
edge(
  'thresholds-normalised-on-reset',
  'threshold overrides are normalised before they are stored (stalledAfterMs raised to suspectAfterMs)',
  (s) => {
    s.set(T0).reset({ suspectAfterMs: 400_000, stalledAfterMs: 200_000, operationLeaseMs: -5 });
    s.events(ups('req_01'));
    s.advance(450_000).classify();
  },
);
