// The observation ledger (docs/spec/context-acquisition-gate.md, ContextSourceObservationLedgerV1):
// records reach the ledger before the receipt; a write merges by observation id into the freshest
// stored set (first write wins), and a receipt can be rebuilt from it under the replay rules.
import { digestOf } from '@agent-contracts/digest';
import {
  type ContextObservationFold,
  type ContextReadBindingV1,
  type ContextReadPlanV2,
  type ContextReadReceiptV2,
  type ContextSourceObservationLedgerV1,
  contextSourceRefDigest,
  ledgerIdOf,
} from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import type { ContextRefInput } from './plan.js';
import { conflictError, deriveReceipt, draftOf, REPLAYABLE_REASON_CODES, sealReceipt } from './receipt.js';
import {
  eventTime,
  evict,
  isAttempt,
  isResult,
  latestIndex,
  type Observation,
  type Result,
  satisfiesAt,
} from './records.js';
import { sortedUnique } from './shared.js';

/** Most records a ledger holds. */
export const LEDGER_OBSERVATION_LIMIT = 128;
const BINDING_FIELDS = ['contextEpoch', 'planId', 'planContentId', 'activeRoot', 'project'] as const;
const sameBinding = (a: ContextReadBindingV1, b: ContextReadBindingV1) =>
  BINDING_FIELDS.every((f) => a[f] === b[f]);

/** One write: the writer's binding, the records it holds, and the plan's mandatory sources when it has the plan. */
export interface LedgerWrite {
  readonly binding: ContextReadBindingV1;
  readonly records: readonly Observation[];
  readonly mandatorySourceIds?: readonly string[] | null;
}

/** Result of {@link writeLedger}: the new snapshot and the records that were not written. */
export type LedgerResult =
  | {
      readonly ok: true;
      readonly ledger: ContextSourceObservationLedgerV1;
      /** Ids of records dropped: of another epoch, plan or root (but a wrong-root result), or reuse results. */
      readonly dropped: readonly string[];
    }
  | EngineRefusal<
      'CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL' | 'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      { readonly path: string }
    >;

/** The fold of `records` against `mandatory` (invariant 6), with its digest. */
export function foldOf(
  identity: ContextReadBindingV1,
  records: readonly Observation[],
  mandatory: readonly string[],
): ContextObservationFold {
  const sources = sortedUnique(mandatory).map((sourceId) => {
    const i = latestIndex(records, sourceId);
    const latest = i < 0 ? undefined : (records[i] as Result);
    return {
      sourceId,
      observationId: latest?.observationId ?? null,
      resultDigest: latest?.resultDigest ?? null,
      satisfied: satisfiesAt(records, i, false),
    };
  });
  const satisfiedSourceIds = sources.filter((s) => s.satisfied).map((s) => s.sourceId);
  const missingSourceIds = sources.filter((s) => !s.satisfied).map((s) => s.sourceId);
  return {
    sources,
    satisfiedSourceIds,
    missingSourceIds,
    foldDigest: digestOf({ identity, sources, satisfiedSourceIds, missingSourceIds }),
  };
}

/**
 * Merge a write into the stored snapshot (Merge rule): a new identity starts afresh; records
 * already stored are never rewritten; new ones are placed in event order; only non-evidence
 * records are evicted. The stored snapshot is never changed: a refusal leaves it as it was.
 *
 * @example
 * const r = writeLedger(stored, { binding: plan.contextBinding, records: receipt.observations, mandatorySourceIds: plan.mandatorySourceIds }, clock);
 */
export function writeLedger(
  stored: ContextSourceObservationLedgerV1 | null,
  write: LedgerWrite,
  clock: Clock,
): LedgerResult {
  const identity = write.binding;
  const ledgerId = ledgerIdOf(identity.contextEpoch);
  if (stored && stored.ledgerId !== ledgerId)
    return refusal(
      'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      `the stored ledger ${stored.ledgerId} is of another epoch; write to the ledger of ${identity.contextEpoch}.`,
      { path: '/ledgerId' },
    );
  const carried = stored && sameBinding(stored.identity, identity) ? stored.observations : [];
  const dropped: string[] = [];
  const ids = new Set(carried.map((r) => r.observationId));
  const incoming: Observation[] = [];
  for (const r of write.records) {
    // Ledger invariant 4: the epoch and plan are the identity's, and so is the root unless the
    // record is a wrong-root result (an attempt's outcome is `attempted`); invariant 5: no
    // delivery-reuse result.
    if (
      r.contextEpoch !== identity.contextEpoch ||
      r.planId !== identity.planId ||
      (r.activeRoot !== identity.activeRoot && r.outcome !== 'wrong-root') ||
      (isResult(r) && r.reusedObservationId !== null)
    ) {
      dropped.push(r.observationId);
      continue;
    }
    if (ids.has(r.observationId)) continue;
    ids.add(r.observationId);
    incoming.push(r);
  }
  // Stable merge by event time: stored records keep their order, new ones go where their time puts them.
  const merged: Observation[] = [];
  let j = 0;
  const sortedIncoming = [...incoming].sort((a, b) => Date.parse(eventTime(a)) - Date.parse(eventTime(b)));
  for (const r of carried) {
    while (j < sortedIncoming.length && Date.parse(eventTime(sortedIncoming[j]!)) < Date.parse(eventTime(r)))
      merged.push(sortedIncoming[j++]!);
    merged.push(r);
  }
  while (j < sortedIncoming.length) merged.push(sortedIncoming[j++]!);
  const observations = evict(merged, LEDGER_OBSERVATION_LIMIT);
  if (!observations)
    return refusal(
      'CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL',
      `more than ${LEDGER_OBSERVATION_LIMIT} evidence records; the stored ledger is unchanged. Report degraded and do not advance the receipt.`,
      { path: '/observations' },
    );
  const mandatory =
    write.mandatorySourceIds ??
    (stored && sameBinding(stored.identity, identity) && stored.fold
      ? stored.fold.sources.map((s) => s.sourceId)
      : null);
  const now = clock.now();
  const latest = Math.max(
    now,
    ...observations.map((r) => Date.parse(eventTime(r))),
    stored ? Date.parse(stored.updatedAt) : 0,
  );
  const body = {
    schemaVersion: 'ContextSourceObservationLedgerV1' as const,
    ledgerId,
    identity,
    revision: (stored?.revision ?? 0) + 1,
    observations,
    fold: mandatory && mandatory.length > 0 ? foldOf(identity, observations, mandatory) : null,
    updatedAt: timestampOf(latest),
  };
  return { ok: true, ledger: { ...body, ledgerDigest: digestOf(body) }, dropped };
}

