// Write contexts: the derivation of a CanonicalTaskWriteContextV1.
import { CONTEXT, def } from './defs.ts';
import type { Task } from './task.ts';

// Write contexts.
const context = (name: string, title: string, run: (t: Task) => Promise<void>) =>
  def('write-context', `write-context/${name}`, CONTEXT, 'derivation', title, run);

context(
  'commit-result-equals-readback',
  'the write context of a commit result is the one the store computes from storage now: its contextDigest closes the task',
  async (t) => {
    await t.transition('acquire');
    await t.write('store.commitState', t.stateRequest({ step: 1 }), 'committed', {
      capture: { ctx: '/writeContext/contextDigest', settled: '/writeContext/settledSetDigest' },
      full: true,
    });
    await t.transition('terminal');
  },
);
context(
  'derivation',
  'store.readWriteContext derives every member from the envelope read back, readAt from the clock',
  async (t) => {
    await t.transition('acquire');
    await t.sc.step('clock.advance', { ms: 1500 });
    await t.context();
  },
);
context(
  'missing-task',
  'store.readWriteContext of a task never written: LIFECYCLE_STATE_UNAVAILABLE',
  async (t) => {
    await t.context('', 'LIFECYCLE_STATE_UNAVAILABLE');
  },
);
context(
  'semantic-noop-has-a-fresh-context',
  'a semantic no-op returns the current fence and a write context read at the time of the request',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.sc.step('clock.advance', { ms: 2000 });
    await t.commitState({ step: 1 }, 'semantic-noop');
  },
);
context(
  'clock-backwards',
  'with the clock set back before the last commit, committedAt and readAt never go backwards',
  async (t) => {
    await t.transition('acquire');
    await t.sc.step('clock.set', { now: '2026-11-30T05:00:00.000Z' });
    await t.commitState({ step: 1 });
    await t.context();
  },
);
