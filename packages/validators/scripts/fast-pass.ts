// The fail-fast validity pass of the contracts whose documents are validated at volume (traces):
// a function per contract that answers only "does the document conform", returning false at the
// first doubt. ajv's code (allErrors, so that an invalid document gets every issue) does the
// whole check on valid documents too, testing every required property twice (once for
// `required`, once before checking its value, each with hasOwnProperty) and every timestamp twice
// (its pattern and its format). validate() runs this pass first and ajv's only when it fails, so
// the issues of an invalid document are ajv's, unchanged.
//
// Soundness: the pass may refuse what ajv accepts (validate() then asks ajv, which decides), never
// the reverse. A closed object (additionalProperties: false) is checked from Object.keys alone:
// every own enumerable key must be a declared property (else ajv reports an additional property)
// and is checked at once; the required ones must all have been seen. A required property that is
// own but not enumerable, or an own property whose value is undefined, makes the pass refuse (ajv
// then decides), so no hasOwnProperty call is needed. packages/validators/test/fast-pass.test.ts
// holds the pass equal to ajv's answer on every fixture and on mutations of them.

import { ValidatorsError } from '../src/errors.ts';
import { isDateTime } from '../src/formats.ts';

type Schema = Record<string, unknown>;

/** The contracts that get a fail-fast pass: documents validated in bulk (bench/README.md). */
export const FAST_PASS_CONTRACTS: readonly string[] = ['LocalTaskTraceV1', 'ContextReadPlanV2'];

/**
 * What implies the pattern of a deferred field: the digest rule (its `pointer` in DIGEST_RULES of
 * @agent-contracts/schemas) or semantic rule (its code) that compares the field with a value
 * matching the pattern and reports when they differ; `via` names the field that value is (itself
 * deferred or checked), for a rule that compares with a copy rather than a recomputation.
 */
export interface DeferredBy {
  readonly digest?: string;
  readonly rule?: string;
  readonly via?: string;
}

/**
 * The patterns the fail-fast pass leaves, when validate() runs the default digest and semantic
 * rules, to the rules that recompute the field: a derived id or a SHA-256 hex field whose rule
 * reports nothing equals a value of the pattern, so testing it again (a regular expression per
 * field: 28 per plan, one per event) is work only for a document the rules refuse. validate()
 * then runs the strict pass (and ajv, which decides) whenever any rule reports, so the issues of
 * every document are those of the strict route. By the stripped schema's location of the string
 * (`#/properties/.../items/...`); the generator fails on a location that has no pattern or that
 * the schema no longer has. packages/validators/test/deferred-patterns.test.ts breaks each field
 * of every valid fixture and holds validate() to the strict route's answer.
 */
export const DEFERRED_PATTERNS: Readonly<Record<string, Readonly<Record<string, DeferredBy>>>> = {
  LocalTaskTraceV1: {
    '#/properties/traceId': { digest: '/traceId' },
    '#/properties/events/items/properties/eventId': { digest: '/events/*/eventId' },
  },
  ContextReadPlanV2: {
    '#/properties/planId': { digest: '/planId' },
    '#/properties/planContentId': { digest: '/planContentId' },
    '#/properties/contextBinding/properties/planId': { digest: '/contextBinding', via: '/planId' },
    '#/properties/contextBinding/properties/planContentId': {
      digest: '/contextBinding',
      via: '/planContentId',
    },
    '#/properties/baselineDigest': { digest: '/baselineDigest' },
    '#/properties/baselineSources/items/properties/sourceRefs/items/properties/metadataDigest': {
      digest: '/baselineSources/*/sourceRefs/*/metadataDigest',
    },
    '#/properties/selectedSources/items/properties/sourceRefs/items/properties/metadataDigest': {
      digest: '/selectedSources/*/sourceRefs/*/metadataDigest',
    },
    '#/properties/excludedSources/items/properties/sourceRefs/items/properties/metadataDigest': {
      digest: '/excludedSources/*/sourceRefs/*/metadataDigest',
    },
    '#/properties/unclassifiedSources/items/properties/sourceRefs/items/properties/metadataDigest': {
      digest: '/unclassifiedSources/*/sourceRefs/*/metadataDigest',
    },
    '#/properties/identityInputs/properties/baselineDigest': {
      rule: 'CONTEXT_IDENTITY_INPUTS_MISMATCH',
      via: '/baselineDigest',
    },
    '#/properties/identityInputs/properties/sources/items/properties/metadataDigests/items': {
      rule: 'CONTEXT_IDENTITY_INPUTS_MISMATCH',
      via: '/*/*/sourceRefs/*/metadataDigest',
    },
  },
};

