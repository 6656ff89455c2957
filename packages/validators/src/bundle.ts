// Cross-document validation: every document of a bundle is validated on its own first; only a
// bundle whose documents are all valid is judged by the bundle rules of its kind.
import type { Issue } from './issues.js';
import { BUNDLE_RULES, type Bundle, type BundleRule, type ContractDocument } from './rules/index.js';
import { validate } from './validate.js';

/** Result of {@link validateBundle}. */
export type BundleResult =
  | { readonly ok: true; readonly kind: string; readonly warnings: readonly Issue[] }
  | { readonly ok: false; readonly kind: string | null; readonly issues: readonly Issue[] };

/** Every bundle kind that has at least one rule. */
export const BUNDLE_KINDS: readonly string[] = [...new Set(BUNDLE_RULES.map((r) => r.bundle))];

function prefix(issue: Issue, index: number): Issue {
  return { ...issue, path: `/documents/${index}${issue.path}` };
}

/**
 * Validate a bundle (`{ kind, documents }`): each document against its own contract, then the
 * cross-document rules of `kind`. Never throws for any input.
 *
 * @example
 * const r = validateBundle({ kind: 'trace-replay', documents: [trace, replay] });
 * if (!r.ok) for (const i of r.issues) console.log(i.code, i.path);
 */
export function validateBundle(bundle: unknown, rules: readonly BundleRule[] = BUNDLE_RULES): BundleResult {
  const fail = (kind: string | null, code: string, message: string, path = ''): BundleResult => ({
    ok: false,
    kind,
    issues: [{ code, path, message, rule: 'bundle', severity: 'error' }],
  });
  if (bundle === null || typeof bundle !== 'object' || Array.isArray(bundle)) {
    return fail(null, 'BUNDLE_INVALID', 'a bundle is an object { "kind": string, "documents": [ ... ] }.');
  }
  const { kind, documents } = bundle as Partial<Bundle>;
  if (typeof kind !== 'string' || !BUNDLE_KINDS.includes(kind)) {
    return fail(
      null,
      'BUNDLE_KIND_UNKNOWN',
      `unknown bundle kind ${JSON.stringify(kind)}; known kinds: ${BUNDLE_KINDS.join(', ') || '(none)'}.`,
      '/kind',
    );
  }
  if (!Array.isArray(documents) || documents.length === 0) {
    return fail(kind, 'BUNDLE_INVALID', 'a bundle needs a non-empty "documents" array.', '/documents');
  }
  const perDocument: Issue[] = [];
  const warnings: Issue[] = [];
  documents.forEach((doc, i) => {
    const r = validate(doc);
    if (r.ok) warnings.push(...r.warnings.map((w) => prefix(w, i)));
    else perDocument.push(...r.issues.map((issue) => prefix(issue, i)));
  });
  if (perDocument.length) return { ok: false, kind, issues: perDocument };
  const issues: Issue[] = [];
  for (const rule of rules) {
    if (rule.bundle !== kind) continue;
    try {
      issues.push(...rule.check(documents as ContractDocument[]));
    } catch (err) {
      if (err instanceof RangeError) throw err;
      issues.push({
        code: 'RULE_FAILED',
        path: '',
        message: `bundle rule ${rule.code} crashed (${err instanceof Error ? err.message : 'unknown error'}); this is a validator bug, please report it with the bundle.`,
        rule: rule.specSection,
        severity: 'error',
      });
    }
  }
  const errors = issues.filter((i) => i.severity === 'error');
  return errors.length ? { ok: false, kind, issues } : { ok: true, kind, warnings: [...warnings, ...issues] };
}
