// JSON Schema (the draft-07 subset our generator emits) -> zod 4 source code. Pure: schemas in,
// one TypeScript module out. Anything outside the subset throws UnsupportedSchemaError naming the
// JSON Pointer, so a new keyword in the contracts stops `pnpm zod:generate` instead of being
// silently ignored by the zod flavour.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type SchemaObject = { [key: string]: Json };

/** A schema the generator cannot translate faithfully. */
export class UnsupportedSchemaError extends Error {
  readonly code = 'ZOD_UNSUPPORTED_SCHEMA';
  constructor(
    readonly pointer: string,
    detail: string,
  ) {
    super(
      `${pointer}: ${detail}. Extend packages/zod/scripts/codegen.ts (and the differential test's arbitraries) before using it in a contract.`,
    );
    this.name = 'UnsupportedSchemaError';
  }
}

const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'examples', 'default']);
const BY_TYPE: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
};
BY_TYPE.integer = BY_TYPE.number!;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
const VALUE_KEYWORDS = new Set(['type', 'enum', 'const', 'anyOf', ...Object.values(BY_TYPE).flat()]);
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Which runtime helpers of src/checks.ts the generated code calls. */
type Helper = 'isRfc3339DateTime' | 'hasUniqueItems' | 'propertyCountWithin';

class Emitter {
  readonly helpers = new Set<Helper>();

  schema(s: Json, ptr: string, indent: string): string {
    if (s === true) return 'z.unknown()';
    if (s === false) return 'z.never()';
    if (s === null || typeof s !== 'object' || Array.isArray(s))
      throw new UnsupportedSchemaError(ptr, 'not a schema');
    for (const key of Object.keys(s)) {
      if (!ANNOTATIONS.has(key) && !VALUE_KEYWORDS.has(key)) {
        throw new UnsupportedSchemaError(ptr, `keyword "${key}" is not supported`);
      }
    }
    const keys = Object.keys(s).filter((k) => VALUE_KEYWORDS.has(k));
    if (keys.length === 0) return 'z.unknown()';
    if ('anyOf' in s) {
      if (keys.length > 1) throw new UnsupportedSchemaError(ptr, `anyOf beside ${keys.join(', ')}`);
      const branches = s.anyOf;
      if (!Array.isArray(branches) || branches.length === 0)
        throw new UnsupportedSchemaError(ptr, 'empty anyOf');
      const inner = indent + '  ';
      const parts = branches.map((b, i) => `${inner}${this.schema(b, `${ptr}/anyOf/${i}`, inner)},`);
      return branches.length === 1
        ? this.schema(branches[0]!, `${ptr}/anyOf/0`, indent)
        : `z.union([\n${parts.join('\n')}\n${indent}])`;
    }
    const types = this.types(s, ptr);
    if ('enum' in s || 'const' in s) return this.literals(s, types, ptr);
    if (!types) throw new UnsupportedSchemaError(ptr, `${keys.join(', ')} without "type"`);
    // Keywords for a type the schema does not allow are dead in JSON Schema; refuse them.
    for (const key of keys) {
      if (key === 'type') continue;
      if (!types.some((t) => BY_TYPE[t]?.includes(key))) {
        throw new UnsupportedSchemaError(ptr, `keyword "${key}" does not apply to type ${types.join(' | ')}`);
      }
    }
    const effective = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
    const branches = effective.map((t) => this.typed(t, s, ptr, indent));
    if (branches.length === 1) return branches[0]!;
    const others = effective.filter((t) => t !== 'null');
    if (branches.length === 2 && others.length === 1)
      return `${this.typed(others[0]!, s, ptr, indent)}.nullable()`;
    return `z.union([${branches.join(', ')}])`;
  }

