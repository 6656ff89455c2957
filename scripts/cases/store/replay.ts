// Replays and reads write nothing.
import { def, STATE } from './defs.ts';
import { reachPhase, S1, type Task } from './task.ts';

// Replays and reads write nothing.
const replay = (name: string, title: string, run: (t: Task) => Promise<void>, anchor = 'store-operations') =>
  def('replay', `replay/${name}`, STATE, anchor, title, run);

replay(
  'replay-writes-nothing',
  'store.replay returns the verified history and the current write context and writes nothing: history identical before and after, and the fence and owner ref read before it still commit',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await reachPhase(t, 'observed');
    await t.history(true);
    await t.sc.step('store.replay', { task: t.key });
    await t.sc.step('store.replay', { task: t.key });
    await t.history(true);
    await t.commitState({ step: 2 });
  },
);
replay(
  'reads-write-nothing',
  'store.read, store.readWriteContext and store.history change nothing: the history is identical and the fence read first still commits',
  async (t) => {
    await t.transition('acquire');
    await t.history(true);
    await t.context();
    await t.sc.step('store.read', { task: t.key }, { want: 'found' });
    await t.context();
    await t.history(true);
    await t.commitState({ step: 1 });
  },
);
replay(
  'missing-task',
  'a task never written: read is missing with fence (0, 0), history is empty, replay is empty with fence (0, 0) and no write context',
  async (t) => {
    await t.read();
    await t.history();
    await t.sc.step('store.replay', { task: t.key });
  },
);
replay(
  'owner-replay-before-fence',
  'an exact owner transition replay is recognised before the fence: the retry carries its original fence and is replayed, while a different request with that fence is refused',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'before' });
    const request = t.ownerRequest('renew', S1, {}, 'before');
    await t.write('store.transitionOwner', request, 'committed');
    await t.sc.step('store.transitionOwner', { request }, { want: 'replayed' });
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('release', S1, {}, 'before'),
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
  },
  'replay-and-duplicates',
);
replay(
  'only-the-latest-transition-replays',
  'a retry of an older owner transition is refused at the fence, not replayed',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'first' });
    const renew = t.ownerRequest('renew', S1, {}, 'first');
    await t.write('store.transitionOwner', renew, 'committed');
    await t.transition('renew');
    await t.refused('store.transitionOwner', renew, 'LIFECYCLE_STATE_FENCE_MISMATCH');
  },
  'replay-and-duplicates',
);
