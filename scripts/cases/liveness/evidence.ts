// Read-only observation and rehydration.
import { add } from './defs.ts';
import { ev } from './events.ts';
import { fixture, fixtureNames, LIVE, LIVENESS_PAGE, spec, T0 } from './names.ts';
import type { Session } from './session.ts';
import { awaiting, setupLease, T1, T2 } from './turn.ts';

const evidenceCase = (name: string, title: string, build: (s: Session) => void) =>
  add(
    {
      id: `liveness/TurnLivenessEvidenceV1/${name}`,
      title,
      gate: 'TurnLivenessRecoveryGate',
      subject: 'TurnLivenessEvidenceV1',
      spec: spec(LIVENESS_PAGE, 'turnlivenessevidencev1'),
      requires: LIVE,
    },
    build,
  );
evidenceCase(
  'stalled-read-only',
  'a sidecar observation of a stalled turn classifies it, emits no card and writes nothing',
  (s) => {
    awaiting(s);
    s.set(T1 + 600_000)
      .evidence()
      .state()
      .evidence();
  },
);
evidenceCase('idle', 'an observation of an idle state', (s) => {
  s.set(T0).reset();
  s.advance(1000).evidence();
});
evidenceCase('lease', 'an observation of a turn with an active lease copies the lease', (s) => {
  setupLease(s);
  s.set(T2 + 60_000).evidence();
});
for (const kind of ['valid', 'invalid'] as const) {
  for (const f of fixtureNames('TurnLivenessStateV1', kind)) {
    const ref = `TurnLivenessStateV1/${kind}/${f}`;
    add(
      {
        id: `liveness/TurnLivenessStateV1/rehydrate/${kind}/${f.slice(0, -5)}`,
        title:
          kind === 'valid'
            ? `rehydrating ${f.slice(0, -5)} validates it and changes nothing`
            : `rehydrating ${f.slice(0, -5)} is refused with TURN_STATE_INVALID; the state is never classified`,
        gate: 'TurnLivenessRecoveryGate',
        subject: 'TurnLivenessStateV1',
        spec: spec(LIVENESS_PAGE, 'rehydration'),
        requires: LIVE,
      },
      (s) => {
        s.set(Date.parse('2026-12-01T00:00:00.000Z')).reset();
        s.rehydrate(fixture(ref), { $fixture: ref });
        s.classify();
        s.evidence();
        if (kind === 'invalid') {
          s.step('liveness.event', { event: ev('UnknownHostEvent') }, { error: 'TURN_STATE_INVALID' });
          s.reset();
        }
      },
    );
  }
}
