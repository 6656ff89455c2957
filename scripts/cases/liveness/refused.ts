// Events refused and only counted: before any turn, after a terminal one, and turn keys or trace
// ids the state machine does not accept.
import { add } from './defs.ts';
import { ev, post, pre, ups, type WireEvent } from './events.ts';
import { LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import { started } from './turn.ts';

const OTHER_EVENTS: WireEvent[] = [
  pre('op1'),
  post('op1'),
  ev('PreCompact'),
  ev('Stop'),
  ev('TurnError'),
  ev('TurnInterrupted'),
  ev('UnknownHostEvent'),
];
for (const e of OTHER_EVENTS) {
  add(
    {
      id: `liveness/TurnLivenessStateV1/refused/idle-${e.type}`,
      title: `${e.type} before any turn is refused with TURN_NOT_STARTED and only counted`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      s.set(T0).reset();
      s.advance(1000).event(e);
      s.state().classify();
    },
  );
  add(
    {
      id: `liveness/TurnLivenessStateV1/refused/terminal-${e.type}`,
      title: `${e.type} after the turn completed is refused with TURN_TERMINAL_FINAL and only counted`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      started(s);
      s.advance(1000).events(ev('Stop'));
      s.advance(1000).event(e);
      s.state();
    },
  );
}
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-reused-current',
    title: "a new prompt reusing the current turn's key is refused with TURN_KEY_REUSED",
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).event(ups('req_01'));
    s.state();
  },
);
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-reused-previous',
    title: "a new prompt reusing the previous turn's key is refused with TURN_KEY_REUSED",
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).events(ups('req_02'));
    s.advance(1000).event(ups('req_01'));
    s.state();
  },
);

add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/turn-key-invalid',
    title: 'a new prompt whose host turn key is outside the turn key format is refused with TURN_KEY_INVALID',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).event(ups('user@example.com'));
    s.state();
  },
);
add(
  {
    id: 'liveness/TurnLivenessStateV1/refused/trace-id-invalid',
    title: 'a new prompt whose task trace id is outside the key format is refused with TURN_TRACE_ID_INVALID',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'identity-and-digests-1'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    s.advance(1000).events(ev('Stop'));
    s.advance(1000).event(ups('req_02', { taskTraceId: 'trace/../1' }));
    s.state();
  },
);
