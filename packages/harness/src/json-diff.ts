// Where two JSON values differ, by JSON Pointer (RFC 6901), with the expected and actual value at
// each pointer as bounded JSON text: a verdict an implementer can act on names every field that
// differs, never a cut that ends before it. docs/spec/decisions.md D-GEN-12.
import { isDeepStrictEqual } from 'node:util';

/** One place where the expected and actual values differ. */
export interface Difference {
  /** JSON Pointer of the place, `""` for the whole value. */
  readonly pointer: string;
  /**
   * The expected value at the pointer as JSON text, elided in the middle (keeping the part where
   * it differs from the actual value) beyond {@link VALUE_CHARS} characters; absent when nothing is
   * expected there (a member the actual value has and the expected one has not).
   */
  readonly expected?: string;
  /** The actual value at the pointer, the same way; absent when the actual value has nothing there. */
  readonly actual?: string;
  /**
   * For a reply that breaks its schema (docs/protocol.md#every-message-is-checked): the JSON
   * Schema keyword the value at the pointer breaks (`type`, `additionalProperties`, ...).
   */
  readonly keyword?: string;
  /** For a reply that breaks its schema: the message type whose schema it breaks (schemas/protocol/<schema>.schema.json). */
  readonly schema?: string;
  /**
   * For a reply that breaks its schema: what its keywords ask for there (`must be integer`; the
   * messages of several keywords broken at one pointer are joined with `; `).
   */
  readonly message?: string;
  /**
   * The layer of the difference (docs/spec/decisions.md D-GEN-30): `shape`, the reply breaks its
   * schema there (`keyword`, `schema`); `behaviour`, an expected member (or, for a fault
   * scenario, a checked value) differs there. Absent in reports written before the two layers.
   */
  readonly kind?: DifferenceKind;
  /**
   * For a shape difference: at how many places the reply breaks its schema at this pointer, array
   * indices aside (every element of a list lacking one member is one difference); `pointer` is the
   * first of them. Absent for 1.
   * @TJS-type integer
   * @minimum 2
   */
  readonly count?: number;
}

/** The layer of a difference: the reply's shape (its schema) or its behaviour (what it says). */
export type DifferenceKind = 'shape' | 'behaviour';

/** The differences found: the first `limit` of them in document order, and how many there are. */
export interface Differences {
  readonly listed: readonly Difference[];
  readonly total: number;
}

/**
 * How to compare: `equal` (deep equality, the `result` expectation) or `contains` (the `match`
 * expectation: members the expected object lacks are ignored; arrays compare element by element).
 */
export type DiffMode = 'equal' | 'contains';

/** How many differences are listed before the rest is only counted. */
export const DIFFERENCES_LISTED = 20;
/** Longest JSON text kept for a value at a pointer; longer text is elided in the middle. */
export const VALUE_CHARS = 240;
/** Nesting below which two values are compared whole and reported at one pointer. */
const MAX_DEPTH = 128;

const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON text of a value; `String(v)` for what JSON cannot write (never thrown). */
export function jsonText(value: unknown): string {
  try {
    const s = JSON.stringify(value);
    if (s !== undefined) return s;
  } catch {}
  return String(value);
}

/** Whether the code unit at `i` is the second half of a surrogate pair (no cut may land before it). */
const lowSurrogateAt = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
};

/**
 * `text` at most about `max` characters long: when longer, elided in the middle with `…`, keeping
 * its start, the window around the first character where it differs from `other`, and its end.
 *
 * @example
 * elideAround('{"a":"xxxx…(1000)","status":"open"}', '{"a":"xxxx…(1000)","status":"done"}', 60);
 * // '{"a":"xxxxxxxxxx…xxxxxxx","status":"open"}'
 */
export function elideAround(text: string, other: string, max = VALUE_CHARS): string {
  if (text.length <= max) return text;
  let at = 0;
  while (at < text.length && at < other.length && text[at] === other[at]) at++;
  const head = Math.floor(max / 6);
  const context = Math.floor(max / 3);
  const room = max - head - 2;
  let start = Math.max(head, at - context);
  let end = Math.min(text.length, start + room);
  start = Math.max(head, Math.min(start, end - room));
  const cut = (i: number) => (i > 0 && i < text.length && lowSurrogateAt(text, i) ? i + 1 : i);
  const h = cut(head);
  start = cut(start);
  end = cut(end);
  const middle = start <= h ? text.slice(0, end) : `${text.slice(0, h)}…${text.slice(start, end)}`;
  return end < text.length ? `${middle}…` : middle;
}

/**
 * The difference at `pointer` between two values (`undefined`: nothing there), each as JSON text
 * elided around where the two texts differ.
 */
export function differenceAt(pointer: string, expected: unknown, actual: unknown): Difference {
  const e = expected === undefined ? undefined : jsonText(expected);
  const a = actual === undefined ? undefined : jsonText(actual);
  return {
    pointer,
    ...(e === undefined ? {} : { expected: elideAround(e, a ?? '') }),
    ...(a === undefined ? {} : { actual: elideAround(a, e ?? '') }),
  };
}

/**
 * The places where `actual` differs from `expected`, in document order (the expected value's
 * members first, then the ones only the actual value has). Each is a leaf: a scalar that differs,
 * a value of another kind (object, array, scalar), or a member or element present on one side
 * only. Equal values (for `contains`: `actual` contains `expected`) have none.
 *
 * @example
 * jsonDifferences({ a: 1, b: [1, 2] }, { a: 2, b: [1] }, 'equal');
 * // { total: 2, listed: [{ pointer: '/a', expected: '1', actual: '2' }, { pointer: '/b/1', expected: '2' }] }
 */
export function jsonDifferences(
  expected: unknown,
  actual: unknown,
  mode: DiffMode,
  limit = DIFFERENCES_LISTED,
): Differences {
  const listed: Difference[] = [];
  let total = 0;
  const add = (pointer: string, e: unknown, a: unknown) => {
    total++;
    if (listed.length < limit) listed.push(differenceAt(pointer, e, a));
  };
  const walk = (e: unknown, a: unknown, pointer: string, depth: number): void => {
    if (depth > MAX_DEPTH) {
      if (!isDeepStrictEqual(e, a)) add(pointer, e, a);
      return;
    }
    if (Array.isArray(e) && Array.isArray(a)) {
      const n = Math.max(e.length, a.length);
      for (let i = 0; i < n; i++) {
        const p = `${pointer}/${i}`;
        if (i >= e.length) add(p, undefined, a[i]);
        else if (i >= a.length) add(p, e[i], undefined);
        else walk(e[i], a[i], p, depth + 1);
      }
      return;
    }
    if (isObject(e) && isObject(a)) {
      for (const [k, v] of Object.entries(e)) {
        const p = `${pointer}/${token(k)}`;
        if (!Object.hasOwn(a, k)) add(p, v, undefined);
        else walk(v, a[k], p, depth + 1);
      }
      if (mode === 'equal')
        for (const [k, v] of Object.entries(a))
          if (!Object.hasOwn(e, k)) add(`${pointer}/${token(k)}`, undefined, v);
      return;
    }
    const same = mode === 'equal' ? isDeepStrictEqual(e, a) : Object.is(e, a) || e === a;
    if (!same) add(pointer, e, a);
  };
  walk(expected, actual, '', 0);
  return { listed, total };
}