  private types(s: SchemaObject, ptr: string): string[] | undefined {
    if (!('type' in s)) return undefined;
    const list = Array.isArray(s.type) ? s.type : [s.type];
    if (list.length === 0) throw new UnsupportedSchemaError(ptr, 'empty type list');
    for (const t of list) {
      if (typeof t !== 'string' || !TYPES.has(t))
        throw new UnsupportedSchemaError(ptr, `type ${JSON.stringify(t)}`);
    }
    return list as string[];
  }

  private literals(s: SchemaObject, types: string[] | undefined, ptr: string): string {
    const extra = Object.keys(s).filter(
      (k) => VALUE_KEYWORDS.has(k) && k !== 'type' && k !== 'enum' && k !== 'const',
    );
    if (extra.length || ('enum' in s && 'const' in s)) {
      throw new UnsupportedSchemaError(
        ptr,
        `enum/const beside ${[...extra, 'enum', 'const'].filter((k) => k in s).join(', ')}`,
      );
    }
    const values = 'const' in s ? [s.const as Json] : s.enum;
    if (!Array.isArray(values) || values.length === 0)
      throw new UnsupportedSchemaError(ptr, 'enum must be a non-empty array');
    for (const v of values) {
      if (v !== null && typeof v === 'object')
        throw new UnsupportedSchemaError(ptr, 'enum/const of an object or array');
    }
    // A value whose JSON type the schema's "type" excludes can never validate.
    const typeOf = (v: Json): string[] =>
      v === null
        ? ['null']
        : typeof v === 'number'
          ? Number.isInteger(v)
            ? ['integer', 'number']
            : ['number']
          : [typeof v];
    const allowed = types ? values.filter((v) => typeOf(v).some((t) => types.includes(t))) : values;
    if (allowed.length === 0) return 'z.never()';
    if (allowed.every((v) => typeof v === 'string') && allowed.length > 1) {
      return `z.enum([${allowed.map((v) => JSON.stringify(v)).join(', ')}])`;
    }
    const lits = allowed.map((v) => (v === null ? 'z.null()' : `z.literal(${JSON.stringify(v)})`));
    return lits.length === 1 ? lits[0]! : `z.union([${lits.join(', ')}])`;
  }

  private typed(type: string, s: SchemaObject, ptr: string, indent: string): string {
    switch (type) {
      case 'null':
        return 'z.null()';
      case 'boolean':
        return 'z.boolean()';
      case 'string':
        return this.string(s, ptr);
      case 'integer':
      case 'number':
        return this.number(type, s, ptr);
      case 'array':
        return this.array(s, ptr, indent);
      default:
        return this.object(s, ptr, indent);
    }
  }

