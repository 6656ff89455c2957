// @module-tag integration
// @module-tag slow
// Negative controls: deliberately broken store implementations must FAIL the scenario that
// targets their bug, while the same fake without the bug passes it (so the failure is the bug's).
import { describe, expect, it } from 'vitest';
import { type CaseResult, runFaultMatrix } from '../src/index.js';
import { FAKE, scenarios, target } from './faults-helpers.js';

const pick = (...ids: string[]) => scenarios().filter((s) => ids.includes(s.id));
const run = async (mode: string, ...ids: string[]) => {
  const results = await runFaultMatrix(pick(...ids), target(FAKE(mode)));
  expect(results.map((r) => r.id).sort()).toEqual([...ids].sort());
  return new Map(results.map((r) => [r.id, r] as const));
};
const show = (r: CaseResult | undefined) => `${r?.outcome}: ${r?.detail}`;

const TARGETED = [
  'faults/store/concurrent-writers',
  'faults/store/stale-fence',
  'faults/store/crash-between-dispatch-and-observe',
  'faults/store/kill-after-ack',
  'faults/store/crash-points',
  'faults/store/racing-writers',
];

describe('fault matrix against broken implementations', () => {
  it('the fake without a bug passes the scenarios the broken ones must fail', async () => {
    const r = await run('correct', ...TARGETED);
    for (const id of TARGETED) expect(r.get(id)?.outcome, show(r.get(id))).toBe('pass');
    // A safety net only: six scenarios with real processes, on a machine that may be busy.
  }, 180_000);

  it('a store that ignores fences: lost updates and accepted stale writers are detected', async () => {
    const r = await run('ignore-fences', 'faults/store/concurrent-writers', 'faults/store/stale-fence');
    const cw = r.get('faults/store/concurrent-writers');
    expect(cw?.outcome, show(cw)).toBe('fail');
    expect(cw?.detail).toMatch(/lost-update|winners|acked-not-durable/);
    const sf = r.get('faults/store/stale-fence');
    expect(sf?.outcome, show(sf)).toBe('fail');
    expect(sf?.detail).toMatch(/expected refusal LIFECYCLE_STATE_FENCE_MISMATCH, got committed/);
  }, 60_000);

  it('a store that re-dispatches after a crash: the fake tool counts a second call', async () => {
    const r = await run('redispatch', 'faults/store/crash-between-dispatch-and-observe');
    const x = r.get('faults/store/crash-between-dispatch-and-observe');
    expect(x?.outcome, show(x)).toBe('fail');
    expect(x?.detail).toMatch(/dispatch the operation again/);
  }, 60_000);

  it('a store that acknowledges before the commit is durable: kill -9 after the ack loses it', async () => {
    const r = await run('ack-before-durable', 'faults/store/kill-after-ack');
    const x = r.get('faults/store/kill-after-ack');
    expect(x?.outcome, show(x)).toBe('fail');
    expect(x?.detail).toMatch(/is not durable after SIGKILL/);
  }, 60_000);

  it('a store that acknowledges before the commit is durable fails the crash points', async () => {
    // Which check trips first depends on how far its delayed writes got when it was killed; the
    // commit killed after its "write" is never durable, so the scenario fails whatever the timing.
    const r = await run('ack-before-durable', 'faults/store/crash-points');
    const x = r.get('faults/store/crash-points');
    expect(x?.outcome, show(x)).toBe('fail');
  }, 60_000);

  it('a store that refuses durable commits as READBACK_MISMATCH under contention is caught', async () => {
    const r = await run('readback-mismatch', 'faults/store/racing-writers');
    const x = r.get('faults/store/racing-writers');
    expect(x?.outcome, show(x)).toBe('fail');
    expect(x?.detail).toMatch(
      /^\d+ commits were refused with LIFECYCLE_STATE_READBACK_MISMATCH \(outcome unknown\) while another process committed on top; \d+ of them are durable/,
    );
  }, 60_000);

  it('a store that declares crash points but never dies at them does not conform', async () => {
    const r = await run('crash-points-ignored', 'faults/store/crash-points');
    const x = r.get('faults/store/crash-points');
    expect(x?.outcome, show(x)).toBe('fail');
    expect(x?.detail).toMatch(/answered .* instead of dying at the armed point/);
  }, 60_000);
});