/**
 * A schema location (`#/properties/a/items/properties/b`) as the instance path it checks: `/a`,
 * then `*` for any index, then `/b`.
 */
export function instancePattern(location: string): string {
  const steps = location.split('/').slice(1);
  const out: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (step === 'properties' && i + 1 < steps.length && steps[i + 1] !== '*') out.push(steps[++i]!);
    else if (step === 'items') out.push('*');
    else if (step === 'anyOf' && i + 1 < steps.length) i++;
    else
      throw new ValidatorsError(
        'VALIDATORS_UNSUPPORTED_RUNTIME',
        `the schema location ${location} is not one the fail-fast pass emits.`,
      );
  }
  return `/${out.join('/')}`;
}

/** The pattern of every timestamp, implied by the date-time format (see impliedByFormat). */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$';

/**
 * Whether `format` alone decides `pattern`: isDateTime (src/formats.ts) checks every character
 * position of the timestamp pattern (four digits, `-`, two digits, `-`, two digits, `T`, two
 * digits, `:`, two digits, `:`, two digits, optionally `.` and 1 to 9 digits, `Z`), so a string it
 * accepts matches the pattern. The generator confirms it on a corpus before relying on it.
 */
function impliedByFormat(format: unknown, pattern: unknown, corpus: readonly string[]): boolean {
  if (format !== 'date-time' || pattern !== TIMESTAMP_PATTERN) return false;
  const regex = new RegExp(TIMESTAMP_PATTERN, 'u');
  for (const s of corpus) {
    if (isDateTime(s) && !regex.test(s))
      throw new ValidatorsError(
        'VALIDATORS_UNSUPPORTED_RUNTIME',
        `isDateTime accepts ${JSON.stringify(s)}, which does not match ${TIMESTAMP_PATTERN}; the fail-fast pass may not skip the pattern.`,
      );
  }
  return true;
}

const KNOWN = new Set([
  'type',
  'const',
  'enum',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  '$schema',
  '$id',
]);

const TYPE_TEST: Readonly<Record<string, (x: string) => string>> = {
  string: (x) => `typeof ${x} === "string"`,
  boolean: (x) => `typeof ${x} === "boolean"`,
  number: (x) => `(typeof ${x} == "number" && isFinite(${x}))`,
  integer: (x) => `(typeof ${x} == "number" && !(${x} % 1) && !isNaN(${x}) && isFinite(${x}))`,
  object: (x) => `(${x} && typeof ${x} == "object" && !Array.isArray(${x}))`,
  array: (x) => `Array.isArray(${x})`,
  null: (x) => `${x} === null`,
};

const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Emits the body of the fail-fast function of one stripped schema, with its module constants. */
class Emitter {
  readonly constants: string[] = [];
  private next = 0;
  private readonly patterns = new Map<string, string>();
  private readonly formats = new Map<string, string>();

  /** The deferred locations (DEFERRED_PATTERNS) this emitter met, with their pattern's constant. */
  readonly deferredMet = new Map<string, string>();

  constructor(
    private readonly name: string,
    private readonly corpus: readonly string[],
    private readonly deferred: ReadonlySet<string> = new Set(),
  ) {}

