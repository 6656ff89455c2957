import type { ContractEntry } from '../gates.js';
import type { Sha256Hex, Timestamp } from './common.js';
import type { ContextIntent, ContextRisk } from './context-acquisition.js';

/**
 * Name of a skill or workflow the router can choose: lowercase kebab-case segments, optionally
 * namespaced with `/` or `:`, e.g. `code-review` or `devops:release-checklist`. 1-128 characters.
 * @minLength 1
 * @maxLength 128
 * @pattern ^[a-z0-9]+(-[a-z0-9]+)*([/:][a-z0-9]+(-[a-z0-9]+)*)*$
 */
export type RouteTargetName = string;

/**
 * How much the chosen route may do without asking, ranked by authority: `read-only` (reads and
 * answers; changes nothing), `plan-only` (proposes changes, performs none), `interactive` (acts,
 * each mutating step confirmed by the user), `auto` (acts without per-step confirmation).
 */
export type RouteMode = 'read-only' | 'plan-only' | 'interactive' | 'auto';

/** Route modes in authority order (index = rank): a degradation never moves to a higher rank. */
export const ROUTE_MODE_ORDER: readonly RouteMode[] = ['read-only', 'plan-only', 'interactive', 'auto'];

/**
 * Why the route was chosen (a closed list): `intent-default` (the route the system maps the
 * seed's canonical intent to), `explicit-command` (the user named the skill or workflow; needs an
 * `explicit-command` signal), `continuation` (continues observed earlier work; needs the seed's
 * `continuationHint`), `host-policy` (a host or organisation policy fixes the route for this
 * intent), `only-available` (the preferred route is not installed and this is the only one that
 * serves the intent).
 */
export type RouteReasonCode =
  | 'intent-default'
  | 'explicit-command'
  | 'continuation'
  | 'host-policy'
  | 'only-available';

/**
 * When a degradation step applies (a closed list): `skill-unavailable`, `tool-unavailable`,
 * `permission-denied`, `confirmation-declined`, `context-incomplete` (the context receipt is not
 * complete), `low-confidence`, `budget-exhausted`, `host-capability-missing`, `validation-failed`,
 * `timeout`.
 */
export type DegradationCondition =
  | 'skill-unavailable'
  | 'tool-unavailable'
  | 'permission-denied'
  | 'confirmation-declined'
  | 'context-incomplete'
  | 'low-confidence'
  | 'budget-exhausted'
  | 'host-capability-missing'
  | 'validation-failed'
  | 'timeout';

/** A condition code, or `null` when the step names none (refused: ROUTE_DEGRADATION_CONDITION_MISSING). */
export type NullableDegradationCondition = DegradationCondition | null;

/**
 * A piece of the message the router saw, recorded as a signal. A signal never is the canonical
 * intent: that comes from the IntentSeedV1 alone.
 */
export interface RouteSignal {
  /**
   * Kind of signal: `keyword` (a word or phrase matched in the message), `explicit-command` (a
   * slash command or a named skill), `attachment` (a file or artefact the message carries),
   * `host-event` (an event of the host that accompanies the message, e.g. a failing check).
   */
  kind: 'keyword' | 'explicit-command' | 'attachment' | 'host-event';
  /**
   * The signal as observed, e.g. `deploy` or `/review`. Free text from the message: never
   * interpreted as an intent. 1-256 characters.
   * @minLength 1
   * @maxLength 256
   */
  value: string;
}

/**
 * The IntentSeedV1 a decision routes, referred to by digest, with the seed fields the rules read
 * copied so the decision can be judged alone (a bundle with the seed checks the copies).
 */
export interface RouteIntentSeedRef {
  /**
   * The seed's `contextEpoch`: 1-256 characters without whitespace.
   * @minLength 1
   * @maxLength 256
   * @pattern ^\S+$
   */
  contextEpoch: string;
  /** digestOf(the entire IntentSeedV1 document). */
  seedDigest: Sha256Hex;
  /** The seed's `semantic`: its canonical intent. */
  semantic: ContextIntent;
  /** The seed's `riskHint`. */
  riskHint: ContextRisk;
  /**
   * The seed's `confidence`.
   * @minimum 0
   * @maximum 1
   */
  confidence: number;
  /** The seed's `continuationHint`. */
  continuationHint: boolean;
}

