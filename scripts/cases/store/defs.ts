// The case registry: every case module adds its cases here, in the order the files list them.
import type { Task } from './task.ts';

interface Def {
  readonly file: string;
  readonly id: string;
  readonly title: string;
  readonly subject: string;
  readonly anchor: string;
  readonly run: (t: Task) => Promise<void>;
}
export const defs: Def[] = [];
export const def = (
  file: string,
  id: string,
  subject: string,
  anchor: string,
  title: string,
  run: (t: Task) => Promise<void>,
) => defs.push({ file, id: `store/${id}`, title, subject, anchor, run });

export const LEASE = 'FencedTaskWriteOwnerLeaseV2';
export const RECORD = 'TaskOperationRecordV1';
export const FENCE_C = 'TaskRecoveryCommitFenceV1';
export const STATE = 'TaskRecoveryStateV5';
export const RECEIPT = 'WorkflowTaskTerminalReceiptV1';
export const CONTEXT = 'CanonicalTaskWriteContextV1';
