import type { ContractEntry } from '../gates.js';
import type { NonNegativeInteger, Sha256Hex, Timestamp } from './common.js';
import type { ContentIdentityV1, ContextReadBindingV1 } from './context-identity.js';

// ---------------------------------------------------------------------------------------------
// Scalars of this area. Each alias carries its constraints so every use site gets them.
// ---------------------------------------------------------------------------------------------

/**
 * A context epoch id: 1-256 characters without whitespace, e.g. `ctx-4f1c0a9e2b7d55e08a61`.
 * @minLength 1
 * @maxLength 256
 * @pattern ^\S+$
 */
type ContextEpoch = string;

/**
 * A resolved workspace root: `/` is the only separator, no trailing `/` (except the root `/`
 * itself), no control characters. At most 4096 characters.
 * @minLength 1
 * @maxLength 4096
 * @pattern ^(/|[^\\\u0000-\u001f]*[^/\\\u0000-\u001f])$
 */
type ActiveRoot = string;

/**
 * A project namespace inside the active root: one path segment of at most 128 characters, not
 * `.` or `..`, without `/`, `\`, control characters or surrounding whitespace.
 * @minLength 1
 * @maxLength 128
 * @pattern ^(?!\.\.?$)[^\s/\\](?:[^/\\\u0000-\u001f]{0,126}[^\s/\\])?$
 */
type ProjectName = string;

/**
 * Invocation identity of a plan in the plan chain: `plan-` + 24 lowercase hex characters.
 * @pattern ^plan-[a-f0-9]{24}$
 */
type PlanId = string;

/**
 * Content identity of a plan: `plan-content-` + 64 lowercase hex characters.
 * @pattern ^plan-content-[a-f0-9]{64}$
 */
type PlanContentId = string;

/**
 * An integer from 0 to 2^53 - 1, or `null` where the field says what null means.
 * @TJS-type ["integer", "null"]
 * @minimum 0
 * @maximum 9007199254740991
 */
type NullableNonNegativeInteger = number | null;

/**
 * A non-negative number (V1 compatibility: file times may be fractional milliseconds), or `null`.
 * @minimum 0
 */
type NullableNonNegativeNumber = number | null;

/**
 * Free-text explanation for humans. Never part of a digest or content identity. 1-512 characters.
 * @minLength 1
 * @maxLength 512
 */
type ReasonText = string;

// ---------------------------------------------------------------------------------------------
// Vocabularies.
// ---------------------------------------------------------------------------------------------

/** Canonical top-level intent of one user message. */
export type ContextIntent = 'dev' | 'fix' | 'analyze' | 'audit' | 'self-fix' | 'chat' | 'resume' | 'other';

/** Risk level of a message or ceiling of a plan's action envelope, ranked normal < high < critical. */
export type ContextRisk = 'normal' | 'high' | 'critical';

/** Kind of change the message asks for; drives source selection, the action envelope and full reads. */
export type ContextChangeType =
  | 'project-info'
  | 'architecture'
  | 'code-style'
  | 'source-code'
  | 'testing'
  | 'release'
  | 'feature-state'
  | 'docs'
  | 'public-contract'
  | 'config'
  | 'security'
  | 'destructive';

/** Class of action a plan authorizes; a tool call outside the envelope makes the receipt stale. */
export type ContextActionClass =
  | 'context-read'
  | 'analysis-read'
  | 'test-execution'
  | 'docs-mutation'
  | 'source-mutation'
  | 'workflow-closeout'
  | 'release'
  | 'dangerous';

/** Condition that escalates a plan to a full read, blocks it, or forces a replan. */
export type ContextEscalationTrigger =
  | 'low-confidence'
  | 'cross-service'
  | 'public-contract'
  | 'release'
  | 'security'
  | 'destructive'
  | 'missing-reference'
  | 'profile-catalog-drift'
  | 'profile-drift'
  | 'scope-drift'
  | 'source-digest'
  | 'config-digest'
  | 'tool-schema-drift'
  | 'route-consumer-drift'
  | 'host-session-drift'
  | 'compact'
  | 'explicit-full';

/** How a plan ends: every mandatory source read, full read, or no read allowed until replanned. */
export type ContextExitCondition = 'relevant-complete' | 'escalated-full' | 'blocked';

/** Why a plan is a full read, in precedence order (the first that applies is recorded). */
export type ContextFullReadReason =
  | 'explicit-request'
  | 'audit-intent'
  | 'low-confidence'
  | 'cross-service'
  | 'release'
  | 'security'
  | 'destructive';

/** Where a source's authority comes from. */
export type ContextSourceAuthority =
  | 'lossless-plan-baseline'
  | 'effective-non-local-config'
  | 'profile-catalog'
  | 'profile-inventory'
  | 'bounded-memory-query';

