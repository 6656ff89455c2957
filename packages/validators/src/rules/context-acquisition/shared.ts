// Shared by the rules of ContentIdentityV1, ContextReadPlanV2 and ContextReadPlanV1
// (docs/spec/context-acquisition-gate.md): the spec anchors, JSON, list and time helpers, the
// action-envelope derivation both plan versions check, and the NFKC check of a source key.
import type { ContextActionClass } from '@agent-contracts/schemas';
import { describeValue } from '../../pointer.js';
import type { Report } from '../kit.js';

const PAGE = 'docs/spec/context-acquisition-gate.md';
export const CONTENT_INVARIANTS = `${PAGE}#invariants-1`;
export const V2_INVARIANTS = `${PAGE}#invariants-2`;
export const V1_INVARIANTS = `${PAGE}#invariants-3`;

export const V2 = 'ContextReadPlanV2';
export const V1 = 'ContextReadPlanV1';

/**
 * Whether two values are the same JSON data: equal strings, booleans, null and numbers, arrays
 * item by item, plain objects member by member in any key order. Anything else is unequal.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return a !== undefined && (typeof a !== 'object' || a === null);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in a && i in b && jsonEqual(a[i], b[i]))) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const pa = Object.getPrototypeOf(a);
  const pb = Object.getPrototypeOf(b);
  if ((pa !== Object.prototype && pa !== null) || (pb !== Object.prototype && pb !== null)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export const list = (xs: readonly unknown[]) =>
  xs.length ? xs.map((x) => JSON.stringify(x)).join(', ') : 'none';
/** Ascending order of UTF-16 code units (JavaScript's default sort), the order the spec uses. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A sorted copy; the short lists of a plan by insertion, where Array.prototype.sort costs more. */
export function sorted<T extends string>(xs: readonly T[]): T[] {
  const out = xs.slice();
  const n = out.length;
  if (n > 32) return out.sort(cmp);
  for (let i = 1; i < n; i++) {
    const x = out[i]!;
    let j = i - 1;
    while (j >= 0 && x < out[j]!) {
      out[j + 1] = out[j]!;
      j--;
    }
    out[j + 1] = x;
  }
  return out;
}
export const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
export const sameSet = (a: readonly string[], b: readonly string[]) => sameList(sorted(a), sorted(b));

/**
 * Comparable key of a spec timestamp (`YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`, guaranteed by the schema):
 * the fraction is padded to nanoseconds so sub-millisecond precision is not lost.
 */
export function timeKey(ts: string): string {
  const dot = ts.indexOf('.');
  const fraction = dot === -1 ? '' : ts.slice(dot + 1, -1);
  return `${ts.slice(0, 19)}.${fraction.padEnd(9, '0')}`;
}

const MUTATING: readonly ContextActionClass[] = [
  'docs-mutation',
  'source-mutation',
  'workflow-closeout',
  'release',
  'dangerous',
];
const MUTATION_INTENTS = new Set(['dev', 'fix', 'self-fix', 'other']);

/** The action-envelope derivation (Derivations, "Action envelope"), shared by V2 and V1. */
function deriveActionEnvelope(
  finalIntent: string,
  changeTypes: readonly string[],
  riskHint: string,
): { allowedActionClasses: ContextActionClass[]; mutationExpected: boolean; riskCeiling: string } {
  const allowed = new Set<ContextActionClass>(['context-read', 'analysis-read']);
  if (finalIntent !== 'chat') {
    allowed.add('test-execution');
    allowed.add('workflow-closeout');
  }
  if (MUTATION_INTENTS.has(finalIntent)) {
    if (changeTypes.some((c) => c === 'docs' || c === 'public-contract')) allowed.add('docs-mutation');
    if (changeTypes.some((c) => c !== 'docs')) allowed.add('source-mutation');
  }
  if (changeTypes.includes('release')) allowed.add('release');
  if (changeTypes.includes('destructive')) allowed.add('dangerous');
  const allowedActionClasses = sorted([...allowed]);
  return {
    allowedActionClasses,
    mutationExpected: allowedActionClasses.some((a) => MUTATING.includes(a)),
    riskCeiling: riskHint,
  };
}

export function checkActionEnvelope(
  envelope: { allowedActionClasses: readonly string[]; mutationExpected: boolean; riskCeiling: string },
  finalIntent: string,
  changeTypes: readonly string[],
  riskHint: string,
  report: Report,
): void {
  const want = deriveActionEnvelope(finalIntent, changeTypes, riskHint);
  if (!sameSet(envelope.allowedActionClasses, want.allowedActionClasses)) {
    const extra = envelope.allowedActionClasses.filter(
      (c) => !want.allowedActionClasses.includes(c as never),
    );
    const missing = want.allowedActionClasses.filter((c) => !envelope.allowedActionClasses.includes(c));
    report(
      '/actionEnvelope/allowedActionClasses',
      `allowedActionClasses must be exactly the derivation for finalIntent ${JSON.stringify(finalIntent)} and changeTypes [${list(changeTypes)}]: ${list(want.allowedActionClasses)} (not allowed: ${list(extra)}; missing: ${list(missing)}); derive the envelope, never widen or narrow it by hand.`,
    );
  }
  if (envelope.mutationExpected !== want.mutationExpected) {
    report(
      '/actionEnvelope/mutationExpected',
      `mutationExpected is ${envelope.mutationExpected} but the derived classes ${want.mutationExpected ? 'include' : 'include no'} mutating class (docs-mutation, source-mutation, workflow-closeout, release, dangerous); set it to ${want.mutationExpected}.`,
    );
  }
  if (envelope.riskCeiling !== riskHint) {
    report(
      '/actionEnvelope/riskCeiling',
      `riskCeiling is ${JSON.stringify(envelope.riskCeiling)} but must equal the seed's riskHint ${JSON.stringify(riskHint)}.`,
    );
  }
}

/** `skipReason` placeholders the spec refuses (invariant 18), compared trimmed and case-insensitively. */
const PLACEHOLDER_SKIP_REASONS = new Set(['not needed', '暂不需要']);
export const isPlaceholderSkipReason = (s: string) => PLACEHOLDER_SKIP_REASONS.has(s.trim().toLowerCase());

export const notNfkc = (key: string) => key.normalize('NFKC') !== key;
export const nfkcMessage = (key: string) =>
  `sourceKey ${describeValue(key)} is not NFKC-normalized (its NFKC form is ${describeValue(key.normalize('NFKC'))}); normalize the key and rebuild the identity.`;
