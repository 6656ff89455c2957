import { getSchema } from '@agent-contracts/schemas';
import { fail, OK, type TaskCheckResult } from './result.js';

/** The pattern of a member of the published TaskRecoveryStateV5 schema (one source for both). */
function schemaPattern(member: 'taskId' | 'projectRootIdentity'): RegExp {
  const properties = getSchema('TaskRecoveryStateV5')?.properties as
    | Record<string, { pattern?: unknown }>
    | undefined;
  const pattern = properties?.[member]?.pattern;
  if (typeof pattern !== 'string') throw new Error(`TaskRecoveryStateV5 has no pattern for ${member}`);
  return new RegExp(pattern);
}

const TASK_ID = schemaPattern('taskId');
const PROJECT_ROOT_IDENTITY = schemaPattern('projectRootIdentity');

/**
 * Step 1 of the commit algorithm for the task key, and the same check for every read: both
 * members present and well-formed as the envelope schema requires them (`taskId` a lowercase
 * UUID, `projectRootIdentity` 64 lowercase hex characters; D-TCW-19), else
 * `LIFECYCLE_TASK_IDENTITY_REQUIRED` (D-TCW-32). A store runs it before touching storage, so no
 * backend ever sees a key that no valid envelope can carry; the message never repeats the value.
 *
 * @example
 * checkTaskKey({ projectRootIdentity: 'a'.repeat(64), taskId: '../../etc/passwd' }).ok; // false
 */
export function checkTaskKey(key: unknown): TaskCheckResult {
  const k = (typeof key === 'object' && key !== null ? key : {}) as Record<string, unknown>;
  const { taskId, projectRootIdentity } = k;
  if (
    typeof taskId !== 'string' ||
    taskId === '' ||
    typeof projectRootIdentity !== 'string' ||
    projectRootIdentity === ''
  )
    return fail(
      'LIFECYCLE_TASK_IDENTITY_REQUIRED',
      'The request lacks taskId or projectRootIdentity; send the full task key.',
    );
  const bad = [
    ...(TASK_ID.test(taskId) ? [] : [`taskId (${describeLength(taskId)}) is not a lowercase UUID`]),
    ...(PROJECT_ROOT_IDENTITY.test(projectRootIdentity)
      ? []
      : [`projectRootIdentity (${describeLength(projectRootIdentity)}) is not 64 lowercase hex characters`]),
  ];
  if (bad.length === 0) return OK;
  return fail(
    'LIFECYCLE_TASK_IDENTITY_REQUIRED',
    `The task key is malformed: ${bad.join(' and ')}; send the key of a task as the store returned it (taskId ${TASK_ID.source}, projectRootIdentity ${PROJECT_ROOT_IDENTITY.source}).`,
  );
}

const describeLength = (s: string) => `${s.length} characters`;
