import { withCanonicalMemo } from '@agent-contracts/digest';
import { CONTRACTS, getSchema } from '@agent-contracts/schemas';
import { digestIssues } from './digests.js';
import { ValidatorsError } from './errors.js';
import {
  FAST_DEFERRED_HELD,
  FAST_VALIDATORS,
  STRUCTURAL_VALIDATORS,
} from './generated/structural.generated.js';
import type { Issue } from './issues.js';
import { describeValue } from './pointer.js';
import { CLEAN_WALKS, type ContractDocument, SEMANTIC_RULES, type SemanticRule } from './rules/index.js';
import { withDerivedMemo } from './rules/memo.js';
import { structuralIssues } from './structural.js';

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * Validate as this contract instead of dispatching on `schemaVersion` (a mismatching
   * `schemaVersion` is then a `SCHEMA_CONST` issue). Throws `VALIDATORS_UNKNOWN_CONTRACT` when no
   * such contract is supported.
   */
  readonly contract?: string;
  /** Recompute digest fields from the DIGEST_RULES (default `true`). */
  readonly digests?: boolean;
  /** The semantic rules to apply (default: the registry, {@link SEMANTIC_RULES}). */
  readonly rules?: readonly SemanticRule[];
}

/** The document conforms: `value` is the document itself, typed as a contract document. */
export interface ValidationSuccess {
  readonly ok: true;
  /** The contract the document was validated as (its `schemaVersion`). */
  readonly contract: string;
  readonly value: ContractDocument;
  /** Issues of severity `warning`; they do not make the document invalid. */
  readonly warnings: readonly Issue[];
}

/** The document does not conform. */
export interface ValidationFailure {
  readonly ok: false;
  /** The contract the document was judged as, or `null` when it could not be determined. */
  readonly contract: string | null;
  /** Every issue found, errors and warnings, at least one of them an error. */
  readonly issues: readonly Issue[];
}

/** Result of {@link validate}. */
export type ValidationResult = ValidationSuccess | ValidationFailure;

const validators = new Map<string, (typeof STRUCTURAL_VALIDATORS)[string]>(
  Object.entries(STRUCTURAL_VALIDATORS),
);

/** What checks one contract, found with one lookup per document. */
interface ContractChecks {
  readonly validator: (typeof STRUCTURAL_VALIDATORS)[string];
  /**
   * Contracts validated in bulk also have a fail-fast pass (scripts/fast-pass.ts): true only for
   * a conforming document, so ajv's full check, which collects every error, runs only when it
   * refuses.
   */
  readonly fast: ((data: unknown, deferring?: boolean) => boolean) | undefined;
  /**
   * When the pass can leave the patterns of some fields to the default digest and semantic rules,
   * which recompute those fields (FAST_DEFERS; scripts/fast-pass.ts, DEFERRED_PATTERNS): whether
   * those patterns hold in a document the deferring pass accepted.
   */
  readonly held: ((data: unknown) => boolean) | undefined;
  /** The contract's one walk over its digest and semantic rules (CLEAN_WALKS), if it has one. */
  readonly walk: ((doc: unknown) => boolean) | undefined;
}
const checksOf = new Map<string, ContractChecks>(
  [...validators].map(([name, validator]) => [
    name,
    {
      validator,
      fast: FAST_VALIDATORS[name],
      held: FAST_DEFERRED_HELD[name],
      walk: CLEAN_WALKS.get(name),
    },
  ]),
);
const catalogue = new Set(CONTRACTS.map((c) => c.name));

/** Names of every contract {@link validate} can check, in spec order. */
export const SUPPORTED_CONTRACTS: readonly string[] = [...validators.keys()];

const SPEC_INDEX = 'docs/spec/index.md';

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

