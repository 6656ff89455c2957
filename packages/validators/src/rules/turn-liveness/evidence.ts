// Semantic rules of TurnLivenessEvidenceV1 (docs/spec/turn-liveness-recovery-gate.md#invariants-2).
// The classification table is not restated here: it comes from the engines, so a stored
// observation is judged by exactly the code that produces observations.
import { classifyAt, isTerminalState } from '@agent-contracts/engines';
import type { TurnLivenessEvidenceV1 } from '@agent-contracts/schemas';
import type { Issue } from '../../issues.js';
import { contractRules } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { ms, S_EVIDENCE } from './shared.js';

const { issue, rule } = contractRules<TurnLivenessEvidenceV1>('TurnLivenessEvidenceV1', S_EVIDENCE);

/** Semantic rules of TurnLivenessEvidenceV1. */
export const EVIDENCE_RULES: readonly SemanticRule[] = [
  rule(
    'TURN_EVIDENCE_CLASSIFICATION_MISMATCH',
    'classification, reason, referenceAt and elapsedMs recompute from the copied fields at observedAt.',
    (d) => {
      const code = 'TURN_EVIDENCE_CLASSIFICATION_MISMATCH';
      const input = { ...d, state: d.persistedState };
      if (d.persistedState !== 'idle' && !isTerminalState(d.persistedState)) {
        const ref = d.inFlightOperation
          ? 'x'
          : d.persistedState === 'awaiting-continuation'
            ? d.lastToolOutputAt
            : d.lastEventAt;
        if (ref === null)
          return [
            issue(
              code,
              '/persistedState',
              `a ${d.persistedState} observation without its reference time cannot be classified; refuse the evidence.`,
            ),
          ];
      }
      const want = classifyAt(input, ms(d.observedAt));
      const out: Issue[] = [];
      for (const [field, value] of [
        ['classification', want.classification],
        ['reason', want.reason],
        ['referenceAt', want.referenceAt],
        ['elapsedMs', want.ageMs],
      ] as const) {
        const have = d[field];
        const same =
          field === 'referenceAt' && value !== null && have !== null
            ? ms(have as string) === ms(value as string)
            : have === value;
        if (!same)
          out.push(
            issue(
              code,
              `/${field}`,
              `${field} is ${JSON.stringify(have)} but the classification table gives ${JSON.stringify(value)} at observedAt; refuse the evidence.`,
            ),
          );
      }
      return out;
    },
  ),
];
