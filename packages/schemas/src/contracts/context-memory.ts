import type { ContractEntry } from '../gates.js';
import type { SystemSubjectRef } from './capability-domain.js';
import type { Timestamp } from './common.js';

/**
 * Stable kebab-case name of a kind of fact the agent relies on, unique within a model, e.g.
 * `task-state`, `workspace-file`, `user-preference`. 1-64 characters.
 * @minLength 1
 * @maxLength 64
 * @pattern ^[a-z0-9]+(-[a-z0-9]+)*$
 */
export type FactKindName = string;

/**
 * Where a fact kind lives: `state` (durable task and turn state the runtime writes under fences),
 * `context` (what the current turn has read into the model's window), `memory` (facts kept across
 * sessions on purpose, e.g. preferences), `artefact` (files and outputs the work produces).
 */
export type FactLayer = 'state' | 'context' | 'memory' | 'artefact';

/** The four layers, in the order the spec lists them; a model names at least one fact kind of each. */
export const FACT_LAYERS: readonly FactLayer[] = ['state', 'context', 'memory', 'artefact'];

/**
 * A locator of a store, file, trace or other place, e.g. `postgres:task_recovery_store` or
 * `workspace://src/**`. 1-512 characters, no control characters.
 * @minLength 1
 * @maxLength 512
 * @pattern ^[^\u0000-\u001f]+$
 */
export type FactLocator = string;

/** The one place a fact kind's truth is read from. */
export interface SourceOfTruthRef {
  /**
   * Kind of place: `store` (a database or key-value store with its own contract), `file` (files
   * of the workspace), `trace` (an append-only event trace), `host-api` (the host answers it),
   * `config` (effective configuration), `memory` (a memory store; a source of truth only for
   * `memory`-layer facts), `summary` (a written summary; never a source of truth:
   * MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH).
   */
  kind: 'store' | 'file' | 'trace' | 'host-api' | 'config' | 'memory' | 'summary';
  /** Where it is. */
  locator: FactLocator;
  /**
   * Name of the contract its documents follow (a contract name of this spec or another), or
   * `null` when it has none. 1-128 characters.
   * @minLength 1
   * @maxLength 128
   * @pattern ^[A-Za-z][A-Za-z0-9]*$
   */
  contract: string | null;
}

/** A source of truth, or `null` when the model names none (refused: MEMORY_MODEL_SOURCE_OF_TRUTH_MISSING). */
export type NullableSourceOfTruthRef = SourceOfTruthRef | null;

/** A fact read more than `maxAgeSeconds` ago is stale and is read again from its source of truth. */
export interface FreshnessMaxAge {
  /** Always `max-age`. */
  kind: 'max-age';
  /**
   * Largest age, in seconds, at which a read copy still counts as fresh; 1 to 2592000 (30 days).
   * @TJS-type integer
   * @minimum 1
   * @maximum 2592000
   */
  maxAgeSeconds: number;
}

/**
 * A read copy is fresh while the version or digest it was read at equals the source of truth's
 * current one, checked before the copy is used.
 */
export interface FreshnessVersionCheck {
  /** `version-check` (a revision or sequence number) or `digest-check` (a content digest). */
  kind: 'version-check' | 'digest-check';
  /**
   * The field or property of the source of truth that carries the version or digest, e.g.
   * `stateSequence` or `contentIdentity.digest`. 1-128 characters.
   * @minLength 1
   * @maxLength 128
   */
  field: string;
}

/** How freshness of a read copy is decided. */
export type FreshnessRule = FreshnessMaxAge | FreshnessVersionCheck;

/** A freshness rule, or `null` (allowed only for an immutable fact kind). */
export type NullableFreshnessRule = FreshnessRule | null;

/** A copy or condensation of a fact kind kept somewhere else for navigation. */
export interface DerivedView {
  /** `summary` (a written condensation), `memory-recall` (what a memory query returns), `cache`, `index`. */
  kind: 'summary' | 'memory-recall' | 'cache' | 'index';
  /** Where the view is. */
  locator: FactLocator;
}

/** One kind of fact, its layer, its source of truth and how freshness is decided. */
export interface FactKindRecord {
  /** The fact kind. */
  factKind: FactKindName;
  /** Its layer. */
  layer: FactLayer;
  /** Whether a fact of this kind can change after it is first recorded. */
  mutable: boolean;
  /** The one place its truth is read from. */
  sourceOfTruth: NullableSourceOfTruthRef;
  /** How a read copy is judged fresh; `null` only when `mutable` is false. */
  freshness: NullableFreshnessRule;
  /**
   * Views that copy or condense this fact kind (navigation only). Empty when none.
   * @maxItems 8
   */
  derivedViews: DerivedView[];
  /**
   * Which wins when a derived view and the source of truth disagree: `source-of-truth` (always
   * required), `derived-view` or `newest` (recorded honestly, refused: MEMORY_MODEL_SUMMARY_OVERRIDES_SOURCE).
   */
  onConflict: 'source-of-truth' | 'derived-view' | 'newest';
}

/** One thing a handoff carries to the next session, agent or turn. */
export interface HandoffItem {
  /** The fact kind the item is about. */
  factKind: FactKindName;
  /**
   * What is carried: `source-ref` (a reference to the source of truth, by locator and version or
   * digest), `summary` (a condensation, navigation only; needs a `source-ref` item of the same fact
   * kind), `snapshot` (a copy of the fact).
   */
  carries: 'source-ref' | 'summary' | 'snapshot';
  /**
   * Whether the item carries the version or digest of the source of truth it was taken at (what
   * the receiver's freshness check compares).
   */
  pinned: boolean;
}

/** What a handoff carries. */
export interface HandoffSpec {
  /**
   * The items, in the order the receiver reads them.
   * @minItems 1
   * @maxItems 64
   */
  items: HandoffItem[];
}

/**
 * The context, memory and state model of one agent system revision: for each fact kind its layer
 * (state, context, memory, artefact), its one source of truth, how freshness is decided and which
 * views condense it, and what a handoff carries. A summary is navigation and never a source of truth.
 */
export interface ContextMemoryModelV1 {
  /** Contract discriminator. */
  schemaVersion: 'ContextMemoryModelV1';
  /**
   * `cmm-` + the first 24 hex characters of digestOf(`{subject: {system}}`); stable across revisions.
   * @pattern ^cmm-[a-f0-9]{24}$
   */
  modelId: string;
  /** The system and revision the model describes. */
  subject: SystemSubjectRef;
  /** When the model was evaluated against the revision. */
  evaluatedAt: Timestamp;
  /**
   * The fact kinds, one record each.
   * @minItems 1
   * @maxItems 64
   */
  factKinds: FactKindRecord[];
  /** What a handoff carries. */
  handoff: HandoffSpec;
  /**
   * digestOf(the whole document except `modelDigest`).
   * @pattern ^[a-f0-9]{64}$
   */
  modelDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const CONTEXT_MEMORY_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'ContextMemoryModelV1',
    gate: 'ContextMemoryStateGate',
    summary:
      'Per fact kind of one agent system: its layer (state, context, memory, artefact), its one source of truth, its freshness rule, its derived views and what a handoff carries.',
  },
];
