import { DigestError } from './errors.js';

// RFC 8785 (JSON Canonicalization Scheme). ECMAScript's own number and string serialisation
// are exactly what the RFC prescribes, so the work left is: refuse what JSON cannot carry,
// sort object keys by UTF-16 code units, and refuse lone surrogates (I-JSON, RFC 7493).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `value` holds a lone UTF-16 surrogate, which RFC 8785 (I-JSON) refuses: such a string
 * has no digest, so a producer checks it before building a document around it.
 *
 * @example
 * hasLoneSurrogate('\ud800'); // true
 */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function invalid(path: string, what: string): DigestError {
  return new DigestError(
    'DIGEST_INPUT_INVALID',
    path,
    `Cannot canonicalize ${what} at "${path || '/'}": digests cover plain JSON data only. Remove or convert the value before hashing.`,
  );
}

function serializeString(value: string, path: string): string {
  if (LONE_SURROGATE.test(value)) throw invalid(path, 'a string with a lone UTF-16 surrogate');
  return JSON.stringify(value);
}

function serialize(value: unknown, path: string, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value, path);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw invalid(path, `the non-finite number ${String(value)}`);
      // JSON.stringify(-0) is "0", as RFC 8785 section 3.2.2.3 requires.
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (seen.has(value)) throw invalid(path, 'a cycle');
      seen.add(value);
      let out: string;
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) throw invalid(`${path}/${i}`, 'an array hole');
          parts.push(serialize(value[i], `${path}/${i}`, seen));
        }
        out = `[${parts.join(',')}]`;
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) throw invalid(path, 'a non-plain object');
        const record = value as Record<string, unknown>;
        // Default sort compares UTF-16 code units, which is the RFC 8785 order.
        const keys = Object.keys(record).sort();
        const parts: string[] = [];
        for (const key of keys) {
          const childPath = `${path}/${escapePointerToken(key)}`;
          parts.push(`${serializeString(key, childPath)}:${serialize(record[key], childPath, seen)}`);
        }
        out = `{${parts.join(',')}}`;
      }
      seen.delete(value);
      return out;
    }
    default:
      throw invalid(path, `a value of type ${typeof value}`);
  }
}

// The fast path below produces the same text for plain JSON data and gives up (FALLBACK) on
// anything unusual; `serialize` above then redoes the work and throws the precise DigestError
// with its JSON Pointer. Keeping the two apart keeps the common case free of path strings and of
// the cycle set: a cycle shows up as a depth beyond MAX_FAST_DEPTH, which hands over as well.

/** No character JSON.stringify would escape (quote, backslash, controls) and no surrogate at all. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const MAX_FAST_DEPTH = 256;
const FALLBACK = Symbol('jcs-fallback');

function fastString(value: string): string {
  if (PLAIN_STRING.test(value)) return `"${value}"`;
  if (LONE_SURROGATE.test(value)) throw FALLBACK;
  return JSON.stringify(value);
}

// Documents repeat a few property names thousands of times; remember the ones that need no
// escaping (bounded, so hostile documents cannot grow it without limit).
const PLAIN_KEYS = new Set<string>();
function fastKey(key: string): string {
  if (!PLAIN_STRING.test(key)) return fastString(key);
  if (PLAIN_KEYS.size < 4096 && key.length <= 64) PLAIN_KEYS.add(key);
  return `"${key}"`;
}

// Within withCanonicalMemo, the texts of the values canonicalize is called on and of their direct
// members are remembered by identity: a validator canonicalizes a document's object for one
// digest and its members again for a semantic rule, without any change in between.
// The WeakMap is made on the first text remembered: most validations canonicalize nothing.
let memoOpen = false;
let memo: WeakMap<object, string> | null = null;

/** `fast` of an object member: through the memo for the members of a top-level value. */
function member(value: unknown, depth: number): string {
  if (!memoOpen || depth !== 1 || typeof value !== 'object' || value === null) return fast(value, depth);
  const hit = memo?.get(value);
  if (hit !== undefined) return hit;
  const text = fast(value, depth);
  if (memo === null) memo = new WeakMap();
  memo.set(value, text);
  return text;
}

/**
 * Run `fn` while {@link canonicalize} remembers, by object identity, the texts it produced for the
 * values it was given and for their direct members; the memo is dropped when `fn` returns. Only
 * for code that does not change those objects while it runs (e.g. checking one parsed document).
 *
 * @example
 * withCanonicalMemo(() => [digestOf(doc.inputs), canonicalize(doc.inputs.target)]);
 */
