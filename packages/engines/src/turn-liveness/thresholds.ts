// Liveness thresholds (docs/spec/turn-liveness-recovery-gate.md#shared-vocabulary, D-TLR-08/09).
import type { TurnLivenessThresholdsV1 } from '@agent-contracts/schemas';

/** The defaults: suspect after 2 min, stalled after 5 min, operation/agent-turn lease 30 min. */
export const DEFAULT_TURN_THRESHOLDS: Readonly<TurnLivenessThresholdsV1> = Object.freeze({
  suspectAfterMs: 120_000,
  stalledAfterMs: 300_000,
  operationLeaseMs: 1_800_000,
});

/** Smallest and largest threshold a document may store. */
export const THRESHOLD_MIN_MS = 1000;
export const THRESHOLD_MAX_MS = 604_800_000;

const clampValue = (value: number | undefined, fallback: number): number => {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(THRESHOLD_MAX_MS, Math.max(THRESHOLD_MIN_MS, Math.round(value)));
};

/**
 * Normalise threshold overrides before they are stored (D-TLR-09): a missing or non-positive
 * value becomes the default, values are whole milliseconds within 1000..604800000, and
 * `stalledAfterMs` is raised to `suspectAfterMs`. A stored state is never repaired on read.
 *
 * @example
 * normaliseThresholds({ suspectAfterMs: 400_000 }); // { suspectAfterMs: 400000, stalledAfterMs: 400000, operationLeaseMs: 1800000 }
 */
export function normaliseThresholds(
  overrides: Partial<TurnLivenessThresholdsV1> = {},
): TurnLivenessThresholdsV1 {
  const suspectAfterMs = clampValue(overrides.suspectAfterMs, DEFAULT_TURN_THRESHOLDS.suspectAfterMs);
  const stalledAfterMs = Math.max(
    suspectAfterMs,
    clampValue(overrides.stalledAfterMs, DEFAULT_TURN_THRESHOLDS.stalledAfterMs),
  );
  const operationLeaseMs = clampValue(overrides.operationLeaseMs, DEFAULT_TURN_THRESHOLDS.operationLeaseMs);
  return { suspectAfterMs, stalledAfterMs, operationLeaseMs };
}

/** The post-execution deadline after turn start: `operationLeaseMs + stalledAfterMs` (default 35 min). */
export function postExecutionDeadlineMs(thresholds: TurnLivenessThresholdsV1): number {
  return thresholds.operationLeaseMs + thresholds.stalledAfterMs;
}