function unknownVersionMessage(version: unknown): string {
  const known = SUPPORTED_CONTRACTS;
  if (typeof version !== 'string') {
    return `schemaVersion is ${describeValue(version)} but must be a string naming a contract (e.g. "${known[0] ?? 'IntentSeedV1'}"); see ${SPEC_INDEX}.`;
  }
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  if (version.length <= 200) {
    for (const name of known) {
      const d = levenshtein(version.toLowerCase(), name.toLowerCase());
      if (d < bestDistance) [best, bestDistance] = [name, d];
    }
  }
  const hint = best !== undefined && bestDistance <= 3 ? ` Did you mean "${best}"?` : '';
  return `schemaVersion ${describeValue(version)} names no contract this validator knows.${hint} Known contracts (${known.length}): ${known.join(', ')}; see ${SPEC_INDEX}.`;
}

function fail(contract: string | null, issues: Issue[]): ValidationFailure {
  return { ok: false, contract, issues };
}

function documentIssue(code: string, message: string, path = ''): Issue {
  return { code, path, message, rule: 'document', severity: 'error' };
}

// The default registry grouped by contract, in registry order: most documents have a few rules
// among hundreds.
const rulesByContract = new Map<string, SemanticRule[]>();
for (const rule of SEMANTIC_RULES) {
  const list = rulesByContract.get(rule.contract);
  if (list) list.push(rule);
  else rulesByContract.set(rule.contract, [rule]);
}
const NO_RULES: readonly SemanticRule[] = [];

function runRules(
  rules: readonly SemanticRule[],
  contract: string,
  doc: ContractDocument,
  out: Issue[],
): Issue[] {
  if (rules === SEMANTIC_RULES) rules = rulesByContract.get(contract) ?? NO_RULES;
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    if (rule.contract !== contract) continue;
    try {
      const found = rule.check(doc);
      for (let i = 0; i < found.length; i++) out.push(found[i]!);
    } catch (err) {
      if (err instanceof RangeError) throw err;
      out.push({
        code: 'RULE_FAILED',
        path: '',
        message: `semantic rule ${rule.code} crashed (${err instanceof Error ? err.message : 'unknown error'}); this is a validator bug, please report it with the document.`,
        rule: rule.specSection,
        severity: 'error',
      });
    }
  }
  return out;
}

/** The structural issues ajv's `validator` found in `document` (it has just refused it). */
function structuralFailure(
  contract: string,
  validator: ContractChecks['validator'],
  document: unknown,
): ValidationFailure {
  const schemaId = String(getSchema(contract)?.$id ?? contract);
  return fail(contract, structuralIssues(validator.errors ?? [], contract, schemaId, document));
}

