import type { Issue } from '../issues.js';

/** A document that passed its contract's structural check: an object with its `schemaVersion`. */
export type ContractDocument = { readonly schemaVersion: string } & Readonly<Record<string, unknown>>;

/**
 * A semantic rule: an invariant of docs/spec that the JSON Schema cannot express. Rules run only on
 * documents that already passed the structural check, so `check` may rely on the schema's shape.
 *
 * A rule file builds one with the rule kit (`semanticRule` or `contractRules` of ./kit.ts), never as
 * an object literal.
 *
 * @example
 * const rule = semanticRule<ExampleV1>('EXAMPLE_NOT_EMPTY', 'ExampleV1', 'docs/spec/example.md#example',
 *   'An example rule.', () => []);
 */
export interface SemanticRule {
  /** Stable issue code the rule reports, e.g. `TRACE_SEQUENCE_GAP`; documented in docs/rules.md. */
  readonly code: string;
  /** The contract (`schemaVersion`) the rule applies to. */
  readonly contract: string;
  /** The spec section that states the invariant, e.g. `docs/spec/local-task-trace-gate.md#events`. */
  readonly specSection: string;
  /** One sentence: what the rule requires. */
  readonly description: string;
  /** Every violation in `doc`; an empty array when the document satisfies the rule. */
  check(doc: ContractDocument): Issue[];
}

/** A bundle: several contract documents judged together (e.g. a chain or a sequence). */
export interface Bundle {
  /** The bundle kind, e.g. `context-acquisition-chain`, `envelope-sequence`, `trace-replay`. */
  readonly kind: string;
  /** The documents, in the order the kind defines. */
  readonly documents: readonly unknown[];
}

/**
 * A cross-document rule. Bundle rules run only when every document of the bundle is valid on its
 * own, so `check` may rely on each document's shape. Issue paths point into the bundle
 * (`/documents/<i>/<field>`).
 */
export interface BundleRule {
  /** Stable issue code, documented in docs/rules.md. */
  readonly code: string;
  /** The bundle kind the rule applies to. */
  readonly bundle: string;
  /** The spec section that states the invariant. */
  readonly specSection: string;
  /** One sentence: what the rule requires. */
  readonly description: string;
  /** Every violation in the bundle; an empty array when it satisfies the rule. */
  check(documents: readonly ContractDocument[]): Issue[];
}
