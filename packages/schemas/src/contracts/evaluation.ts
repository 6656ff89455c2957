import type { ContractEntry } from '../gates.js';
import type { CurrencyCode } from './budget.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type { NonNegativeInteger, PositiveInteger, Sha256Hex, Timestamp } from './common.js';
import type { NullableCount } from './context-receipts.js';

/**
 * A rate in parts per million (0 to 1000000), or `null` when its denominator is zero.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 1000000
 */
export type NullableRatePpm = number | null;

/**
 * A rate in parts per million, 0 to 1000000.
 * @TJS-type integer
 * @minimum 0
 * @maximum 1000000
 */
export type RatePpm = number;

/** The fixed task set the runs were drawn from. */
export interface EvaluationTaskSet {
  /**
   * Name of the task set, e.g. `repo-bugfix-core`.
   * @minLength 1
   * @maxLength 128
   */
  name: string;
  /**
   * `contractDigest` of each task's TaskContractV1, sorted ascending, no repeats.
   * @minItems 1
   * @maxItems 500
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^[a-f0-9]{64}$
   */
  taskDigests: string[];
  /** digestOf(`taskDigests`): the identity of the set. */
  taskSetDigest: Sha256Hex;
}

/** A name and version of one component the figures depend on. */
export interface ComponentVersion {
  /**
   * Component name, e.g. `example-llm` or `ubuntu-24.04-runner`.
   * @minLength 1
   * @maxLength 128
   */
  name: string;
  /**
   * Exact version, snapshot or build id, e.g. `2026-10-01` or `sha256:...`; never `latest`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^(?!latest$).+$
   */
  version: string;
}

/** A tool the runs could call, by the version of its contract. */
export interface EvaluatedToolVersion {
  /**
   * The tool's name, as its ToolContractV1 states it.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[A-Za-z][A-Za-z0-9_.:-]*$
   */
  toolName: string;
  /**
   * The tool's version, as its ToolContractV1 states it.
   * @minLength 1
   * @maxLength 64
   */
  toolVersion: string;
  /** `contractDigest` of the tool's ToolContractV1. */
  toolContractDigest: Sha256Hex;
}

/** Every version the figures depend on. */
export interface EvaluationVersions {
  /** The environment the runs ran in (runner image, sandbox). */
  environment: ComponentVersion;
  /** The model. */
  model: ComponentVersion;
  /** The agent runtime (harness, controller) under evaluation. */
  runtime: ComponentVersion;
  /**
   * The tools the runs could call.
   * @maxItems 128
   */
  tools: EvaluatedToolVersion[];
}

/**
 * How one run ended, as the verifier (not the model) judged it: `verified-success` (every
 * completion criterion of the task passed), `unverified-success` (the agent reported done but
 * the criteria were not run or did not pass), `failed`, `cancelled`, `budget-exhausted`.
 */
export type EvaluationRunOutcome =
  | 'verified-success'
  | 'unverified-success'
  | 'failed'
  | 'cancelled'
  | 'budget-exhausted';

/** One run of one task. */
export interface EvaluationRun {
  /**
   * The run's id, unique in the report.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
   */
  runId: string;
  /** `contractDigest` of the task's TaskContractV1; one of `taskSet.taskDigests`. */
  taskDigest: Sha256Hex;
  /** digestOf(the report's `versions`) at the time of the run: the run ran on exactly those versions. */
  versionsDigest: Sha256Hex;
  /** How the run ended, as verified. */
  outcome: EvaluationRunOutcome;
  /** Safety rules the run broke (a denied call attempted, a policy violated). */
  safetyViolations: NonNegativeInteger;
  /** Side effects the run caused that the task did not call for. */
  wrongSideEffects: NonNegativeInteger;
  /** Times a human had to step in (approval aside). */
  humanInterventions: NonNegativeInteger;
  /** Whether the run met a failure it had to recover from (a failed call, a crash, a replan). */
  recoveryNeeded: boolean;
  /** Whether it recovered (went on to a verified success); `false` when `recoveryNeeded` is false. */
  recovered: boolean;
  /** Wall-clock time of the run, in milliseconds. */
  latencyMs: NonNegativeInteger;
  /** Cost of the run, in millionths of the report's currency. */
  costMicros: NonNegativeInteger;
}

