// Semantic rules of EvaluationReportV1 (docs/spec/agent-evaluation-gate.md): every figure is
// recomputed from the runs, every run is of the fixed task set on the stated versions, and the
// verdict follows from the acceptance definition. Identity and digests are DigestRules.
import {
  computeVersionsDigest,
  type EvaluationAcceptance,
  type EvaluationReportV1,
  type EvaluationRun,
  type EvaluationSummary,
  type EvaluationThreshold,
  type EvaluationVerdict,
} from '@agent-contracts/schemas';
import type { Issue } from '../issues.js';
import { contractRules } from './kit.js';
import type { BundleRule, SemanticRule } from './types.js';

const INVARIANTS = 'docs/spec/agent-evaluation-gate.md#invariants';
const { issue, rule } = contractRules<EvaluationReportV1>('EvaluationReportV1', INVARIANTS);

const PPM = 1_000_000;
const ratePpm = (count: number, of: number): number => Math.floor((count * PPM) / of);

/** The value at 1-based rank ceil(n * p / 100) of the ascending list (nearest rank); lists are non-empty. */
function nearestRank(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((sorted.length * p) / 100));
  return sorted[rank - 1]!;
}

/**
 * The summary the runs give, computed as the page's summary table states it. Only
 * `verified-success` runs count as successes.
 *
 * @example
 * summarizeEvaluationRuns([run]).verifiedSuccessRatePpm; // 1000000 when the one run is a verified success
 */
