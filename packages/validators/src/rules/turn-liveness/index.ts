// The rules of TurnLivenessContractV1, TurnLivenessStateV1, TurnLivenessEvidenceV1,
// TurnRecoveryCardV1, CheckpointV1 and CheckpointValidationResultV1, and of the
// TurnLivenessRecoveryGate bundle kinds (docs/spec/turn-liveness-recovery-gate.md), one file per
// contract (TURN_THRESHOLDS_INVALID, which two contracts check, in shared.ts);
// TURN_LIVENESS_RULE_FILES names the file of each rule.
import type { BundleRule, SemanticRule } from '../types.js';
import { TURN_LIVENESS_BUNDLE_RULES } from './bundles.js';
import { CHECKPOINT_RULES } from './checkpoint.js';
import { VALIDATION_RULES } from './checkpoint-validation.js';
import { CONTRACT_RULES } from './contract.js';
import { EVIDENCE_RULES } from './evidence.js';
import { CARD_RULES } from './recovery-card.js';
import { STATE_RULES } from './state.js';

export { TURN_LIVENESS_BUNDLE_RULES };

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const TURN_LIVENESS_RULES: readonly SemanticRule[] = [
  ...CONTRACT_RULES,
  ...STATE_RULES,
  ...EVIDENCE_RULES,
  ...CARD_RULES,
  ...CHECKPOINT_RULES,
  ...VALIDATION_RULES,
];

const THRESHOLDS: ReadonlySet<SemanticRule> = new Set(
  TURN_LIVENESS_RULES.filter((r) => r.code === 'TURN_THRESHOLDS_INVALID'),
);
const own = (rules: readonly SemanticRule[]) => rules.filter((r) => !THRESHOLDS.has(r));

/** The file of this folder that defines each rule, for RULE_FILES (docs/rules.md). */
export const TURN_LIVENESS_RULE_FILES: ReadonlyArray<
  readonly [string, ReadonlyArray<SemanticRule | BundleRule>]
> = [
  ['turn-liveness/bundles.ts', TURN_LIVENESS_BUNDLE_RULES],
  ['turn-liveness/checkpoint.ts', CHECKPOINT_RULES],
  ['turn-liveness/checkpoint-validation.ts', VALIDATION_RULES],
  ['turn-liveness/contract.ts', own(CONTRACT_RULES)],
  ['turn-liveness/evidence.ts', EVIDENCE_RULES],
  ['turn-liveness/recovery-card.ts', CARD_RULES],
  ['turn-liveness/shared.ts', [...THRESHOLDS]],
  ['turn-liveness/state.ts', own(STATE_RULES)],
];