  private count(s: SchemaObject, key: string, ptr: string): number | undefined {
    if (!(key in s)) return undefined;
    const v = s[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new UnsupportedSchemaError(ptr, `${key} must be a non-negative integer`);
    return v;
  }

  private string(s: SchemaObject, ptr: string): string {
    let out = 'z.string()';
    const min = this.count(s, 'minLength', ptr);
    const max = this.count(s, 'maxLength', ptr);
    // Both JSON Schema and zod (since 4.6) count code points, not UTF-16 units; the differential
    // test checks it with astral strings at the bound.
    if (min !== undefined) out += `.min(${min})`;
    if (max !== undefined) out += `.max(${max})`;
    if ('pattern' in s) {
      const p = s.pattern;
      if (typeof p !== 'string') throw new UnsupportedSchemaError(ptr, 'pattern must be a string');
      try {
        new RegExp(p, 'u');
      } catch (e) {
        throw new UnsupportedSchemaError(
          ptr,
          `pattern is not a valid Unicode RegExp (${(e as Error).message})`,
        );
      }
      // ajv compiles patterns with the "u" flag (unicodeRegExp: true).
      out += `.regex(new RegExp(${JSON.stringify(p)}, 'u'))`;
    }
    if ('format' in s) {
      if (s.format !== 'date-time')
        throw new UnsupportedSchemaError(ptr, `format ${JSON.stringify(s.format)}`);
      this.helpers.add('isRfc3339DateTime');
      out += `.refine(isRfc3339DateTime, { error: 'must be an RFC 3339 date-time with a real date and time' })`;
    }
    return out;
  }

  private number(type: string, s: SchemaObject, ptr: string): string {
    const bound = (key: string): number | undefined => {
      if (!(key in s)) return undefined;
      const v = s[key];
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new UnsupportedSchemaError(ptr, `${key} must be a finite number (draft-07)`);
      return v;
    };
    const min = bound('minimum');
    const max = bound('maximum');
    const xmin = bound('exclusiveMinimum');
    const xmax = bound('exclusiveMaximum');
    let out: string;
    // zod's int() also requires a safe integer; that is exact only when the bounds imply it.
    const lo = Math.max(min ?? -Infinity, xmin ?? -Infinity);
    const hi = Math.min(max ?? Infinity, xmax ?? Infinity);
    if (type === 'integer' && lo >= -MAX_SAFE && hi <= MAX_SAFE) out = 'z.int()';
    else if (type === 'integer') out = `z.number().refine(Number.isInteger, { error: 'must be an integer' })`;
    else out = 'z.number()';
    if (min !== undefined) out += `.gte(${min})`;
    if (xmin !== undefined) out += `.gt(${xmin})`;
    if (max !== undefined) out += `.lte(${max})`;
    if (xmax !== undefined) out += `.lt(${xmax})`;
    return out;
  }

  private array(s: SchemaObject, ptr: string, indent: string): string {
    if (Array.isArray(s.items)) throw new UnsupportedSchemaError(ptr, 'tuple "items" (an array of schemas)');
    const items = 'items' in s ? this.schema(s.items!, `${ptr}/items`, indent) : 'z.unknown()';
    let out = `z.array(${items})`;
    const min = this.count(s, 'minItems', ptr);
    const max = this.count(s, 'maxItems', ptr);
    if (min !== undefined) out += `.min(${min})`;
    if (max !== undefined) out += `.max(${max})`;
    if ('uniqueItems' in s) {
      if (typeof s.uniqueItems !== 'boolean')
        throw new UnsupportedSchemaError(ptr, 'uniqueItems must be a boolean');
      if (s.uniqueItems) {
        this.helpers.add('hasUniqueItems');
        out += `.refine(hasUniqueItems, { error: 'must not contain two equal items' })`;
      }
    }
    return out;
  }

  private object(s: SchemaObject, ptr: string, indent: string): string {
    const props = s.properties ?? {};
    if (props === null || typeof props !== 'object' || Array.isArray(props))
      throw new UnsupportedSchemaError(ptr, 'properties must be an object');
    const required = s.required ?? [];
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
      throw new UnsupportedSchemaError(ptr, 'required must be an array of strings');
    }
    for (const r of required as string[]) {
      if (!Object.hasOwn(props, r))
        throw new UnsupportedSchemaError(ptr, `required "${r}" is not in properties`);
    }
    const inner = indent + '  ';
    const fields = Object.entries(props).map(([key, sub]) => {
      // `__proto__` as a shape key would set the prototype of the shape, not declare a field.
      if (key === '__proto__') throw new UnsupportedSchemaError(ptr, 'a property named "__proto__"');
      const expr = this.schema(
        sub,
        `${ptr}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        inner,
      );
      const name = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
      return `${inner}${name}: ${expr}${(required as string[]).includes(key) ? '' : '.exactOptional()'},`;
    });
    const shape = fields.length ? `{\n${fields.join('\n')}\n${indent}}` : '{}';
    const additional = s.additionalProperties;
    let out: string;
    if (additional === false) out = `z.strictObject(${shape})`;
    else if (
      additional === undefined ||
      additional === true ||
      (typeof additional === 'object' &&
        additional !== null &&
        !Array.isArray(additional) &&
        Object.keys(additional).every((k) => ANNOTATIONS.has(k)))
    ) {
      out = `z.looseObject(${shape})`;
    } else
      out = `z.object(${shape}).catchall(${this.schema(additional, `${ptr}/additionalProperties`, indent)})`;
    const min = this.count(s, 'minProperties', ptr);
    const max = this.count(s, 'maxProperties', ptr);
    if (min !== undefined || max !== undefined) {
      this.helpers.add('propertyCountWithin');
      const what = [min !== undefined ? `at least ${min}` : '', max !== undefined ? `at most ${max}` : '']
        .filter(Boolean)
        .join(' and ');
      out = `z.preprocess((value, ctx) => {\n${inner}if (!propertyCountWithin(value, ${min ?? 0}, ${max ?? 'Infinity'})) ctx.addIssue({ code: 'custom', message: 'must have ${what} properties', input: value });\n${inner}return value;\n${indent}}, ${out})`;
    }
    return out;
  }
}

/** One contract's published schema. */
export interface ContractSchema {
  name: string;
  schema: Readonly<Record<string, unknown>>;
}

function tsdoc(text: string, indent = ''): string {
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */`;
}

/** The generated module for the given contracts, in the given order. */
export function generateZodModule(contracts: readonly ContractSchema[]): string {
  const emitter = new Emitter();
  const blocks: string[] = [];
  for (const { name, schema } of contracts) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name))
      throw new UnsupportedSchemaError(name, 'contract name is not a PascalCase identifier');
    const expr = emitter.schema(schema as Json, name, '');
    const description = typeof schema.description === 'string' ? schema.description : name;
    const id = typeof schema.$id === 'string' ? `\n\n@see ${schema.$id}` : '';
    blocks.push(
      `${tsdoc(`${description}\n\nzod 4 flavour of the published JSON Schema of \`${name}\`.${id}`)}\nexport const ${name}Schema = ${expr};\n` +
        `${tsdoc(`A \`${name}\` document, as {@link ${name}Schema} parses it.`)}\nexport type ${name} = z.infer<typeof ${name}Schema>;\n`,
    );
  }
  const helpers = [...emitter.helpers].sort();
  const first = contracts[0]?.name;
  const example = first
    ? `\n\n@example\nconst result = ZOD_SCHEMAS.${first}.safeParse(JSON.parse(text));\nif (result.success) console.log(result.data.schemaVersion);`
    : '';
  const registry = contracts.map(({ name }) => `  ${name}: ${name}Schema,`).join('\n');
  return [
    '// Generated by `pnpm zod:generate` from the published JSON Schemas (@agent-contracts/schemas); do not edit.',
    "import { z } from 'zod';",
    ...(helpers.length ? [`import { ${helpers.join(', ')} } from '../checks.js';`] : []),
    '',
    ...blocks,
    tsdoc(`Every contract's zod schema, by contract name (\`schemaVersion\`).${example}`),
    `export const ZOD_SCHEMAS = {\n${registry}\n} as const;`,
    '',
  ].join('\n');
}

/**
 * A type-only module that fails `tsc` unless each zod-inferred type and the contract's TypeScript
 * interface in @agent-contracts/schemas are assignable to each other.
 */
export function generateTypeCheckModule(names: readonly string[]): string {
  return [
    '// Generated by `pnpm zod:generate`; do not edit. Type-checked only (`pnpm typecheck`): every',
    '// zod-inferred type must be mutually assignable with the hand-written contract interface.',
    "import type * as Interfaces from '@agent-contracts/schemas';",
    "import type * as Zod from '../src/index.ts';",
    '',
    'type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
    'export type Checks = [',
    ...names.map((n) => `  Mutual<Interfaces.${n}, Zod.${n}>,`),
    '];',
    'export const allAgree: Checks extends true[] ? true : never = true;',
    '',
  ].join('\n');
}
