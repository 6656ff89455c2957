// Shared by the rules of the TaskContinuityWriteGate contracts
// (docs/spec/task-continuity-write-gate.md): the spec anchors and the time, order and JSON helpers
// several of them use. Digest fields are recomputed by the DIGEST_RULES (with the spec's codes), not
// by these rules.
import type { TaskRecoveryStateV5 } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import type { ContractDocument } from '../types.js';

export const PAGE = 'docs/spec/task-continuity-write-gate.md';
export const SECTION = {
  envelope: `${PAGE}#taskrecoverystatev5`,
  fence: `${PAGE}#taskrecoverycommitfencev1`,
  lease: `${PAGE}#fencedtaskwriteownerleasev2`,
  ownerTable: `${PAGE}#owner-transition-table`,
  context: `${PAGE}#canonicaltaskwritecontextv1`,
  record: `${PAGE}#taskoperationrecordv1`,
  phaseShape: `${PAGE}#phase-shape`,
  edgeTable: `${PAGE}#operation-edge-table`,
  set: `${PAGE}#taskoperationsetv1`,
  receipt: `${PAGE}#workflowtaskterminalreceiptv1`,
} as const;

/** The instant of an RFC 3339 UTC timestamp as a sortable string (fraction padded to 9 digits). */
export function instant(ts: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(ts);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}` : ts;
}

/** Compare two timestamps by instant: negative, 0 or positive. */
export function compareTime(a: string, b: string): number {
  const x = instant(a);
  const y = instant(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A value as a message shows it. */
export const show = describeValue;

/** Order of JCS keys and of `exactTargets`: UTF-16 code units. */
export function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** For `owner-<op>` kinds: the owner transition; `null` for state and operation kinds. */
export function ownerOperationOf(kind: TaskRecoveryStateV5['commitKind']): string | null {
  return kind.startsWith('owner-') ? kind.slice('owner-'.length) : null;
}

/** Whether a bundle document is a TaskRecoveryStateV5 envelope. */
export const isEnvelope = (d: ContractDocument) => d.schemaVersion === 'TaskRecoveryStateV5';
