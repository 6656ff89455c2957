import { derivedId, digestOf } from '@agent-contracts/digest';
import type { RunStateV1 } from '../contracts/run-state.js';
import type { DigestRule } from '../digest-rules.js';

/** `runId`: `run-` + 24 hex of the digest of `{taskId, startedAt}`. */
export function computeRunId(doc: Pick<RunStateV1, 'taskId' | 'startedAt'>): string {
  return derivedId('run-', { taskId: doc.taskId, startedAt: doc.startedAt }, 24);
}

/** `stateDigest`: digest of the whole document except `stateDigest`. */
export function computeRunStateDigest(
  doc: Omit<RunStateV1, 'stateDigest'> & { stateDigest?: string },
): string {
  const { stateDigest: _omit, ...rest } = doc;
  return digestOf(rest);
}

/** `lastErrorDigest`: digest of `{toolName, errorClass, errorCode}` of a failed call. */
export function computeRunErrorDigest(failure: {
  readonly toolName: string;
  readonly errorClass: string;
  readonly errorCode: string;
}): string {
  return digestOf({
    toolName: failure.toolName,
    errorClass: failure.errorClass,
    errorCode: failure.errorCode,
  });
}

/** Digest rules of this area's contracts. */
export const RUN_STATE_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'RunStateV1',
    pointer: '/runId',
    code: 'RUN_STATE_ID_MISMATCH',
    covers: '`"run-"` + the first 24 hex characters of digestOf(`{taskId, startedAt}`).',
    compute: (document) => [{ pointer: '/runId', expected: computeRunId(document as unknown as RunStateV1) }],
  },
  {
    contract: 'RunStateV1',
    pointer: '/stateDigest',
    code: 'RUN_STATE_DIGEST_MISMATCH',
    covers: 'digestOf(the whole document without the `stateDigest` member).',
    compute: (document) => [
      { pointer: '/stateDigest', expected: computeRunStateDigest(document as unknown as RunStateV1) },
    ],
  },
];
