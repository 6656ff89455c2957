// The rule kit: the one way a rule file builds its issues and its rules. Every file of this
// directory takes `issue`, `semanticRule`, `bundleRule` (or `contractRules`, the two bound to one
// contract and spec section) from here, so a rule reads the same wherever it lives and an issue
// always carries its code, path, message, spec anchor and severity.
import type { Issue } from '../issues.js';
import type { BundleRule, ContractDocument, SemanticRule } from './types.js';

/**
 * An error of a rule: `code` at the JSON Pointer `path`, with a message saying what to change and
 * the spec anchor (`docs/spec/<page>.md#<anchor>`) of the rule it breaks.
 *
 * @example
 * issue('RUN_STATUS_PAUSE_REASON_INCONSISTENT', '/pauseReason', 'set pauseReason to null.', INVARIANTS);
 */
export function issue(code: string, path: string, message: string, rule: string): Issue {
  return { code, path, message, rule, severity: 'error' };
}

/** Every rule a builder of this file returned; a rule written by hand is not among them. */
const BUILT = new WeakSet<SemanticRule | BundleRule>();

function built<R extends SemanticRule | BundleRule>(rule: R): R {
  BUILT.add(rule);
  return rule;
}

/** Whether `rule` was built by this kit (rule-files.test.ts holds every registered rule to it). */
export function builtByKit(rule: SemanticRule | BundleRule): boolean {
  return BUILT.has(rule);
}

/**
 * A semantic rule of `contract`. `check` receives the document as its contract type `T`: rules
 * run only on documents that passed the structural check.
 */
export function semanticRule<T>(
  code: string,
  contract: string,
  specSection: string,
  description: string,
  check: (doc: T) => Issue[],
): SemanticRule {
  return built({
    code,
    contract,
    specSection,
    description,
    check: (doc: ContractDocument) => check(doc as unknown as T),
  });
}

/** How a check reports one violation: where, and what to change. */
export type Report = (path: string, message: string) => void;

/** The issues one check reports through `report`, all with `code` and the spec anchor `rule`. */
export function collect(code: string, rule: string, run: (report: Report) => void): Issue[] {
  const out: Issue[] = [];
  run((path, message) => out.push(issue(code, path, message, rule)));
  return out;
}

/** A semantic rule whose check reports each violation through `report` instead of returning it. */
export function reportingRule<T>(
  code: string,
  contract: string,
  specSection: string,
  description: string,
  run: (doc: T, report: Report) => void,
): SemanticRule {
  return semanticRule<T>(code, contract, specSection, description, (doc) =>
    collect(code, specSection, (report) => run(doc, report)),
  );
}

/** A cross-document rule of the bundle kind `bundle`. */
export function bundleRule(
  code: string,
  bundle: string,
  specSection: string,
  description: string,
  check: BundleRule['check'],
): BundleRule {
  return built({ code, bundle, specSection, description, check });
}

/** The kit bound to one contract: its issues and rules default to `specSection`. */
export interface ContractRules<T> {
  issue(code: string, path: string, message: string, anchor?: string): Issue;
  rule(code: string, description: string, check: (doc: T) => Issue[], specSection?: string): SemanticRule;
}

/**
 * `issue` and `semanticRule` for the rules of one contract whose invariants one spec section
 * states (a rule or an issue may still name another section).
 *
 * @example
 * const { issue, rule } = contractRules<RunStateV1>('RunStateV1', 'docs/spec/run-control-gate.md#invariants');
 */
export function contractRules<T>(contract: string, specSection: string): ContractRules<T> {
  return {
    issue: (code, path, message, anchor = specSection) => issue(code, path, message, anchor),
    rule: (code, description, check, section = specSection) =>
      semanticRule(code, contract, section, description, check),
  };
}

/** Indexes of the items whose key repeats the key of an earlier item. */
export function laterDuplicates<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) out.push(i);
    else seen.add(k);
  });
  return out;
}
