// The reference receipt engine (docs/spec/context-acquisition-gate.md, ContextReadReceiptV2): a
// receipt is opened for an observed plan and folds host hook events by the state machine. Every
// derived field is computed from the records, never taken from the caller.
import { canonicalize, derivedId, digestOf } from '@agent-contracts/digest';
import type {
  ContentIdentityV1,
  ContextActionClass,
  ContextEscalationTrigger,
  ContextReadPlanV2,
  ContextReadReceiptV2,
  ContextReceiptError,
  ContextSourceIdentity,
  VerificationMode,
} from '@agent-contracts/schemas';
import { contextSourceRefDigest, observationIdOf } from '@agent-contracts/schemas';
import { type Clock, timestampOf } from '../clock.js';
import { type EngineRefusal, refusal } from '../refusal.js';
import type { ContextRefInput } from './plan.js';
import {
  type Attempt,
  classifyOutcome,
  evict,
  hasFailureMarker,
  isAttempt,
  isResult,
  type Observation,
  type Result,
  satisfyingRecord,
} from './records.js';
import {
  bySourceId,
  contentIdentityOf,
  type DeliveredBody,
  RISK_RANK,
  sortedUnique,
  sourceKeyOf,
} from './shared.js';

/** Most observation records a receipt holds. */
export const RECEIPT_OBSERVATION_LIMIT = 100;
const ESCALATION_LIMIT = 20;
const ABSORBING = new Set(['stale', 'blocked', 'unverified']);
const COMPLETE = new Set(['relevant-complete', 'completed']);

/** How a receipt is opened. */
export interface ReceiptOpen {
  readonly verificationMode: VerificationMode;
  readonly hostSessionId: string | null;
  /** The plan tool call (structured-plan only): its PreToolUse time and id; its PostToolUse is now. */
  readonly planCall?: {
    readonly toolCallId: string;
    readonly attemptedAt: string;
    readonly argsDigest?: string | null;
  };
  /** The plan call's result delivered the baseline bodies (default true). */
  readonly baselineDelivered?: boolean;
}

/** The correlation fields a hook event carried (never filled in from the plan). */
export interface EventBinding {
  readonly contextEpoch: string;
  readonly planId: string;
  readonly activeRoot: string;
  /** The plan content id and project the event names, when it names them. */
  readonly planContentId?: string;
  readonly project?: string;
}

/** A host hook event, or a runtime event of the state machine. */
export type ContextEvent =
  | ({
      readonly event: 'PreToolUse';
      readonly toolCallId: string;
      readonly sourceIds: readonly string[];
      readonly actionClass: ContextActionClass;
      /** Risk the permission layer assigns to the call (default `normal`). */
      readonly risk?: 'normal' | 'high' | 'critical';
      readonly hostSessionId: string | null;
      readonly argsDigest?: string | null;
    } & EventBinding)
  | ({
      readonly event: 'PostToolUse';
      readonly toolCallId: string;
      readonly sourceId: string;
      readonly hostSessionId: string | null;
      readonly argsDigest?: string | null;
      /** Layer the source was read from. */
      readonly sourceLayer: string;
      /** The source's metadata re-observed at read time; absent: not observed. */
      readonly liveRefs?: readonly ContextRefInput[];
      /** The result matched the source's declared result schema (memory: must be stated). */
      readonly schemaMatch?: boolean;
      /** The result is about the plan's target, as the host judged it (memory: must be stated). */
      readonly targetMatch?: boolean;
      /** The source's own result reported success (default true). */
      readonly sourceOk?: boolean;
      /** The extracted tool-result payload; absent: nothing was observable. */
      readonly toolResult?: unknown;
      /** The delivered body of this source, when the result carried it. */
      readonly body?: DeliveredBody | null;
      /** An identity the tool claimed for the body; recomputed from `body` when both are given. */
      readonly contentIdentity?: ContentIdentityV1 | null;
      /** The result was served from a computation cache. */
      readonly cache?: boolean;
      readonly hostDeliveredBytes?: number | null;
      readonly latencyMs?: number | null;
      readonly tokens?: number | null;
    } & EventBinding)
  | {
      readonly event: 'drift';
      readonly trigger: ContextEscalationTrigger;
      /** Defaults to the trigger; one of the replayable codes when the runtime's own recording failed. */
      readonly reasonCode?: string;
      readonly code?: string;
      readonly message?: string;
    }
  | { readonly event: 'block'; readonly message?: string }
  | { readonly event: 'consume' };

