// Recomputes every digest and derived-id field of a document from the spec's DIGEST_RULES and
// reports the fields that disagree.
import { DIGEST_RULES, type DigestRule } from '@agent-contracts/schemas';
import type { Issue } from './issues.js';
import { describeValue, resolvePointer } from './pointer.js';

const byContract = new Map<string, DigestRule[]>();
for (const rule of DIGEST_RULES) {
  const list = byContract.get(rule.contract);
  if (list) list.push(rule);
  else byContract.set(rule.contract, [rule]);
}

/** Whether the contract has any digest rule. */
export function hasDigestRules(contract: string): boolean {
  return byContract.has(contract);
}

/** DIGEST_MISMATCH / DIGEST_UNCOMPUTABLE issues of a structurally valid document. */
export function digestIssues(contract: string, doc: unknown, rules = byContract.get(contract)): Issue[] {
  if (!rules) return [];
  const issues: Issue[] = [];
  for (const rule of rules) {
    let computed: Array<{ pointer: string; expected: string | null }>;
    try {
      computed = rule.mismatches ? rule.mismatches(doc) : rule.compute(doc);
    } catch (err) {
      if (err instanceof RangeError) throw err; // stack exhaustion: reported as DOCUMENT_TOO_DEEP
      const why = err instanceof Error ? err.message : 'unknown error';
      issues.push({
        code: 'DIGEST_UNCOMPUTABLE',
        path: rule.pointer.includes('*') ? '' : rule.pointer,
        message: `${rule.pointer} cannot be recomputed (${why}); the fields it covers (${rule.covers}) must be plain JSON.`,
        rule: `digest:${contract}${rule.pointer}`,
        severity: 'error',
      });
      continue;
    }
    for (const entry of computed) {
      const { pointer, expected } = entry;
      // A rule may hand over the value at `pointer` it already read (see its `actual`).
      const actual = 'actual' in entry ? entry.actual : resolvePointer(doc, pointer).value;
      if (actual === expected) continue;
      issues.push({
        code: rule.code ?? 'DIGEST_MISMATCH',
        path: pointer,
        message:
          `${pointer} is ${describeValue(actual)} but recomputes to ${describeValue(expected)}; ` +
          `it must be RFC 8785 JCS + SHA-256 over ${rule.covers} (recompute it with digestOf from @agent-contracts/digest).`,
        rule: `digest:${contract}${rule.pointer}`,
        severity: 'error',
      });
    }
  }
  return issues;
}