// No closure is made per call here: the benchmarks run these sources through tsx, whose
// transform names every function it makes (esbuild's keepNames), a property definition per
// closure per document.
function check(document: unknown, options: ValidateOptions): ValidationResult {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    const what = Array.isArray(document) ? 'an array' : describeValue(document);
    return fail(null, [
      documentIssue(
        'DOCUMENT_NOT_OBJECT',
        `the document is ${what}, not a JSON object; a contract document is an object with a "schemaVersion" property.`,
      ),
    ]);
  }
  let contract = options.contract;
  if (contract === undefined) {
    if (!Object.hasOwn(document, 'schemaVersion')) {
      return fail(null, [
        documentIssue(
          'SCHEMA_VERSION_MISSING',
          `the document has no "schemaVersion"; add one naming its contract (e.g. "${SUPPORTED_CONTRACTS[0] ?? 'IntentSeedV1'}"); see ${SPEC_INDEX}.`,
        ),
      ]);
    }
    const version = (document as { schemaVersion?: unknown }).schemaVersion;
    if (typeof version !== 'string' || !checksOf.has(version)) {
      if (typeof version === 'string' && catalogue.has(version)) {
        return fail(version, [
          documentIssue(
            'CONTRACT_NOT_SUPPORTED',
            `${version} is in the catalogue but has no generated validator; run \`pnpm validators:generate\`.`,
            '/schemaVersion',
          ),
        ]);
      }
      return fail(null, [
        documentIssue('SCHEMA_VERSION_UNKNOWN', unknownVersionMessage(version), '/schemaVersion'),
      ]);
    }
    contract = version;
  }
  const { validator, fast, held, walk } = checksOf.get(contract)!;
  const defers = held !== undefined;
  const defaults =
    (options.rules === undefined || options.rules === SEMANTIC_RULES) && options.digests !== false;
  // With the default rules the pass may leave the patterns of the fields those rules recompute
  // to them (`pending`): a rule that reports nothing has found each such field equal to a value
  // of its pattern. Whenever any rule reports, or throws, those patterns are tested (the rest of
  // the strict pass is the deferring pass), and ajv decides when one fails, so every document
  // gets the strict route's answer.
  let pending = false;
  if (fast?.(document, defaults && defers)) pending = defaults && defers;
  else if (!validator(document)) return structuralFailure(contract, validator, document);
  const doc = document as ContractDocument;
  // A contract validated in bulk may have one walk that answers whether its digest and semantic
  // rules would all be silent (rules/index.ts, CLEAN_WALKS); they run only when it says no. The
  // walk stands for every digest rule a deferred pattern relies on (test/deferred-patterns.test.ts).
  if (walk !== undefined && defaults && walk(doc)) return { ok: true, contract, value: doc, warnings: [] };
  // The digests and the rules canonicalize some of the same sub-objects: share their JCS texts.
  // Several rules derive the same values from the document (a plan's sources, its full-read
  // reasons): derive them once.
  let issues: Issue[];
  try {
    issues = withCanonicalMemo(() =>
      withDerivedMemo(() =>
        runRules(
          options.rules ?? SEMANTIC_RULES,
          contract,
          doc,
          options.digests === false ? [] : digestIssues(contract, doc),
        ),
      ),
    );
  } catch (err) {
    if (pending && !held!(document) && !validator(document))
      return structuralFailure(contract, validator, document);
    throw err;
  }
  if (pending && issues.length > 0 && !held!(document) && !validator(document))
    return structuralFailure(contract, validator, document);
  for (let i = 0; i < issues.length; i++) if (issues[i]!.severity === 'error') return fail(contract, issues);
  return { ok: true, contract, value: doc, warnings: issues };
}

/**
 * Validate one parsed JSON document against the contract its `schemaVersion` names: the
 * contract's JSON Schema (ahead-of-time ajv code, strict formats), its digest rules and its
 * semantic rules. Never throws for any document; every problem is an {@link Issue}.
 *
 * @throws {ValidatorsError} only for bad `options` (`VALIDATORS_UNKNOWN_CONTRACT`,
 *   `VALIDATORS_INVALID_OPTION`).
 * @example
 * const result = validate({ schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 });
 * if (!result.ok) for (const issue of result.issues) console.log(issue.code, issue.path);
 */
export function validate(document: unknown, options: ValidateOptions = {}): ValidationResult {
  if (options.contract !== undefined && !validators.has(options.contract)) {
    throw new ValidatorsError(
      'VALIDATORS_UNKNOWN_CONTRACT',
      `options.contract ${describeValue(options.contract)} is not a supported contract (${SUPPORTED_CONTRACTS.join(', ')}).`,
    );
  }
  if (options.digests !== undefined && typeof options.digests !== 'boolean') {
    throw new ValidatorsError('VALIDATORS_INVALID_OPTION', 'options.digests must be a boolean.');
  }
  try {
    return check(document, options);
  } catch (err) {
    const contract = options.contract ?? null;
    if (err instanceof RangeError) {
      return fail(contract, [
        documentIssue(
          'DOCUMENT_TOO_DEEP',
          'the document is nested too deeply to check (the stack was exhausted); contract documents are shallow, so flatten it.',
        ),
      ]);
    }
    return fail(contract, [
      documentIssue(
        'VALIDATOR_INTERNAL_ERROR',
        `the validator failed unexpectedly (${err instanceof Error ? err.message : 'unknown error'}); this is a bug, please report it with the document.`,
      ),
    ]);
  }
}
