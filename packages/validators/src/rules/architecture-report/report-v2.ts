// Semantic rules of AiAgentSystemArchitectureReportV2: the rules it shares with V1 (shared.ts),
// over the V2 field list and references.
import type { SemanticRule } from '../types.js';
import { V2_SHARED } from './shared.js';

/** Semantic rules of AiAgentSystemArchitectureReportV2 (one per code), in spec order. */
export const V2_RULES: readonly SemanticRule[] = [
  ...V2_SHARED.before,
  V2_SHARED.completeness,
  V2_SHARED.mandatoryOutcome,
];
