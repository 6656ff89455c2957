// The turn state machine's edge rows (`edge`) and the setups the other liveness cases start from.
import { add } from './defs.ts';
import { post, pre, ups } from './events.ts';
import { LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import type { Session } from './session.ts';

export const edge = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessStateV1/edge/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessStateV1',
      spec: spec(LIVENESS_PAGE, 'state-machine'),
      requires: LIVE,
    },
    build,
  );

/** Start the turn `req_01` at T0 from a fresh idle state. */
export const started = (s: Session) => {
  s.set(T0).reset();
  s.events(ups('req_01'));
};
/** Started, then an allowed lease `op1` at +1 s and its output at +2 s: awaiting-continuation. */
export const awaiting = (s: Session, targets?: string[]) => {
  started(s);
  s.advance(1000).events(pre('op1', targets ? { targets } : {}));
  s.advance(1000).events(post('op1'));
};
export const setupAwaiting = (s: Session) => {
  awaiting(s);
  return T0 + 2000;
};
export const setupLease = (s: Session) => {
  started(s);
  s.advance(10_000).events(pre('op2', { targets: ['src/app.ts'] }));
  return T0 + 10_000;
};
export const setupRunning = (s: Session) => {
  started(s);
  return T0;
};
/** When the output of `awaiting` arrives: continuation is awaited from here. */
export const T1 = T0 + 2000;
/** When the lease of `setupLease` starts. */
export const T2 = T0 + 10_000;