// ---------------------------------------------------------------------------------------------
// IntentSeedV1
// ---------------------------------------------------------------------------------------------

/**
 * The semantic seed of one user message: its canonical top-level intent and hints, formed from
 * the current message and observed continuity only, before any Profile or memory body is read.
 * It opens the context epoch every later plan, read and receipt is bound to.
 */
export interface IntentSeedV1 {
  /** Contract discriminator. */
  schemaVersion: 'IntentSeedV1';
  /**
   * The context epoch this seed opens. When the host supplies none it is
   * `ctx-` + the first 20 hex characters of `digestOf({semantic, targetHint, createdAt})`.
   */
  contextEpoch: ContextEpoch;
  /** Canonical top-level intent (an input alias `intent` is normalized into this field and never written). */
  semantic: ContextIntent;
  /**
   * The project the message names, trimmed, or `null` when it names none. A hint only: the plan
   * resolves the unique target. At most 256 characters.
   * @minLength 1
   * @maxLength 256
   * @pattern ^\S(.*\S)?$
   */
  targetHint: string | null;
  /** `true` only when the message continues earlier work that was observed (e.g. a resume); never inferred from keywords. */
  continuationHint: boolean;
  /** Risk the message carries; becomes the plan's `actionEnvelope.riskCeiling`. */
  riskHint: ContextRisk;
  /**
   * Confidence of the intent classification, 0 to 1. Below 0.6 is low confidence: the plan must
   * be a full read with trigger `low-confidence`.
   * @minimum 0
   * @maximum 1
   */
  confidence: number;
  /** When the seed was formed; no plan of this epoch may be older. */
  createdAt: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV2 parts
// ---------------------------------------------------------------------------------------------

/** Metadata of one place a source lives, observed by the planner without reading its body. */
export interface ContextPlanSourceRef {
  /**
   * Location of the source: a `/`-separated path, or `memory://<project>/<query>` for a memory
   * query. No `\`, no control characters. At most 4096 characters.
   * @minLength 1
   * @maxLength 4096
   * @pattern ^[^\\\u0000-\u001f]+$
   */
  path: string;
  /**
   * Storage layer the path belongs to, e.g. `profile`, `profile-metadata`, `memory-query`.
   * @minLength 1
   * @maxLength 64
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   */
  layer: string;
  /** Whether the path existed when the planner looked. */
  exists: boolean;
  /** Size in bytes, or `null` when the source does not exist or has no size (memory queries). */
  size: NullableNonNegativeInteger;
  /** Last modification time in whole milliseconds since the Unix epoch (truncated), or `null` when unknown. */
  mtimeMs: NullableNonNegativeInteger;
  /** `digestOf({path, layer, exists, size, mtimeMs})` of this ref. */
  metadataDigest: Sha256Hex;
}

/**
 * Metadata refs of a source, sorted by `layer + ':' + path`, unique.
 * @minItems 1
 * @maxItems 16
 */
export type ContextPlanSourceRefs = ContextPlanSourceRef[];

/** A source the planner read while planning and delivers with the plan (the index and the effective config). */
export interface ContextPlanBaselineSource {
  /**
   * `profile:` + the source's file name (one path segment).
   * @pattern ^profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$
   */
  sourceId: string;
  /** Always `profile-baseline`. */
  kind: 'profile-baseline';
  /** Baseline sources are always mandatory. */
  mandatory: true;
  /** `lossless-plan-baseline` for the index, `effective-non-local-config` for the configuration. */
  authority: 'lossless-plan-baseline' | 'effective-non-local-config';
  /** Why the source is in the baseline, for humans; not part of the content identity. */
  reason: ReasonText;
  /** `baseline-readme` for the store's index document, `baseline-config` for its effective non-local configuration. */
  reasonCode: 'baseline-readme' | 'baseline-config';
  /**
   * Distinct layers of `sourceRefs`, in ref order, joined with `+`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+(-[a-z0-9]+)*)*$
   */
  sourceLayer: string;
  /** Baseline sources must exist; always `true`. */
  requiredToExist: true;
  /** Where the source lives; at least one ref has `exists: true`. */
  sourceRefs: ContextPlanSourceRefs;
  /** Identity of the exact body the planner read and delivered with the plan. */
  contentIdentity: ContentIdentityV1;
}

/** A source the plan selects for reading after the plan is observed. */
export interface ContextPlanSelectedSource {
  /**
   * `profile:<file>` for a Profile document, `memory:status|session|summary` for a bounded memory query.
   * @pattern ^(profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}|memory:(status|session|summary))$
   */
  sourceId: string;
  /** `profile` (shared document), `profile-local` (machine-local, never shared), or `memory` (bounded query). */
  kind: 'profile' | 'profile-local' | 'memory';
  /** Whether the receipt can complete only after this source was read and observed. */
  mandatory: boolean;
  /** `profile-catalog` / `profile-inventory` for documents, `bounded-memory-query` for memory. */
  authority: 'profile-catalog' | 'profile-inventory' | 'bounded-memory-query';
  /** Why the source is selected, for humans; not part of the content identity. */
  reason: ReasonText;
  /** Machine reason for the selection. */
  reasonCode: 'explicit-selector' | 'intent-change-type' | 'full-read' | 'memory-status' | 'memory-session';
  /**
   * Distinct layers of `sourceRefs`, in ref order, joined with `+`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+(-[a-z0-9]+)*)*$
   */
  sourceLayer: string;
  /** Whether the catalogue requires the source to exist; a required source without an existing ref blocks the plan. */
  requiredToExist: boolean;
  /** Where the source lives. */
  sourceRefs: ContextPlanSourceRefs;
}

/** A candidate the plan deliberately does not read, with the reason. */
export interface ContextPlanExcludedSource {
  /**
   * `profile:` + the candidate's file name.
   * @pattern ^profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$
   */
  sourceId: string;
  /** `profile` or `profile-local`. */
  kind: 'profile' | 'profile-local';
  /** `profile-catalog` when the catalogue lists the candidate, else `profile-inventory`. */
  authority: 'profile-catalog' | 'profile-inventory';
  /** Independent explanation of why it is not read; never a bare "not needed". Not part of the content identity. */
  skipReason: ReasonText;
  /** `excluded-local-policy` (local source not requested), `excluded-metadata-only` (not a readable document), `excluded-no-match`. */
  reasonCode: 'excluded-local-policy' | 'excluded-no-match' | 'excluded-metadata-only';
  /**
   * Distinct layers of `sourceRefs`, in ref order, joined with `+`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+(-[a-z0-9]+)*)*$
   */
  sourceLayer: string;
  /** Whether the catalogue requires the candidate to exist. */
  requiredToExist: boolean;
  /** Where the candidate lives. */
  sourceRefs: ContextPlanSourceRefs;
}

/** A candidate the planner could not classify (found in the inventory, absent from the catalogue); blocks the plan. */
export interface ContextPlanUnclassifiedSource {
  /**
   * `profile:` + the candidate's file name.
   * @pattern ^profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$
   */
  sourceId: string;
  /** Always `profile`: only uncatalogued documents are unclassified. */
  kind: 'profile';
  /** Always `profile-inventory`. */
  authority: 'profile-inventory';
  /** Always `unclassified-uncatalogued`. */
  reasonCode: 'unclassified-uncatalogued';
  /**
   * Distinct layers of `sourceRefs`, in ref order, joined with `+`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+(-[a-z0-9]+)*)*$
   */
  sourceLayer: string;
  /** Whether the candidate is required to exist (normally `false`: the catalogue does not know it). */
  requiredToExist: boolean;
  /** Where the candidate lives. */
  sourceRefs: ContextPlanSourceRefs;
}

/** Who the plan is for and which invocation made it. */
export interface ContextPlanIdentity {
  /** Epoch of the plan; equals `intentSeed.contextEpoch`. */
  contextEpoch: ContextEpoch;
  /** The unique resolved workspace root. */
  activeRoot: ActiveRoot;
  /** The unique resolved project. */
  project: ProjectName;
  /**
   * The agent host that asked for the plan, e.g. `standalone`, `codex-cli`.
   * @minLength 1
   * @maxLength 64
   * @pattern ^[a-z0-9][a-z0-9._-]*$
   */
  host: string;
  /**
   * Planner implementation and algorithm version, `<name>@<major>`, e.g. `acme-planner@2`; a
   * planner that selects differently must change it.
   * @minLength 3
   * @maxLength 128
   * @pattern ^[a-z0-9][a-z0-9._/-]*@[0-9]+$
   */
  planner: string;
  /** The seed the plan was made from, embedded verbatim. */
  intentSeed: IntentSeedV1;
  /** The intent the plan serves; normally `intentSeed.semantic`. */
  finalIntent: ContextIntent;
  /**
   * Fresh per planning invocation (e.g. a random UUID); makes `planId` unique per invocation.
   * @minLength 16
   * @maxLength 128
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._:-]*$
   */
  invocationNonce: string;
}

/** What the plan authorizes the agent to do with the context it reads. */
export interface ContextActionEnvelope {
  /**
   * Authorized action classes, sorted, unique.
   * @minItems 1
   * @maxItems 8
   * @uniqueItems true
   */
  allowedActionClasses: ContextActionClass[];
  /** Whether any mutating class (`docs-mutation`, `source-mutation`, `workflow-closeout`, `release`, `dangerous`) is allowed. */
  mutationExpected: boolean;
  /** Highest risk an attempted action may carry; equals the seed's `riskHint`. */
  riskCeiling: ContextRisk;
}

/** The candidate universe of the Profile as the planner enumerated it from bounded metadata. */
export interface ContextCandidateCoverage {
  /**
   * Ids (`profile:<file>`) the catalogue lists, sorted, unique.
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$
   */
  cataloguedIds: string[];
  /**
   * Ids (`profile:<file>`) found by enumerating the store (inventory), sorted, unique.
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}$
   */
  inventoryIds: string[];
}

/** Reading budget of the invocation; never a reason to weaken a gate. */
export interface ContextReadBudget {
  /** Maximum body bytes to read, or `null` for no limit. */
  bytes: NullableNonNegativeInteger;
  /** Maximum body characters to read, or `null`. */
  chars: NullableNonNegativeInteger;
  /** Maximum model tokens to spend on context, or `null`. */
  tokens: NullableNonNegativeInteger;
  /** Maximum wall-clock milliseconds for reading, or `null`. */
  latencyMs: NullableNonNegativeInteger;
  /** `advisory` (report overruns) or `hard` (stop reading; the receipt then cannot complete). */
  enforcement: 'advisory' | 'hard';
}

/** Whether the planner reused a cached computation of this plan content. A hit never counts as delivery. */
export interface ContextComputationCacheDecision {
  /** Outcome of the cache lookup. */
  status: 'hit' | 'miss' | 'bypassed' | 'error' | 'disabled';
  /** Cache key; equals the plan's `planContentId`. */
  cacheKey: PlanContentId;
  /**
   * Machine reason, e.g. `no-cache-adapter`, `content-identity-match`.
   * @minLength 1
   * @maxLength 64
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   */
  reasonCode: string;
  /**
   * Computation artifacts taken from the cache, sorted, unique; non-empty iff `status` is `hit`.
   * @maxItems 32
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 64
   * @items.pattern ^[a-z0-9]+(-[a-z0-9]+)*$
   */
  reusedArtifacts: string[];
  /** Always `false`: reusing a computation never skips delivering and observing the bodies. */
  bodyDeliverySkipped: false;
}

/** Measurements of the planning step itself; never part of the content identity. */
export interface ContextPlanningTelemetry {
  /** UTF-8 bytes of the planner's input. */
  inputBytes: NonNegativeInteger;
  /** Characters of the planner's input. */
  inputChars: NonNegativeInteger;
  /** Planning wall-clock milliseconds, or `null` when not measured. */
  latencyMs: NullableNonNegativeInteger;
  /** Model tokens spent on planning, or `null` when not measured. */
  inputTokens: NullableNonNegativeInteger;
}

/** One source as it enters the content identity. */
export interface ContextIdentitySource {
  /**
   * The source id.
   * @pattern ^(profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}|memory:(status|session|summary))$
   */
  sourceId: string;
  /** Which of the four buckets holds the source. */
  bucket: 'baseline' | 'selected' | 'excluded' | 'unclassified';
  /** The source's `kind`. */
  kind: 'profile-baseline' | 'profile' | 'profile-local' | 'memory';
  /** The source's `mandatory` (`false` for excluded and unclassified sources). */
  mandatory: boolean;
  /** The source's `authority`. */
  authority: ContextSourceAuthority;
  /** The source's `reasonCode`. */
  reasonCode:
    | 'baseline-readme'
    | 'baseline-config'
    | 'memory-status'
    | 'memory-session'
    | 'explicit-selector'
    | 'intent-change-type'
    | 'full-read'
    | 'excluded-local-policy'
    | 'excluded-no-match'
    | 'excluded-metadata-only'
    | 'unclassified-uncatalogued';
  /**
   * The source's `sourceLayer`.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[a-z0-9]+(-[a-z0-9]+)*(\+[a-z0-9]+(-[a-z0-9]+)*)*$
   */
  sourceLayer: string;
  /** The source's `requiredToExist`. */
  requiredToExist: boolean;
  /**
   * `metadataDigest` of each of the source's refs, in ref order.
   * @minItems 1
   * @maxItems 16
   * @items.type string
   * @items.pattern ^[a-f0-9]{64}$
   */
  metadataDigests: string[];
}

/** Target part of the content identity. */
export interface ContextIdentityTarget {
  /** `identity.activeRoot`. */
  activeRoot: ActiveRoot;
  /** `identity.project`. */
  project: ProjectName;
  /**
   * `identity.host`.
   * @minLength 1
   * @maxLength 64
   * @pattern ^[a-z0-9][a-z0-9._-]*$
   */
  host: string;
}

/** Intent part of the content identity. */
export interface ContextIdentityIntent {
  /** `identity.finalIntent`. */
  finalIntent: ContextIntent;
  /** `identity.intentSeed.riskHint`. */
  riskHint: ContextRisk;
  /** `low` when `identity.intentSeed.confidence < 0.6`, else `normal` (the exact number is not identity). */
  confidenceClass: 'low' | 'normal';
  /**
   * The plan's `changeTypes`.
   * @maxItems 12
   * @uniqueItems true
   */
  changeTypes: ContextChangeType[];
  /** The plan's `actionEnvelope`. */
  actionEnvelope: ContextActionEnvelope;
}

/** Resolution part of the content identity. */
export interface ContextIdentityResolution {
  /**
   * The plan's `mandatorySourceIds`.
   * @minItems 1
   * @maxItems 258
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^(profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}|memory:(status|session|summary))$
   */
  mandatorySourceIds: string[];
  /**
   * The plan's `triggeredEscalations`.
   * @maxItems 17
   * @uniqueItems true
   */
  triggeredEscalations: ContextEscalationTrigger[];
  /** The plan's `exitCondition`. */
  exitCondition: ContextExitCondition;
  /** The plan's `fullRead`. */
  fullRead: boolean;
  /** The plan's `fullReadReason` (a code; the free-text `fullReadNote` is not identity). */
  fullReadReason: ContextFullReadReason | null;
  /** The plan's `localSourcesRequested`. */
  localSourcesRequested: boolean;
}

/** Contract and algorithm versions that enter the content identity; changing any of them changes every planContentId. */
export interface ContextIdentityVersions {
  /** Always `ContextReadPlanV2`. */
  contextPlan: 'ContextReadPlanV2';
  /** Always `ContextReadReceiptV2`: the receipt contract that will prove this plan. */
  contextReceipt: 'ContextReadReceiptV2';
  /** Always `ContentIdentityV1`. */
  contentIdentity: 'ContentIdentityV1';
  /** Always `ContextReadBindingV1`. */
  contextBinding: 'ContextReadBindingV1';
  /**
   * `identity.planner`.
   * @minLength 3
   * @maxLength 128
   * @pattern ^[a-z0-9][a-z0-9._/-]*@[0-9]+$
   */
  planner: string;
}

/**
 * Exactly what the plan's content identity hashes: everything that changes which bodies must be
 * read and why, and nothing about the invocation (epoch, nonce, times, telemetry, budget, cache
 * decision) or its wording (free-text reasons). Every array is in canonical order.
 */
export interface ContextPlanIdentityInputs {
  /** Target of the plan. */
  target: ContextIdentityTarget;
  /** Intent, risk and scope of the plan. */
  intent: ContextIdentityIntent;
  /** The plan's `baselineDigest` (baseline bodies and candidate metadata). */
  baselineDigest: Sha256Hex;
  /**
   * Every source of the four buckets, sorted by `sourceId`.
   * @minItems 3
   * @maxItems 2306
   */
  sources: ContextIdentitySource[];
  /** How the plan resolved. */
  resolution: ContextIdentityResolution;
  /** Versions the identity depends on. */
  versions: ContextIdentityVersions;
}

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV2
// ---------------------------------------------------------------------------------------------

/**
 * A bounded, deterministic plan of the context sources one message needs, made from an intent
 * seed and bounded metadata only. It partitions every candidate into exactly one of four buckets
 * (baseline, selected, excluded, unclassified), states whether and why it is a full read, and
 * separates the stable content identity (`planContentId`) from the invocation identity (`planId`).
 */
export interface ContextReadPlanV2 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReadPlanV2';
  /** Invocation identity: `plan-` + first 24 hex of `digestOf({planContentId, contextEpoch, invocationNonce})`. */
  planId: PlanId;
  /** Content identity: `plan-content-` + `digestOf(identityInputs)`; equal for equal content across processes and epochs. */
  planContentId: PlanContentId;
  /** The binding every read, observation and receipt of this plan carries, derived from the plan's own fields. */
  contextBinding: ContextReadBindingV1;
  /** Who the plan is for and which invocation made it. */
  identity: ContextPlanIdentity;
  /** When the plan was made; not before `identity.intentSeed.createdAt`. Not part of the content identity. */
  plannedAt: Timestamp;
  /**
   * Kinds of change the message asks for, sorted, unique. Empty only for `chat`, `resume` or a full read.
   * @maxItems 12
   * @uniqueItems true
   */
  changeTypes: ContextChangeType[];
  /** What the plan authorizes; derived from `finalIntent`, `changeTypes` and the seed's `riskHint`. */
  actionEnvelope: ContextActionEnvelope;
  /** Digest of what the planner read while planning: baseline bodies and candidate metadata (see Identity and digests). */
  baselineDigest: Sha256Hex;
  /** The Profile candidate universe the four buckets must partition. */
  candidateCoverage: ContextCandidateCoverage;
  /**
   * Bucket 1, baseline: the index and the effective configuration, read while planning and
   * delivered with the plan; sorted by `sourceId`.
   * @minItems 2
   * @maxItems 2
   */
  baselineSources: ContextPlanBaselineSource[];
  /**
   * Bucket 2, selected: sources to read after the plan is observed; sorted by `sourceId`.
   * Always contains `memory:status`.
   * @minItems 1
   * @maxItems 256
   */
  selectedSources: ContextPlanSelectedSource[];
  /**
   * Ids of every mandatory source of buckets 1 and 2, sorted, unique.
   * @minItems 1
   * @maxItems 258
   * @uniqueItems true
   * @items.type string
   * @items.pattern ^(profile:(?!\.\.?$)[^/\\\u0000-\u001f]{1,255}|memory:(status|session|summary))$
   */
  mandatorySourceIds: string[];
  /**
   * Bucket 3, excluded: candidates deliberately not read, each with a reason; sorted by `sourceId`.
   * @maxItems 1024
   */
  excludedSources: ContextPlanExcludedSource[];
  /**
   * Bucket 4, unclassified: candidates the planner could not classify; sorted by `sourceId`.
   * Non-empty forces `exitCondition: 'blocked'`.
   * @maxItems 1024
   */
  unclassifiedSources: ContextPlanUnclassifiedSource[];
  /** Whether the user or project explicitly asked for machine-local (`profile-local`) sources. */
  localSourcesRequested: boolean;
  /**
   * Escalation triggers that fired for this plan, sorted, unique.
   * @maxItems 17
   * @uniqueItems true
   */
  triggeredEscalations: ContextEscalationTrigger[];
  /** Whether every catalogued readable document is selected. */
  fullRead: boolean;
  /** Why the plan is a full read (first applicable in precedence order), or `null` iff `fullRead` is false. */
  fullReadReason: ContextFullReadReason | null;
  /**
   * The user's or project's words asking for a full read; non-null iff `fullReadReason` is
   * `explicit-request`. Not part of the content identity. At most 512 characters.
   * @minLength 1
   * @maxLength 512
   */
  fullReadNote: string | null;
  /** `blocked`, else `escalated-full` iff `fullRead`, else `relevant-complete`. */
  exitCondition: ContextExitCondition;
  /** Reading budget of this invocation. */
  budget: ContextReadBudget;
  /** Whether the planning computation came from a cache. */
  cacheDecision: ContextComputationCacheDecision;
  /** Exactly what `planContentId` hashes; re-derivable from the plan's other fields. */
  identityInputs: ContextPlanIdentityInputs;
  /** Measurements of planning. */
  planningTelemetry: ContextPlanningTelemetry;
}

