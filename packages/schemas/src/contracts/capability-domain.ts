import type { ContractEntry } from '../gates.js';
import type { NullableSha256Hex, Timestamp } from './common.js';

/**
 * The scope a completeness statement is about, ordered from narrowest to widest. Each object
 * covers every domain of the narrower objects plus its own (see `CAPABILITY_DOMAINS_BY_OBJECT`).
 */
export type CompletenessObject =
  | 'kernel'
  | 'runtime'
  | 'developer-product'
  | 'hosted-platform'
  | 'enterprise-saas';

/**
 * A declared completeness object, or `null` when the document declares none (then no claim can
 * be complete: rule CAPABILITY_COMPLETENESS_OBJECT_MISSING).
 */
export type NullableCompletenessObject = CompletenessObject | null;

/** Stable kebab-case id of one capability domain of the catalogue (35 ids, see the spec's domain table). */
export type CapabilityDomainId =
  // kernel: request chain
  | 'ingress'
  | 'cognition'
  | 'context-knowledge'
  | 'planning'
  | 'execution-tools'
  | 'response'
  // kernel: feedback chain
  | 'observe'
  | 'evaluate'
  | 'evolve'
  // kernel: cross-cutting
  | 'governance'
  | 'model'
  | 'infrastructure'
  // runtime
  | 'local-hosted-composition'
  | 'state'
  | 'tool-registry'
  | 'security'
  | 'observability'
  | 'replay'
  // developer-product
  | 'build'
  | 'version'
  | 'publish'
  | 'deploy'
  | 'invoke'
  | 'sdk-cli-api'
  | 'local-developer-runtime'
  | 'agent-studio'
  // hosted-platform
  | 'run-api'
  | 'provider-connector-credential'
  | 'deployment-fleet'
  | 'tenant-workspace'
  // enterprise-saas
  | 'organization'
  | 'entitlement'
  | 'usage-metering-billing'
  | 'admin-ops'
  | 'audit-compliance';

/** Completeness objects in rank order (index = rank). A narrower object never satisfies a wider one. */
export const COMPLETENESS_OBJECTS: readonly CompletenessObject[] = [
  'kernel',
  'runtime',
  'developer-product',
  'hosted-platform',
  'enterprise-saas',
];

/** The domains each object adds to the narrower one, in canonical catalogue order. */
export const CAPABILITY_DOMAINS_ADDED_BY: Readonly<
  Record<CompletenessObject, readonly CapabilityDomainId[]>
> = {
  kernel: [
    'ingress',
    'cognition',
    'context-knowledge',
    'planning',
    'execution-tools',
    'response',
    'observe',
    'evaluate',
    'evolve',
    'governance',
    'model',
    'infrastructure',
  ],
  runtime: ['local-hosted-composition', 'state', 'tool-registry', 'security', 'observability', 'replay'],
  'developer-product': [
    'build',
    'version',
    'publish',
    'deploy',
    'invoke',
    'sdk-cli-api',
    'local-developer-runtime',
    'agent-studio',
  ],
  'hosted-platform': ['run-api', 'provider-connector-credential', 'deployment-fleet', 'tenant-workspace'],
  'enterprise-saas': [
    'organization',
    'entitlement',
    'usage-metering-billing',
    'admin-ops',
    'audit-compliance',
  ],
};

/** Every domain id in canonical catalogue order (the order `domains` records must follow). */
export const CAPABILITY_DOMAIN_ORDER: readonly CapabilityDomainId[] = COMPLETENESS_OBJECTS.flatMap(
  (o) => CAPABILITY_DOMAINS_ADDED_BY[o],
);

/** The applicable (cumulative) domain set of each object, in canonical catalogue order. */
export const CAPABILITY_DOMAINS_BY_OBJECT: Readonly<
  Record<CompletenessObject, readonly CapabilityDomainId[]>
