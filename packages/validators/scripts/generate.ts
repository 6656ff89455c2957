// Generates the structural validators ahead of time: every published schema of
// @agent-contracts/schemas goes through ajv once, here, and the resulting standalone ESM code
// is committed as src/generated/structural.generated.ts. At run time nothing compiles a schema
// (ajv's compile costs ~25 ms of start-up; the generated module loads in under 1 ms) and ajv is
// not a runtime dependency: its runtime helpers and format checks are rewritten to imports of
// src/runtime.ts and src/formats.ts.
//
// `--check` writes nothing and exits 1 when the committed file differs from what the schemas give.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allSchemas, getSchema, SCHEMA_NAMES } from '@agent-contracts/schemas';
import { _, Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { ValidatorsError } from '../src/errors.ts';
import { FORMATS } from '../src/formats.ts';
import { patternMatcher } from '../src/patterns.ts';
import { RUNTIME_HELPERS } from '../src/runtime.ts';
import { fastPassCode, TIMESTAMP_PATTERN } from './fast-pass.ts';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(pkgDir, '../..');
const outFile = resolve(pkgDir, 'src/generated/structural.generated.ts');
const check = process.argv.includes('--check');

/** Every `format` value used anywhere in a schema, with where it is used. */
function formatsUsed(node: unknown, at: string, out: Map<string, string>): void {
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) formatsUsed(n, `${at}/${i}`, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue;
    if (key === 'format' && typeof value === 'string') out.set(value, `${at}/format`);
    else formatsUsed(value, `${at}/${key}`, out);
  }
}

const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples']);
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'patternProperties', 'dependencies']);

/**
 * A copy of a schema without annotation keywords, which do not affect validation but would be
 * embedded in the generated code wherever ajv references the schema (e.g. for enum values).
 * Keys of `properties`-like maps are property names, not keywords, and are kept.
 */
function stripAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripAnnotations);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === 'enum' || key === 'const' || key === 'default') out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripAnnotations(v)]));
    } else out[key] = stripAnnotations(value);
  }
  return out;
}

/** A deterministic pseudo-random source (mulberry32), so --check sees the same corpus. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  // every range boundary of the matched patterns' classes, and characters outside them
  ...'0123456789abcdefgABCDEFGxyzXYZ-_.:@/+T Z`[{~',
  '\n',
  '\t',
  '\u0000',
  'é',
  '\u0660',
  '\uff10',
  '\ud83d\ude00',
  '\ud800',
];

/** Strings shaped like what the matched patterns accept (ids, timestamps, keys), to mutate. */
function seedsFor(source: string, next: () => number): string[] {
  const pick = (chars: string, n: number) =>
    Array.from({ length: n }, () => chars[Math.floor(next() * chars.length)]).join('');
  const hex = /^\^([a-z:-]*)\[a-f0-9\]\{(\d+)\}\$$/.exec(source);
  if (hex) return [0, 1, 2, 3].map(() => hex[1] + pick('0123456789abcdef', Number(hex[2])));
  return [
    '2026-11-30T05:53:08Z',
    '2026-11-30T05:53:08.1Z',
    '2026-11-30T05:53:08.123456789Z',
    '9999-99-99T99:99:99.000Z',
    'a',
    'tool-call-12-post',
    '019378e4-5d2a-7c31-9b6e-0f4a8d2c1e57',
    'A.b_c:d@e-f',
  ];
}

/**
 * The hand-written matcher of a pattern (src/patterns.ts), after checking that it agrees with the
 * RegExp (`u` flag, as ajv compiles it) on every seed, thousands of one- and two-edit mutations
 * of the seeds and random strings. Disagreement fails generation.
 */
function checkedMatcher(source: string): boolean {
  const matcher = patternMatcher(source);
  if (!matcher) return false;
  const regex = new RegExp(source, 'u');
  for (const s of patternCorpus(source)) {
    if (matcher.test(s) !== regex.test(s)) {
      throw new ValidatorsError(
        'VALIDATORS_UNSUPPORTED_RUNTIME',
        `the matcher of pattern ${source} in packages/validators/src/patterns.ts answers ${matcher.test(s)} for ${JSON.stringify(s)} but the pattern answers ${regex.test(s)}; fix the matcher or remove it.`,
      );
    }
  }
  return true;
}

/** The seeds of a pattern, thousands of one- and two-edit mutations of them and random strings. */
function patternCorpus(source: string): string[] {
  const next = random(0x5eed);
  const char = () => ALPHABET[Math.floor(next() * ALPHABET.length)]!;
  const mutate = (s: string) => {
    const at = Math.floor(next() * (s.length + 1));
    const r = next();
    if (r < 0.35) return s.slice(0, at) + char() + s.slice(at + 1);
    if (r < 0.6) return s.slice(0, at) + char() + s.slice(at);
    if (r < 0.8) return s.slice(0, at) + s.slice(at + 1);
    return r < 0.9 ? s.slice(0, at) : `${s}\n`;
  };
  const corpus = ['', ...seedsFor(source, next)];
  for (const seed of corpus.slice()) {
    for (let i = 0; i < 1500; i++) {
      const once = mutate(seed);
      corpus.push(once, mutate(once));
    }
  }
  for (let i = 0; i < 3000; i++) corpus.push(Array.from({ length: Math.floor(next() * 40) }, char).join(''));
  return corpus;
}