  private fail(why: string): never {
    throw new ValidatorsError(
      'VALIDATORS_UNSUPPORTED_RUNTIME',
      `the fail-fast pass of ${this.name} cannot check ${why}; teach scripts/fast-pass.ts or remove ${this.name} from FAST_PASS_CONTRACTS.`,
    );
  }

  /**
   * Statements that `return false` unless the string at schema location `at` below `x` (a value
   * the deferring pass accepted, so of the schema's types) matches `pattern`: the navigation to
   * it, every index of an array, skipping what is absent or null.
   */
  held(at: string, pattern: string): string[] {
    // A branch of anyOf would need its own test of which branch the value took.
    if (at.includes('/anyOf/'))
      this.fail(`the deferred location ${at} (only properties and items are followed)`);
    const steps = instancePattern(at).split('/').slice(1);
    const emit = (i: number, x: string): string[] => {
      if (i === steps.length)
        return [`if (typeof ${x} === "string" && !${pattern}.test(${x})) return false;`];
      const v = this.variable('h');
      if (steps[i] !== '*')
        return [
          `{`,
          `  const ${v} = ${x} == null ? undefined : ${x}[${JSON.stringify(steps[i])}];`,
          ...emit(i + 1, v).map((l) => `  ${l}`),
          `}`,
        ];
      const k = this.variable('k');
      return [
        `if (Array.isArray(${x})) for (let ${k} = 0; ${k} < ${x}.length; ${k}++) {`,
        `  const ${v} = ${x}[${k}];`,
        ...emit(i + 1, v).map((l) => `  ${l}`),
        `}`,
      ];
    };
    return emit(0, 'data');
  }

  private variable(prefix: string): string {
    return `${prefix}${this.next++}`;
  }

  private pattern(source: string): string {
    let local = this.patterns.get(source);
    if (local === undefined) {
      local = `fastPattern_${this.name}_${this.patterns.size}`;
      this.patterns.set(source, local);
      // A RegExp, not the hand-written matchers of src/patterns.ts: on the Node 20 this is measured
      // on, irregexp's compiled code tests these shapes 1.3-1.8x faster than a charCodeAt walk.
      this.constants.push(`const ${local} = new RegExp(${JSON.stringify(source)}, "u");`);
    }
    return local;
  }

  private format(name: string): string {
    let local = this.formats.get(name);
    if (local === undefined) {
      local = `fastFormat_${this.name}_${this.formats.size}`;
      this.formats.set(name, local);
      this.constants.push(`const ${local} = formats[${JSON.stringify(name)}];`);
    }
    return local;
  }

  /** A module-level function answering whether its argument conforms to `schema` (an anyOf branch). */
  private branch(schema: unknown, at: string): string {
    const local = `fastBranch_${this.name}_${this.next++}`;
    const body = this.value(schema, 'x', at);
    this.constants.push(
      `function ${local}(x, deferring) {`,
      ...body.map((l) => `  ${l}`),
      '  return true;',
      '}',
    );
    return local;
  }