// ---------------------------------------------------------------------------------------------
// ContextReadPlanV1 (read-only compatibility)
// ---------------------------------------------------------------------------------------------

/** V1 source ref: like V2 but numbers may be fractional. */
export interface ContextPlanV1SourceRef {
  /**
   * `/`-separated location of the source.
   * @minLength 1
   * @maxLength 4096
   */
  path: string;
  /**
   * Storage layer.
   * @minLength 1
   * @maxLength 128
   */
  layer: string;
  /** Whether the path existed. */
  exists: boolean;
  /** Size in bytes, or `null`. */
  size: NullableNonNegativeNumber;
  /** Modification time in milliseconds (may be fractional), or `null`. */
  mtimeMs: NullableNonNegativeNumber;
  /** `digestOf({path, layer, exists, size, mtimeMs})`. */
  metadataDigest: Sha256Hex;
}

/** V1 source descriptor (baseline and selected sources share one list). */
export interface ContextPlanV1Source {
  /**
   * `profile:<file>` or `memory:<query>`.
   * @minLength 1
   * @maxLength 512
   */
  sourceId: string;
  /** Source kind. */
  kind: 'profile-baseline' | 'profile' | 'profile-local' | 'memory';
  /**
   * File name or memory query name.
   * @minLength 1
   * @maxLength 255
   */
  selector: string;
  /** Whether the source is mandatory. */
  mandatory: boolean;
  /**
   * Authority of the source.
   * @minLength 1
   * @maxLength 128
   */
  authority: string;
  /**
   * Free-text reason.
   * @minLength 1
   * @maxLength 2048
   */
  reason: string;
  /** Machine reason; V1 writers may omit it. */
  reasonCode?:
    | 'baseline-readme'
    | 'baseline-config'
    | 'memory-status'
    | 'memory-session'
    | 'explicit-selector'
    | 'intent-change-type'
    | 'full-read'
    | 'excluded-local-policy'
    | 'excluded-no-match'
    | 'excluded-metadata-only';
  /**
   * Storage layer(s), `+`-joined.
   * @minLength 1
   * @maxLength 256
   */
  sourceLayer: string;
  /**
   * Metadata refs.
   * @minItems 1
   * @maxItems 64
   */
  sourceRefs: ContextPlanV1SourceRef[];
}

