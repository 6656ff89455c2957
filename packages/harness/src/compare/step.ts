// Step comparison: how one reply is judged against its step's expectation, in two layers. Shape:
// every place the reply breaks its schema (shape.ts). Behaviour: the members the expectation
// names, compared by JSON Pointer wherever the reply has them, even when its shape is broken
// (behaviour.ts). A reply that breaks its schema fails its step whatever its behaviour; its
// judgement carries both layers, each difference marked with its `kind`. The runner sends the
// steps; this module only judges. docs/spec/decisions.md D-GEN-12, D-GEN-30.
import type { Expectation } from '../cases.js';
import { DIFFERENCES_LISTED, type Difference, elideAround, jsonText } from '../json-diff.js';
import { describeViolation } from '../wire/message-schemas.js';
import type { RawReply, Reply } from '../wire/reply.js';
import { asWellFormed, behaviourOf, beyondShape, type Finding, type WellFormedReply } from './behaviour.js';
import { shapeOf } from './shape.js';

/** What a step expected and what came back, each as bounded text, for a step whose reply differs. */
export interface ReplyText {
  /** The expectation in words, with its JSON (`a refusal: error -32000 with data.code "X"`). */
  readonly expected: string;
  /** The reply as it was received: `{"error":{"code":-32601,"message":...}}` or `{"result":...}`. */
  readonly received: string;
}

/** How many differences of each layer a reply has (listed or not). */
export interface DifferenceCounts {
  /** Places where the reply breaks its schema, grouped as listed (keyword and pointer, array indices aside). */
  readonly shape: number;
  /** Expected members that differ where the reply has them. */
  readonly behaviour: number;
}

/**
 * Why a reply does not meet its expectation: a headline, and every place it differs, by JSON
 * Pointer into the JSON-RPC response (`/result/...`, `/error/...`). docs/spec/decisions.md D-GEN-12.
 */
export interface Judgement {
  readonly detail: string;
  /**
   * The listed differences: the shape layer's first 20 (`DIFFERENCES_LISTED`, json-diff.ts), then
   * the behaviour layer's first 20, each in document order.
   */
  readonly differences: readonly Difference[];
  /** How many more differences there are than listed. */
  readonly moreDifferences: number;
  /** How many differences each layer has. */
  readonly counts: DifferenceCounts;
  /** What was expected and what came back. */
  readonly reply: ReplyText;
}

/** How many differences the headline names, with their values, before it only counts the rest. */
const IN_HEADLINE = 3;
/** Longest text of an expectation or a received reply; longer text is elided in the middle. */
export const REPLY_CHARS = 600;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const describeDifference = (d: Difference) =>
  `${d.pointer || '(the reply)'}: expected ${d.expected ?? '(nothing)'}, got ${d.actual ?? '(nothing)'}`;

const describeShape = (d: Difference) =>
  `${describeViolation({ schema: (d.schema ?? '') as never, pointer: d.pointer, keyword: d.keyword ?? '', message: d.message ?? d.keyword ?? '' })}${d.count ? ` (and ${plural(d.count - 1, 'more place', 'more places')} like it)` : ''}`;

const rest = (total: number) => (total > IN_HEADLINE ? `; and ${total - IN_HEADLINE} more` : '');

/** The headline of a behaviour finding. */
function behaviourText(f: Finding): string {
  if (f.sentence !== undefined) return f.sentence;
  const named = f.differences.slice(0, IN_HEADLINE).map(describeDifference).join('; ');
  return `${f.what} differs at ${plural(f.total, 'pointer', 'pointers')}: ${named}${rest(f.total)}`;
}

/** The headline of the shape layer: the one violation, or how many and the first three. */
function shapeText(differences: readonly Difference[], subject = 'the reply'): string {
  if (differences.length === 1 && !differences[0]!.count)
    return `${subject} breaks its schema: ${describeShape(differences[0]!)}`;
  const named = differences.slice(0, IN_HEADLINE).map(describeShape).join('; ');
  return `${subject} breaks its schema at ${plural(differences.length, 'pointer', 'pointers')}: ${named}${rest(differences.length)}`;
}

const bounded = (text: string) => elideAround(text, '', REPLY_CHARS);

/** An expectation in words. */
export function expectationText(expect: Expectation): string {
  if ('valid' in expect) return 'a validate result {"ok":true,"issues":[]}';
  if ('issue' in expect) return `a validate result with the issue ${jsonText(expect.issue)}`;
  if ('result' in expect) return `the result ${jsonText(expect.result)}`;
  if ('match' in expect) return `a result containing ${jsonText(expect.match)}`;
  const data = expect.data === undefined ? '' : `, its data containing ${jsonText(expect.data)}`;
  return `a refusal: a JSON-RPC error -32000 with data.code ${JSON.stringify(expect.error)}${data}`;
}

/** The text of the reply as it came over the wire. */
function receivedText(reply: Reply): string {
  const raw: RawReply =
    'invalid' in reply ? reply.raw : 'result' in reply ? { result: reply.result } : { error: reply.error };
  return jsonText(raw);
}

/**
 * Judge one reply against a step's expectation: null when it matches, else why not and where, in
 * both layers. A reply that breaks its schema fails whatever its behaviour.
 */
export function judgeStep(
  expect: Expectation,
  reply: Reply,
  /** `false`: the shape layer alone (the state the expectation assumes was never built; D-GEN-13). */
  layers: { readonly behaviour: boolean } = { behaviour: true },
): Judgement | null {
  let shape: readonly Difference[] = [];
  let found: Finding | null;
  if ('invalid' in reply) {
    const s = shapeOf(reply.violations ?? [reply.invalid]);
    shape = s.differences;
    const b = layers.behaviour ? behaviourOf(expect, asWellFormed(reply.raw)) : null;
    found = b && beyondShape(b, s.pointers);
  } else {
    found = layers.behaviour ? behaviourOf(expect, reply as WellFormedReply) : null;
    if (!found) return null;
  }
  const listedShape = shape.slice(0, DIFFERENCES_LISTED);
  const listedBehaviour = (found?.differences ?? []).slice(0, DIFFERENCES_LISTED);
  const behaviourTotal = found?.total ?? 0;
  // A reply of the other kind (a result where a refusal was expected) says so first: what its
  // result lacks as a result is beside the point (docs/spec/decisions.md D-GEN-30).
  const parts = found?.otherKind
    ? [behaviourText(found), ...(shape.length ? [shapeText(shape, 'and the reply also')] : [])]
    : [
        ...(shape.length ? [shapeText(shape)] : []),
        ...(found
          ? [shape.length ? `and its behaviour differs too: ${behaviourText(found)}` : behaviourText(found)]
          : []),
      ];
  return {
    detail: parts.join('; '),
    differences: [...listedShape, ...listedBehaviour],
    moreDifferences: shape.length - listedShape.length + behaviourTotal - listedBehaviour.length,
    counts: { shape: shape.length, behaviour: behaviourTotal },
    reply: { expected: bounded(expectationText(expect)), received: bounded(receivedText(reply)) },
  };
}

/** Judge one reply against a step's expectation: null when it matches, else why not. */
export function judgeReply(expect: Expectation, reply: Reply): string | null {
  return judgeStep(expect, reply)?.detail ?? null;
}