  /** Statements that `return false` unless the value `x` conforms to `schema`. */
  value(schema: unknown, x: string, at: string): string[] {
    if (
      schema === true ||
      (schema !== null && typeof schema === 'object' && Object.keys(schema).length === 0)
    )
      return [];
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
      this.fail(`the schema at ${at}`);
    const s = schema as Schema;
    for (const key of Object.keys(s)) if (!KNOWN.has(key)) this.fail(`keyword "${key}" at ${at}`);
    const out: string[] = [];
    if ('const' in s) {
      if (!isPrimitive(s.const)) this.fail(`a non-primitive const at ${at}`);
      out.push(`if (${x} !== ${JSON.stringify(s.const)}) return false;`);
    }
    if ('enum' in s) {
      const values = s.enum as unknown[];
      if (!Array.isArray(values) || !values.every(isPrimitive)) this.fail(`a non-primitive enum at ${at}`);
      out.push(`if (!(${values.map((v) => `${x} === ${JSON.stringify(v)}`).join(' || ')})) return false;`);
    }
    if ('anyOf' in s) {
      const branches = s.anyOf as unknown[];
      if (!Array.isArray(branches) || branches.length === 0) this.fail(`anyOf at ${at}`);
      const calls = branches.map(
        (branch, i) => `${this.branch(branch, `${at}/anyOf/${i}`)}(${x}, deferring)`,
      );
      out.push(`if (!(${calls.join(' || ')})) return false;`);
    }
    const types =
      s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (types.length === 0) {
      // No type: only the keywords above may be present (type-specific ones would need ajv's rules).
      for (const key of Object.keys(s))
        if (!['const', 'enum', 'anyOf', '$schema', '$id'].includes(key))
          this.fail(`"${key}" without a type at ${at}`);
      return out;
    }
    if (types.length === 1 && types[0] === 'null') {
      out.push(`if (${x} !== null) return false;`);
      return out;
    }
    const others = types.filter((t) => t !== 'null');
    if (others.length !== 1 || types.length > 2) this.fail(`type ${JSON.stringify(s.type)} at ${at}`);
    const type = others[0]!;
    const test = TYPE_TEST[type];
    if (test === undefined) this.fail(`type "${type}" at ${at}`);
    const body = [`if (!(${test(x)})) return false;`, ...this.typed(type, s, x, at)];
    if (types.length === 2) out.push(`if (${x} !== null) {`, ...body.map((l) => `  ${l}`), '}');
    else out.push(...body);
    return out;
  }

  /** The keywords of `type`, for a value already known to be of that type. */
  private typed(type: string, s: Schema, x: string, at: string): string[] {
    const out: string[] = [];
    const misplaced = (keys: string[]) => {
      for (const k of keys) if (k in s) this.fail(`"${k}" on a schema of type ${type} at ${at}`);
    };
    const strings = ['pattern', 'format', 'minLength', 'maxLength'];
    const numbers = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
    const arrays = ['items', 'minItems', 'maxItems', 'uniqueItems'];
    const objects = ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'];
    if (type === 'string') {
      misplaced([...numbers, ...arrays, ...objects]);
      if (typeof s.maxLength === 'number')
        out.push(`if (${x}.length > ${s.maxLength} && ucs2length(${x}) > ${s.maxLength}) return false;`);
      if (typeof s.minLength === 'number')
        out.push(`if (${x}.length < ${2 * s.minLength} && ucs2length(${x}) < ${s.minLength}) return false;`);
      if (this.deferred.has(at)) {
        if (typeof s.pattern !== 'string') this.fail(`the deferred pattern at ${at}, which has none`);
        this.deferredMet.set(at, this.pattern(s.pattern));
        out.push(`if (!deferring && !${this.pattern(s.pattern)}.test(${x})) return false;`);
      } else if (typeof s.pattern === 'string' && !impliedByFormat(s.format, s.pattern, this.corpus))
        out.push(`if (!${this.pattern(s.pattern)}.test(${x})) return false;`);
      if (typeof s.format === 'string')
        out.push(`if (!${this.format(s.format)}.validate(${x})) return false;`);
    } else if (type === 'number' || type === 'integer') {
      misplaced([...strings, ...arrays, ...objects]);
      if (typeof s.maximum === 'number') out.push(`if (${x} > ${s.maximum}) return false;`);
      if (typeof s.minimum === 'number') out.push(`if (${x} < ${s.minimum}) return false;`);
      if (typeof s.exclusiveMaximum === 'number')
        out.push(`if (${x} >= ${s.exclusiveMaximum}) return false;`);
      if (typeof s.exclusiveMinimum === 'number')
        out.push(`if (${x} <= ${s.exclusiveMinimum}) return false;`);
    } else if (type === 'array') {
      misplaced([...strings, ...numbers, ...objects]);
      if (typeof s.maxItems === 'number') out.push(`if (${x}.length > ${s.maxItems}) return false;`);
      if (typeof s.minItems === 'number') out.push(`if (${x}.length < ${s.minItems}) return false;`);
      if (s.uniqueItems === true) {
        // Strings only (checked below, before this runs): equal exactly when ===, as ajv compares them.
        const items = s.items as Schema | undefined;
        if (items?.type !== 'string') this.fail(`uniqueItems over items that are not strings at ${at}`);
        out.push(`if (${x}.length > 1 && new Set(${x}).size !== ${x}.length) return false;`);
      }
      if (s.items !== undefined) {
        if (Array.isArray(s.items)) this.fail(`tuple items at ${at}`);
        const i = this.variable('i');
        const item = this.variable('item');
        const check = this.value(s.items, item, `${at}/items`);
        if (check.length > 0)
          out.push(
            `for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`,
            `  const ${item} = ${x}[${i}];`,
            ...check.map((l) => `  ${l}`),
            '}',
          );
      }
    } else if (type === 'object') {
      misplaced([...strings, ...numbers, ...arrays]);
      out.push(...this.object(s, x, at));
    } else misplaced([...strings, ...numbers, ...arrays, ...objects]);
    return out;
  }

