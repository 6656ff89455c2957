// Classifies the change between two versions of one JSON Schema (draft-07, the keywords the
// published schemas use): which documents the new version refuses that the old one accepted.
// Used by `agent-contracts schema-diff`, the gate CI pipelines put in front of a schema change.
import { canonicalize } from '@agent-contracts/digest';

/**
 * One difference, at a JSON Pointer into the schema:
 * - `editorial`: an annotation (description, title, $comment, examples, default) changed;
 *   no document changes verdict;
 * - `widening`: the new schema accepts every document the old one did, and more;
 * - `narrowing`: some document the old schema accepted is refused now;
 * - `unknown`: a change this classifier cannot prove widening (a new pattern, a changed `$ref`,
 *   a keyword it does not model); treated as narrowing.
 */
export interface SchemaChange {
  readonly path: string;
  readonly kind: 'editorial' | 'widening' | 'narrowing' | 'unknown';
  readonly message: string;
}

/**
 * The verdict over all changes: `identical`; `editorial` (annotations only); `compatible` (only
 * widening, so every document valid before stays valid); `breaking` (anything narrowing or
 * unknown: some document valid before may be refused).
 */
export type SchemaCompatibility = 'identical' | 'editorial' | 'compatible' | 'breaking';

/** Result of {@link compareSchemas}. */
export interface SchemaComparison {
  readonly compatibility: SchemaCompatibility;
  readonly changes: readonly SchemaChange[];
}

type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set([
  'description',
  'title',
  '$comment',
  'examples',
  'default',
  'markdownDescription',
]);
/** Lower bounds: a larger value refuses more. */
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
/** Upper bounds: a smaller value refuses more. */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];
/** Keywords whose presence restricts and whose change cannot be ordered. */
const OPAQUE = ['pattern', 'format', 'multipleOf', 'const'];
/** Keywords holding one subschema that accepts more when the subschema does. */
const SUBSCHEMA = ['items', 'additionalItems', 'contains', 'propertyNames', 'then', 'else'];

const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  try {
    return canonicalize(a) === canonicalize(b);
  } catch {
    return false;
  }
};
const show = (v: unknown): string => {
  try {
    const text = canonicalize(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(v);
  }
};
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const typesOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];

class Walker {
  readonly changes: SchemaChange[] = [];
  /** Put before every message while comparing below an added or removed property. */
  #context = '';

  add(path: string, kind: SchemaChange['kind'], message: string): void {
    this.changes.push({ path, kind, message: this.#context + message });
  }

  /** `a` and `b` are the same location in the old and new schema (booleans are schemas too). */
  compare(a: unknown, b: unknown, path: string): void {
    if (same(a, b)) return;
    if (a === true || (isSchema(a) && Object.keys(a).length === 0)) {
      if (b === true || (isSchema(b) && Object.keys(b).length === 0)) return;
      this.add(path, 'narrowing', 'a schema that accepted anything now constrains');
      return;
    }
    if (b === true || (isSchema(b) && Object.keys(b).length === 0)) {
      this.add(path, 'widening', 'the schema now accepts anything');
      return;
    }
    if (a === false) {
      this.add(path, 'widening', 'a schema that refused everything now accepts some values');
      return;
    }
    if (b === false) {
      this.add(path, 'narrowing', 'the schema now refuses everything');
      return;
    }
    if (!isSchema(a) || !isSchema(b)) {
      this.add(path, 'unknown', `not a schema: ${show(a)} -> ${show(b)}`);
      return;
    }
    this.keywords(a, b, path);
  }

  keywords(a: Schema, b: Schema, path: string): void {
    const at = (k: string) => `${path}/${pointerToken(k)}`;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = a[k];
      const y = b[k];
      if (same(x, y)) continue;
      if (ANNOTATIONS.has(k)) this.add(at(k), 'editorial', `${k} changed`);
      else if (k === '$schema' || k === '$id' || k === '$ref')
        this.add(at(k), 'unknown', `${k} ${show(x)} -> ${show(y)}`);
      else if (LOWER.includes(k) || UPPER.includes(k)) this.bound(k, x, y, at(k));
      else if (OPAQUE.includes(k))
        this.add(
          at(k),
          x === undefined
            ? 'narrowing'
            : y === undefined
              ? 'widening'
              : k === 'const'
                ? 'narrowing'
                : 'unknown',
          `${k} ${x === undefined ? 'added' : y === undefined ? 'removed' : 'changed'}: ${show(x)} -> ${show(y)}`,
        );
      else if (k === 'type') this.set(k, typesOf(x), typesOf(y), at(k), x === undefined, y === undefined);
      else if (k === 'enum')
        this.set(
          k,
          Array.isArray(x) ? x : [],
          Array.isArray(y) ? y : [],
          at(k),
          x === undefined,
          y === undefined,
        );
      else if (k === 'required') this.required(x, y, at(k));
      else if (k === 'uniqueItems')
        this.add(at(k), y === true ? 'narrowing' : 'widening', `uniqueItems ${show(x)} -> ${show(y)}`);
      else if (k === 'properties') this.properties(a, b, path);
      else if (k === 'additionalProperties') this.compare(x ?? true, y ?? true, at(k));
      else if (k === 'definitions' || k === 'patternProperties') this.members(x, y, at(k));
      else if (SUBSCHEMA.includes(k) && !Array.isArray(x) && !Array.isArray(y))
        this.compare(x ?? true, y ?? true, at(k));
      else if (k === 'anyOf' || k === 'allOf') this.branches(k, x, y, at(k));
      else
        this.add(
          at(k),
          'unknown',
          `${k} changed, which this classifier does not order: ${show(x)} -> ${show(y)}`,
        );
    }
  }

  bound(k: string, x: unknown, y: unknown, path: string): void {
    const lower = LOWER.includes(k);
    if (x === undefined) {
      this.add(path, 'narrowing', `${k} ${show(y)} added`);
      return;
    }
    if (y === undefined) {
      this.add(path, 'widening', `${k} ${show(x)} removed`);
      return;
    }
    if (typeof x !== 'number' || typeof y !== 'number') {
      this.add(path, 'unknown', `${k} ${show(x)} -> ${show(y)}`);
      return;
    }
    const tighter = lower ? y > x : y < x;
    this.add(path, tighter ? 'narrowing' : 'widening', `${k} ${x} -> ${y}`);
  }

  /** `type` and `enum`: a value set that accepts more when it grows (absent = unrestricted). */
  set(k: string, x: unknown[], y: unknown[], path: string, xAbsent: boolean, yAbsent: boolean): void {
    if (xAbsent) {
      this.add(path, 'narrowing', `${k} ${show(y)} added`);
      return;
    }
    if (yAbsent) {
      this.add(path, 'widening', `${k} removed`);
      return;
    }
    const has = (list: unknown[], v: unknown) => list.some((w) => same(w, v));
    // integer is a subset of number
    const covered = (list: unknown[], v: unknown) =>
      has(list, v) || (k === 'type' && v === 'integer' && has(list, 'number'));
    const removed = x.filter((v) => !covered(y, v));
    const added = y.filter((v) => !has(x, v));
    if (removed.length) this.add(path, 'narrowing', `${k} no longer allows ${removed.map(show).join(', ')}`);
    if (added.length && !removed.length)
      this.add(path, 'widening', `${k} now also allows ${added.map(show).join(', ')}`);
  }

  required(x: unknown, y: unknown, path: string): void {
    const before = new Set(Array.isArray(x) ? x.map(String) : []);
    const after = new Set(Array.isArray(y) ? y.map(String) : []);
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    if (added.length) this.add(path, 'narrowing', `now required: ${added.join(', ')}`);
    if (removed.length) this.add(path, 'widening', `no longer required: ${removed.join(', ')}`);
  }

  properties(a: Schema, b: Schema, path: string): void {
    const pa = isSchema(a.properties) ? a.properties : {};
    const pb = isSchema(b.properties) ? b.properties : {};
    for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
      const p = `${path}/properties/${pointerToken(name)}`;
      const inA = Object.hasOwn(pa, name);
      const inB = Object.hasOwn(pb, name);
      // A property without its own schema is governed by additionalProperties (patternProperties
      // are not modelled here: a change there is reported on its own).
      const x = inA ? pa[name] : (a.additionalProperties ?? true);
      const y = inB ? pb[name] : (b.additionalProperties ?? true);
      const outer = this.#context;
      if (!inA || !inB) this.#context = `${outer}property ${name} ${inA ? 'removed' : 'added'}: `;
      this.compare(x, y, p);
      this.#context = outer;
    }
  }