/** The figures of the report, every one recomputable from `runs`. */
export interface EvaluationSummary {
  /** Number of runs (the length of `runs`). */
  runs: PositiveInteger;
  /** Runs whose outcome is `verified-success`; no other outcome counts. */
  verifiedSuccesses: NonNegativeInteger;
  /** floor(verifiedSuccesses * 1000000 / runs). */
  verifiedSuccessRatePpm: RatePpm;
  /** Sum of the runs' `safetyViolations`. */
  safetyViolations: NonNegativeInteger;
  /** Sum of the runs' `wrongSideEffects`. */
  wrongSideEffects: NonNegativeInteger;
  /** Sum of the runs' `humanInterventions`. */
  humanInterventions: NonNegativeInteger;
  /** Runs with `recoveryNeeded`. */
  recoveriesNeeded: NonNegativeInteger;
  /** Runs with `recovered`. */
  recoveries: NonNegativeInteger;
  /** floor(recoveries * 1000000 / recoveriesNeeded); `null` when no run needed recovery. */
  recoverySuccessRatePpm: NullableRatePpm;
  /** Nearest-rank median of the runs' `latencyMs`: the value at 1-based rank ceil(runs * 50 / 100) of the ascending list. */
  latencyP50Ms: NonNegativeInteger;
  /** Nearest-rank 95th percentile: the value at 1-based rank ceil(runs * 95 / 100) of the ascending list. */
  latencyP95Ms: NonNegativeInteger;
  /** Sum of the runs' `costMicros`. */
  totalCostMicros: NonNegativeInteger;
  /** floor(totalCostMicros / verifiedSuccesses); `null` when there is no verified success. */
  costPerSuccessMicros: NullableCount;
}

/** The thresholds that decide acceptance; a `null` threshold is not applied. */
export interface EvaluationAcceptance {
  /** Least `verifiedSuccessRatePpm` accepted. */
  minVerifiedSuccessRatePpm: RatePpm;
  /** Most `safetyViolations` accepted (usually 0). */
  maxSafetyViolations: NonNegativeInteger;
  /** Most `wrongSideEffects` accepted (usually 0). */
  maxWrongSideEffects: NonNegativeInteger;
  /** Most `humanInterventions` accepted, or `null`. */
  maxHumanInterventions: NullableCount;
  /** Least `recoverySuccessRatePpm` accepted, or `null`; a report whose rate is `null` meets it. */
  minRecoverySuccessRatePpm: NullableRatePpm;
  /** Most `latencyP95Ms` accepted, or `null`. */
  maxLatencyP95Ms: NullableCount;
  /** Most `costPerSuccessMicros` accepted, or `null`; a `null` cost per success (no success) never meets it. */
  maxCostPerSuccessMicros: NullableCount;
}

/** The name of one acceptance threshold. */
export type EvaluationThreshold =
  | 'minVerifiedSuccessRatePpm'
  | 'maxSafetyViolations'
  | 'maxWrongSideEffects'
  | 'maxHumanInterventions'
  | 'minRecoverySuccessRatePpm'
  | 'maxLatencyP95Ms'
  | 'maxCostPerSuccessMicros';

/** The verdict the acceptance definition gives the summary. */
export interface EvaluationVerdict {
  /** `accepted` when no threshold is missed, else `rejected`. */
  result: 'accepted' | 'rejected';
  /**
   * The thresholds the summary misses, in the order of `acceptance`'s members.
   * @maxItems 7
   * @uniqueItems true
   */
  failedThresholds: EvaluationThreshold[];
}

/**
 * An evaluation report: repeated runs of a fixed task set on pinned versions, the figures those
 * runs give, the acceptance definition and the verdict it gives.
 */
export interface EvaluationReportV1 {
  /** Contract discriminator. */
  schemaVersion: 'EvaluationReportV1';
  /**
   * `evl-` + the first 24 hex characters of the digest of `{subject, taskSetDigest, versionsDigest}`
   * (`taskSetDigest` of `taskSet`, `versionsDigest` = digestOf(`versions`)).
   * @pattern ^evl-[a-f0-9]{24}$
   */
  reportId: string;
  /** The agent system and revision evaluated. */
  subject: SystemSubjectRef;
  /** The fixed task set. */
  taskSet: EvaluationTaskSet;
  /** Every version the figures depend on. */
  versions: EvaluationVersions;
  /** Runs of each task; every task of the set has exactly this many runs. */
  runsPerTask: PositiveInteger;
  /** Currency of every cost figure. */
  currency: CurrencyCode;
  /**
   * Every run, in the order they were started.
   * @minItems 1
   * @maxItems 10000
   */
  runs: EvaluationRun[];
  /** The figures, recomputed by validators from `runs`. */
  summary: EvaluationSummary;
  /** The acceptance definition. */
  acceptance: EvaluationAcceptance;
  /** What the acceptance definition gives the summary; validators recompute it. */
  verdict: EvaluationVerdict;
  /** When the last run ended. */
  evaluatedAt: Timestamp;
  /**
   * Digest of the whole document except `reportDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  reportDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const EVALUATION_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'EvaluationReportV1',
    gate: 'AgentEvaluationGate',
    summary:
      'Repeated runs of a fixed task set on pinned environment, model, runtime and tool versions, the verified figures they give, the acceptance definition and its verdict.',
  },
];
