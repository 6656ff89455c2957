// The shape layer of a step's judgement: every place a reply breaks its schema, one difference
// per pointer (array indices aside, counted; the first keyword names it), in the order the check meets them.
// docs/spec/decisions.md D-GEN-30.
import { type Difference, differenceAt } from '../json-diff.js';
import type { ReplyViolation } from '../wire/reply.js';

/** The pointer with every array index (a token of digits) as `*`: the places one rule breaks alike. */
export const generalPointer = (pointer: string): string =>
  pointer
    .split('/')
    .map((t, i) => (i > 0 && /^(0|[1-9][0-9]*)$/.test(t) ? '*' : t))
    .join('/');

/** The shape differences of a reply's violations, grouped, and every pointer they were found at. */
export function shapeOf(violations: readonly ReplyViolation[]): {
  readonly differences: readonly Difference[];
  readonly pointers: readonly string[];
} {
  // One group per pointer (array indices aside): its first violation names it, the messages of
  // every keyword broken there are joined, and the places are counted.
  const groups = new Map<string, { v: ReplyViolation; places: Set<string>; messages: string[] }>();
  for (const v of violations) {
    const key = generalPointer(v.pointer);
    const g = groups.get(key) ?? { v, places: new Set<string>(), messages: [] };
    g.places.add(v.pointer);
    if (!g.messages.includes(v.message)) g.messages.push(v.message);
    groups.set(key, g);
  }
  const differences = [...groups.values()].map(({ v, places, messages }) => ({
    ...differenceAt(v.pointer, undefined, v.actual),
    keyword: v.keyword,
    schema: v.schema,
    message: messages.join('; '),
    kind: 'shape' as const,
    ...(places.size > 1 ? { count: places.size } : {}),
  }));
  return { differences, pointers: violations.map((v) => v.pointer) };
}