export function withCanonicalMemo<T>(fn: () => T): T {
  if (memoOpen) return fn();
  memoOpen = true;
  try {
    return fn();
  } finally {
    memoOpen = false;
    memo = null;
  }
}

// Arrays of objects of one shape (a plan's sources, a trace's events) sort the same keys in the
// same insertion order every time: the sorted order and each key's `"key":` prefix are remembered
// for a few key lists of plain keys, found by their first key and checked key by key (property
// names are interned, so each check is a pointer comparison). Bounded: at most SHAPES entries,
// kept for the process (key names only, never values).
interface Shape {
  readonly keys: readonly string[];
  readonly sorted: readonly string[];
  readonly prefixes: readonly string[];
}
const SHAPES = 64;
const shapes = new Map<string, Shape>();

function knownShape(keys: readonly string[]): Shape | undefined {
  const shape = shapes.get(keys[0]!);
  if (shape === undefined || shape.keys.length !== keys.length) return undefined;
  for (let i = 1; i < keys.length; i++) if (shape.keys[i] !== keys[i]) return undefined;
  return shape;
}

function rememberShape(keys: readonly string[]): void {
  // The first list seen keeps its slot: lists that share a first key never evict each other.
  if (shapes.size >= SHAPES || shapes.has(keys[0]!)) return;
  for (const key of keys) if (key.length > 64 || !PLAIN_STRING.test(key)) return;
  const sorted = [...keys].sort();
  shapes.set(keys[0]!, { keys: [...keys], sorted, prefixes: sorted.map((k) => `"${k}":`) });
}

function fast(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return fastString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // For finite numbers String() and JSON.stringify() are the same Number::toString.
      if (!Number.isFinite(value)) throw FALLBACK;
      return String(value);
    case 'object': {
      if (value === null) return 'null';
      if (depth > MAX_FAST_DEPTH) throw FALLBACK;
      if (Array.isArray(value)) {
        const n = value.length;
        if (n === 0) return '[]';
        let out = '[';
        for (let i = 0; i < n; i++) {
          const item: unknown = value[i];
          // A hole reads as undefined, which is refused either way.
          if (item === undefined) throw FALLBACK;
          if (i > 0) out += ',';
          out += fast(item, depth + 1);
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw FALLBACK;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      const n = keys.length;
      if (n === 0) return '{}';
      const shape = n > 1 && n <= 32 ? knownShape(keys) : undefined;
      if (shape !== undefined) {
        let out = '{';
        for (let i = 0; i < n; i++) {
          if (i > 0) out += ',';
          out += shape.prefixes[i]! + member(record[shape.sorted[i]!], depth + 1);
        }
        return `${out}}`;
      }
      // Insertion sort in place (the array is Object.keys' own copy): documents' objects have a
      // few keys, often already in order, where Array.prototype.sort's setup costs more than the
      // comparisons. `<` and the default sort both compare UTF-16 code units (RFC 8785 order), and
      // the keys are distinct, so the order is the one `keys.sort()` gives.
      if (n > 1 && n <= 32) rememberShape(keys);
      for (let i = 1; i < n; i++) {
        const key = keys[i]!;
        let j = i - 1;
        if (!(key < keys[j]!)) continue;
        if (n > 32) {
          keys.sort();
          break;
        }
        do {
          keys[j + 1] = keys[j]!;
          j--;
        } while (j >= 0 && key < keys[j]!);
        keys[j + 1] = key;
      }
      let out = '{';
      for (let i = 0; i < n; i++) {
        const key = keys[i]!;
        if (i > 0) out += ',';
        out += `${PLAIN_KEYS.has(key) ? `"${key}"` : fastKey(key)}:${member(record[key], depth + 1)}`;
      }
      return `${out}}`;
    }
    default:
      throw FALLBACK;
  }
}

/**
 * Serialise a JSON value per RFC 8785 (JCS).
 *
 * @throws {DigestError} `DIGEST_INPUT_INVALID` for anything that is not plain JSON data.
 * @example
 * canonicalize({ b: [1, -0], a: 'é' }) === '{"a":"é","b":[1,0]}';
 */
export function canonicalize(value: unknown): string {
  try {
    if (memoOpen && typeof value === 'object' && value !== null) {
      const hit = memo?.get(value);
      if (hit !== undefined) return hit;
      const text = fast(value, 0);
      if (memo === null) memo = new WeakMap();
      memo.set(value, text);
      return text;
    }
    return fast(value, 0);
  } catch (err) {
    if (err !== FALLBACK) throw err;
    return serialize(value, '', new Set());
  }
}