  members(x: unknown, y: unknown, path: string): void {
    const ma = isSchema(x) ? x : {};
    const mb = isSchema(y) ? y : {};
    for (const name of new Set([...Object.keys(ma), ...Object.keys(mb)])) {
      const p = `${path}/${pointerToken(name)}`;
      if (!Object.hasOwn(ma, name)) this.add(p, 'unknown', `${name} added`);
      else if (!Object.hasOwn(mb, name)) this.add(p, 'unknown', `${name} removed`);
      else this.compare(ma[name], mb[name], p);
    }
  }

  branches(k: 'anyOf' | 'allOf', x: unknown, y: unknown, path: string): void {
    const xa = Array.isArray(x) ? x : [];
    const ya = Array.isArray(y) ? y : [];
    if (x !== undefined && y !== undefined && xa.length === ya.length) {
      xa.forEach((s, i) => {
        this.compare(s, ya[i], `${path}/${i}`);
      });
      return;
    }
    const kept = (from: unknown[], to: unknown[]) => from.every((s) => to.some((t) => same(s, t)));
    // anyOf accepts more with more branches; allOf refuses more with more conjuncts.
    const grew = x !== undefined && kept(xa, ya);
    const shrank = y !== undefined && kept(ya, xa);
    if (k === 'anyOf' && grew) {
      this.add(path, 'widening', 'anyOf gained branches');
      return;
    }
    if (k === 'allOf' && shrank) {
      this.add(path, 'widening', 'allOf lost conjuncts');
      return;
    }
    if (k === 'allOf' && grew) {
      this.add(path, 'narrowing', 'allOf gained conjuncts');
      return;
    }
    if (k === 'anyOf' && shrank) {
      this.add(path, 'narrowing', 'anyOf lost branches');
      return;
    }
    this.add(path, 'unknown', `${k} changed`);
  }
}

/**
 * Compare two versions of a JSON Schema and classify what changed for the documents it judges.
 *
 * @example
 * const r = compareSchemas({ type: 'string' }, { type: 'string', maxLength: 10 });
 * r.compatibility === 'breaking'; // maxLength added: a longer string valid before is refused
 */
export function compareSchemas(before: unknown, after: unknown): SchemaComparison {
  const w = new Walker();
  w.compare(before, after, '');
  const kinds = new Set(w.changes.map((c) => c.kind));
  const compatibility: SchemaCompatibility =
    w.changes.length === 0
      ? 'identical'
      : kinds.has('narrowing') || kinds.has('unknown')
        ? 'breaking'
        : kinds.has('widening')
          ? 'compatible'
          : 'editorial';
  return { compatibility, changes: w.changes };
}
