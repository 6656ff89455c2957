// @module-tag unit
// The run's provenance (docs/spec/permission-policy-gate.md#how-a-policy-engine-decides): an
// untrusted observation taints the run and is recorded once by its observation id; a session's
// `clear` forgets every run.
import { describe, expect, it } from 'vitest';
import { CLEAN_PROVENANCE, ManualClock, observeUntrusted, PolicySession } from '../../src/index.ts';

const obs = (observationId: string, kind: 'web-page' | 'document' = 'web-page') => ({
  observationId,
  kind,
  origin: `https://${observationId}.example`,
});

describe('policy provenance', () => {
  it('records a repeated observation id once, keeping its first record, and records a new one after it', () => {
    const once = observeUntrusted(CLEAN_PROVENANCE, obs('obs-1'));
    const again = observeUntrusted(once, obs('obs-1', 'document'));
    expect(again).toEqual({ tainted: true, taintSources: [obs('obs-1')] });
    expect(observeUntrusted(again, obs('obs-2'))).toEqual({
      tainted: true,
      taintSources: [obs('obs-1'), obs('obs-2')],
    });
  });

  it('clear forgets the provenance of every run', () => {
    const s = new PolicySession(new ManualClock(0));
    s.observe('run-1', obs('obs-1'));
    s.observe('run-2', obs('obs-2'));
    expect(s.provenance('run-1').tainted).toBe(true);
    s.clear();
    expect(s.provenance('run-1')).toEqual({ tainted: false, taintSources: [] });
    expect(s.provenance('run-2')).toEqual({ tainted: false, taintSources: [] });
    expect(s.observe('run-1', obs('obs-3')).taintSources).toEqual([obs('obs-3')]);
  });
});
