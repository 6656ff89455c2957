import { add } from './defs.ts';
import { ev } from './events.ts';
import { LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import type { Session } from './session.ts';
import { setupAwaiting, setupLease, setupRunning, started } from './turn.ts';

const boundary = (name: string, title: string, setup: (s: Session) => number, offset: number) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/classify/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'classification'),
      requires: LIVE,
    },
    (s) => {
      const ref = setup(s);
      s.set(ref + offset);
      s.classify();
      s.state(); // classification changes no byte of the state
    },
  );
for (const [offset, what] of [
  [119_999, 'awaiting-continuation / within-grace'],
  [120_000, 'suspect / continuation-grace-expired'],
  [299_999, 'suspect / continuation-grace-expired'],
  [300_000, 'stalled-recoverable / continuation-timeout'],
  [-5000, 'awaiting-continuation / within-grace (clock behind)'],
] as const)
  boundary(
    `awaiting-${offset < 0 ? 'clock-behind' : offset}`,
    `awaiting, out = T, now T${offset < 0 ? '' : '+'}${offset}: ${what}`,
    setupAwaiting,
    offset,
  );
for (const [offset, what] of [
  [1_200_000, 'running / active-operation-lease'],
  [1_799_999, 'running / active-operation-lease'],
  [1_800_000, 'suspect / operation-lease-expired'],
  [2_099_999, 'suspect / operation-lease-expired'],
  [2_100_000, 'stalled-recoverable / operation-lease-expired'],
] as const)
  boundary(`lease-${offset}`, `lease started at T, now T+${offset}: ${what}`, setupLease, offset);
for (const [offset, what] of [
  [300_000, 'running / agent-turn-within-lease'],
  [1_799_999, 'running / agent-turn-within-lease'],
  [1_800_000, 'suspect / agent-turn-lease-expired'],
  [2_099_999, 'suspect / agent-turn-lease-expired'],
  [2_100_000, 'stalled-recoverable / agent-turn-lease-expired'],
] as const)
  boundary(
    `running-${offset}`,
    `running without lease, ev = T, now T+${offset}: ${what}`,
    setupRunning,
    offset,
  );
boundary(
  'idle',
  'an idle state classifies as idle / idle',
  (s) => {
    s.set(T0).reset();
    return T0;
  },
  10_000_000,
);
boundary(
  'terminal',
  'a terminal state classifies as itself / terminal-state, however old',
  (s) => {
    started(s);
    s.advance(1000).events(ev('TurnError'));
    return T0;
  },
  100_000_000,
);
