import { derivedId, digestOf } from '@agent-contracts/digest';
import type { EvaluationReportV1, EvaluationVersions } from '../contracts/evaluation.js';
import type { DigestRule } from '../digest-rules.js';

type Doc = Record<string, unknown>;
const asDoc = (v: unknown): Doc => (v && typeof v === 'object' ? (v as Doc) : {});

/** `EvaluationTaskSet.taskSetDigest`: digestOf(`taskDigests`), the array as it stands. */
export function computeTaskSetDigest(taskDigests: readonly string[]): string {
  return digestOf(taskDigests);
}

/** `EvaluationRun.versionsDigest`: digestOf(the report's `versions`). */
export function computeVersionsDigest(versions: EvaluationVersions): string {
  return digestOf(versions);
}

/** `EvaluationReportV1.reportId`: `evl-` + 24 hex of digestOf(`{subject, taskSetDigest, versionsDigest}`). */
export function computeEvaluationReportId(
  doc: Pick<EvaluationReportV1, 'subject' | 'taskSet' | 'versions'>,
): string {
  return derivedId(
    'evl-',
    {
      subject: doc.subject,
      taskSetDigest: doc.taskSet.taskSetDigest,
      versionsDigest: computeVersionsDigest(doc.versions),
    },
    24,
  );
}

/** `EvaluationReportV1.reportDigest`: the whole document except `reportDigest`. */
export function computeEvaluationReportDigest(doc: object): string {
  const { reportDigest: _self, ...rest } = doc as Doc;
  return digestOf(rest);
}

/** Digest rules of this area's contracts, in the order a writer computes them. */
export const EVALUATION_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'EvaluationReportV1',
    pointer: '/taskSet/taskSetDigest',
    code: 'EVALUATION_TASK_SET_DIGEST_MISMATCH',
    covers: "digestOf(`taskSet.taskDigests`): the sorted array of the tasks' contract digests.",
    compute: (doc) => {
      const ts = asDoc(asDoc(doc).taskSet);
      const digests = Array.isArray(ts.taskDigests) ? (ts.taskDigests as string[]) : [];
      return [{ pointer: '/taskSet/taskSetDigest', expected: computeTaskSetDigest(digests) }];
    },
  },
  {
    contract: 'EvaluationReportV1',
    pointer: '/reportId',
    code: 'EVALUATION_REPORT_ID_MISMATCH',
    covers:
      '`"evl-"` + the first 24 hex characters of digestOf(`{subject, taskSetDigest: taskSet.taskSetDigest, versionsDigest: digestOf(versions)}`): the same system revision on the same task set and versions.',
    compute: (doc) => [
      {
        pointer: '/reportId',
        expected: computeEvaluationReportId(asDoc(doc) as unknown as EvaluationReportV1),
      },
    ],
  },
  {
    contract: 'EvaluationReportV1',
    pointer: '/reportDigest',
    code: 'EVALUATION_REPORT_DIGEST_MISMATCH',
    covers: 'digestOf(the whole document without `reportDigest`).',
    compute: (doc) => [{ pointer: '/reportDigest', expected: computeEvaluationReportDigest(asDoc(doc)) }],
  },
];