/** V1 excluded candidate. */
export interface ContextPlanV1ExcludedSource {
  /**
   * `profile:<file>`.
   * @minLength 1
   * @maxLength 512
   */
  sourceId: string;
  /**
   * File name.
   * @minLength 1
   * @maxLength 255
   */
  selector: string;
  /**
   * Free-text reason the candidate is not read.
   * @minLength 1
   * @maxLength 2048
   */
  skipReason: string;
  /** Machine reason; V1 writers may omit it. */
  reasonCode?: 'excluded-local-policy' | 'excluded-no-match' | 'excluded-metadata-only';
}

/** V1 baseline README as delivered inside the plan. */
export interface ContextPlanV1Readme {
  /**
   * The README body, verbatim.
   * @minLength 1
   * @maxLength 1048576
   */
  content: string;
  /**
   * Where it came from.
   * @minItems 1
   * @maxItems 64
   */
  sourceRefs: ContextPlanV1SourceRef[];
}

/** V1 baseline context: bodies and catalogue metadata embedded in the plan. */
export interface ContextPlanV1BaselineContext {
  /**
   * Profile layout name.
   * @minLength 1
   * @maxLength 64
   */
  layout: string;
  /**
   * Project.
   * @minLength 1
   * @maxLength 256
   */
  project: string;
  /**
   * Profile mode.
   * @minLength 1
   * @maxLength 64
   */
  mode: string;
  /**
   * Agent profile name.
   * @minLength 1
   * @maxLength 64
   */
  agent: string;
  /**
   * Profile tier.
   * @minLength 1
   * @maxLength 64
   */
  profileTier: string;
  /** Effective non-local configuration, verbatim. */
  effectiveConfig: { [key: string]: unknown };
  /** The README body and its refs. */
  readme: ContextPlanV1Readme;
  /**
   * Refs of the effective configuration.
   * @minItems 1
   * @maxItems 64
   */
  configSourceRefs: ContextPlanV1SourceRef[];
  /**
   * Catalogue entries as the writer recorded them, sorted by file.
   * @maxItems 1024
   */
  catalog: Array<{ [key: string]: unknown }>;
  /**
   * Inventory entries as the writer recorded them, sorted by file.
   * @maxItems 1024
   */
  inventory: Array<{ [key: string]: unknown }>;
  /** `digestOf` of this object without `baselineDigest`. */
  baselineDigest: Sha256Hex;
}

