// Recovery cards: at most one per noticeKey, never acting; the page's fault scenarios.
import { add } from './defs.ts';
import { ev, post, pre, ups } from './events.ts';
import { iso, LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import { type Session, wire } from './session.ts';
import { awaiting, setupLease, setupRunning, started, T1, T2 } from './turn.ts';

const cardCase = (name: string, title: string, anchor: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnRecoveryCardV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnRecoveryCardV1',
      spec: spec(LIVENESS_PAGE, anchor),
      requires: LIVE,
    },
    build,
  );
cardCase(
  'no-continuation',
  'no-continuation: classification boundaries, no card without an event, exactly one card on the next event',
  'no-continuation',
  (s) => {
    awaiting(s);
    s.state();
    for (const off of [119_999, 120_000, 299_999, 300_000]) s.set(T1 + off).classify();
    s.state();
    s.set(T1 + 300_000).events(ev('UnknownHostEvent'));
    s.classify();
    s.advance(1000).events(ev('UnknownHostEvent'));
  },
);
cardCase(
  'duplicate-recovery',
  'duplicate-recovery: one card per noticeKey across PreCompact, watchdog and duplicate outputs',
  'duplicate-recovery',
  (s) => {
    awaiting(s);
    s.set(T1 + 300_000);
    // The watchdog classifying the same pre-event state first yields the key; the event then emits none.
    s.watchdog();
    s.events(ev('PreCompact'));
    s.watchdog();
    s.set(T1 + 301_000).events(ev('PreCompact'));
    s.events(post('op1'));
    s.set(T1 + 900_000).events(post('op1'));
  },
);
cardCase(
  'pre-compact-card-once',
  'a stale turn: the first event emits the card and records its key; the turn is then fresh',
  'emission',
  (s) => {
    awaiting(s);
    s.set(T1 + 300_000).events(ev('PreCompact'));
    s.events(ev('PreCompact'));
    s.set(T1 + 301_000).events(ev('PreCompact'));
  },
);
cardCase(
  'watchdog-escalation',
  'the watchdog emits suspect, then stalled-recoverable once, and never re-emits after the clock moves back',
  'emission',
  (s) => {
    awaiting(s);
    s.set(T1 + 60_000).watchdog();
    s.set(T1 + 120_000).watchdog();
    s.set(T1 + 200_000).watchdog();
    s.set(T1 + 300_000).watchdog();
    s.set(T1 + 400_000).watchdog();
    s.set(T1 + 200_000).watchdog();
    s.set(T1 + 200_000).events(ev('UnknownHostEvent'));
  },
);
cardCase(
  'active-lease',
  'active-lease A: a 30-minute lease keeps the turn running; the expired lease card names the operation',
  'active-lease',
  (s) => {
    setupLease(s);
    for (const off of [1_200_000, 1_799_999, 1_800_000, 2_099_999, 2_100_000]) s.set(T2 + off).classify();
    s.set(T2 + 1_800_000).events(ev('UnknownHostEvent'));
  },
);
cardCase(
  'active-lease-agent-turn',
  'active-lease B: an agent turn without tool calls is alive for the lease, then suspect and stalled',
  'active-lease',
  (s) => {
    setupRunning(s);
    for (const off of [300_000, 1_799_999, 1_800_000, 2_100_000]) s.set(T0 + off).classify();
    s.set(T0 + 2_100_000).events(ev('PreCompact'));
  },
);
cardCase(
  'active-lease-blocked',
  'active-lease C: a blocked call leaves inFlightOperation null',
  'active-lease',
  (s) => {
    started(s);
    s.advance(1000).event(pre('op3', { decision: 'blocked' }));
    s.lease({ kind: 'pid', pid: 31337 });
    s.state();
  },
);
cardCase(
  'restart-rehydrate',
  'restart-rehydrate: the persisted state rehydrates unchanged; the next prompt recovers the stale turn with one card',
  'restart-rehydrate',
  (s) => {
    awaiting(s);
    const persisted = s.turn;
    s.step('liveness.state', {}, { result: wire(persisted) }, { persisted: '' });
    s.set(T1 + 600_000).reset();
    s.rehydrate(persisted, { $var: 'persisted' });
    s.evidence();
    s.state();
    s.events(ups('req_02'));
    s.checkpoint({
      turnKey: 'req_02',
      mode: 'post-execution',
      evidence: [],
      deadlineAt: iso(T1 + 600_000 + 2_100_000),
    });
  },
);