  private object(s: Schema, x: string, at: string): string[] {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const names = Object.keys(properties);
    const required = (s.required ?? []) as string[];
    const extra = s.additionalProperties;
    const out: string[] = [];
    const counted = s.maxProperties !== undefined || s.minProperties !== undefined;
    if (extra === false) {
      if (names.length > 30) this.fail(`more than 30 properties at ${at}`);
      for (const r of required)
        if (!names.includes(r)) this.fail(`required "${r}" without a property at ${at}`);
      const keys = this.variable('keys');
      const key = this.variable('key');
      const seen = this.variable('seen');
      const i = this.variable('k');
      out.push(`const ${keys} = Object.keys(${x});`, `let ${seen} = 0;`);
      out.push(`for (let ${i} = 0; ${i} < ${keys}.length; ${i}++) {`, `  const ${key} = ${keys}[${i}];`);
      out.push(`  switch (${key}) {`);
      let mask = 0;
      names.forEach((name, bit) => {
        if (required.includes(name)) mask |= 1 << bit;
        const v = this.variable('v');
        out.push(`    case ${JSON.stringify(name)}: {`, `      const ${v} = ${x}[${JSON.stringify(name)}];`);
        const check = this.value(properties[name], v, `${at}/properties/${name}`);
        // An own property whose value is undefined fails ajv's `required`; refuse it here.
        if (check.length === 0) check.push(`if (${v} === undefined) return false;`);
        out.push(...check.map((l) => `      ${l}`), `      ${seen} |= ${1 << bit};`, '      break;', '    }');
      });
      out.push('    default:', '      return false;', '  }', '}');
      if (mask !== 0) out.push(`if ((${seen} & ${mask}) !== ${mask}) return false;`);
      if (typeof s.maxProperties === 'number')
        out.push(`if (${keys}.length > ${s.maxProperties}) return false;`);
      if (typeof s.minProperties === 'number')
        out.push(`if (${keys}.length < ${s.minProperties}) return false;`);
      return out;
    }
    if (
      !(
        extra === undefined ||
        extra === true ||
        (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0)
      )
    )
      this.fail(`additionalProperties with a schema at ${at}`);
    for (const r of required)
      out.push(
        `if (${x}[${JSON.stringify(r)}] === undefined || !hasOwn.call(${x}, ${JSON.stringify(r)})) return false;`,
      );
    for (const name of names) {
      const v = this.variable('v');
      const check = this.value(properties[name], v, `${at}/properties/${name}`);
      if (check.length === 0) continue;
      out.push(
        '{',
        `  const ${v} = ${x}[${JSON.stringify(name)}];`,
        `  if (${v} !== undefined && hasOwn.call(${x}, ${JSON.stringify(name)})) {`,
        ...check.map((l) => `    ${l}`),
        '  }',
        '}',
      );
    }
    if (counted) {
      const n = this.variable('n');
      out.push(`const ${n} = Object.keys(${x}).length;`);
      if (typeof s.maxProperties === 'number') out.push(`if (${n} > ${s.maxProperties}) return false;`);
      if (typeof s.minProperties === 'number') out.push(`if (${n} < ${s.minProperties}) return false;`);
    }
    return out;
  }
}

