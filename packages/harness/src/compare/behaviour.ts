// The behaviour layer of a step's judgement: the members the expectation names, compared by JSON
// Pointer with what the reply has there. It runs on every reply, also one that breaks its schema
// (on the reply as it was sent), so that a reply in an older shape still shows what it does
// wrong. docs/spec/decisions.md D-GEN-12, D-GEN-30.
import { isDeepStrictEqual } from 'node:util';
import { SPEC_ERROR } from '@agent-contracts/protocol';
import { type Expectation, partialMismatch } from '../cases.js';
import { type Difference, differenceAt, jsonDifferences, jsonText } from '../json-diff.js';
import { truncated } from '../text.js';
import type { RawReply, Reply } from '../wire/reply.js';

/** A reply that meets its schema: a result, or an error with its spec code when it is a refusal. */
export type WellFormedReply = Exclude<Reply, { readonly invalid: unknown }>;

/** Where a reply's behaviour differs from the expectation. */
export interface Finding {
  /** Headline: `<what> differs at <n> pointers: ...` is made of it; absent when `sentence` says it all. */
  readonly what?: string;
  /** A headline of its own (a refusal where a result was expected, ...). */
  readonly sentence?: string;
  /** The differences found (at most {@link FOUND}), in document order, each `kind: "behaviour"`. */
  readonly differences: readonly Difference[];
  /** How many there are. */
  readonly total: number;
  /** The reply cannot be compared at all (a validate result without `ok` and `issues`). */
  readonly unreadable?: true;
  /**
   * The reply is of the other kind than expected (a result where a refusal was expected, an error
   * where a result was): this is the headline, before whatever the shape layer says.
   */
  readonly otherKind?: true;
}

/** How many differences a finding keeps before it only counts (the report lists far fewer). */
const FOUND = 10_000;

const short = (v: unknown) => truncated(jsonText(v), 300);

const behaviour = (d: Difference): Difference => ({ ...d, kind: 'behaviour' });

const at = (prefix: string, ds: readonly Difference[]) =>
  ds.map((d) => behaviour({ ...d, pointer: `${prefix}${d.pointer}` }));

function judged(
  what: string,
  prefix: string,
  expected: unknown,
  actual: unknown,
  mode: 'equal' | 'contains',
) {
  const found = jsonDifferences(expected, actual, mode, FOUND);
  return { what, differences: at(prefix, found.listed), total: found.total };
}

const said = (sentence: string, differences: Difference[]): Finding => ({
  sentence,
  differences: differences.map(behaviour),
  total: differences.length,
});

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

/** An error as the headline names it: `error -32601 "Method not found"`, with its data if any. */
export function errorText(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (!e || typeof e !== 'object') return `error ${short(error)}`;
  const data = e.data === undefined ? '' : ` with data ${short(e.data)}`;
  return `error ${short(e.code)} ${short(e.message)}${data}`;
}

/** The refusal a step expects, in words: `refusal X (a JSON-RPC error -32000 with data.code "X")`. */
const refusalText = (code: string) =>
  `refusal ${code} (a JSON-RPC error ${SPEC_ERROR} with data.code ${JSON.stringify(code)})`;

/**
 * Judge the behaviour of a well-formed reply: null when it is what the step expects, else where
 * it differs.
 */
export function behaviourOf(expect: Expectation, reply: WellFormedReply): Finding | null {
  const rpcError = 'error' in reply ? reply.error : undefined;
  if ('error' in expect) {
    const wanted = { code: SPEC_ERROR, data: { code: expect.error } };
    if ('result' in reply) {
      const r = reply.result as { code?: unknown } | null;
      const asResult =
        r && typeof r === 'object' && r.code === expect.error
          ? ' (a refusal is sent as a JSON-RPC error, never as a result)'
          : '';
      return {
        ...said(`expected ${refusalText(expect.error)}, got a result ${short(reply.result)}${asResult}`, [
          differenceAt('/error', wanted, undefined),
          differenceAt('/result', undefined, reply.result),
        ]),
        otherKind: true,
      };
    }
    if (reply.refusal === expect.error) {
      if (expect.data === undefined || partialMismatch(expect.data, rpcError?.data) === null) return null;
      return judged(
        `refusal ${expect.error} as expected, but its data`,
        '/error/data',
        expect.data,
        rpcError?.data,
        'contains',
      );
    }
    const found = jsonDifferences(wanted, rpcError, 'contains', FOUND);
    return {
      sentence: `expected ${refusalText(expect.error)}, got ${errorText(rpcError)}`,
      differences: at('/error', found.listed),
      total: found.total,
    };
  }
  if ('error' in reply) {
    const wanted = 'result' in expect ? expect.result : 'match' in expect ? expect.match : undefined;
    return {
      ...said(`expected a result, got ${errorText(rpcError)}`, [
        differenceAt('/result', wanted, undefined),
        differenceAt('/error', undefined, rpcError),
      ]),
      otherKind: true,
    };
  }
  if ('result' in expect) {
    if (isDeepStrictEqual(reply.result, expect.result)) return null;
    return judged('the result', '/result', expect.result, reply.result, 'equal');
  }
  if ('match' in expect) {
    if (partialMismatch(expect.match, reply.result) === null) return null;
    return judged('the result', '/result', expect.match, reply.result, 'contains');
  }
  const r = asValidateResult(reply.result);
  if (typeof r === 'string')
    return { ...said(r, [differenceAt('/result', undefined, reply.result)]), unreadable: true };
  if ('valid' in expect) {
    if (r.ok && r.issues.length === 0) return null;
    return judged('the validate result (expected valid)', '/result', { ok: true, issues: [] }, r, 'contains');
  }
  const want = `${expect.issue.code} at "${expect.issue.path}"`;
  if (r.ok)
    return said(`expected ${want}, but the document was accepted`, [differenceAt('/result/ok', false, true)]);
  return r.issues.some((i) => i.code === expect.issue.code && i.path === expect.issue.path)
    ? null
    : said(`expected ${want}, got ${short(r.issues)}`, [
        differenceAt('/result/issues', [expect.issue], r.issues),
      ]);
}

/**
 * A reply that breaks its schema read as well-formed, for its behaviour layer: a result as a
 * result, an error as an error (a refusal when it is a -32000 whose `data.code` is a string).
 */
export function asWellFormed(raw: RawReply): WellFormedReply {
  if ('result' in raw) return { result: raw.result };
  const e = raw.error as { code?: unknown; data?: { code?: unknown } } | null;
  const code = e && typeof e === 'object' && e.code === SPEC_ERROR ? e.data?.code : undefined;
  return { error: raw.error as never, refusal: typeof code === 'string' ? code : null };
}

/**
 * A finding without what the shape layer already says: a difference at or under a pointer where
 * the reply breaks its schema (a numeric `schemaVersion`, a missing member, `""` for null) is
 * explained there. Null when nothing is left.
 */
export function beyondShape(finding: Finding, shapePointers: readonly string[]): Finding | null {
  const explained = (p: string) => shapePointers.some((s) => p === s || p.startsWith(`${s}/`));
  const differences = finding.differences.filter((d) => !explained(d.pointer));
  const removed = finding.differences.length - differences.length;
  if (finding.unreadable || !differences.length) return null;
  return { ...finding, differences, total: finding.total - removed };
}
