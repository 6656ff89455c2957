// Fence cases: the commit fence and owner checks of every write, and states kept whole or refused.
import { def, FENCE_C } from './defs.ts';
import { event, FENCE, reach, S1, S2, type Task, v } from './task.ts';

// Fence rules.
export const fence = (
  name: string,
  title: string,
  run: (t: Task) => Promise<void>,
  anchor = 'commit-algorithm',
) => def('fence', `fence/${name}`, FENCE_C, anchor, title, run);

fence(
  'missing-on-new-task-acquire',
  'acquire without expectedFence (null): LIFECYCLE_STATE_FENCE_REQUIRED, also for a first write',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), expectedFence: null },
      'LIFECYCLE_STATE_FENCE_REQUIRED',
    );
  },
);
fence(
  'missing-on-new-task-state',
  'a state commit without expectedFence on a task never written: LIFECYCLE_STATE_FENCE_REQUIRED',
  async (t) => {
    const { expectedFence: _, ...request } = t.stateRequest({ step: 1 });
    await t.refused('store.commitState', request, 'LIFECYCLE_STATE_FENCE_REQUIRED');
  },
);
for (const [name, method] of [
  ['state', 'store.commitState'],
  ['operation', 'store.commitOperation'],
  ['transition', 'store.transitionOwner'],
] as const) {
  fence(
    `missing-on-existing-task-${name}`,
    `${method} without expectedFence on an existing task: LIFECYCLE_STATE_FENCE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      const request =
        name === 'state'
          ? t.stateRequest({ step: 1 })
          : name === 'operation'
            ? t.opRequest(event('prepare'))
            : t.defaultRequest('renew');
      const { expectedFence: _, ...rest } = request;
      await t.refused(
        method,
        name === 'transition' ? { ...rest, expectedFence: null } : rest,
        'LIFECYCLE_STATE_FENCE_REQUIRED',
      );
    },
  );
}
for (const [name, bad] of [
  [
    'wrong-schema-version',
    { schemaVersion: 'TaskRecoveryCommitFenceV0', stateSequence: 1, writerGeneration: 1 },
  ],
  [
    'negative-sequence',
    { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: -1, writerGeneration: 1 },
  ],
  [
    'fractional-generation',
    { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: 1.5 },
  ],
  [
    'negative-generation',
    { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 1, writerGeneration: -1 },
  ],
] as const) {
  fence(
    `malformed-${name}`,
    `a state commit whose expectedFence is not a valid fence (${name}): LIFECYCLE_STATE_FENCE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: 1 }), expectedFence: bad },
        'LIFECYCLE_STATE_FENCE_REQUIRED',
      );
    },
  );
}
for (const force of [false, true]) {
  for (const [name, seq, gen] of [
    ['sequence-minus-one', 1, 1],
    ['sequence-plus-one', 3, 1],
    ['generation-minus-one', 2, 0],
    ['generation-plus-one', 2, 2],
  ] as const) {
    fence(
      `stale/${name}${force ? '-with-force' : ''}`,
      `a state commit with fence (${seq}, ${gen}) on (2, 1)${force ? ' and force: true' : ''}: LIFECYCLE_STATE_FENCE_MISMATCH carrying the current fence, nothing written; retried with that fence it commits`,
      async (t) => {
        await t.transition('acquire');
        await t.commitState({ step: 1 });
        await t.refused(
          'store.commitState',
          {
            ...t.stateRequest({ step: 2 }, S1, force ? { force: true } : {}),
            expectedFence: FENCE(seq, gen),
          },
          'LIFECYCLE_STATE_FENCE_MISMATCH',
          { current: '/currentFence' },
        );
        await t.history();
        await t.write(
          'store.commitState',
          { ...t.stateRequest({ step: 2 }, S1, force ? { force: true } : {}), expectedFence: v('current') },
          'committed',
        );
      },
    );
  }
}
/** A 16 KiB state with nesting, long strings and arrays: kept whole or refused, never cut. */
const LARGE_STATE = {
  step: 1,
  notes: Array.from({ length: 64 }, (_, i) => `note ${i}: ${'x'.repeat(200)}`),
  nested: { level1: { level2: { level3: { text: 'y'.repeat(2048), list: [1, 2, 3, { deep: true }] } } } },
};
fence(
  'large-state-kept-whole',
  'a 16 KiB state with nesting is committed and read back whole: never truncated, compacted or dropped in part',
  async (t) => {
    await t.transition('acquire');
    await t.commitState(LARGE_STATE);
    await t.read({ full: true });
  },
  'operation-events',
);
fence(
  'unchanged-state-is-a-semantic-noop',
  'a state commit with the current fence and unchanged state: semantic-noop, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.commitState({ step: 1 }, 'semantic-noop');
    await t.history();
  },
);
fence(
  'force-writes-unchanged-state',
  'force: true with the current fence writes an unchanged state as a new envelope and bypasses no check',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.commitState({ step: 1 }, 'committed', { force: true });
    await t.history();
  },
);
fence(
  'force-bypasses-no-owner-check',
  'force: true by a session that is not the holder: TASK_WRITE_OWNER_SESSION_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      t.stateRequest({ step: 1 }, S2, { force: true }),
      'TASK_WRITE_OWNER_SESSION_MISMATCH',
    );
  },
);
fence(
  'generation-changes-only-with-owner-transitions',
  'writerGeneration moves by exactly the delta of each owner row (release, reacquire, prepares, terminal, reopen +1; renew and accepts 0) and never on state or operation commits',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 1 });
    await t.operation(event('prepare'));
    await t.operation(event('abort'));
    await t.transition('renew');
    await t.transition('release');
    await t.transition('reacquire');
    await t.write('store.commitState', t.stateRequest({ step: 2 }, S2), 'committed');
    await t.write(
      'store.transitionOwner',
      t.ownerRequest('handoff-prepare', S2, { targetSessionDigest: S1.digest }),
      'committed',
    );
    await t.write(
      'store.transitionOwner',
      t.ownerRequest('handoff-accept', S1, { handoffRefDigest: v('href') }),
      'committed',
    );
    await t.history();
  },
);
fence(
  'next-generation-without-transition',
  'a state commit that claims the next writerGeneration without an owner transition: LIFECYCLE_STATE_FENCE_MISMATCH; the generation stays',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 1 }), expectedFence: FENCE(1, 2) },
      'LIFECYCLE_STATE_FENCE_MISMATCH',
    );
    await t.history();
  },
);
fence(
  'task-identity-required',
  'a commit without taskId: LIFECYCLE_TASK_IDENTITY_REQUIRED',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({ step: 1 }), taskId: '' },
      'LIFECYCLE_TASK_IDENTITY_REQUIRED',
    );
  },
  'store-operations',
);
fence(
  'read-identity-required',
  'store.read without projectRootIdentity: LIFECYCLE_TASK_IDENTITY_REQUIRED',
  async (t) => {
    await t.sc.step(
      'store.read',
      { task: { ...t.key, projectRootIdentity: '' } },
      { want: 'LIFECYCLE_TASK_IDENTITY_REQUIRED' },
    );
  },
  'store-operations',
);
fence(
  'state-write-on-a-task-never-written',
  'a state commit with fence (0, 0) and the absent owner ref on a task never written: TASK_WRITE_OWNER_MISSING (step 7: no active holder), nothing written',
  async (t) => {
    await t.refused('store.commitState', t.stateRequest({ step: 1 }), 'TASK_WRITE_OWNER_MISSING');
  },
  'details-of-the-steps',
);
fence(
  'state-write-needs-active-lease',
  'a state commit on a released lease: TASK_WRITE_OWNER_MISSING',
  async (t) => {
    await reach(t, 'released');
    await t.refused('store.commitState', t.stateRequest({ step: 1 }), 'TASK_WRITE_OWNER_MISSING');
  },
);
