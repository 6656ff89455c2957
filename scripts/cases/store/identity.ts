// Hostile task keys: every store method refuses a key no valid envelope can carry.
import type { TaskKey } from '@agent-contracts/store';
import { def, STATE } from './defs.ts';
import { PROJECT } from './names.ts';
import { event, S1, type Task } from './task.ts';

// Hostile task keys (D-TCW-32): every store method refuses a key no valid envelope can carry
// with LIFECYCLE_TASK_IDENTITY_REQUIRED, on every backend, before storage sees it. The long id is
// 4096 characters (over PostgreSQL's 2704-byte index row limit, a sane size for a case file; the
// store's unit tests use 10 MB).
const identity = (
  name: string,
  title: string,
  run: (t: Task) => Promise<void>,
  anchor = 'commit-algorithm',
) => def('identity', `identity/${name}`, STATE, anchor, title, run);
const A_UUID = '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b6';
const HOSTILE_TASK_IDS: Array<[string, string, string]> = [
  ['sql', 'an SQL fragment', "'; DROP TABLE tasks; --"],
  ['path-traversal', 'a path traversal', '../../etc/passwd'],
  ['proto', '__proto__', '__proto__'],
  ['nul', 'a UUID followed by a NUL character', `${A_UUID}\u0000`],
  ['long', 'a 4096-character string that starts with a UUID', `${A_UUID}${'a'.repeat(4096 - A_UUID.length)}`],
  ['lone-surrogate', 'a UUID ending in a lone UTF-16 surrogate', `${A_UUID.slice(0, -1)}\ud800`],
  ['uppercase', 'an upper-case UUID (taskId is lowercase, D-TCW-19)', A_UUID.toUpperCase()],
];
const HOSTILE_ROOTS: Array<[string, string, string]> = [
  ['path-traversal', 'a path traversal', '../../../../../../../../etc/passwd'],
  ['nul', '63 hex characters and a NUL character', `${PROJECT.slice(0, -1)}\u0000`],
];
/** Every store method on `key`: each refused with LIFECYCLE_TASK_IDENTITY_REQUIRED. */
async function hostileKey(t: Task, key: TaskKey): Promise<void> {
  const code = 'LIFECYCLE_TASK_IDENTITY_REQUIRED';
  const real = t.key;
  const forKey = (request: Record<string, unknown>) => ({ ...request, ...key });
  await t.sc.step(
    'store.transitionOwner',
    { request: forKey(t.ownerRequest('acquire', S1)) },
    { want: code },
  );
  await t.sc.step('store.commitState', { request: forKey(t.stateRequest({ step: 1 })) }, { want: code });
  await t.sc.step(
    'store.commitOperation',
    { request: forKey(t.opRequest(event('prepare'))) },
    { want: code },
  );
  for (const method of ['store.read', 'store.readWriteContext', 'store.replay', 'store.history'])
    await t.sc.step(method, { task: key }, { want: code });
  // The same requests on the well-formed key of the case are served as usual.
  if (real.taskId !== key.taskId || real.projectRootIdentity !== key.projectRootIdentity) await t.read();
}
for (const [name, what, taskId] of HOSTILE_TASK_IDS)
  identity(
    `hostile-task-id/${name}`,
    `a taskId that is ${what}: every store method refuses it with LIFECYCLE_TASK_IDENTITY_REQUIRED and nothing is written`,
    (t) => hostileKey(t, { projectRootIdentity: t.key.projectRootIdentity, taskId }),
  );
for (const [name, what, projectRootIdentity] of HOSTILE_ROOTS)
  identity(
    `hostile-project-root/${name}`,
    `a projectRootIdentity that is ${what}: every store method refuses it with LIFECYCLE_TASK_IDENTITY_REQUIRED and nothing is written`,
    (t) => hostileKey(t, { projectRootIdentity, taskId: t.key.taskId }),
  );
identity(
  'lone-surrogate-context-epoch',
  'acquire with a contextEpoch ending in a lone UTF-16 surrogate (no RFC 8785 digest): FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), contextEpoch: 'epoch-1.\ud800' },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
  },
  'owner-transition-request',
);
identity(
  'lone-surrogate-state',
  'a state commit whose state holds a lone UTF-16 surrogate (no RFC 8785 digest): LIFECYCLE_STATE_SHAPE_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      t.stateRequest({ note: 'half a pair: \udc00' }),
      'LIFECYCLE_STATE_SHAPE_INVALID',
    );
  },
);

identity(
  'malformed-context-epoch-too-long',
  'an owner transition whose contextEpoch has 257 characters: FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID, nothing written',
  async (t) => {
    await t.refused(
      'store.transitionOwner',
      { ...t.ownerRequest('acquire', S1), contextEpoch: 'e'.repeat(257) },
      'FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID',
    );
  },
  'details-of-the-steps',
);
identity(
  'malformed-state-not-an-object',
  'a state commit whose state is an array: LIFECYCLE_STATE_SHAPE_INVALID, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.refused(
      'store.commitState',
      { ...t.stateRequest({}), state: ['not', 'an', 'object'] },
      'LIFECYCLE_STATE_SHAPE_INVALID',
    );
  },
  'details-of-the-steps',
);
