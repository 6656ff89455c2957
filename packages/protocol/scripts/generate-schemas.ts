// JSON Schemas of every message of protocol v1, generated from the types in src/messages (the
// single source) into schemas/protocol/<Type>.schema.json, and the field tables of
// docs/protocol.md (`<!-- protocol:<method> -->` blocks) from those schemas. A contract document
// inside a message is a `$ref` to the contract's schema (schemas/contracts/), not a copy.
// `--check` writes nothing and exits 1 when a committed file differs or is left over.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACTS, renderFieldTable, SCHEMA_BASE_URI, schemaFileFor } from '@agent-contracts/schemas';
import * as TJS from 'typescript-json-schema';
import { MESSAGE_TYPES, METHODS, type MessageTypeName, protocolSchemaId } from '../src/methods.ts';

type Schema = { [key: string]: unknown };

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(pkg, '../..');
const outDir = join(repo, 'schemas/protocol');
const docFile = join(repo, 'docs/protocol.md');
const embeddedFile = join(pkg, 'src/generated/schemas.generated.ts');
const check = process.argv.includes('--check');

const program = TJS.programFromConfig(join(pkg, 'tsconfig.schema.json'));
const generator = TJS.buildGenerator(program, {
  required: true,
  noExtraProps: true,
  strictNullChecks: true,
  ref: false,
  aliasRef: false,
  topRef: false,
  titles: false,
  propOrder: false,
});
if (!generator) {
  console.error('protocol schemas: cannot build the generator (type errors in packages/protocol/src)');
  process.exit(1);
}

const omit = (s: Schema, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));

// The body of every contract's schema as the same generator writes it inline, to recognise it.
const contractByBody = new Map<string, string>();
for (const { name } of CONTRACTS) {
  const body = generator.getSchemaForSymbol(name) as unknown as Schema;
  contractByBody.set(JSON.stringify(omit(body, ['$schema', 'description'])), name);
}

/** The schema with every inlined contract document replaced by a `$ref` to its schema. */
function withContractRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withContractRefs);
  if (!node || typeof node !== 'object') return node;
  const s = node as Schema;
  const contract = contractByBody.get(JSON.stringify(omit(s, ['description'])));
  if (contract) {
    return {
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      $ref: `${SCHEMA_BASE_URI}${schemaFileFor(contract)}`,
    };
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, withContractRefs(v)]));
}

/** Every property without a description, as `Type/path`. */
function undescribed(name: string, node: unknown, path: string, out: string[]): void {
  if (Array.isArray(node)) for (const [i, n] of node.entries()) undescribed(name, n, `${path}/${i}`, out);
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const s = node as Schema;
  for (const [key, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    if (typeof sub.description !== 'string' || !sub.description.trim())
      out.push(`${name}${path}/properties/${key}`);
  }
  for (const [key, sub] of Object.entries(s))
    if (key !== 'enum' && key !== 'const') undescribed(name, sub, `${path}/${key}`, out);
}

const schemas = new Map<MessageTypeName, Schema>();
const problems: string[] = [];
for (const name of MESSAGE_TYPES) {
  const { $schema: _s, ...rest } = generator.getSchemaForSymbol(name) as unknown as Schema;
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: protocolSchemaId(name),
    title: name,
    ...(withContractRefs(rest) as Schema),
  };
  undescribed(name, schema, '', problems);
  schemas.set(name, schema);
}
if (problems.length) {
  for (const p of problems) console.error(`protocol schemas: ${p} has no description (add a JSDoc comment)`);
  process.exit(1);
}

const link = (name: MessageTypeName) => `[\`${name}\`](../schemas/protocol/${name}.schema.json)`;
const contractLink = (ref: string) => {
  const file = ref.slice(SCHEMA_BASE_URI.length);
  return `[\`${file.replace(/^.*\//, '').replace(/\.schema\.json$/, '')}\`](../schemas/${file})`;
};

/** A schema for a reader: a field table, one per branch of a union, or a sentence. */
function describe(schema: Schema): string {
  if (typeof schema.$ref === 'string') return `A ${contractLink(schema.$ref)} document.`;
  if (schema.type === 'null') return '`null`.';
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as Schema;
    return typeof items.$ref === 'string'
      ? `An array of ${contractLink(items.$ref)} documents.`
      : 'An array.';
  }
  const branches = schema.anyOf as Schema[] | undefined;
  if (branches) return ['One of:', ...branches.map((b) => `- ${describeBranch(b)}`)].join('\n\n');
  if (schema.properties && Object.keys(schema.properties).length) return renderFieldTable(schema);
  if (schema.type === 'object') {
    return schema.additionalProperties === false || (schema.additionalProperties as Schema | undefined)?.not
      ? '`{}` (an empty object).'
      : 'A JSON object.';
  }
  return 'Any JSON value.';
}

