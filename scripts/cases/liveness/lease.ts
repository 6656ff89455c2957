// Lease requests (only a host-allowed tool call of the agent is ever leased), and the invariants
// that no edge may break.
import { add } from './defs.ts';
import { ev, post, pre, ups } from './events.ts';
import { LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import type { Session } from './session.ts';
import { started } from './turn.ts';

const leaseCase = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/lease/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'active-lease'),
      requires: LIVE,
    },
    build,
  );
leaseCase(
  'user-process-refused',
  'a lease for a user process is refused with TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.lease({ kind: 'user-process' }).state();
  },
);
leaseCase('pid-refused', 'a lease for a PID is refused with TURN_LEASE_NOT_HOST_ALLOWED', (s) => {
  started(s);
  s.lease({ kind: 'pid', pid: 4242 }).state();
});
leaseCase(
  'blocked-tool-call-refused',
  'a lease for a blocked tool call is refused with TURN_LEASE_NOT_HOST_ALLOWED',
  (s) => {
    started(s);
    s.lease({ kind: 'tool-call', hostDecision: 'blocked' });
  },
);
leaseCase(
  'allowed-tool-call',
  'an allowed tool call may be leased in a running turn, and not while a lease is held',
  (s) => {
    started(s);
    s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
    s.advance(1000).events(pre('op1'));
    s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
  },
);
leaseCase('not-started-or-final', 'no lease before a turn starts or after it ended', (s) => {
  s.set(T0).reset();
  s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
  s.events(ups('req_01'));
  s.advance(1000).events(ev('TurnInterrupted'));
  s.lease({ kind: 'tool-call', hostDecision: 'allowed' });
});

// Invariants that no edge may break.
add(
  {
    id: 'liveness/TurnLivenessStateV1/invariant/tool-output-never-completes',
    title: 'no sequence of tool outputs completes a turn or passes post-execution',
    gate: 'TurnLivenessRecoveryGate',
    subject: 'TurnLivenessStateV1',
    spec: spec(LIVENESS_PAGE, 'state-machine'),
    requires: LIVE,
  },
  (s) => {
    started(s);
    for (const op of ['op1', 'op2', 'op3']) {
      s.advance(1000).events(pre(op));
      s.advance(1000).events(post(op));
      s.advance(1000).events(post(op));
    }
    s.advance(3_000_000).classify();
  },
);
for (const end of ['Stop', 'TurnError', 'TurnInterrupted'] as const) {
  add(
    {
      id: `liveness/TurnLivenessStateV1/invariant/terminal-clears-lease-${end}`,
      title: `${end} while a lease is in flight clears the lease`,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    (s) => {
      started(s);
      s.advance(1000).events(pre('op1'));
      s.advance(1000).events(ev(end));
      s.advance(5_000_000).classify();
    },
  );
}