> = {
  kernel: applicableDomains('kernel'),
  runtime: applicableDomains('runtime'),
  'developer-product': applicableDomains('developer-product'),
  'hosted-platform': applicableDomains('hosted-platform'),
  'enterprise-saas': applicableDomains('enterprise-saas'),
};

/** The domains of `object` and of every narrower object, in canonical catalogue order. */
function applicableDomains(object: CompletenessObject): CapabilityDomainId[] {
  return COMPLETENESS_OBJECTS.slice(0, COMPLETENESS_OBJECTS.indexOf(object) + 1).flatMap(
    (narrower) => CAPABILITY_DOMAINS_ADDED_BY[narrower],
  );
}

/** Rank of an object (0 = kernel ... 4 = enterprise-saas). */
export function completenessRank(object: CompletenessObject): number {
  return COMPLETENESS_OBJECTS.indexOf(object);
}

/** The system a matrix or report is about. */
export interface SystemSubjectRef {
  /**
   * Stable name of the agent system (product, service or runtime), e.g. `acme-support-agent`.
   * @minLength 1
   * @maxLength 256
   */
  system: string;
  /**
   * The revision evaluated: a release version, build id or VCS commit, e.g. `git:4f9c2d1e`.
   * @minLength 1
   * @maxLength 256
   */
  revision: string;
}

/** Who is accountable for a capability domain. */
export interface DomainOwnerRef {
  /**
   * Kind of owner: `team` (a named group of people), `component` (a module or service of the
   * system itself), `host` (the agent host the system runs inside, e.g. an IDE or CLI host),
   * `external-vendor` (a third party whose product provides the domain).
   */
  kind: 'team' | 'component' | 'host' | 'external-vendor';
  /**
   * Name of the owner, unique within its kind for this system, e.g. `platform-runtime` or `vendor:example-llm`.
   * @minLength 1
   * @maxLength 256
   */
  name: string;
}

/** An owner, or `null` when nobody is accountable yet (allowed only for `absent` and `not-applicable` domains). */
export type NullableDomainOwnerRef = DomainOwnerRef | null;

/**
 * A note, or `null`. Required (non-null) whenever `runtimeStatus` is not `implemented`.
 * @minLength 1
 * @maxLength 2000
 */
export type NullableStatusNote = string | null;

/** One piece of validation that exercises a capability domain. */
export interface ValidationRouteRef {
  /**
   * Kind of validation: `unit-test`, `integration-test`, `conformance-case` (a case of this spec's
   * conformance kit), `fixture-replay`, `direct-replay`, `validator` (a static or schema
   * validator run), `log-evidence` (captured runtime logs), `manual-review` (a human review
   * record; never counts towards completeness).
   */
  kind:
    | 'unit-test'
    | 'integration-test'
    | 'conformance-case'
    | 'fixture-replay'
    | 'direct-replay'
    | 'validator'
    | 'log-evidence'
    | 'manual-review';
  /**
   * Locator of the validation: a repository-relative path, optionally with `#case`, or a case
   * id, e.g. `test/runtime/replay.test.ts#replays-without-writes`.
   * @minLength 1
   * @maxLength 1024
   */
  ref: string;
  /**
   * SHA-256 (raw bytes, as `ContentIdentityV1.digest`) of the validation artefact at evaluation
   * time, or `null` when the reference is not pinned.
   */
  digest: NullableSha256Hex;
}

