import { derivedId, digestOf } from '@agent-contracts/digest';
import type { TaskContractV1, ToolContractV1 } from '../contracts/task-contract.js';
import type { DigestRule } from '../digest-rules.js';

type Doc = Record<string, unknown>;
const asDoc = (v: unknown): Doc => (v && typeof v === 'object' ? (v as Doc) : {});

/** `TaskContractV1.taskId`: `ttc-` + 24 hex of the digest of `{subject: {system}, taskName}`. */
export function computeTaskId(doc: Pick<TaskContractV1, 'subject' | 'taskName'>): string {
  return derivedId('ttc-', { subject: { system: doc.subject.system }, taskName: doc.taskName }, 24);
}

/** `TaskContractV1.contractDigest` and `ToolContractV1.contractDigest`: the document without `contractDigest`. */
export function computeContractDigest(doc: object): string {
  const { contractDigest: _self, ...rest } = doc as Doc;
  return digestOf(rest);
}

/** `ToolContractV1.toolContractId`: `tool-` + 24 hex of the digest of `{toolName, toolVersion}`. */
export function computeToolContractId(doc: Pick<ToolContractV1, 'toolName' | 'toolVersion'>): string {
  return derivedId('tool-', { toolName: doc.toolName, toolVersion: doc.toolVersion }, 24);
}

/** Digest rules of this area's contracts. */
export const TASK_CONTRACT_DIGEST_RULES: readonly DigestRule[] = [
  {
    contract: 'TaskContractV1',
    pointer: '/taskId',
    code: 'TASK_CONTRACT_ID_MISMATCH',
    covers:
      '`"ttc-"` + the first 24 hex characters of digestOf(`{subject: {system: subject.system}, taskName}`); `subject.revision` is excluded so the id is stable across revisions.',
    compute: (doc) => {
      const d = asDoc(doc) as unknown as TaskContractV1;
      return [
        {
          pointer: '/taskId',
          expected: computeTaskId({ subject: asDoc(d.subject) as never, taskName: d.taskName }),
        },
      ];
    },
  },
  {
    contract: 'TaskContractV1',
    pointer: '/contractDigest',
    code: 'TASK_CONTRACT_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without `contractDigest`): schemaVersion, taskId, subject, taskName, goal, completionCriteria, constraints and createdAt.',
    compute: (doc) => [{ pointer: '/contractDigest', expected: computeContractDigest(asDoc(doc)) }],
  },
  {
    contract: 'ToolContractV1',
    pointer: '/toolContractId',
    code: 'TOOL_CONTRACT_ID_MISMATCH',
    covers: '`"tool-"` + the first 24 hex characters of digestOf(`{toolName, toolVersion}`).',
    compute: (doc) => {
      const d = asDoc(doc);
      return [
        {
          pointer: '/toolContractId',
          expected: computeToolContractId({
            toolName: String(d.toolName),
            toolVersion: String(d.toolVersion),
          }),
        },
      ];
    },
  },
  {
    contract: 'ToolContractV1',
    pointer: '/contractDigest',
    code: 'TOOL_CONTRACT_DIGEST_MISMATCH',
    covers:
      'digestOf(the whole document without `contractDigest`): every other member, the embedded input and output schemas included.',
    compute: (doc) => [{ pointer: '/contractDigest', expected: computeContractDigest(asDoc(doc)) }],
  },
];