/**
 * The fail-fast functions of the listed contracts and the table `FAST_VALIDATORS`, as module
 * code next to ajv's (it uses the module's `formats` and `RUNTIME_HELPERS`).
 * `schemas` are the stripped schemas by contract name; `corpus` are strings to confirm the
 * format/pattern implication on.
 */
export function fastPassCode(schemas: ReadonlyMap<string, unknown>, corpus: readonly string[]): string {
  const lines = [
    '// The fail-fast validity pass (scripts/fast-pass.ts): true only when the document conforms;',
    "// false means 'ask the full validator', which decides and reports.",
    'const hasOwn = Object.prototype.hasOwnProperty;',
    'const ucs2length = RUNTIME_HELPERS.ucs2length;',
  ];
  const table: string[] = [];
  const defers: string[] = [];
  const held: string[] = [];
  for (const name of FAST_PASS_CONTRACTS) {
    const schema = schemas.get(name);
    if (schema === undefined)
      throw new ValidatorsError(
        'VALIDATORS_UNSUPPORTED_RUNTIME',
        `FAST_PASS_CONTRACTS names ${name}, which has no schema.`,
      );
    const deferred = Object.keys(DEFERRED_PATTERNS[name] ?? {});
    let heldCode: string[] = [];
    const emitter = new Emitter(name, corpus, new Set(deferred));
    const body = emitter.value(schema, 'data', '#');
    for (const location of deferred)
      if (!emitter.deferredMet.has(location))
        throw new ValidatorsError(
          'VALIDATORS_UNSUPPORTED_RUNTIME',
          `DEFERRED_PATTERNS of ${name} names ${location}, which its schema does not have; update scripts/fast-pass.ts.`,
        );
    if (deferred.length > 0) {
      defers.push(`  ${JSON.stringify(name)}: ${JSON.stringify(deferred.map(instancePattern))},`);
      const checks = deferred.flatMap((location) =>
        emitter.held(location, emitter.deferredMet.get(location)!),
      );
      heldCode = ['', `function held_${name}(data) {`, ...checks.map((l) => `  ${l}`), '  return true;', '}'];
      held.push(`  ${JSON.stringify(name)}: held_${name},`);
    }
    lines.push(
      ...emitter.constants,
      '',
      `function fast_${name}(data, deferring) {`,
      ...body.map((l) => `  ${l}`),
      '  return true;',
      '}',
      ...heldCode,
    );
    table.push(`  ${JSON.stringify(name)}: fast_${name},`);
  }
  lines.push(
    '',
    '/**',
    ' * The fail-fast validity pass of the contracts validated in bulk, by contract name. With',
    ' * `deferring`, the patterns of FAST_DEFERS are left to the default digest and semantic rules.',
    ' */',
    'export const FAST_VALIDATORS: Readonly<Record<string, (data: unknown, deferring?: boolean) => boolean>> = {',
    ...table,
    '};',
    '',
    '/** The fields (instance paths, `*` for any index) whose patterns `deferring` leaves to the rules. */',
    'export const FAST_DEFERS: Readonly<Record<string, readonly string[]>> = {',
    ...defers,
    '};',
    '',
    '/**',
    ' * Whether the patterns of FAST_DEFERS hold in a document the deferring pass accepted: both',
    ' * together are the strict pass (validate() asks it when a rule reports).',
    ' */',
    'export const FAST_DEFERRED_HELD: Readonly<Record<string, (data: unknown) => boolean>> = {',
    ...held,
    '};',
  );
  return lines.join('\n');
}