/** Codes the receipt engine refuses with (nothing is recorded). */
export type ReceiptRefusalCode =
  | 'CONTEXT_PLAN_INVALID'
  | 'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID'
  | 'CONTEXT_SOURCE_NOT_AUTHORIZED'
  | 'CONTEXT_BINDING_REQUIRED'
  | 'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED';

/** Result of {@link openReceipt} and {@link observeReceipt}. */
export type ReceiptResult =
  | { readonly ok: true; readonly receipt: ContextReadReceiptV2; readonly changed: boolean }
  | EngineRefusal<ReceiptRefusalCode, { readonly path: string }>;

const refuse = (code: ReceiptRefusalCode, path: string, message: string): ReceiptResult =>
  refusal(code, message, { path });

type Draft = Omit<ContextReadReceiptV2, 'receiptId'>;

const planSources = (plan: ContextReadPlanV2) => [...plan.baselineSources, ...plan.selectedSources];
const planSource = (plan: ContextReadPlanV2, sourceId: string) =>
  planSources(plan).find((s) => s.sourceId === sourceId);

/** The receipt's mandatory set `M`: the plan's mandatory sources. */
const mandatoryOf = (plan: ContextReadPlanV2) => plan.mandatorySourceIds;

/** Recompute every derived field of a draft from its records (Derived fields). */
/** The `lastError` of a receipt a conflicting duplicate PostToolUse (`record`, the later one) made unverified. */
export function conflictError(record: Result): NonNullable<ContextReadReceiptV2['lastError']> {
  return {
    code: 'CONTEXT_POST_TOOL_USE_CONFLICT',
    message: `two different PostToolUse results for tool call ${record.toolCallId} and ${record.sourceId}.`,
    nextStep: 'keep the receipt unverified; replan once if the action still needs context.',
  };
}

export function deriveReceipt(draft: Draft, plan: ContextReadPlanV2, now: string): Draft {
  const M = mandatoryOf(plan);
  const records = draft.observations;
  const reuseAllowed = draft.reuseFrom !== null;
  const sat = (s: string) => satisfyingRecord(records, s, reuseAllowed) !== undefined;
  const sourceIdentities: ContextSourceIdentity[] = [];
  for (const s of sortedUnique(records.filter(isResult).map((r) => r.sourceId))) {
    const latest = satisfyingRecord(records, s, reuseAllowed);
    if (latest?.contentIdentity)
      sourceIdentities.push({ sourceId: s, contentIdentity: latest.contentIdentity });
  }
  const lists =
    draft.verificationMode !== 'structured-plan' || draft.status === 'stale' || draft.status === 'blocked'
      ? { satisfied: [] as string[], missing: [...M] }
      : { satisfied: M.filter(sat), missing: M.filter((s) => !sat(s)) };
  let { status, completedAt, consumedAt } = draft;
  if (draft.verificationMode === 'structured-plan' && !ABSORBING.has(status)) {
    const complete = lists.missing.length === 0 && M.length > 0;
    if (complete) {
      status = consumedAt !== null ? 'completed' : 'relevant-complete';
      completedAt = completedAt ?? now;
    } else {
      consumedAt = null;
      completedAt = null;
      status = plan.fullRead
        ? 'escalated-full'
        : records.some(
              (r) =>
                isAttempt(r) ||
                (isResult(r) && r.outcome !== 'baseline-ready' && r.reusedObservationId === null),
            )
          ? 'attempted'
          : records.some((r) => isResult(r) && r.outcome === 'baseline-ready')
            ? 'baseline-ready'
            : 'planned';
    }
  }
  if (!COMPLETE.has(status)) {
    completedAt = null;
    consumedAt = null;
  }
  const bodyObserved = M.every((s) => sourceIdentities.some((i) => i.sourceId === s));
  const reused = draft.reuseFrom !== null;
  const eligible = COMPLETE.has(status) && bodyObserved && draft.hostSessionId !== null;
  const reasonCode = reused
    ? 'same-session-epoch-content-observed'
    : status === 'stale'
      ? 'receipt-stale'
      : status === 'blocked'
        ? 'receipt-blocked'
        : status === 'unverified'
          ? 'receipt-unverified'
          : draft.hostSessionId === null
            ? 'host-session-unobservable'
            : eligible
              ? 'current-session-content-observed'
              : 'body-read-required';
  return {
    ...draft,
    status,
    satisfiedSourceIds: sortedUnique(lists.satisfied),
    missingSourceIds: sortedUnique(lists.missing),
    sourceIdentities: bySourceId(sourceIdentities),
    delivery: { bodyObserved, reused, eligible, reasonCode },
    completedAt,
    consumedAt,
  };
}