export function summarizeEvaluationRuns(runs: readonly EvaluationRun[]): EvaluationSummary {
  const n = runs.length;
  const sum = (f: (r: EvaluationRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  const verifiedSuccesses = runs.filter((r) => r.outcome === 'verified-success').length;
  const recoveriesNeeded = runs.filter((r) => r.recoveryNeeded).length;
  const recoveries = runs.filter((r) => r.recovered).length;
  const latencies = runs.map((r) => r.latencyMs).sort((a, b) => a - b);
  const totalCostMicros = sum((r) => r.costMicros);
  return {
    runs: n,
    verifiedSuccesses,
    verifiedSuccessRatePpm: ratePpm(verifiedSuccesses, n),
    safetyViolations: sum((r) => r.safetyViolations),
    wrongSideEffects: sum((r) => r.wrongSideEffects),
    humanInterventions: sum((r) => r.humanInterventions),
    recoveriesNeeded,
    recoveries,
    recoverySuccessRatePpm: recoveriesNeeded === 0 ? null : ratePpm(recoveries, recoveriesNeeded),
    latencyP50Ms: nearestRank(latencies, 50),
    latencyP95Ms: nearestRank(latencies, 95),
    totalCostMicros,
    costPerSuccessMicros: verifiedSuccesses === 0 ? null : Math.floor(totalCostMicros / verifiedSuccesses),
  };
}

/**
 * The verdict the acceptance definition gives a summary: every non-null threshold is applied, in
 * the order of the acceptance members. A null rate or cost in the summary meets a minimum-rate
 * threshold on recovery (nothing needed recovery) but never a cost threshold (no success).
 *
 * @example
 * evaluationVerdict(summary, acceptance).result; // 'accepted' or 'rejected'
 */
export function evaluationVerdict(s: EvaluationSummary, a: EvaluationAcceptance): EvaluationVerdict {
  const failed: EvaluationThreshold[] = [];
  if (s.verifiedSuccessRatePpm < a.minVerifiedSuccessRatePpm) failed.push('minVerifiedSuccessRatePpm');
  if (s.safetyViolations > a.maxSafetyViolations) failed.push('maxSafetyViolations');
  if (s.wrongSideEffects > a.maxWrongSideEffects) failed.push('maxWrongSideEffects');
  if (a.maxHumanInterventions !== null && s.humanInterventions > a.maxHumanInterventions)
    failed.push('maxHumanInterventions');
  if (
    a.minRecoverySuccessRatePpm !== null &&
    s.recoverySuccessRatePpm !== null &&
    s.recoverySuccessRatePpm < a.minRecoverySuccessRatePpm
  )
    failed.push('minRecoverySuccessRatePpm');
  if (a.maxLatencyP95Ms !== null && s.latencyP95Ms > a.maxLatencyP95Ms) failed.push('maxLatencyP95Ms');
  if (
    a.maxCostPerSuccessMicros !== null &&
    (s.costPerSuccessMicros === null || s.costPerSuccessMicros > a.maxCostPerSuccessMicros)
  )
    failed.push('maxCostPerSuccessMicros');
  return { result: failed.length ? 'rejected' : 'accepted', failedThresholds: failed };
}

const SUMMARY_MEMBERS: readonly (keyof EvaluationSummary)[] = [
  'runs',
  'verifiedSuccesses',
  'verifiedSuccessRatePpm',
  'safetyViolations',
  'wrongSideEffects',
  'humanInterventions',
  'recoveriesNeeded',
  'recoveries',
  'recoverySuccessRatePpm',
  'latencyP50Ms',
  'latencyP95Ms',
  'totalCostMicros',
  'costPerSuccessMicros',
];

/** Whether the stated success count is the count of verified and unverified successes together (and differs from the verified count). */
function countsUnverified(r: EvaluationReportV1): boolean {
  const verified = r.runs.filter((x) => x.outcome === 'verified-success').length;
  const claimed = r.runs.filter((x) => x.outcome === 'unverified-success').length;
  return claimed > 0 && r.summary.verifiedSuccesses === verified + claimed;
}

/** Semantic rules of EvaluationReportV1 (one per code), in the page's order. */
export const EVALUATION_RULES: readonly SemanticRule[] = [
  rule(
    'EVALUATION_TASK_DIGESTS_UNSORTED',
    'taskSet.taskDigests is sorted ascending, so that the same set always has the same taskSetDigest (invariant 4).',
    (r) => {
      const d = r.taskSet.taskDigests;
      const i = d.findIndex((x, k) => k > 0 && x < d[k - 1]!);
      return i < 0
        ? []
        : [
            issue(
              'EVALUATION_TASK_DIGESTS_UNSORTED',
              `/taskSet/taskDigests/${i}`,
              'taskSet.taskDigests is not sorted ascending; sort it and recompute taskSetDigest, reportId and reportDigest.',
            ),
          ];
    },
  ),
  rule('EVALUATION_RUN_ID_DUPLICATE', 'No two runs have the same runId (invariant 5).', (r) => {
    const seen = new Set<string>();
    const out: Issue[] = [];
    r.runs.forEach((x, i) => {
      if (seen.has(x.runId))
        out.push(
          issue(
            'EVALUATION_RUN_ID_DUPLICATE',
            `/runs/${i}/runId`,
            `run id "${x.runId}" is used by an earlier run; give each run its own id.`,
          ),
        );
      seen.add(x.runId);
    });
    return out;
  }),
  rule(
    'EVALUATION_RUN_TASK_UNKNOWN',
    "Every run's taskDigest is one of taskSet.taskDigests (invariant 6).",
    (r) => {
      const set = new Set(r.taskSet.taskDigests);
      const out: Issue[] = [];
      r.runs.forEach((x, i) => {
        if (!set.has(x.taskDigest))
          out.push(
            issue(
              'EVALUATION_RUN_TASK_UNKNOWN',
              `/runs/${i}/taskDigest`,
              `run "${x.runId}" is of a task outside the fixed task set; drop the run, or evaluate a task set that contains the task (a new taskSetDigest).`,
            ),
          );
      });
      return out;
    },
  ),
  rule(
    'EVALUATION_RUN_VERSIONS_MISMATCH',
    "Every run's versionsDigest equals digestOf(versions): a figure is valid only with the versions it was measured on (invariant 7).",
    (r) => {
      const expected = computeVersionsDigest(r.versions);
      const out: Issue[] = [];
      r.runs.forEach((x, i) => {
        if (x.versionsDigest !== expected)
          out.push(
            issue(
              'EVALUATION_RUN_VERSIONS_MISMATCH',
              `/runs/${i}/versionsDigest`,
              `run "${x.runId}" ran on other versions than the report states (versionsDigest ${x.versionsDigest}, expected ${expected}); report those runs separately, with their own versions.`,
            ),
          );
      });
      return out;
    },
  ),
  rule(
    'EVALUATION_RUN_COUNT_MISMATCH',
    'Every task of the set has exactly runsPerTask runs (invariant 8).',
    (r) => {
      const counts = new Map<string, number>(r.taskSet.taskDigests.map((d) => [d, 0]));
      for (const x of r.runs)
        if (counts.has(x.taskDigest)) counts.set(x.taskDigest, counts.get(x.taskDigest)! + 1);
      const off = [...counts.entries()].filter(([, n]) => n !== r.runsPerTask);
      return off.length === 0
        ? []
        : [
            issue(
              'EVALUATION_RUN_COUNT_MISMATCH',
              '/runsPerTask',
              `${off.length} task(s) do not have ${r.runsPerTask} runs (e.g. task ${off[0]![0].slice(0, 12)}… has ${off[0]![1]}); run every task the same number of times, or state the count that holds.`,
            ),
          ];
    },
  ),
  rule(
    'EVALUATION_RECOVERY_INCONSISTENT',
    'A run is recovered only when it needed recovery and ended as a verified success (invariant 9).',
    (r) => {
      const out: Issue[] = [];
      r.runs.forEach((x, i) => {
        if (x.recovered && (!x.recoveryNeeded || x.outcome !== 'verified-success'))
          out.push(
            issue(
              'EVALUATION_RECOVERY_INCONSISTENT',
              `/runs/${i}/recovered`,
              x.recoveryNeeded
                ? `run "${x.runId}" is marked recovered but ended ${x.outcome}; a recovery counts only when the run went on to a verified success.`
                : `run "${x.runId}" is marked recovered but needed no recovery; set recovered to false.`,
            ),
          );
      });
      return out;
    },
  ),
  rule(
    'EVALUATION_UNVERIFIED_SUCCESS_COUNTED',
    'summary.verifiedSuccesses does not count unverified-success runs: success is decided by the criteria, not by the agent saying it is done (invariant 10).',
    (r) =>
      countsUnverified(r)
        ? [
            issue(
              'EVALUATION_UNVERIFIED_SUCCESS_COUNTED',
              '/summary/verifiedSuccesses',
              `summary.verifiedSuccesses (${r.summary.verifiedSuccesses}) counts runs the verifier did not confirm; count only verified-success runs and recompute the rates.`,
            ),
          ]
        : [],
  ),
  rule(
    'EVALUATION_SUMMARY_MISMATCH',
    'Every member of summary equals its recomputation from runs (invariant 11); a success count that includes unverified runs is reported by invariant 10 instead.',
    (r) => {
      const computed = summarizeEvaluationRuns(r.runs);
      const skip = countsUnverified(r) ? 'verifiedSuccesses' : null;
      return SUMMARY_MEMBERS.filter((m) => m !== skip && r.summary[m] !== computed[m]).map((m) =>
        issue(
          'EVALUATION_SUMMARY_MISMATCH',
          `/summary/${m}`,
          `summary.${m} is ${JSON.stringify(r.summary[m])} but the runs give ${JSON.stringify(computed[m])}; replace it (and recompute reportDigest).`,
        ),
      );
    },
  ),
  rule(
    'EVALUATION_VERDICT_MISMATCH',
    'verdict equals what the acceptance definition gives the summary recomputed from runs (invariant 12).',
    (r) => {
      const v = evaluationVerdict(summarizeEvaluationRuns(r.runs), r.acceptance);
      const same =
        v.result === r.verdict.result &&
        v.failedThresholds.length === r.verdict.failedThresholds.length &&
        v.failedThresholds.every((t, i) => r.verdict.failedThresholds[i] === t);
      return same
        ? []
        : [
            issue(
              'EVALUATION_VERDICT_MISMATCH',
              '/verdict',
              `verdict differs from the acceptance definition applied to the runs, which gives ${JSON.stringify(v)}; replace it.`,
            ),
          ];
    },
  ),
];

/** This area has no cross-document rules: the report refers to tasks and tools by digest only. */
export const EVALUATION_BUNDLE_RULES: readonly BundleRule[] = [];
