// Test-only: JSON Schema (the keyword subset scripts/codegen.ts accepts) -> fast-check
// arbitraries of valid documents, and mutations of a document that aim at one keyword each.
import fc from 'fast-check';
import { jsonEqual } from '../src/checks.ts';

type Schema = { readonly [key: string]: unknown };
type Path = readonly (string | number)[];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default']);

function isSchemaObject(s: unknown): s is Schema {
  return typeof s === 'object' && s !== null && !Array.isArray(s);
}

function isAnything(s: unknown): boolean {
  return s === true || (isSchemaObject(s) && Object.keys(s).every((k) => ANNOTATIONS.has(k)));
}

function typesOf(s: Schema): string[] | undefined {
  if (!('type' in s)) return undefined;
  return Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
}

/** The JSON type names a value has (an integer is also a number). */
export function jsonTypes(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  return [typeof v];
}

const codePoints = (s: string): number => [...s].length;

// Mostly ASCII, some BMP and some astral code points, so code-point vs UTF-16 counting differs.
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcxyzABZ019-_./:'.split('')) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '\n') },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xd7ff }).map((c) => String.fromCodePoint(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x1f300, max: 0x1f64f }).map((c) => String.fromCodePoint(c)) },
);

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** RFC 3339 UTC timestamps with a real date, 0-9 fraction digits, and the odd leap second. */
export const utcTimestamp: fc.Arbitrary<string> = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 0, max: 9999 })),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    leapSecond: fc.boolean(),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,9}$/)),
  })
  .map(({ year, month, day, hour, minute, second, leapSecond, fraction }) => {
    const last = month === 2 && leap(year) ? 29 : DAYS[month - 1]!;
    const d = Math.min(day, last);
    const time = leapSecond ? '23:59:60' : `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
    return `${pad(year, 4)}-${pad(month, 2)}-${pad(d, 2)}T${time}${fraction}Z`;
  });

/**
 * The pattern without lookaround groups: fast-check's stringMatching cannot generate them, so it
 * generates from this wider pattern and the caller filters by the real one.
 */
export function stripLookarounds(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '(' && /^\(\?<?[=!]/.test(src.slice(i))) {
      let depth = 0;
      let inClass = false;
      for (; i < src.length; i++) {
        const c = src[i];
        if (c === '\\') i++;
        else if (inClass) inClass = c !== ']';
        else if (c === '[') inClass = true;
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) break;
      }
      continue;
    }
    out += src[i];
    if (src[i] === '\\') out += src[++i] ?? '';
    else if (src[i] === '[') {
      // Copy a character class verbatim: a "(" inside it opens nothing.
      for (i++; i < src.length && src[i] !== ']'; i++) {
        out += src[i];
        if (src[i] === '\\') out += src[++i] ?? '';
      }
      if (i < src.length) out += ']';
    }
  }
  return out;
}

/** Strings matching the pattern (before any length filter). */
export function patternArbitrary(pattern: string, minLength = 0): fc.Arbitrary<string> {
  const re = new RegExp(pattern, 'u');
  const stripped = stripLookarounds(pattern);
  // Longer minimum lengths need the quantifiers to repeat more.
  const size = minLength <= 4 ? 'small' : minLength <= 24 ? 'medium' : 'large';
  if (stripped === pattern) return fc.stringMatching(re, { size });
  return fc.stringMatching(new RegExp(stripped, 'u'), { size }).filter((v) => re.test(v));
}

function stringArbitrary(s: Schema, ptr: string): fc.Arbitrary<string> {
  const min = (s.minLength as number | undefined) ?? 0;
  const max = s.maxLength as number | undefined;
  const within = (v: string) => codePoints(v) >= min && (max === undefined || codePoints(v) <= max);
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  let arb: fc.Arbitrary<string>;
  if (s.format !== undefined) {
    if (s.format !== 'date-time') throw new Error(`${ptr}: no arbitrary for format ${String(s.format)}`);
    arb = utcTimestamp;
  } else if (pattern) {
    arb = patternArbitrary(s.pattern as string, min);
  } else {
    const short = fc.string({ unit, minLength: min, maxLength: Math.min(max ?? min + 16, min + 16) });
    if (max === undefined || max > 5000) return short;
    // At the upper bound, in astral code points: valid by code points, too long in UTF-16 units.
    const full = fc.constantFrom('😀', 'a', 'é').map((c) => c.repeat(max));
    return fc.oneof({ weight: 3, arbitrary: short }, { weight: 1, arbitrary: full });
  }
  const ok = (v: string) => within(v) && (!pattern || pattern.test(v));
  // Fail loudly instead of letting .filter() spin when the constraints barely intersect.
  const sample = fc.sample(arb, { numRuns: 50, seed: 1 });
  if (!sample.some(ok)) throw new Error(`${ptr}: cannot generate strings for ${JSON.stringify(s)}`);
  return arb.filter(ok);
}

function numberArbitrary(type: string, s: Schema): fc.Arbitrary<number> {
  const min = s.minimum as number | undefined;
  const max = s.maximum as number | undefined;
  const xmin = s.exclusiveMinimum as number | undefined;
  const xmax = s.exclusiveMaximum as number | undefined;
  const lo = Math.max(min ?? -Infinity, xmin !== undefined ? xmin : -Infinity);
  const hi = Math.min(max ?? Infinity, xmax !== undefined ? xmax : Infinity);
  const ilo = Math.max(-MAX_SAFE, xmin !== undefined && lo === xmin ? Math.floor(lo) + 1 : Math.ceil(lo));
  const ihi = Math.min(MAX_SAFE, xmax !== undefined && hi === xmax ? Math.ceil(hi) - 1 : Math.floor(hi));
  const ints = fc.oneof(
    fc.integer({ min: ilo, max: ihi }),
    fc.constantFrom(...[ilo, ihi, ilo + 1, ihi - 1].filter((n) => n >= ilo && n <= ihi)),
  );
  if (type === 'integer') return ints;
  const doubles = fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(Number.isFinite(lo) ? { min: lo, minExcluded: lo === xmin } : {}),
    ...(Number.isFinite(hi) ? { max: hi, maxExcluded: hi === xmax } : {}),
  });
  return ilo <= ihi ? fc.oneof(ints, doubles) : doubles;
}

function objectArbitrary(s: Schema, ptr: string): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, sub] of Object.entries(props)) shape[k] = arbitraryFor(sub, `${ptr}/properties/${k}`);
  const declared = fc.record(shape, { requiredKeys: [...required] });
  const additional = s.additionalProperties ?? true;
  const maxProps = (s.maxProperties as number | undefined) ?? Infinity;
  const minProps = (s.minProperties as number | undefined) ?? 0;
  if (additional === false) {
    return declared.filter((o) => Object.keys(o).length >= minProps && Object.keys(o).length <= maxProps);
  }
  const value = arbitraryFor(additional, `${ptr}/additionalProperties`);
  // Unknown keys include the awkward ones a document from the wild may carry.
  const key = fc
    .oneof(fc.string({ unit, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'toString', ''))
    .filter((k) => !Object.hasOwn(props, k));
  return declared.chain((o) => {
    const n = Object.keys(o).length;
    const room = Math.min(maxProps - n, 6);
    if (room < Math.max(0, minProps - n)) throw new Error(`${ptr}: cannot satisfy min/maxProperties`);
    return fc
      .uniqueArray(fc.tuple(key, value), {
        selector: ([k]) => k,
        minLength: Math.max(0, minProps - n),
        maxLength: room,
      })
      .map((extra) => Object.fromEntries([...Object.entries(o), ...extra]));
  });
}

/** Arbitrary documents that the schema accepts. */
export function arbitraryFor(schema: unknown, ptr = ''): fc.Arbitrary<unknown> {
  if (isAnything(schema)) return fc.jsonValue({ maxDepth: 2 });
  if (!isSchemaObject(schema)) throw new Error(`${ptr}: not a schema`);
  const s = schema;
  if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((b, i) => arbitraryFor(b, `${ptr}/anyOf/${i}`)));
  const types = typesOf(s);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) {
    const values = types ? s.enum.filter((v) => jsonTypes(v).some((t) => types.includes(t))) : s.enum;
    return fc.constantFrom(...values);
  }
  if (!types) throw new Error(`${ptr}: no arbitrary for a schema without type`);
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'string':
          return stringArbitrary(s, ptr);
        case 'integer':
        case 'number':
          return numberArbitrary(t, s);
        case 'array': {
          const item =
            s.items === undefined ? fc.jsonValue({ maxDepth: 1 }) : arbitraryFor(s.items, `${ptr}/items`);
          const minLength = (s.minItems as number | undefined) ?? 0;
          const maxLength = Math.min((s.maxItems as number | undefined) ?? Infinity, minLength + 3);
          return s.uniqueItems === true
            ? fc.uniqueArray(item, { comparator: jsonEqual, minLength, maxLength })
            : fc.array(item, { minLength, maxLength });
        }
        case 'object':
          return objectArbitrary(s, ptr);
        default:
          throw new Error(`${ptr}: no arbitrary for type ${t}`);
      }
    }),
  );
}

/** A place in a document together with the schema that governs it. */
export interface Site {
  path: Path;
  value: unknown;
  schema: Schema;
}

/** Every value in the document with its schema (anyOf / type unions resolved by the value's type). */
export function sitesOf(doc: unknown, schema: unknown, path: Path = []): Site[] {
  if (!isSchemaObject(schema) || isAnything(schema)) return [];
  let s = schema;
  if (Array.isArray(s.anyOf)) {
    const branch = s.anyOf.find(
      (b) => isSchemaObject(b) && (typesOf(b) ?? []).some((t) => jsonTypes(doc).includes(t)),
    );
    if (!isSchemaObject(branch)) return [{ path, value: doc, schema: s }];
    s = branch;
  }
  const out: Site[] = [{ path, value: doc, schema: s }];
  if (Array.isArray(doc) && s.items !== undefined) {
    doc.forEach((item, i) => {
      out.push(...sitesOf(item, s.items, [...path, i]));
    });
  } else if (isSchemaObject(doc) && isSchemaObject(s.properties)) {
    for (const [k, sub] of Object.entries(s.properties)) {
      if (Object.hasOwn(doc, k)) out.push(...sitesOf(doc[k], sub, [...path, k]));
    }
  }
  return out;
}

const DELETE = Symbol('delete');
type Edit = (value: unknown) => unknown;

/** Copy of `doc` with the value at `path` replaced by `edit(value)` (DELETE removes the key). */
export function applyAt(doc: unknown, path: Path, edit: Edit): unknown {
  if (path.length === 0) return edit(doc);
  const [head, ...rest] = path;
  if (Array.isArray(doc)) {
    const copy = doc.slice();
    copy[head as number] = applyAt(doc[head as number], rest, edit);
    return copy;
  }
  const obj = doc as Record<string, unknown>;
  const next = applyAt(obj[head as string], rest, edit);
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (k !== head) defineOwn(copy, k, v);
  if (next !== DELETE) defineOwn(copy, head as string, next);
  return copy;
}

// Own data property even for `__proto__`, as JSON.parse would create it.
function defineOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function withKey(o: Record<string, unknown>, k: string, v: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, val] of Object.entries(o)) defineOwn(copy, key, val);
  defineOwn(copy, k, v);
  return copy;
}

const TRICKY_TIMESTAMPS = [
  '2023-02-29T00:00:00Z',
  '2024-02-29T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-04-31T12:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-00-10T00:00:00Z',
  '2024-01-00T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:60:00Z',
  '2024-12-31T23:59:60Z',
  '2024-12-31T23:59:60.999Z',
  '2024-12-31T22:59:60Z',
  '2024-12-31T23:59:61Z',
  '2024-01-01t00:00:00z',
  '2024-01-01 00:00:00Z',
  '2024-01-01T00:00:00+01:00',
  '2024-01-01T00:00:00',
  '2024-01-01T00:00:00.Z',
  '2024-01-01T00:00:00.1234567890Z',
  '1900-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '０２０24-01-01T00:00:00Z',
];

const OTHER_TYPES: unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', [], {}, [null], { a: 1 }];

/** Edits aimed at the keywords of one site; many, not all, make the document invalid. */
export function editsFor(site: Site): fc.Arbitrary<Edit> {
  const { schema: s, value } = site;
  const edits: fc.WeightedArbitrary<Edit>[] = [];
  const add = (arbitrary: fc.Arbitrary<Edit>, weight = 2) => edits.push({ arbitrary, weight });
  add(
    fc.constantFrom(...OTHER_TYPES).map((v) => () => v),
    1,
  );
  if (typeof value === 'string') {
    add(
      fc.constantFrom<Edit>(
        (v) => `${v}!`,
        (v) => ` ${v}`,
        (v) => `${v}\n`,
        (v) => (v as string).slice(1),
        (v) => (v as string).toUpperCase(),
        (v) => `${v}x`,
      ),
    );
    add(fc.string({ unit, maxLength: 12 }).map((v) => () => v));
    // Astral characters tell code points (JSON Schema, RegExp "u") from UTF-16 units apart.
    add(
      fc.tuple(fc.constantFrom(1, 64, 120, 127, 200, 254), fc.boolean()).map(
        ([k, half]) =>
          (v) =>
            `${half ? (v as string).slice(0, Math.ceil((v as string).length / 2)) : v}${'😀'.repeat(k)}`,
      ),
    );
    const max = s.maxLength as number | undefined;
    const min = s.minLength as number | undefined;
    if (max !== undefined) {
      add(
        fc.constantFrom<Edit>(
          () => 'a'.repeat(max + 1),
          () => '😀'.repeat(max),
          () => '😀'.repeat(max + 1),
          () => `${'a'.repeat(max - 1)}😀`,
        ),
      );
    }
    if (min !== undefined) {
      add(
        fc.constantFrom<Edit>(
          () => '',
          () => '😀'.repeat(Math.max(0, min - 1)),
          () => 'a'.repeat(min),
        ),
      );
    }
    if (typeof s.pattern === 'string') {
      add(
        fc
          .stringMatching(new RegExp(stripLookarounds(s.pattern), 'u'), { size: 'small' })
          .map((v) => () => v),
      );
    }
    if (s.format === 'date-time') add(fc.constantFrom(...TRICKY_TIMESTAMPS).map((v) => () => v));
  }
  if (typeof value === 'number') {
    const bounds = [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum].filter(
      (b): b is number => typeof b === 'number',
    );
    add(
      fc
        .constantFrom(
          ...bounds.flatMap((b) => [b, b - 1, b + 1, b - 0.5, b + 0.5]),
          MAX_SAFE + 1,
          2 ** 53,
          -0,
          1e308,
          0.1,
        )
        .map((v) => () => v),
    );
    add(
      fc.constantFrom<Edit>(
        (v) => (v as number) + 0.5,
        (v) => -(v as number),
        (v) => (v as number) + 1,
      ),
    );
  }
  if (Array.isArray(value)) {
    const max = s.maxItems as number | undefined;
    add(
      fc.constantFrom<Edit>(
        () => [],
        (v) => (v as unknown[]).slice(1),
        (v) => [...(v as unknown[]), null],
        (v) => ((v as unknown[]).length ? [...(v as unknown[]), (v as unknown[])[0]] : [1, 1]),
      ),
    );
    if (max !== undefined && value.length > 0) {
      add(
        fc.constant<Edit>((v) => {
          const a = v as unknown[];
          return Array.from({ length: max + 1 }, (_, i) => a[i % a.length]);
        }),
      );
    }
  }
  if (isSchemaObject(value)) {
    const keys = Object.keys(value);
    if (keys.length) add(fc.constantFrom(...keys).map((k) => (v) => applyAt(v, [k], () => DELETE)));
    add(
      fc
        .tuple(
          fc.oneof(fc.string({ unit, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor')),
          fc.jsonValue({ maxDepth: 1 }),
        )
        .map(
          ([k, x]) =>
            (v) =>
              withKey(v as Record<string, unknown>, k, x),
        ),
    );
    const maxProps = s.maxProperties as number | undefined;
    if (maxProps !== undefined) {
      add(
        fc.constant<Edit>((v) => {
          let o = v as Record<string, unknown>;
          for (let i = Object.keys(o).length; i <= maxProps; i++) o = withKey(o, `extra${i}`, i);
          return o;
        }),
      );
    }
  }
  return fc.oneof(...edits);
}

/** A valid document with one targeted edit applied somewhere in it. */
export function mutationOf(schema: unknown): fc.Arbitrary<{ doc: unknown; at: string }> {
  return arbitraryFor(schema).chain((doc) => {
    const sites = sitesOf(doc, schema);
    return fc.integer({ min: 0, max: sites.length - 1 }).chain((i) =>
      editsFor(sites[i]!).map((edit) => ({
        doc: applyAt(doc, sites[i]!.path, edit),
        at: `/${sites[i]!.path.join('/')}`,
      })),
    );
  });
}