function describeBranch(branch: Schema): string {
  const lead = typeof branch.description === 'string' ? branch.description.replace(/\n/g, ' ') : '';
  const body = describe(branch);
  return body.startsWith('|') ? `${lead}\n\n${body.replace(/^/gm, '  ')}` : `${lead} ${body}`.trim();
}

function methodBlock(method: (typeof METHODS)[number]): string {
  const out = [
    `<!-- protocol:${method.method} -->`,
    '<!-- Generated from schemas/protocol/ by `pnpm protocol:schemas`; edit the JSDoc in packages/protocol/src/messages, not this block. -->',
    `**Params** (${link(method.params)}):`,
    '',
    describe(schemas.get(method.params)!),
    '',
    `**Result** (${link(method.result)}):`,
    '',
    describe(schemas.get(method.result)!),
  ];
  if (method.errors.length)
    out.push('', `**Refusal \`data\`** (-32000): ${method.errors.map(link).join(', ')}.`);
  out.push(`<!-- /protocol:${method.method} -->`);
  return out.join('\n');
}

const BLOCK = /<!-- protocol:([A-Za-z.]+) -->\n[\s\S]*?<!-- \/protocol:\1 -->/g;
const docBefore = readFileSync(docFile, 'utf8');
const filled = new Set<string>();
const docAfter = docBefore.replace(BLOCK, (whole, name: string) => {
  const method = METHODS.find((m) => m.method === name);
  if (!method) {
    problems.push(`docs/protocol.md: block protocol:${name} names no method of METHODS`);
    return whole;
  }
  filled.add(name);
  return methodBlock(method);
});
for (const m of METHODS)
  if (!filled.has(m.method)) problems.push(`docs/protocol.md: no <!-- protocol:${m.method} --> block`);
if (problems.length) {
  for (const p of problems) console.error(`protocol schemas: ${p}`);
  process.exit(1);
}

/** The schemas as a module, so that a harness checks messages without reading schemas/ from disk. */
function embedded(all: ReadonlyMap<MessageTypeName, Schema>): string {
  return [
    '// Generated by `pnpm protocol:schemas` (packages/protocol/scripts/generate-schemas.ts) from',
    '// src/messages: the schemas of schemas/protocol/, embedded; do not edit.',
    "import type { MessageTypeName } from '../methods.js';",
    '',
    '/** The JSON Schema of every message type, by name (as in schemas/protocol/<Name>.schema.json). */',
    `export const PROTOCOL_SCHEMAS: Readonly<Record<MessageTypeName, Readonly<Record<string, unknown>>>> = ${JSON.stringify(Object.fromEntries(all), null, 2)};`,
    '',
  ].join('\n');
}

const outputs = new Map<string, string>();
for (const [name, schema] of schemas)
  outputs.set(join(outDir, `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
outputs.set(docFile, docAfter);
outputs.set(embeddedFile, embedded(schemas));
const leftOver = existsSync(outDir)
  ? readdirSync(outDir)
      .map((f) => join(outDir, f))
      .filter((f) => !outputs.has(f))
  : [];

let stale = 0;
for (const [file, text] of outputs) {
  const rel = file.slice(repo.length + 1);
  if (check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
      console.error(`protocol schemas: ${rel} differs from packages/protocol/src`);
      stale++;
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
for (const file of leftOver) {
  if (check) {
    console.error(`protocol schemas: ${file.slice(repo.length + 1)} is no message of packages/protocol/src`);
    stale++;
  } else rmSync(file);
}
if (stale) {
  console.error('protocol schemas: run `pnpm protocol:schemas` and commit the result.');
  process.exit(1);
}
console.log(
  check
    ? `protocol schemas: ${schemas.size} message schemas and ${METHODS.length} method blocks of docs/protocol.md up to date`
    : `protocol schemas: wrote ${schemas.size} message schemas and ${METHODS.length} method blocks of docs/protocol.md`,
);