/** V1 identity block. */
export interface ContextPlanV1Identity {
  /** Epoch; equals `intentSeed.contextEpoch`. */
  contextEpoch: ContextEpoch;
  /**
   * Workspace root.
   * @minLength 1
   * @maxLength 4096
   */
  activeRoot: string;
  /**
   * Project.
   * @minLength 1
   * @maxLength 256
   */
  project: string;
  /**
   * Host.
   * @minLength 1
   * @maxLength 128
   */
  host: string;
  /** The seed. */
  intentSeed: IntentSeedV1;
  /** Final intent. */
  finalIntent: ContextIntent;
  /**
   * Invocation nonce; V1 writers may omit it.
   * @minLength 1
   * @maxLength 256
   */
  invocationNonce?: string;
}

/** V1 coverage of the catalogue candidates. */
export interface ContextPlanV1CatalogCoverage {
  /**
   * Selected candidate ids.
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   */
  selectedIds: string[];
  /**
   * Excluded candidate ids.
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   */
  excludedIds: string[];
  /**
   * Unclassified candidate ids.
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   */
  unclassifiedIds: string[];
}

/** V1 existence check of a required candidate. */
export interface ContextPlanV1ExistenceSource {
  /**
   * Candidate id.
   * @minLength 1
   * @maxLength 512
   */
  sourceId: string;
  /**
   * File name.
   * @minLength 1
   * @maxLength 255
   */
  selector: string;
  /** Always `true`. */
  required: true;
  /** Whether any ref exists. */
  exists: boolean;
  /**
   * `metadataDigest` of each ref.
   * @maxItems 64
   * @items.type string
   * @items.pattern ^[a-f0-9]{64}$
   */
  metadataDigests: string[];
}

