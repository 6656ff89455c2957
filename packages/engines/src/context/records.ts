// Observation records of host hook events and the rules every document holding them shares
// (docs/spec/context-acquisition-gate.md, "Observation records"): the success rule, the latest
// record of a source, the outcome classification and eviction.
import type {
  ContextSourceAttemptObservation,
  ContextSourceObservation,
  ContextSourceResultObservation,
} from '@agent-contracts/schemas';

export type Attempt = ContextSourceAttemptObservation;
export type Result = ContextSourceResultObservation;
export type Observation = ContextSourceObservation;

export const isAttempt = (o: Observation): o is Attempt => o.hookEvent === 'PreToolUse';
export const isResult = (o: Observation): o is Result => o.hookEvent === 'PostToolUse';
/** Event time: `attemptedAt` of an attempt, `observedAt` of a result. */
export const eventTime = (o: Observation): string => (isAttempt(o) ? o.attemptedAt : o.observedAt);

/** Index of the latest record of `sourceId`: the last result record with `correlationValid: true`; -1 when none. */
export function latestIndex(records: readonly Observation[], sourceId: string): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (isResult(r) && r.sourceId === sourceId && r.correlationValid) return i;
  }
  return -1;
}

/** Latest record of `sourceId`: the last result record with `correlationValid: true`. */
export function latestRecord(records: readonly Observation[], sourceId: string): Result | undefined {
  const i = latestIndex(records, sourceId);
  return i < 0 ? undefined : (records[i] as Result);
}

/**
 * The success rule (docs/spec/context-acquisition-gate.md, "Success rule"), the one place it is
 * written: whether the record at `index` of `records` satisfies its source. It must be a result
 * with outcome `observed-success` or `baseline-ready`, every evidence flag true, the body observed,
 * a ContentIdentityV1, no cache unless it is a delivery-reuse record of a document that allows
 * reuse, and no other result of the same tool call and source. `reuseAllowed` is true only for a
 * receipt whose `reuseFrom` is set (a computation-cache hit never satisfies); a ledger passes false.
 */
export function satisfiesAt(records: readonly Observation[], index: number, reuseAllowed: boolean): boolean {
  const r = records[index];
  if (r === undefined || !isResult(r)) return false;
  if (r.outcome !== 'observed-success' && r.outcome !== 'baseline-ready') return false;
  if (
    !(
      r.successful &&
      r.observable &&
      r.transportSuccess &&
      r.activeRootMatch &&
      r.correlationValid &&
      r.sourceRefsMatch &&
      r.schemaMatch &&
      r.targetMatch &&
      r.bodyObserved
    )
  )
    return false;
  if (r.contentIdentity === null) return false;
  if (r.cache && !(r.reusedObservationId !== null && reuseAllowed)) return false;
  return !records.some(
    (o, j) => j !== index && isResult(o) && o.toolCallId === r.toolCallId && o.sourceId === r.sourceId,
  );
}

/**
 * The record that satisfies `sourceId` (derived fields: a source is satisfied iff its latest
 * record satisfies the success rule), or `undefined` when the source is not satisfied.
 */
export function satisfyingRecord(
  records: readonly Observation[],
  sourceId: string,
  reuseAllowed: boolean,
): Result | undefined {
  const i = latestIndex(records, sourceId);
  return i >= 0 && satisfiesAt(records, i, reuseAllowed) ? (records[i] as Result) : undefined;
}

/** The outcome the classification table gives for a result's flags. */
export function classifyOutcome(
  flags: Pick<
    Result,
    | 'activeRootMatch'
    | 'correlationValid'
    | 'observable'
    | 'transportSuccess'
    | 'sourceRefsMatch'
    | 'schemaMatch'
    | 'targetMatch'
    | 'successful'
  >,
  success: Result['outcome'],
): Result['outcome'] {
  if (!flags.activeRootMatch) return 'wrong-root';
  if (!flags.correlationValid) return 'invalid';
  if (!flags.observable) return 'unobservable';
  if (!flags.transportSuccess) return 'failed';
  if (!flags.sourceRefsMatch || !flags.schemaMatch || !flags.targetMatch) return 'invalid';
  if (!flags.successful) return 'failed';
  return success;
}

/**
 * Evict, oldest first, records that are neither the latest record of a source nor the attempt of
 * one, until at most `limit` remain; `null` when that is impossible.
 */
export function evict(records: readonly Observation[], limit: number): Observation[] | null {
  if (records.length <= limit) return [...records];
  const keep = new Set<Observation>();
  for (const s of new Set(records.map((r) => r.sourceId))) {
    const latest = latestRecord(records, s);
    if (!latest) continue;
    keep.add(latest);
    for (const o of records)
      if (isAttempt(o) && o.toolCallId === latest.toolCallId && o.sourceId === latest.sourceId) keep.add(o);
  }
  let excess = records.length - limit;
  const out: Observation[] = [];
  for (const r of records) {
    if (excess > 0 && !keep.has(r)) {
      excess--;
      continue;
    }
    out.push(r);
  }
  return excess > 0 ? null : out;
}

/**
 * Whether a tool result carries a failure marker at any level (`success:false`, `ok:false`,
 * `isError:true`, `is_error:true`, `error`): "the outer or any nested level" with no depth limit
 * (D-RCP-57), walked with a stack of its own, so that a deep result cannot exhaust the call stack;
 * an object met twice is walked once.
 */
export function hasFailureMarker(value: unknown): boolean {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    // An array is walked as the object it is: its members are its items (JSON gives it no other).
    const o = v as Record<string, unknown>;
    if (o.success === false || o.ok === false || o.isError === true || o.is_error === true || 'error' in o)
      return true;
    for (const x of Object.values(o)) stack.push(x);
  }
  return false;
}
