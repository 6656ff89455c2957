// @module-tag unit
// The AgentEvaluationGate's recomputation, checked against figures worked out by hand (not by
// the function under test): rounding down, nearest-rank percentiles, the null figures, and the
// thresholds that a null figure meets or misses (D-EVL-02).
import type { EvaluationAcceptance, EvaluationRun, EvaluationSummary } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { evaluationVerdict, summarizeEvaluationRuns } from '../../src/index.ts';

const run = (over: Partial<EvaluationRun>): EvaluationRun => ({
  runId: 'r',
  taskDigest: 'a'.repeat(64),
  versionsDigest: 'b'.repeat(64),
  outcome: 'verified-success',
  safetyViolations: 0,
  wrongSideEffects: 0,
  humanInterventions: 0,
  recoveryNeeded: false,
  recovered: false,
  latencyMs: 0,
  costMicros: 0,
  ...over,
});

const OPEN: EvaluationAcceptance = {
  minVerifiedSuccessRatePpm: 0,
  maxSafetyViolations: 0,
  maxWrongSideEffects: 0,
  maxHumanInterventions: null,
  minRecoverySuccessRatePpm: null,
  maxLatencyP95Ms: null,
  maxCostPerSuccessMicros: null,
};

describe('summarizeEvaluationRuns', () => {
  it('gives the figures worked out by hand for three runs', () => {
    const s = summarizeEvaluationRuns([
      run({ latencyMs: 300, costMicros: 100, humanInterventions: 1, recoveryNeeded: true, recovered: true }),
      run({ outcome: 'unverified-success', latencyMs: 100, costMicros: 100, wrongSideEffects: 2 }),
      run({ outcome: 'failed', latencyMs: 200, costMicros: 101, recoveryNeeded: true, safetyViolations: 1 }),
    ]);
    const expected: EvaluationSummary = {
      runs: 3,
      verifiedSuccesses: 1, // the unverified claim does not count
      verifiedSuccessRatePpm: 333333, // floor(1000000 / 3)
      safetyViolations: 1,
      wrongSideEffects: 2,
      humanInterventions: 1,
      recoveriesNeeded: 2,
      recoveries: 1,
      recoverySuccessRatePpm: 500000,
      latencyP50Ms: 200, // rank ceil(1.5) = 2 of [100, 200, 300]
      latencyP95Ms: 300, // rank ceil(2.85) = 3
      totalCostMicros: 301,
      costPerSuccessMicros: 301, // failures' cost included
    };
    expect(s).toEqual(expected);
  });

  it('uses rank 1 for the median of one run and rank 19 for the p95 of twenty', () => {
    expect(summarizeEvaluationRuns([run({ latencyMs: 7 })]).latencyP50Ms).toBe(7);
    const twenty = Array.from({ length: 20 }, (_, i) => run({ latencyMs: (20 - i) * 10 }));
    const s = summarizeEvaluationRuns(twenty);
    expect(s.latencyP95Ms).toBe(190);
    expect(s.latencyP50Ms).toBe(100);
  });

  it('gives null rates when there is no denominator', () => {
    const s = summarizeEvaluationRuns([run({ outcome: 'cancelled', costMicros: 5 })]);
    expect(s.recoverySuccessRatePpm).toBeNull();
    expect(s.costPerSuccessMicros).toBeNull();
    expect(s.verifiedSuccessRatePpm).toBe(0);
  });
});

describe('evaluationVerdict', () => {
  const none = summarizeEvaluationRuns([run({ outcome: 'failed', costMicros: 5 })]);

  it('never lets a null cost per success meet a cost threshold', () => {
    expect(evaluationVerdict(none, { ...OPEN, maxCostPerSuccessMicros: 1_000_000 })).toEqual({
      result: 'rejected',
      failedThresholds: ['maxCostPerSuccessMicros'],
    });
  });

  it('lets a null recovery rate meet a recovery threshold', () => {
    expect(evaluationVerdict(none, { ...OPEN, minRecoverySuccessRatePpm: 1_000_000 })).toEqual({
      result: 'accepted',
      failedThresholds: [],
    });
  });

  it('lists every missed threshold in the order of the acceptance members', () => {
    const s = summarizeEvaluationRuns([
      run({
        outcome: 'failed',
        safetyViolations: 1,
        wrongSideEffects: 1,
        humanInterventions: 3,
        latencyMs: 9,
      }),
    ]);
    const all: EvaluationAcceptance = {
      minVerifiedSuccessRatePpm: 1,
      maxSafetyViolations: 0,
      maxWrongSideEffects: 0,
      maxHumanInterventions: 2,
      minRecoverySuccessRatePpm: 1,
      maxLatencyP95Ms: 8,
      maxCostPerSuccessMicros: 0,
    };
    expect(evaluationVerdict(s, all).failedThresholds).toEqual([
      'minVerifiedSuccessRatePpm',
      'maxSafetyViolations',
      'maxWrongSideEffects',
      'maxHumanInterventions',
      'maxLatencyP95Ms',
      'maxCostPerSuccessMicros',
    ]);
  });

  it('accepts exactly at each threshold', () => {
    const s = summarizeEvaluationRuns([run({ latencyMs: 50, costMicros: 10 }), run({ outcome: 'failed' })]);
    expect(
      evaluationVerdict(s, {
        ...OPEN,
        minVerifiedSuccessRatePpm: 500000,
        maxLatencyP95Ms: 50,
        maxCostPerSuccessMicros: 10,
      }).result,
    ).toBe('accepted');
  });
});