/** V1 freshness contract (metadata only; V1 plans are never reusable). */
export interface ContextPlanV1Freshness {
  /** Always `size+mtimeMs+metadataDigest`. */
  strategy: 'size+mtimeMs+metadataDigest';
  /** Always `false`. */
  reuse: false;
  /**
   * What invalidates the plan, as the writer listed it.
   * @maxItems 32
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 64
   */
  invalidators: string[];
}

/** V1 budget. */
export interface ContextPlanV1Budget {
  /** Bytes, or `null`. */
  bytes: NullableNonNegativeNumber;
  /** Characters, or `null`. */
  chars: NullableNonNegativeNumber;
  /** Tokens, or `null`. */
  tokens: NullableNonNegativeNumber;
  /** Milliseconds, or `null`. */
  latencyMs: NullableNonNegativeNumber;
  /** `true` unless `force`. */
  advisory: boolean;
  /** Hard budget. */
  force: boolean;
}

/** V1 Profile selection view. */
export interface ContextPlanV1Profile {
  /**
   * Selected Profile file names, sorted.
   * @maxItems 1024
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 255
   */
  selectedFiles: string[];
  /** Whether machine-local configuration was requested. */
  configLocalRequested: boolean;
}

/** V1 memory view. */
export interface ContextPlanV1Memory {
  /**
   * Selectors of mandatory memory queries, sorted.
   * @maxItems 16
   * @items.type string
   * @items.minLength 1
   * @items.maxLength 128
   */
  requiredQueries: string[];
}