const SPLIT_PREFIX = '__split';
/** Stripped schemas at least this long (JSON characters) are split... */
const SPLIT_MIN_ROOT = 6000;
/** ...into functions for their nested object schemas at least this long. */
const SPLIT_MIN_SCHEMA = 600;

/**
 * A copy of a large (stripped) root schema whose large nested object schemas (a property's or an
 * array's items) are moved to `definitions` and referenced; `origins` receives the JSON Pointer
 * each came from. With
 * `inlineRefs: false` ajv then emits one function per nested object instead of one function per
 * contract: V8 does not optimize a function beyond ~60 KB of bytecode, and the largest contracts
 * (ContextReadPlanV2) ran about 2.5x slower interpreted. The error `schemaPath`s of the split
 * functions are mapped back to the original pointers afterwards, so issues are unchanged.
 */
function splitNested(root: Record<string, unknown>, origins: Map<string, string>): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  const visit = (node: unknown, at: string, depth: number): unknown => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
    const schema = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if ((key === 'properties' || key === 'definitions') && value && typeof value === 'object') {
        out[key] = Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, visit(v, `${at}/${key}/${pointerToken(k)}`, depth + 1)]),
        );
      } else if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) {
        out[key] = visit(value, `${at}/items`, depth + 1);
      } else out[key] = value;
    }
    const splittable =
      depth > 0 &&
      out.type === 'object' &&
      out.properties !== undefined &&
      JSON.stringify(out).length >= SPLIT_MIN_SCHEMA;
    if (!splittable) return out;
    const name = `${SPLIT_PREFIX}${origins.size}`;
    definitions[name] = out;
    origins.set(name, at);
    return { $ref: `#/definitions/${name}` };
  };
  const pointerToken = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  // Small contracts stay one function: a call per nested object (with its instancePath string)
  // costs more than it saves when V8 optimizes the whole function anyway.
  if (JSON.stringify(root).length < SPLIT_MIN_ROOT) return root;
  const schema = visit(root, '', 0) as Record<string, unknown>;
  if (Object.keys(definitions).length === 0) return schema;
  if (schema.definitions !== undefined)
    throw new ValidatorsError(
      'VALIDATORS_UNSUPPORTED_RUNTIME',
      `schema ${String(root.$id)} has its own definitions; teach splitNested to merge them.`,
    );
  return { ...schema, definitions };
}

/**
 * Map the `schemaPath`s of the split functions (ajv writes them relative to the definition) back
 * to where their schema was in the contract. `origins` maps a function name to that pointer.
 */
