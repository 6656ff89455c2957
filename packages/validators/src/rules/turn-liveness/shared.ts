// Shared by the rules of the TurnLivenessRecoveryGate contracts
// (docs/spec/turn-liveness-recovery-gate.md): the spec anchors, the terminal vocabulary, time and
// JSON helpers, and TURN_THRESHOLDS_INVALID, which TurnLivenessContractV1 and TurnLivenessStateV1
// both check.
import type { TurnLivenessThresholdsV1 } from '@agent-contracts/schemas';
import { issue, semanticRule } from '../kit.js';
import type { SemanticRule } from '../types.js';

export const PAGE = 'docs/spec/turn-liveness-recovery-gate.md';
export const S_CONTRACT = `${PAGE}#invariants`;
export const S_STATE = `${PAGE}#invariants-1`;
export const S_EVIDENCE = `${PAGE}#invariants-2`;
export const S_CARD = `${PAGE}#invariants-3`;
export const S_CHECKPOINT = `${PAGE}#invariants-4`;
export const S_VALIDATION = `${PAGE}#invariants-5`;
export const S_EMISSION = `${PAGE}#emission`;

/** Milliseconds since the epoch of an RFC 3339 timestamp. */
export const ms = (s: string): number => Date.parse(s);

/** TURN_THRESHOLDS_INVALID on `contract`, whose invariants the spec section `section` states. */
export function thresholdRule(contract: string, section: string): SemanticRule {
  return semanticRule<{ readonly thresholds: TurnLivenessThresholdsV1 }>(
    'TURN_THRESHOLDS_INVALID',
    contract,
    section,
    'thresholds.stalledAfterMs is at least thresholds.suspectAfterMs.',
    (d) => {
      const th = d.thresholds;
      return th.stalledAfterMs < th.suspectAfterMs
        ? [
            issue(
              'TURN_THRESHOLDS_INVALID',
              '/thresholds/stalledAfterMs',
              `stalledAfterMs ${th.stalledAfterMs} is below suspectAfterMs ${th.suspectAfterMs}; normalise the thresholds (raise stalledAfterMs) before writing.`,
              section,
            ),
          ]
        : [];
    },
  );
}