/** V1 planning telemetry. */
export interface ContextPlanV1Telemetry {
  /**
   * Planner input bytes.
   * @minimum 0
   */
  bytes: number;
  /**
   * Planner input characters.
   * @minimum 0
   */
  chars: number;
  /** Milliseconds, or `null`. */
  latencyMs: NullableNonNegativeNumber;
  /** Tokens, or `null`. */
  inputTokens: NullableNonNegativeNumber;
}

/**
 * Read-only compatibility version of the plan, as first-generation runtimes wrote it: no content
 * identity, no binding, baseline bodies embedded. Implementations MUST be able to read and
 * validate it and MUST NOT write it; a V1 plan never qualifies for reuse.
 */
export interface ContextReadPlanV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextReadPlanV1';
  /** `plan-` + first 24 hex of `digestOf(plan without planId and planningTelemetry)`. */
  planId: PlanId;
  /** Target, seed and invocation. */
  identity: ContextPlanV1Identity;
  /** Baseline bodies and catalogue metadata. */
  baselineContext: ContextPlanV1BaselineContext;
  /** Authorized actions. */
  actionEnvelope: ContextActionEnvelope;
  /**
   * Change types, sorted, unique.
   * @maxItems 12
   * @uniqueItems true
   */
  changeTypes: ContextChangeType[];
  /**
   * Baseline and selected sources, sorted by `sourceId`.
   * @minItems 1
   * @maxItems 1024
   */
  selectedSources: ContextPlanV1Source[];
  /**
   * Mandatory source ids, sorted.
   * @minItems 1
   * @maxItems 1024
   * @uniqueItems true
   * @items.type string
   * @items.minLength 1
   */
  mandatorySourceIds: string[];
  /**
   * Excluded candidates, sorted by `sourceId`.
   * @maxItems 1024
   */
  excludedSources: ContextPlanV1ExcludedSource[];
  /** Partition of the catalogue candidates. */
  catalogCoverage: ContextPlanV1CatalogCoverage;
  /**
   * Candidates required to exist.
   * @maxItems 1024
   */
  existenceSources: ContextPlanV1ExistenceSource[];
  /** Freshness contract. */
  freshness: ContextPlanV1Freshness;
  /** Budget. */
  budget: ContextPlanV1Budget;
  /**
   * Every trigger the plan watches, sorted.
   * @maxItems 17
   * @uniqueItems true
   */
  escalationTriggers: ContextEscalationTrigger[];
  /**
   * Triggers that fired, sorted.
   * @maxItems 17
   * @uniqueItems true
   */
  triggeredEscalations: ContextEscalationTrigger[];
  /** Exit condition. */
  exitCondition: ContextExitCondition;
  /** Profile selection view. */
  profile: ContextPlanV1Profile;
  /** Memory view. */
  memory: ContextPlanV1Memory;
  /** Whether the plan is a full read. */
  fullRead: boolean;
  /**
   * Free-text or coded reason of a full read, or `null`.
   * @minLength 1
   * @maxLength 2048
   */
  fullReadReason: string | null;
  /** Planning telemetry (not covered by `planId`). */
  planningTelemetry: ContextPlanV1Telemetry;
}

/** Catalogue entries of this area, in spec order. */
export const CONTEXT_ACQUISITION_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'IntentSeedV1',
    gate: 'ContextAcquisitionGate',
    summary:
      'The canonical intent and hints of one message, formed before any context body is read; opens the context epoch.',
  },
  {
    name: 'ContextReadPlanV1',
    gate: 'ContextAcquisitionGate',
    summary: 'First-generation context read plan without content identity; read-only compatibility.',
    compatibility: 'read-only',
  },
  {
    name: 'ContextReadPlanV2',
    gate: 'ContextAcquisitionGate',
    summary:
      'A bounded plan partitioning every context candidate into baseline, selected, excluded and unclassified, with a stable content identity separate from its invocation identity.',
  },
];