/** The four required facts about one capability domain. */
export interface CapabilityDomainRecord {
  /** The domain this record is about; at most one record per domain. */
  domain: CapabilityDomainId;
  /** Who is accountable for the domain; `null` only when `runtimeStatus` is `absent` or `not-applicable`. */
  owner: NullableDomainOwnerRef;
  /**
   * Where the domain sits relative to the system's public surface: `public-contract` (exposed
   * through a published, versioned contract others may depend on), `internal-contract` (a
   * contract between the system's own components, unpublished), `private-implementation` (no
   * contract; nobody outside the owner may depend on it), `external-dependency` (provided by a
   * third party under that party's contract), `not-applicable` (only with runtimeStatus `not-applicable`).
   */
  publicPrivateBoundary:
    | 'public-contract'
    | 'internal-contract'
    | 'private-implementation'
    | 'external-dependency'
    | 'not-applicable';
  /**
   * Runtime state of the domain in the evaluated revision: `implemented` (running and
   * validated), `partial` (running with known gaps), `planned` (designed, not running), `absent`
   * (neither), `not-applicable` (the owner asserts the domain does not apply; never satisfies an
   * applicable domain).
   */
  runtimeStatus: 'implemented' | 'partial' | 'planned' | 'absent' | 'not-applicable';
  /** Why the status is what it is (gaps, plan, reason for not-applicable); required unless `implemented`. */
  statusNote: NullableStatusNote;
  /**
   * The validations that exercise the domain, in the order the owner runs them. Empty when none exists.
   * @maxItems 16
   */
  validationRoute: ValidationRouteRef[];
}

/** The classification of the matrix against its declared object. */
export interface CapabilityCompletenessVerdict {
  /**
   * `complete-for-declared-object` when an object is declared and every applicable domain has a
   * satisfied record; `incomplete` otherwise. Says nothing about any wider object.
   */
  result: 'complete-for-declared-object' | 'incomplete';
  /**
   * Applicable domains without a record, in canonical catalogue order.
   * @maxItems 35
   * @uniqueItems true
   */
  missingDomains: CapabilityDomainId[];
  /**
   * Applicable domains whose record is not satisfied (not implemented, no owner, or no
   * non-manual validation), in canonical catalogue order.
   * @maxItems 35
   * @uniqueItems true
   */
  unsatisfiedDomains: CapabilityDomainId[];
  /**
   * Why the result is `incomplete`, in this fixed order, each at most once; empty iff complete.
   * @maxItems 3
   * @uniqueItems true
   */
  reasonCodes: Array<
    'CAPABILITY_COMPLETENESS_OBJECT_MISSING' | 'CAPABILITY_DOMAIN_MISSING' | 'CAPABILITY_DOMAIN_UNSATISFIED'
  >;
}

/**
 * The capability-domain matrix of one agent system revision: the declared completeness object,
 * the completeness claim the system makes, one record per applicable domain, and the verdict
 * those records support.
 */
export interface AgentCapabilityDomainMatrixV1 {
  /** Contract discriminator. */
  schemaVersion: 'AgentCapabilityDomainMatrixV1';
  /**
   * Identity of "this system's matrix for this object": `acdm-` + the first 24 hex characters of
   * the digest of `{subject: {system}, completenessObject}`; stable across revisions.
   * @pattern ^acdm-[a-f0-9]{24}$
   */
  matrixId: string;
  /** The system and revision evaluated. */
  subject: SystemSubjectRef;
  /** The declared scope; `null` when the document declares none. */
  completenessObject: NullableCompletenessObject;
  /**
   * The completeness wording the system uses for the declared object: `none` (no completeness
   * claim), `complete`, `final`, `no-new-domains` ("no new domain is needed"). Every value other
   * than `none` is a completeness claim and requires a complete verdict.
   */
  claim: 'none' | 'complete' | 'final' | 'no-new-domains';
  /** When the records were evaluated against the revision. */
  evaluatedAt: Timestamp;
  /**
   * One record per domain, in canonical catalogue order, only domains applicable to `completenessObject`.
   * @maxItems 35
   */
  domains: CapabilityDomainRecord[];
  /** The classification the records support; validators recompute it and refuse a mismatch. */
  verdict: CapabilityCompletenessVerdict;
  /**
   * Digest of the whole document except `matrixDigest`.
   * @pattern ^[a-f0-9]{64}$
   */
  matrixDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const CAPABILITY_DOMAIN_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'AgentCapabilityDomainMatrixV1',
    gate: 'AgentCapabilityDomainCompletenessGate',
    summary:
      'The declared completeness object, completeness claim, per-domain owner/boundary/status/validation records and verdict of one agent system revision.',
  },
];