/** Seal a draft: `updatedAt` and the revision's `receiptId`. */
export function sealReceipt(draft: Draft, now: string): ContextReadReceiptV2 {
  const { updatedAt: _u, ...rest } = { ...draft, updatedAt: now };
  const receiptId = derivedId('receipt-', rest, 24);
  return { receiptId, ...rest, updatedAt: now } as ContextReadReceiptV2;
}

/** The receipt's document without `receiptId`, for the engines that rebuild a receipt. */
export const draftOf = (r: ContextReadReceiptV2): Draft => {
  const { receiptId: _id, ...draft } = r;
  return draft;
};

/** A baseline result record of the plan call for one baseline source. */
function baselineRecord(
  plan: ContextReadPlanV2,
  source: ContextReadPlanV2['baselineSources'][number],
  call: NonNullable<ReceiptOpen['planCall']>,
  hostSessionId: string | null,
  observedAt: string,
): Result {
  const payload = canonicalize(plan);
  const record: Omit<Result, 'observationId'> = {
    hookEvent: 'PostToolUse',
    toolCallId: call.toolCallId,
    sourceId: source.sourceId,
    sourceKind: 'profile-baseline',
    contextEpoch: plan.contextBinding.contextEpoch,
    planId: plan.planId,
    activeRoot: plan.contextBinding.activeRoot,
    hostSessionId,
    argsDigest: call.argsDigest ?? null,
    attemptedAt: call.attemptedAt,
    observedAt,
    outcome: 'baseline-ready',
    successful: true,
    observable: true,
    transportSuccess: true,
    activeRootMatch: true,
    correlationValid: true,
    sourceLayer: source.sourceLayer.split('+')[0]!,
    sourceRefsMatch: true,
    schemaMatch: true,
    targetMatch: true,
    bodyObserved: true,
    cache: false,
    reusedObservationId: null,
    resultDigest: digestOf(plan),
    contentIdentity: source.contentIdentity,
    bytes: new TextEncoder().encode(payload).length,
    chars: [...payload].length,
    hostDeliveredBytes: null,
    latencyMs: null,
    tokens: null,
  };
  return { observationId: observationIdOf(record), ...record };
}

/**
 * Open the receipt of an observed plan (the `create` rows of the state machine): `blocked` for a
 * blocked plan, `unverified` for a fallback mode, else `escalated-full`, `baseline-ready` or
 * `planned` with the plan call's baseline results.
 */
export function openReceipt(plan: ContextReadPlanV2, open: ReceiptOpen, clock: Clock): ReceiptResult {
  const now = timestampOf(clock.now());
  const structured = open.verificationMode === 'structured-plan';
  if (structured && !open.planCall)
    return refuse(
      'CONTEXT_BINDING_REQUIRED',
      '/planCall',
      'a structured-plan receipt needs the plan tool call (toolCallId, attemptedAt) that delivered the plan.',
    );
  if (structured && open.planCall && !(Date.parse(open.planCall.attemptedAt) <= Date.parse(plan.plannedAt)))
    return refuse(
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/planCall/attemptedAt',
      `the plan call's PreToolUse (${open.planCall.attemptedAt}) is after the plan was made (${plan.plannedAt}); the plan is made inside its own tool call.`,
    );
  if (structured && Date.parse(now) < Date.parse(plan.plannedAt))
    return refuse(
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/plannedAt',
      'the plan was made after now; a receipt cannot be opened before its plan exists.',
    );
  const blocked = plan.exitCondition === 'blocked';
  const planObservation = structured ? { ...open.planCall!, observedAt: now } : null;
  const observations: Observation[] =
    structured && !blocked && open.baselineDelivered !== false
      ? plan.baselineSources.map((s) => baselineRecord(plan, s, open.planCall!, open.hostSessionId, now))
      : [];
  const planObs = planObservation
    ? { toolCallId: planObservation.toolCallId, attemptedAt: planObservation.attemptedAt, observedAt: now }
    : null;
  const draft: Draft = {
    schemaVersion: 'ContextReadReceiptV2',
    binding: plan.contextBinding,
    host: plan.identity.host,
    hostSessionId: open.hostSessionId,
    verificationMode: open.verificationMode,
    status: blocked ? 'blocked' : structured ? 'planned' : 'unverified',
    planObservation: planObs,
    observations,
    satisfiedSourceIds: [],
    missingSourceIds: [],
    fullRead: plan.fullRead,
    fullReadReason: plan.fullReadReason,
    escalations: plan.triggeredEscalations.slice(0, ESCALATION_LIMIT).map((trigger) => ({
      trigger,
      reasonCode: trigger,
      observedAt: now,
      action: 'planned' as const,
    })),
    replanCount: 0,
    lastError: blocked
      ? {
          code: 'CONTEXT_RECEIPT_BLOCKED_PLAN',
          message: 'the plan is blocked (an unclassified candidate or a missing required source).',
          nextStep: 'resolve the blocking cause and plan again.',
        }
      : null,
    sourceIdentities: [],
    delivery: { bodyObserved: false, reused: false, eligible: false, reasonCode: 'body-read-required' },
    reuseFrom: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    consumedAt: null,
  };
  return { ok: true, receipt: sealReceipt(deriveReceipt(draft, plan, now), now), changed: true };
}

