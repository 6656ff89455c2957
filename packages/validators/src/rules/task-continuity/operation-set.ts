// Semantic rules of TaskOperationSetV1 (docs/spec/task-continuity-write-gate.md#taskoperationsetv1),
// whose invariants are also judged on the set a TaskRecoveryStateV5 embeds (envelope.ts).
import { UNRESOLVED_PHASES } from '@agent-contracts/engines';
import type { TaskOperationSetV1 } from '@agent-contracts/schemas';
import { type Report, reportingRule } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { compareTime, SECTION, show } from './shared.js';

/** TaskOperationSetV1 invariants 1 to 4 on the set at `base`. */
export function setInvariants(s: TaskOperationSetV1, base: string, report: Report): void {
  const u = s.unresolved;
  if (u && !UNRESOLVED_PHASES.includes(u.phase)) {
    report(
      `${base}/unresolved/phase`,
      `the unresolved record is in phase ${u.phase}, which is resolved; a settled or aborted operation leaves ` +
        '`unresolved` (set it to null) and is referenced from `settled`.',
    );
  }
  const ids = new Map<string, number>();
  const keys = new Map<string, string>();
  if (u) keys.set(u.idempotencyKey, `${base}/unresolved`);
  s.settled.forEach((ref, i) => {
    const p = `${base}/settled/${i}`;
    if (ids.has(ref.operationId) || u?.operationId === ref.operationId) {
      report(
        `${p}/operationId`,
        `operationId ${show(ref.operationId)} appears twice in the set; operation ids are unique within a task.`,
      );
    }
    ids.set(ref.operationId, i);
    const other = keys.get(ref.idempotencyKey);
    if (other !== undefined) {
      report(
        `${p}/idempotencyKey`,
        `idempotencyKey ${show(ref.idempotencyKey)} is also used at ${other}; an idempotency key is never reused by another operation of the task.`,
      );
    }
    keys.set(ref.idempotencyKey, p);
    const prev = s.settled[i - 1];
    if (prev && compareTime(ref.settledAt, prev.settledAt) < 0) {
      report(
        `${p}/settledAt`,
        `settledAt ${ref.settledAt} is earlier than the previous reference's ${prev.settledAt}; \`settled\` is in resolution order, oldest first.`,
      );
    }
    const known = ref.effect === 'known-applied' || ref.effect === 'known-not-applied';
    if (ref.phase === 'settled' ? !known : ref.effect !== 'none') {
      report(
        `${p}/effect`,
        `a reference in phase ${ref.phase} has effect ${show(ref.effect)}; settled needs known-applied or known-not-applied, aborted-zero-effect needs none.`,
      );
    }
  });
  const want = Math.min(s.settledTotal, 64);
  if (s.settled.length !== want) {
    report(
      `${base}/settled`,
      `settled has ${s.settled.length} references but settledTotal ${s.settledTotal} requires min(settledTotal, 64) = ${want}; ` +
        'keep the 64 most recent resolved operations and count every one in settledTotal.',
    );
  }
}

/** Semantic rules of TaskOperationSetV1. */
export const SET_RULES: readonly SemanticRule[] = [
  reportingRule<TaskOperationSetV1>(
    'TASK_OPERATION_SET_INVALID',
    'TaskOperationSetV1',
    SECTION.set,
    'unresolved is null or in an unresolved phase; operation ids and idempotency keys unique; settled.length = min(settledTotal, 64) in settledAt order; settled refs have known effects and aborted refs none (invariants 1 to 4).',
    (s, report) => setInvariants(s, '', report),
  ),
];
