// Semantic rules of WorkflowTaskTerminalReceiptV1
// (docs/spec/task-continuity-write-gate.md#workflowtaskterminalreceiptv1), whose invariants are
// also judged on the receipt a TaskRecoveryStateV5 embeds (envelope.ts).
import type { WorkflowTaskTerminalReceiptV1 } from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { SECTION, show } from './shared.js';

/** The four evidence roles, in their required (sorted) order. */
export const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;

/** Receipt invariant 2 on the receipt at `base`: the generations of the closeout. */
export function receiptGenerations(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  if (r.terminalGeneration !== r.ownerGeneration + 1) {
    report(
      `${base}/terminalGeneration`,
      `terminalGeneration is ${r.terminalGeneration} but must be ownerGeneration + 1 = ${r.ownerGeneration + 1} (terminal raises the generation by one).`,
    );
  }
  if (r.expectedWriterGeneration !== r.ownerGeneration) {
    report(
      `${base}/expectedWriterGeneration`,
      `expectedWriterGeneration ${r.expectedWriterGeneration} differs from ownerGeneration ${r.ownerGeneration}; the closing fence's generation is the closing lease's.`,
    );
  }
}

/** Receipt invariant 3 on the receipt at `base`: the four evidence roles, once each, in order. */
export function receiptRoles(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  const i = r.evidence.findIndex((e, k) => e.role !== EVIDENCE_ROLES[k]);
  if (i < 0) return;
  const roles = r.evidence.map((e) => e.role);
  const missing = EVIDENCE_ROLES.filter((role) => !roles.includes(role));
  report(
    `${base}/evidence/${i}/role`,
    `evidence roles are [${roles.join(', ')}]; a closeout needs exactly ${EVIDENCE_ROLES.join(', ')}, once each, in that order` +
      `${missing.length ? ` (missing: ${missing.join(', ')})` : ''}.`,
  );
}

/** Receipt invariant 3 on the receipt at `base`: four distinct evidence paths. */
export function receiptPaths(r: WorkflowTaskTerminalReceiptV1, base: string, report: Report): void {
  const seen = new Map<string, number>();
  r.evidence.forEach((e, i) => {
    const j = seen.get(e.path);
    if (j !== undefined) {
      report(
        `${base}/evidence/${i}/path`,
        `evidence ${i} (${e.role}) names the same file as evidence ${j} (${show(e.path)}); each role needs its own file.`,
      );
    }
    seen.set(e.path, i);
  });
}

/** Semantic rules of WorkflowTaskTerminalReceiptV1, in spec order. */
export const RECEIPT_RULES: readonly SemanticRule[] = [
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_RECEIPT_INVALID',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'terminalGeneration = ownerGeneration + 1 and expectedWriterGeneration = ownerGeneration (invariant 2).',
    (r, report) => receiptGenerations(r, '', report),
  ),
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'evidence has the roles change-record, completion, memory, report, once each, in that order (invariant 3).',
    (r, report) => receiptRoles(r, '', report),
  ),
  reportingRule<WorkflowTaskTerminalReceiptV1>(
    'TASK_TERMINAL_EVIDENCE_DUPLICATE',
    'WorkflowTaskTerminalReceiptV1',
    SECTION.receipt,
    'evidence names four distinct paths (invariant 3).',
    (r, report) => receiptPaths(r, '', report),
  ),
];
