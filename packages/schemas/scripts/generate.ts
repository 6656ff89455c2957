// Generates the JSON Schemas of every contract from the TypeScript types (the single source):
//   schemas/contracts/<Name>.schema.json   the published files
//   schemas/index.json                      $id -> file registry with sha256 of each file
//   packages/schemas/src/generated/schemas.generated.ts   the same schemas, embedded for offline use
// `--check` writes nothing and exits 1 when any committed file differs from what the types give.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as TJS from 'typescript-json-schema';
import { CONTRACTS } from '../src/catalog.ts';
import { fillFieldTables } from '../src/field-tables.ts';
import { SCHEMA_BASE_URI, schemaFileFor } from '../src/ids.ts';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(pkgDir, '../..');
const check = process.argv.includes('--check');
// --lenient: generate despite type errors elsewhere (for working on one area while others are broken).
const lenient = process.argv.includes('--lenient');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function lint(name: string, schema: Json, path: string, problems: string[]): void {
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) lint(name, s, `${path}/${i}`, problems);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  const props = schema.properties;
  if (props && typeof props === 'object' && !Array.isArray(props)) {
    if (schema.additionalProperties !== false)
      problems.push(`${name}${path}: object is not closed (additionalProperties)`);
    for (const [key, sub] of Object.entries(props)) {
      if (
        !sub ||
        typeof sub !== 'object' ||
        Array.isArray(sub) ||
        typeof sub.description !== 'string' ||
        !sub.description.trim()
      ) {
        problems.push(`${name}${path}/properties/${key}: property has no description (add a JSDoc comment)`);
      }
    }
  }
  for (const [key, sub] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'examples' || key === 'default') continue;
    lint(name, sub, `${path}/${key}`, problems);
  }
}

function generate(): Map<string, string> {
  const program = TJS.programFromConfig(join(pkgDir, 'tsconfig.schema.json'));
  const generator = TJS.buildGenerator(program, {
    required: true,
    noExtraProps: true,
    strictNullChecks: true,
    ref: false,
    aliasRef: false,
    topRef: false,
    titles: false,
    propOrder: false,
    ignoreErrors: lenient,
  });
  if (!generator)
    throw new Error('typescript-json-schema could not build a generator: fix the type errors above.');

  const files = new Map<string, string>();
  const problems: string[] = [];
  const index: Json[] = [];
  const embedded: Record<string, Json> = {};
  for (const contract of CONTRACTS) {
    const raw = generator.getSchemaForSymbol(contract.name) as unknown as { [key: string]: Json };
    const { $schema: _drop, description, ...rest } = raw;
    const schema: { [key: string]: Json } = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: `${SCHEMA_BASE_URI}${schemaFileFor(contract.name)}`,
      title: contract.name,
      description: description ?? contract.summary,
      ...rest,
    };
    const props = schema.properties as { [key: string]: { const?: Json } } | undefined;
    if (props?.schemaVersion?.const !== contract.name) {
      problems.push(`${contract.name}: schemaVersion must be the constant "${contract.name}"`);
    }
    lint(contract.name, schema, '', problems);
    const text = `${JSON.stringify(schema, null, 2)}\n`;
    const file = `schemas/${schemaFileFor(contract.name)}`;
    files.set(file, text);
    embedded[contract.name] = schema;
    index.push({
      name: contract.name,
      gate: contract.gate,
      $id: schema.$id as string,
      file,
      sha256: createHash('sha256').update(text).digest('hex'),
      ...(contract.compatibility ? { compatibility: contract.compatibility } : {}),
    });
  }
  // Field tables in the spec pages.
  for (const dir of ['docs/spec', 'docs/spec/parts']) {
    const abs = join(repoDir, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs).filter((n) => n.endsWith('.md'))) {
      const file = `${dir}/${f}`;
      const before = readFileSync(join(repoDir, file), 'utf8');
      const after = fillFieldTables(before, embedded as Record<string, { [key: string]: unknown }>, (name) =>
        problems.push(`${file}: field table for unknown contract ${name}`),
      );
      if (after !== before) files.set(file, after);
    }
  }
  if (problems.length) {
    throw new Error(`schema lint failed:\n  ${problems.join('\n  ')}`);
  }
  files.set(
    'schemas/index.json',
    `${JSON.stringify({ $comment: 'Generated by `pnpm schemas:generate`; do not edit.', draft: 'http://json-schema.org/draft-07/schema#', schemas: index }, null, 2)}\n`,
  );
  files.set(
    'packages/schemas/src/generated/schemas.generated.ts',
    `// Generated by \`pnpm schemas:generate\` from src/contracts; do not edit.\n/* eslint-disable */\nexport const SCHEMA_DOCUMENTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = ${JSON.stringify(embedded, null, 2)};\n`,
  );
  return files;
}

let files: Map<string, string>;
try {
  files = generate();
} catch (e) {
  console.error(`schemas: ${(e as Error).message}`);
  process.exit(1);
}

const schemaDir = join(repoDir, 'schemas/contracts');
const stale = existsSync(schemaDir)
  ? readdirSync(schemaDir)
      .map((f) => `schemas/contracts/${f}`)
      .filter((f) => !files.has(f))
  : [];

if (check) {
  const drift = [...files].filter(([file, text]) => {
    const path = join(repoDir, file);
    return !existsSync(path) || readFileSync(path, 'utf8') !== text;
  });
  if (drift.length || stale.length) {
    for (const [file] of drift) console.error(`schemas: ${file} differs from what the types generate`);
    for (const file of stale) console.error(`schemas: ${file} has no contract behind it`);
    console.error('schemas: run `pnpm schemas:generate` and commit the result.');
    process.exit(1);
  }
  console.log(`schemas: ${CONTRACTS.length} contract schemas up to date`);
} else {
  for (const [file, text] of files) {
    const path = join(repoDir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  for (const file of stale) console.warn(`schemas: ${file} has no contract behind it; delete it`);
  console.log(
    `schemas: wrote ${CONTRACTS.length} contract schemas (${relative(process.cwd(), join(repoDir, 'schemas'))})`,
  );
}
