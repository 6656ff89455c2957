// The rules of AiAgentSystemArchitectureReportV1, AiAgentSystemArchitectureReportV2 and
// CapabilitySurfaceEvidenceV1, and of the architecture report bundle kinds
// (docs/spec/ai-agent-system-architecture-gate.md), one file per contract (the rules both report
// versions share in shared.ts); ARCHITECTURE_REPORT_RULE_FILES names the file of each rule.
import type { BundleRule, SemanticRule } from '../types.js';
import { ARCHITECTURE_REPORT_BUNDLE_RULES } from './bundles.js';
import { V1_RULES } from './report-v1.js';
import { V2_RULES } from './report-v2.js';
import { V1_SHARED, V2_SHARED } from './shared.js';
import { SURFACE_RULES } from './surface-evidence.js';

export {
  ARCHITECTURE_REPORT_BUNDLE_RULES,
  REPORT_V2_WITH_REFERENCES,
  REPORT_WITH_MATRIX,
  REPORT_WITH_REFERENCES,
  type Resolution,
  resolve,
} from './bundles.js';

/** Semantic rules of this area's contracts (one per code and contract), in spec order. */
export const ARCHITECTURE_REPORT_RULES: readonly SemanticRule[] = [
  ...V1_RULES,
  ...SURFACE_RULES,
  ...V2_RULES,
];

const SHARED: ReadonlySet<SemanticRule> = new Set(
  [V1_SHARED, V2_SHARED].flatMap((s) => [...s.before, s.completeness, s.mandatoryOutcome]),
);

/** The file of this folder that defines each rule, for RULE_FILES (docs/rules.md). */
export const ARCHITECTURE_REPORT_RULE_FILES: ReadonlyArray<
  readonly [string, ReadonlyArray<SemanticRule | BundleRule>]
> = [
  ['architecture-report/bundles.ts', ARCHITECTURE_REPORT_BUNDLE_RULES],
  ['architecture-report/report-v1.ts', V1_RULES.filter((r) => !SHARED.has(r))],
  ['architecture-report/shared.ts', [...SHARED]],
  ['architecture-report/surface-evidence.ts', SURFACE_RULES],
];