/** Result of {@link replayReceipt}. */
export type ReplayResult =
  | { readonly ok: true; readonly receipt: ContextReadReceiptV2; readonly replayed: readonly string[] }
  | EngineRefusal<
      'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN' | 'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      { readonly path: string }
    >;

/**
 * Rebuild a receipt from the ledger (Replay): only for the same binding, never for a `blocked`
 * receipt or a `stale` one whose last reason is not replayable, and only from records whose
 * source metadata is still fresh (`liveRefs`: the re-observed refs per source id; a memory query
 * is fresh unless re-observed otherwise). Nothing is re-executed: every record of the successor
 * is a ledger record.
 */
export function replayReceipt(
  ledger: ContextSourceObservationLedgerV1,
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  liveRefs: Readonly<Record<string, readonly ContextRefInput[]>>,
  clock: Clock,
): ReplayResult {
  if (!sameBinding(ledger.identity, receipt.binding))
    return refusal(
      'CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH',
      "the ledger's identity is not the receipt's binding; replay only the ledger of the same plan.",
      { path: '/identity' },
    );
  const last = receipt.escalations.at(-1);
  if (receipt.status === 'blocked')
    return refusal(
      'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN',
      'a blocked receipt is never replaced by a replay; resolve the blocking cause and replan.',
      { path: '/status' },
    );
  if (receipt.status === 'stale' && !(last && REPLAYABLE_REASON_CODES.includes(last.reasonCode)))
    return refusal(
      'CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN',
      `the receipt is stale for ${last?.reasonCode ?? 'an unknown reason'}, which a replay cannot bypass; replan.`,
      { path: '/status' },
    );
  const sources = [...plan.baselineSources, ...plan.selectedSources];
  const fresh = (sourceId: string) => {
    const s = sources.find((x) => x.sourceId === sourceId);
    if (!s) return false;
    const live = liveRefs[sourceId];
    if (live === undefined) return s.kind === 'memory';
    const digests = live
      .map((r) =>
        contextSourceRefDigest({ ...r, mtimeMs: r.mtimeMs === null ? null : Math.trunc(r.mtimeMs) }),
      )
      .sort();
    return (
      digests.join() ===
      s.sourceRefs
        .map((r) => r.metadataDigest)
        .sort()
        .join()
    );
  };
  const createdAt = Date.parse(receipt.createdAt);
  const records = ledger.observations.filter(
    (r) => fresh(r.sourceId) && Date.parse(eventTime(r)) >= createdAt,
  );
  const now = timestampOf(Math.max(clock.now(), Date.parse(receipt.updatedAt), Date.parse(ledger.updatedAt)));
  const observations = records.filter(
    (r) =>
      !isAttempt(r) ||
      receipt.planObservation === null ||
      Date.parse(r.attemptedAt) >= Date.parse(receipt.planObservation.observedAt),
  );
  // A conflicting duplicate PostToolUse among the records makes the successor unverified, as it
  // made the receipt when it was observed (D-RCP-53).
  const conflict = observations.find(
    (r, i): r is Result =>
      isResult(r) &&
      observations
        .slice(0, i)
        .some((o) => isResult(o) && o.toolCallId === r.toolCallId && o.sourceId === r.sourceId),
  );
  const structured = receipt.verificationMode === 'structured-plan';
  const draft = {
    ...draftOf(receipt),
    status: structured && !conflict ? ('planned' as const) : ('unverified' as const),
    observations,
    escalations: receipt.escalations.filter((e) => e.action === 'planned'),
    replanCount: 0,
    lastError: structured && conflict ? conflictError(conflict) : null,
    reuseFrom: null,
    completedAt: null,
    consumedAt: null,
  };
  const successor = sealReceipt(deriveReceipt(draft, plan, now), now);
  return { ok: true, receipt: successor, replayed: successor.observations.map((r) => r.observationId) };
}
