// Step comparison: how one reply is judged against its step's expectation. The runner sends the
// steps; this module only says whether a reply matches and, when not, where it differs, by JSON
// Pointer into the JSON-RPC response. docs/spec/decisions.md D-GEN-12, D-GEN-30.
import { isDeepStrictEqual } from 'node:util';
import { type Expectation, partialMismatch } from '../cases.js';
import { type Difference, type Differences, differenceAt, jsonDifferences, jsonText } from '../json-diff.js';
import { truncated } from '../text.js';
import { describeReplyViolation, type Reply } from '../wire/reply.js';

const short = (v: unknown) => truncated(jsonText(v), 300);

interface ValidateLike {
  ok: boolean;
  issues: Array<{ code: string; path: string }>;
}

function asValidateResult(value: unknown): ValidateLike | string {
  const v = value as Partial<ValidateLike> | null;
  if (!v || typeof v !== 'object' || typeof v.ok !== 'boolean' || !Array.isArray(v.issues)) {
    return `expected a validate result { ok: boolean, issues: [...] }, got ${short(value)}`;
  }
  if (v.issues.some((i) => !i || typeof i.code !== 'string' || typeof i.path !== 'string')) {
    return `every issue needs a string "code" and "path", got ${short(v.issues)}`;
  }
  return v as ValidateLike;
}

/**
 * Why a reply does not meet its expectation: a headline, and every place it differs, by JSON
 * Pointer into the JSON-RPC response (`/result/...`, `/error/...`). docs/spec/decisions.md D-GEN-12.
 */
export interface Judgement {
  readonly detail: string;
  /** The first 20 (`DIFFERENCES_LISTED`, json-diff.ts) differences, in document order. */
  readonly differences: readonly Difference[];
  /** How many more differences there are than listed. */
  readonly moreDifferences: number;
}

/** How many differences the headline names, with their values, before it only counts the rest. */
const IN_HEADLINE = 3;

const describeDifference = (d: Difference) =>
  `${d.pointer || '(the reply)'}: expected ${d.expected ?? '(nothing)'}, got ${d.actual ?? '(nothing)'}`;

function judged(what: string, found: Differences, fallback: Difference[] = []): Judgement {
  const differences = found.total ? found.listed : fallback;
  const total = found.total || fallback.length;
  const named = differences.slice(0, IN_HEADLINE).map(describeDifference).join('; ');
  const rest = total - Math.min(total, IN_HEADLINE);
  return {
    detail: `${what} differs at ${total} ${total === 1 ? 'pointer' : 'pointers'}: ${named}${rest ? `; and ${rest} more` : ''}`,
    differences,
    moreDifferences: Math.max(0, total - differences.length),
  };
}

const plain = (detail: string, differences: Difference[] = []): Judgement => ({
  detail,
  differences,
  moreDifferences: 0,
});

/**
 * Judge one reply against a step's expectation: null when it matches, else why not and where. A
 * reply that breaks its schema fails whatever the expectation, at the pointer of the violation.
 */
export function judgeStep(expect: Expectation, reply: Reply): Judgement | null {
  if ('invalid' in reply) {
    const v = reply.invalid;
    return plain(describeReplyViolation(v), [
      { ...differenceAt(v.pointer, undefined, v.actual), keyword: v.keyword, schema: v.schema },
    ]);
  }
  const rpcError = 'error' in reply ? reply.error : undefined;
  if ('error' in expect) {
    const wanted = { data: { code: expect.error } };
    if ('result' in reply)
      return plain(`expected refusal ${expect.error}, got result ${short(reply.result)}`, [
        differenceAt('/error', wanted, undefined),
        differenceAt('/result', undefined, reply.result),
      ]);
    if (reply.refusal === expect.error) {
      if (expect.data === undefined || partialMismatch(expect.data, rpcError?.data) === null) return null;
      const found = jsonDifferences(expect.data, rpcError?.data, 'contains');
      return judged(`refusal ${expect.error} as expected, but its data`, {
        total: found.total,
        listed: found.listed.map((d) => ({ ...d, pointer: `/error/data${d.pointer}` })),
      });
    }
    const found = jsonDifferences(wanted, rpcError, 'contains');
    return judged(`expected refusal ${expect.error}; the error`, {
      total: found.total,
      listed: found.listed.map((d) => ({ ...d, pointer: `/error${d.pointer}` })),
    });
  }
  if ('error' in reply) {
    const wanted = 'result' in expect ? expect.result : 'match' in expect ? expect.match : undefined;
    return plain(`expected a result, got error ${short(rpcError)}`, [
      differenceAt('/result', wanted, undefined),
      differenceAt('/error', undefined, rpcError),
    ]);
  }
  const under = (found: Differences): Differences => ({
    total: found.total,
    listed: found.listed.map((d) => ({ ...d, pointer: `/result${d.pointer}` })),
  });
  if ('result' in expect) {
    if (isDeepStrictEqual(reply.result, expect.result)) return null;
    return judged('the result', under(jsonDifferences(expect.result, reply.result, 'equal')));
  }
  if ('match' in expect) {
    if (partialMismatch(expect.match, reply.result) === null) return null;
    return judged('the result', under(jsonDifferences(expect.match, reply.result, 'contains')));
  }
  const r = asValidateResult(reply.result);
  if (typeof r === 'string') return plain(r, [differenceAt('/result', undefined, reply.result)]);
  if ('valid' in expect) {
    if (r.ok && r.issues.length === 0) return null;
    return judged(
      'the validate result (expected valid)',
      under(jsonDifferences({ ok: true, issues: [] }, r, 'contains')),
    );
  }
  const want = `${expect.issue.code} at "${expect.issue.path}"`;
  if (r.ok)
    return plain(`expected ${want}, but the document was accepted`, [
      differenceAt('/result/ok', false, true),
    ]);
  return r.issues.some((i) => i.code === expect.issue.code && i.path === expect.issue.path)
    ? null
    : plain(`expected ${want}, got ${short(r.issues)}`, [
        differenceAt('/result/issues', [expect.issue], r.issues),
      ]);
}

/** Judge one reply against a step's expectation: null when it matches, else why not. */
export function judgeReply(expect: Expectation, reply: Reply): string | null {
  return judgeStep(expect, reply)?.detail ?? null;
}