const DRIFT_CODES: Record<string, string> = {
  'scope-drift': 'CONTEXT_RECEIPT_SCOPE_DRIFT',
  'profile-drift': 'CONTEXT_BASELINE_STALE',
  'source-digest': 'CONTEXT_BASELINE_STALE',
  'config-digest': 'CONTEXT_BASELINE_STALE',
  'profile-catalog-drift': 'CONTEXT_PROFILE_CATALOG_DRIFT',
};
/** Stale reason codes a ledger replay may heal (Replay). */
export const REPLAYABLE_REASON_CODES: readonly string[] = [
  'projection-drift',
  'writer-drift',
  'observation-orphaned',
  'observation-write-failed',
  'delivery-unobserved',
];

function markStale(
  draft: Draft,
  trigger: ContextEscalationTrigger,
  reasonCode: string,
  error: ContextReceiptError,
  now: string,
): Draft {
  const escalations = [
    ...draft.escalations,
    { trigger, reasonCode, observedAt: now, action: 'replan-required' as const },
  ];
  return {
    ...draft,
    status: 'stale',
    escalations: escalations.slice(-ESCALATION_LIMIT),
    replanCount: draft.replanCount + 1,
    lastError: error,
    completedAt: null,
    consumedAt: null,
  };
}

function resultRecord(
  plan: ContextReadPlanV2,
  draft: Draft,
  e: Extract<ContextEvent, { event: 'PostToolUse' }>,
  kind: Result['sourceKind'],
  now: string,
): Omit<Result, 'observationId'> {
  const b = plan.contextBinding;
  const argsDigest = e.argsDigest ?? null;
  const attempts = draft.observations.filter(
    (o): o is Attempt =>
      isAttempt(o) &&
      o.toolCallId === e.toolCallId &&
      o.sourceId === e.sourceId &&
      o.contextEpoch === e.contextEpoch &&
      o.planId === e.planId &&
      (o.argsDigest === null || argsDigest === null || o.argsDigest === argsDigest),
  );
  const attempt = attempts.length === 1 ? attempts[0] : undefined;
  const correlationValid =
    e.contextEpoch === b.contextEpoch && e.planId === b.planId && attempt !== undefined;
  let observable = 'toolResult' in e && e.toolResult !== undefined;
  let resultDigest: string | null = null;
  let payload = '';
  if (observable) {
    try {
      payload = canonicalize(e.toolResult);
      resultDigest = digestOf(e.toolResult);
    } catch {
      observable = false;
    }
  }
  const source = planSource(plan, e.sourceId)!;
  const key = sourceKeyOf(b.project, e.sourceId);
  let identity: ContentIdentityV1 | null = null;
  let bodyObserved = false;
  if (e.body) {
    try {
      const computed = contentIdentityOf(key, e.body);
      const claimed = e.contentIdentity ?? null;
      const agrees =
        claimed === null || (claimed.digest === computed.digest && claimed.bytes === computed.bytes);
      if (agrees) {
        identity = claimed === null ? computed : { ...computed, contractVersion: claimed.contractVersion };
        bodyObserved = true;
      }
    } catch {
      // a body without identity is not observed
    }
  } else if (e.contentIdentity) {
    identity = e.contentIdentity;
    bodyObserved = true;
  }
  const sameSource = identity === null || identity.sourceKey.split('#')[0] === key;
  const memory = kind === 'memory';
  const targetMatch =
    (memory ? e.targetMatch === true : e.targetMatch !== false) &&
    (e.project ?? b.project) === b.project &&
    (e.planContentId ?? b.planContentId) === b.planContentId &&
    sameSource;
  const schemaMatch = memory ? e.schemaMatch === true : e.schemaMatch !== false;
  const live = e.liveRefs?.map((r) =>
    contextSourceRefDigest({ ...r, mtimeMs: r.mtimeMs === null ? null : Math.trunc(r.mtimeMs) }),
  );
  const planned = [...source.sourceRefs].map((r) => r.metadataDigest);
  const sourceRefsMatch =
    live !== undefined &&
    live.length === planned.length &&
    [...live].sort().join() === [...planned].sort().join();
  const successful = e.sourceOk !== false && bodyObserved;
  const flags = {
    activeRootMatch: e.activeRoot === b.activeRoot,
    correlationValid,
    observable,
    transportSuccess: observable && !hasFailureMarker(e.toolResult),
    sourceRefsMatch,
    schemaMatch,
    targetMatch,
    successful,
  };
  return {
    hookEvent: 'PostToolUse',
    toolCallId: e.toolCallId,
    sourceId: e.sourceId,
    sourceKind: kind,
    contextEpoch: e.contextEpoch,
    planId: e.planId,
    activeRoot: e.activeRoot,
    hostSessionId: e.hostSessionId,
    argsDigest,
    attemptedAt: attempt?.attemptedAt ?? now,
    observedAt: now,
    outcome: classifyOutcome(flags, 'observed-success'),
    ...flags,
    sourceLayer: e.sourceLayer,
    bodyObserved,
    cache: e.cache === true,
    reusedObservationId: null,
    resultDigest,
    contentIdentity: identity,
    bytes: observable ? new TextEncoder().encode(payload).length : null,
    chars: observable ? [...payload].length : null,
    hostDeliveredBytes: e.hostDeliveredBytes ?? null,
    latencyMs: e.latencyMs ?? null,
    tokens: e.tokens ?? null,
  };
}

