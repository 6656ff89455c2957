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
import { RUNTIME_HELPERS } from '../src/runtime.ts';

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
    code: { source: true, esm: true, lines: true, formats: _`formats` },
  });
  for (const [name, def] of Object.entries(FORMATS)) ajv.addFormat(name, def);
  for (const schema of allSchemas().values()) ajv.addSchema(stripAnnotations(schema) as object);

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

  const table = SCHEMA_NAMES.map((name) => `  ${JSON.stringify(name)}: ${name},`).join('\n');
  return [
    '// @ts-nocheck',
    '// Generated by `pnpm validators:generate` (packages/validators/scripts/generate.ts) from the',
    '// schemas of @agent-contracts/schemas with ajv standalone; do not edit.',
    "import { FORMATS as formats } from '../formats.js';",
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
