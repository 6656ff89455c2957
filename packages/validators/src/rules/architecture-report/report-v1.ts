import type { Issue } from '../../issues.js';
import { laterDuplicates } from '../kit.js';
import type { SemanticRule } from '../types.js';
import { describeKinds, GATE_OUTCOME, hasDirect, issue, rule, V1_SHARED } from './shared.js';

/** Semantic rules of AiAgentSystemArchitectureReportV1 (one per code), in spec order. */
export const V1_RULES: readonly SemanticRule[] = [
  ...V1_SHARED.before,
  rule(
    'ARCH_CAPABILITY_EVIDENCE_NOT_DIRECT',
    'A capability surface entry marked verified has direct evidence (hook, runtime, replay, tests); report, memory, a name or similarity never verify it (invariant 9).',
    (r) => {
      const out: Issue[] = [];
      r.capabilitySurfaceEvidence.entries.forEach((e, i) => {
        if (e.evidenceStatus === 'verified' && !hasDirect(e.evidence)) {
          out.push(
            issue(
              'ARCH_CAPABILITY_EVIDENCE_NOT_DIRECT',
              `/capabilitySurfaceEvidence/entries/${i}/evidenceStatus`,
              `surface "${e.surface}" is verified on ${describeKinds(e.evidence)} only; mark it unverified, or capture hook, runtime, replay or tests evidence of its behaviour.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'ARCH_CAPABILITY_SURFACE_DUPLICATE',
    'No two capability surface entries share (decisionRef, surface) (invariant 10).',
    (r) => {
      const entries = r.capabilitySurfaceEvidence.entries;
      return laterDuplicates(entries, (e) => JSON.stringify([e.decisionRef, e.surface])).map((i) =>
        issue(
          'ARCH_CAPABILITY_SURFACE_DUPLICATE',
          `/capabilitySurfaceEvidence/entries/${i}`,
          `a second entry for decision "${entries[i]!.decisionRef}" and surface "${entries[i]!.surface}"; merge the two entries.`,
        ),
      );
    },
  ),
  rule(
    'ARCH_EVIDENCE_ROW_NOT_DIRECT',
    'An evidence-matrix row marked verified has at least one direct evidence entry (invariant 11).',
    (r) => {
      const out: Issue[] = [];
      r.evidenceMatrix.rows.forEach((row, i) => {
        if (row.status === 'verified' && !hasDirect(row.evidence)) {
          out.push(
            issue(
              'ARCH_EVIDENCE_ROW_NOT_DIRECT',
              `/evidenceMatrix/rows/${i}/status`,
              `claim "${row.claim.slice(0, 80)}" is verified on ${describeKinds(row.evidence)} only; mark it unverified, or add hook, runtime, replay or tests evidence.`,
            ),
          );
        }
      });
      return out;
    },
  ),
  rule(
    'ARCH_EVIDENCE_ROW_DUPLICATE',
    'No two evidence-matrix rows have the same claim text, compared exactly (invariant 12).',
    (r) =>
      laterDuplicates(r.evidenceMatrix.rows, (row) => row.claim).map((i) =>
        issue(
          'ARCH_EVIDENCE_ROW_DUPLICATE',
          `/evidenceMatrix/rows/${i}`,
          `row ${i} repeats the claim of an earlier row; merge their evidence into one row.`,
        ),
      ),
  ),
  V1_SHARED.completeness,
  V1_SHARED.mandatoryOutcome,
  rule(
    'ARCH_EVIDENCE_MATRIX_UNVERIFIED',
    'Gate outcome: at least one evidence-matrix row is verified.',
    (r) =>
      r.evidenceMatrix.rows.some((row) => row.status === 'verified')
        ? []
        : [
            issue(
              'ARCH_EVIDENCE_MATRIX_UNVERIFIED',
              '/evidenceMatrix/rows',
              'the report is well-formed but fails the gate: no evidence-matrix row is verified; back at least one claim with direct evidence.',
              GATE_OUTCOME,
            ),
          ],
    GATE_OUTCOME,
  ),
];