/**
 * Fold one event into the receipt by the state machine. Events on an absorbing status
 * (`stale`, `blocked`, `unverified`) leave it unchanged (`changed: false`); an event the table
 * does not allow is refused with `CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID`.
 *
 * @example
 * const r = observeReceipt(receipt, plan, { event: 'PreToolUse', ... }, clock);
 * if (r.ok && r.changed) receipt = r.receipt;
 */
export function observeReceipt(
  receipt: ContextReadReceiptV2,
  plan: ContextReadPlanV2,
  event: ContextEvent,
  clock: Clock,
): ReceiptResult {
  const now = timestampOf(clock.now());
  if (ABSORBING.has(receipt.status)) return { ok: true, receipt, changed: false };
  if (Date.parse(now) < Date.parse(receipt.updatedAt))
    return refuse(
      'CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED',
      '/updatedAt',
      `the clock (${now}) is before the receipt's last revision (${receipt.updatedAt}); events are recorded in time order.`,
    );
  const draft = draftOf(receipt);
  const complete = COMPLETE.has(receipt.status);
  const done = (next: Draft): ReceiptResult => ({
    ok: true,
    receipt: sealReceipt(deriveReceipt(next, plan, now), now),
    changed: true,
  });
  const b = plan.contextBinding;
  switch (event.event) {
    case 'PreToolUse': {
      const allowed = plan.actionEnvelope.allowedActionClasses.includes(event.actionClass);
      const withinRisk = RISK_RANK[event.risk ?? 'normal'] <= RISK_RANK[plan.actionEnvelope.riskCeiling];
      const unknown = event.sourceIds.find((s) => !planSource(plan, s));
      if (
        !allowed ||
        !withinRisk ||
        event.activeRoot !== b.activeRoot ||
        unknown !== undefined ||
        event.sourceIds.length === 0
      ) {
        const why = !allowed
          ? `action class ${event.actionClass} is outside the plan's envelope`
          : !withinRisk
            ? `risk ${event.risk} is above the plan's ceiling ${plan.actionEnvelope.riskCeiling}`
            : event.activeRoot !== b.activeRoot
              ? `root ${event.activeRoot} is not the plan's ${b.activeRoot}`
              : `source ${unknown ?? '(none)'} is not a source of the plan`;
        return done(
          markStale(
            draft,
            'scope-drift',
            'scope-drift',
            {
              code: 'CONTEXT_RECEIPT_SCOPE_DRIFT',
              message: `an attempt is incompatible with the plan: ${why}.`,
              nextStep: 'replan once before the broader action.',
            },
            now,
          ),
        );
      }
      if (complete)
        return refuse(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          '/event',
          `a ${receipt.status} receipt takes no further attempt; plan again for new reads.`,
        );
      const records = [...draft.observations];
      for (const sourceId of event.sourceIds) {
        const record: Omit<Attempt, 'observationId'> = {
          hookEvent: 'PreToolUse',
          toolCallId: event.toolCallId,
          sourceId,
          sourceKind: planSource(plan, sourceId)!.kind,
          actionClass: event.actionClass,
          contextEpoch: event.contextEpoch,
          planId: event.planId,
          activeRoot: event.activeRoot,
          hostSessionId: event.hostSessionId,
          argsDigest: event.argsDigest ?? null,
          attemptedAt: now,
          observedAt: null,
          outcome: 'attempted',
        };
        const id = observationIdOf(record);
        if (!records.some((r) => r.observationId === id)) records.push({ observationId: id, ...record });
      }
      if (records.length === draft.observations.length) return { ok: true, receipt, changed: false };
      const kept = evict(records, RECEIPT_OBSERVATION_LIMIT);
      if (!kept)
        return refuse(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          '/observations',
          'the receipt holds 100 evidence records; plan again.',
        );
      return done({ ...draft, observations: kept });
    }
    case 'PostToolUse': {
      if (receipt.status === 'completed')
        return refuse(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          '/event',
          'a completed receipt takes no further result; plan again for new reads.',
        );
      const source = planSource(plan, event.sourceId);
      if (!source)
        return refuse(
          'CONTEXT_SOURCE_NOT_AUTHORIZED',
          '/sourceId',
          `${event.sourceId} is not a source of the plan; the record is dropped.`,
        );
      if (!source.sourceLayer.split('+').includes(event.sourceLayer))
        return refuse(
          'CONTEXT_SOURCE_NOT_AUTHORIZED',
          '/sourceLayer',
          `layer ${event.sourceLayer} is not a layer of ${event.sourceId} (${source.sourceLayer}); the record is dropped.`,
        );
      const body = resultRecord(plan, draft, event, source.kind, now);
      const id = observationIdOf(body);
      if (draft.observations.some((r) => r.observationId === id))
        return { ok: true, receipt, changed: false };
      const record: Result = { observationId: id, ...body };
      const kept = evict([...draft.observations, record], RECEIPT_OBSERVATION_LIMIT);
      if (!kept)
        return refuse(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          '/observations',
          'the receipt holds 100 evidence records; plan again.',
        );
      const conflict = kept.some(
        (o) =>
          o !== record && isResult(o) && o.toolCallId === record.toolCallId && o.sourceId === record.sourceId,
      );
      if (conflict)
        return done({
          ...draft,
          observations: kept,
          status: 'unverified',
          completedAt: null,
          consumedAt: null,
          lastError: conflictError(record),
        });
      return done({ ...draft, observations: kept });
    }
    case 'drift': {
      const reasonCode = event.reasonCode ?? event.trigger;
      const code =
        event.code ??
        (REPLAYABLE_REASON_CODES.includes(reasonCode)
          ? 'CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION'
          : (DRIFT_CODES[event.trigger] ?? 'CONTEXT_BINDING_PLAN_EXPIRED'));
      return done(
        markStale(
          draft,
          event.trigger,
          reasonCode,
          {
            code,
            message: event.message ?? `${event.trigger} (${reasonCode}) was observed.`,
            nextStep: 'plan again in the current epoch.',
          },
          now,
        ),
      );
    }
    case 'block':
      return done({
        ...draft,
        status: 'blocked',
        completedAt: null,
        consumedAt: null,
        lastError: {
          code: 'CONTEXT_RECEIPT_BLOCKED_PLAN',
          message: event.message ?? 'the plan was found blocked.',
          nextStep: 'resolve the blocking cause and plan again.',
        },
      });
    case 'consume':
      if (receipt.status !== 'relevant-complete')
        return refuse(
          'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
          '/event',
          `only a relevant-complete receipt can be consumed (this one is ${receipt.status}); read the missing sources first.`,
        );
      return done({ ...draft, consumedAt: now });
    default:
      return refuse(
        'CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID',
        '/event',
        'unknown event; send PreToolUse, PostToolUse, drift, block or consume.',
      );
  }
}
