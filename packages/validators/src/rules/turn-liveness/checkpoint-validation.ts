// Semantic rules of CheckpointValidationResultV1
// (docs/spec/turn-liveness-recovery-gate.md#invariants-5), and its invariants on a result wherever
// it sits (TurnLivenessStateV1 embeds two). The decision table is not restated here: it comes
// from the engines, so a stored result is judged by exactly the code that produces results.
import { evidenceItemProblem, isTerminalEvidence, validateCheckpoint } from '@agent-contracts/engines';
import type { CheckpointValidationResultV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { sameJson } from '../json.js';
import { contractRules, issue } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { ms, S_VALIDATION } from './shared.js';

type Result = CheckpointValidationResultV1;

/** The decision table's output for a stored result's own inputs, or `null` when they are malformed. */
function decideValidation(v: Result) {
  const r = validateCheckpoint(
    {
      turnKey: v.turnKey,
      mode: v.mode,
      evidence: v.evidence,
      blockingIssues: v.blockingIssues,
      requiredActions: v.requiredActions,
      deadlineAt: v.deadlineAt,
    },
    { now: () => ms(v.observedAt) },
  );
  return r.ok ? r.result : null;
}

const passesWithoutTerminal = (v: Result) =>
  v.mode === 'post-execution' && v.status === 'pass' && !v.evidence.some(isTerminalEvidence);

/** CheckpointValidationResultV1 invariants 1, 3 and 4 on the result at `base`. */
export function validationInconsistencies(v: Result, base: string, rule: string): Issue[] {
  const code = 'TURN_CHECKPOINT_VALIDATION_INCONSISTENT';
  const out: Issue[] = [];
  v.evidence.forEach((e, i) => {
    const p = `${base}/evidence/${i}`;
    const problem = evidenceItemProblem(e);
    if (problem) out.push(issue(code, `${p}/eventType`, `${problem}; fix the evidence item.`, rule));
    if (ms(e.observedAt) > ms(v.observedAt))
      out.push(
        issue(
          code,
          `${p}/observedAt`,
          `evidence observed at ${e.observedAt} is later than the result (${v.observedAt}); recompute the result after its evidence.`,
          rule,
        ),
      );
  });
  if (v.mode === 'post-execution' && v.deadlineAt === null)
    out.push(
      issue(
        code,
        `${base}/deadlineAt`,
        'a post-execution result needs deadlineAt = startedAt + operationLeaseMs + stalledAfterMs.',
        rule,
      ),
    );
  if (v.mode === 'response-time' && v.deadlineAt !== null)
    out.push(
      issue(
        code,
        `${base}/deadlineAt`,
        'a response-time result has deadlineAt null; remove the deadline.',
        rule,
      ),
    );
  if (out.length || passesWithoutTerminal(v)) return out; // the latter is TURN_TERMINAL_EVIDENCE_REQUIRED
  const want = decideValidation(v);
  if (want === null) return out;
  for (const field of ['status', 'blocking', 'evidenceState', 'errorCode', 'requiredActions'] as const) {
    if (!sameJson(v[field], want[field]))
      out.push(
        issue(
          code,
          `${base}/${field}`,
          `${field} is ${JSON.stringify(v[field])} but the decision table gives ${JSON.stringify(want[field])} for these inputs; recompute the result.`,
          rule,
        ),
      );
  }
  return out;
}

/** TURN_TERMINAL_EVIDENCE_REQUIRED on the result at `base`: a post-execution pass needs terminal evidence. */
export function terminalEvidenceMissing(v: Result, base: string, rule: string): Issue[] {
  return passesWithoutTerminal(v)
    ? [
        issue(
          'TURN_TERMINAL_EVIDENCE_REQUIRED',
          `${base}/status`,
          'a post-execution pass needs a host-terminal-event or host-native-terminal-status item; tool output, PreCompact, host events and sidecar reads never finish a turn. Treat the turn as unfinished.',
          rule,
        ),
      ]
    : [];
}

const { rule } = contractRules<Result>('CheckpointValidationResultV1', S_VALIDATION);

/** Semantic rules of CheckpointValidationResultV1, in spec order. */
export const VALIDATION_RULES: readonly SemanticRule[] = [
  rule(
    'TURN_CHECKPOINT_VALIDATION_INCONSISTENT',
    'The result equals the decision table for its inputs, its evidence items are well formed, deadlineAt fits the mode, and no evidence is later than observedAt.',
    (v) => validationInconsistencies(v, '', S_VALIDATION),
  ),
  rule(
    'TURN_TERMINAL_EVIDENCE_REQUIRED',
    'A post-execution pass holds at least one host-terminal-event or host-native-terminal-status item.',
    (v) => terminalEvidenceMissing(v, '', S_VALIDATION),
  ),
];