/** What the decision read: the seed (the canonical intent) and the signals (never the intent). */
export interface RouteInput {
  /** The seed of the message, by digest. */
  intentSeed: RouteIntentSeedRef;
  /**
   * Signals observed in the message, in the order observed. Empty when there are none.
   * @maxItems 32
   */
  signals: RouteSignal[];
}

/** The intent the route serves and where it was taken from. */
export interface RouteIntent {
  /** The canonical intent; equal to `input.intentSeed.semantic`. */
  canonical: ContextIntent;
  /**
   * Where `canonical` was taken from: `intent-seed` (the seed's `semantic`), `keyword-signal`
   * (a keyword match; recorded honestly, always refused: ROUTE_INTENT_FROM_KEYWORDS).
   */
  source: 'intent-seed' | 'keyword-signal';
}

/** A skill or workflow in a mode. */
export interface RouteTarget {
  /** `skill` (one capability package) or `workflow` (a multi-step procedure of several skills). */
  kind: 'skill' | 'workflow';
  /** Name of the skill or workflow. */
  name: RouteTargetName;
  /** The mode it runs in. */
  mode: RouteMode;
}

/** Who confirmed a mode that needs confirmation, and where the record of it is. */
export interface RouteConfirmation {
  /** `user` (the user confirmed this run) or `host-policy` (a standing host policy allows it; never enough for a critical-risk seed). */
  by: 'user' | 'host-policy';
  /**
   * Locator of the confirmation record, e.g. a trace event id or a policy id. 1-512 characters.
   * @minLength 1
   * @maxLength 512
   */
  ref: string;
}

/** A confirmation, or `null` when none was given. */
export type NullableRouteConfirmation = RouteConfirmation | null;

/** The coded reason of the choice. */
export interface RouteReason {
  /** The reason code. */
  code: RouteReasonCode;
  /**
   * For humans; never read by a rule. 1-512 characters.
   * @minLength 1
   * @maxLength 512
   */
  note: string;
}

/** What a degradation step degrades to: another route, asking the user, or refusing. */
export type DegradationTarget = DegradationToRoute | DegradationToEnd;

/** Degrade to another skill or workflow, or to the same one in a lower mode. */
export interface DegradationToRoute {
  /** Always `route`. */
  kind: 'route';
  /** The route degraded to. */
  route: RouteTarget;
}

/** End the path: ask the user what to do, or refuse the message. */
export interface DegradationToEnd {
  /** `ask-user` (stop and ask) or `refuse` (decline, saying why). */
  kind: 'ask-user' | 'refuse';
}

/** One step of the degradation path. */
export interface DegradationStep {
  /** The condition under which this step applies. */
  when: NullableDegradationCondition;
  /** What the route degrades to; `ask-user` and `refuse` end the path. */
  to: DegradationTarget;
  /** Whether the user is told when this step is taken. */
  announced: boolean;
}

/**
 * The route decision of one user message: the IntentSeedV1 it routes (by digest), the signals it
 * saw, the chosen skill or workflow and its mode, the coded reason, and the ordered degradation
 * path with the condition of each step.
 */
export interface AgentRouteDecisionV1 {
  /** Contract discriminator. */
  schemaVersion: 'AgentRouteDecisionV1';
  /**
   * `route-` + the first 24 hex characters of digestOf(`{seedDigest, decidedAt}`).
   * @pattern ^route-[a-f0-9]{24}$
   */
  decisionId: string;
  /** What the decision read. */
  input: RouteInput;
  /** The intent the route serves. */
  intent: RouteIntent;
  /** The chosen skill or workflow and its mode. */
  route: RouteTarget;
  /** Why this route. */
  reason: RouteReason;
  /** The confirmation of the chosen mode, or `null`. */
  confirmation: NullableRouteConfirmation;
  /**
   * The degradation path in the order the steps are tried. Empty when the route has none.
   * @maxItems 16
   */
  degradation: DegradationStep[];
  /** When the decision was made. */
  decidedAt: Timestamp;
  /**
   * digestOf(the whole document except `decisionDigest`).
   * @pattern ^[a-f0-9]{64}$
   */
  decisionDigest: string;
}

/** Catalogue entries of this area, in spec order. */
export const AGENT_ROUTING_CONTRACTS: readonly ContractEntry[] = [
  {
    name: 'AgentRouteDecisionV1',
    gate: 'AgentRoutingGate',
    summary:
      'The route decision of one message: the intent seed it routes by digest, the chosen skill or workflow and mode, a coded reason and the conditioned degradation path.',
  },
];