function restoreSchemaPaths(code: string, origins: ReadonlyMap<string, string>): string {
  const lines = code.split('\n');
  let origin: string | undefined;
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fn = /^function (validate\d+)\(/.exec(line);
    if (fn) {
      origin = origins.get(fn[1]!);
      if (origin !== undefined) seen++;
    } else if (line.startsWith('export ')) origin = undefined;
    if (origin !== undefined && line.includes('schemaPath:"#')) {
      if (/schemaPath:"#(?!\/)/.test(line))
        throw new ValidatorsError('VALIDATORS_UNSUPPORTED_RUNTIME', `unexpected schemaPath in: ${line}`);
      lines[i] = line.replaceAll('schemaPath:"#/', `schemaPath:"#${origin}/`);
    }
  }
  if (seen !== origins.size)
    throw new ValidatorsError(
      'VALIDATORS_UNSUPPORTED_RUNTIME',
      `found ${seen} of the ${origins.size} split validator functions in ajv's output.`,
    );
  return lines.join('\n');
}

/** The function name ajv gave each split definition, with the pointer the definition came from. */
function splitFunctions(ajv: Ajv, pointers: ReadonlyMap<string, string>): Map<string, string> {
  // ajv's compiled-schema environments are internal: read only what is needed, defensively.
  type Env = { refs?: Record<string, { validateName?: { str?: unknown } } | string | undefined> };
  const roots = Object.values((ajv as unknown as { schemas: Record<string, Env | undefined> }).schemas);
  const out = new Map<string, string>();
  for (const root of roots) {
    for (const [ref, env] of Object.entries(root?.refs ?? {})) {
      const name = /#\/definitions\/(__split\d+)$/.exec(ref)?.[1];
      const pointer = name === undefined ? undefined : pointers.get(name);
      const fn = typeof env === 'object' ? env.validateName?.str : undefined;
      if (pointer !== undefined && typeof fn === 'string') out.set(fn, pointer);
    }
  }
  return out;
}

export function generate(): string {
  const used = new Map<string, string>();
  for (const [id, schema] of allSchemas()) formatsUsed(schema, id + '#', used);
  for (const [format, where] of used) {
    if (!Object.hasOwn(FORMATS, format)) {
      throw new ValidatorsError(
        'VALIDATORS_UNSUPPORTED_FORMAT',
        `format "${format}" (at ${where}) has no check in packages/validators/src/formats.ts; ` +
          `add a strict, cheap check there (known: ${Object.keys(FORMATS).join(', ')}).`,
      );
    }
  }

  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    messages: false,
    ownProperties: true,
    inlineRefs: false,
    code: { source: true, esm: true, lines: true, formats: _`formats` },
  });
  for (const [name, def] of Object.entries(FORMATS)) ajv.addFormat(name, def);
  const origins = new Map<string, string>();
  for (const schema of allSchemas().values())
    ajv.addSchema(splitNested(stripAnnotations(schema) as Record<string, unknown>, origins));

  const exports: Record<string, string> = {};
  for (const name of SCHEMA_NAMES) exports[name] = getSchema(name)!.$id as string;
  let code = standaloneCode.default(ajv, exports);

  code = code.replace(
    /const (\w+) = require\("ajv\/dist\/runtime\/(\w+)"\)\.default;/g,
    (_match, local: string, helper: string) => {
      if (!Object.hasOwn(RUNTIME_HELPERS, helper)) {
        throw new ValidatorsError(
          'VALIDATORS_UNSUPPORTED_RUNTIME',
          `ajv's standalone code needs runtime helper "${helper}"; add it to packages/validators/src/runtime.ts.`,
        );
      }
      return `const ${local} = RUNTIME_HELPERS.${helper};`;
    },
  );
  if (/\brequire\(/.test(code)) {
    throw new ValidatorsError(
      'VALIDATORS_UNSUPPORTED_RUNTIME',
      'the standalone code still contains a require() the generator does not know how to rewrite.',
    );
  }
  code = code.replace(/^"use strict";\n?/, '');
  code = restoreSchemaPaths(code, splitFunctions(ajv, origins));

  // Lean success path, same answers:
  // - the hottest patterns use the checked hand-written matchers of src/patterns.ts;
  const checked = new Map<string, boolean>();
  const hasMatcher = (source: string) => {
    let ok = checked.get(source);
    if (ok === undefined) {
      ok = checkedMatcher(source);
      checked.set(source, ok);
    }
    return ok;
  };
  code = code.replace(
    /^const (pattern\d+) = new RegExp\(("(?:[^"\\]|\\.)*"), "u"\);$/gm,
    (line, local: string, literal: string) => {
      const source = JSON.parse(literal) as string;
      return hasMatcher(source) ? `const ${local} = patternMatcher(${JSON.stringify(source)});` : line;
    },
  );
  // - minLength/maxLength count code points, which is at most the UTF-16 length and at least half
  //   of it, so the count is needed only when the length alone does not decide.
  const ucs2 = /const (\w+) = RUNTIME_HELPERS\.ucs2length;/.exec(code)?.[1];
  if (ucs2 !== undefined) {
    code = code.replace(
      new RegExp(`\\b${ucs2}\\((\\w+)\\) ([<>]) (\\d+)\\b`, 'g'),
      (_m, value: string, op: string, limit: string) =>
        op === '>'
          ? `(${value}.length > ${limit} && ${ucs2}(${value}) > ${limit})`
          : `(${value}.length < ${2 * Number(limit)} && ${ucs2}(${value}) < ${limit})`,
    );
  }

  const table = SCHEMA_NAMES.map((name) => `  ${JSON.stringify(name)}: ${name},`).join('\n');
  return [
    '// @ts-nocheck',
    '// Generated by `pnpm validators:generate` (packages/validators/scripts/generate.ts) from the',
    '// schemas of @agent-contracts/schemas with ajv standalone; do not edit.',
    "import { FORMATS as formats } from '../formats.js';",
    "import { patternMatcher } from '../patterns.js';",
    "import { RUNTIME_HELPERS } from '../runtime.js';",
    "import type { StructuralValidator } from '../structural.js';",
    '',
    code.trimEnd(),
    '',
    '/** The structural validator of every contract with a published schema, by contract name. */',
    'export const STRUCTURAL_VALIDATORS: Readonly<Record<string, StructuralValidator>> = {',
    table,
    '};',
    '',
    fastPassCode(
      new Map(SCHEMA_NAMES.map((name) => [name, stripAnnotations(getSchema(name))])),
      patternCorpus(TIMESTAMP_PATTERN),
    ),
    '',
  ].join('\n');
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  let text: string;
  try {
    text = generate();
  } catch (err) {
    const code = err instanceof ValidatorsError ? `${err.code}: ` : '';
    console.error(`validators: ${code}${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const rel = relative(repoDir, outFile);
  const current = existsSync(outFile) ? readFileSync(outFile, 'utf8') : null;
  if (check) {
    if (current !== text) {
      console.error(`validators: ${rel} is stale; run \`pnpm validators:generate\` and commit it.`);
      process.exit(1);
    }
    console.log(`validators: ${rel} is up to date (${SCHEMA_NAMES.length} contracts).`);
  } else if (current === text) {
    console.log(`validators: ${rel} unchanged (${SCHEMA_NAMES.length} contracts).`);
  } else {
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, text);
    console.log(`validators: wrote ${rel} (${SCHEMA_NAMES.length} contracts).`);
  }
}
