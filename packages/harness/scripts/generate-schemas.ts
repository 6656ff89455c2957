// JSON Schemas of protocol v1's messages and of the JSONL report lines, generated from the
// TypeScript types in src/protocol.ts and src/report.ts (the single source), into
// schemas/protocol/ and schemas/harness/. `--check` exits 1 when the committed files differ.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as TJS from 'typescript-json-schema';

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(pkg, '../..');
const check = process.argv.includes('--check');
const BASE = 'https://agent-contracts.dev/schemas/';

const TYPES: Array<[string, string]> = [
  ['protocol', 'HelloParams'],
  ['protocol', 'HelloResult'],
  ['protocol', 'ValidateResult'],
  ['protocol', 'DigestResult'],
  ['protocol', 'ProtocolErrorData'],
  ['harness', 'ReportLine'],
];

const program = TJS.programFromConfig(join(pkg, 'tsconfig.schema.json'));
const generator = TJS.buildGenerator(program, {
  required: true,
  noExtraProps: true,
  strictNullChecks: true,
  ref: false,
  aliasRef: false,
  topRef: false,
  titles: false,
});
if (!generator) {
  console.error('schemas: cannot build the generator (type errors in packages/harness/src)');
  process.exit(1);
}

let stale = 0;
for (const [dir, name] of TYPES) {
  const raw = generator.getSchemaForSymbol(name) as unknown as Record<string, unknown>;
  const { $schema: _s, ...rest } = raw;
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `${BASE}${dir}/${name}.schema.json`,
    title: name,
    ...rest,
  };
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  const file = join(repo, 'schemas', dir, `${name}.schema.json`);
  if (check) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
      console.error(`schemas: schemas/${dir}/${name}.schema.json differs from packages/harness/src`);
      stale++;
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
if (stale) {
  console.error('schemas: run `pnpm harness:schemas` and commit the result.');
  process.exit(1);
}
console.log(
  check
    ? `schemas: ${TYPES.length} protocol/report schemas up to date`
    : `schemas: wrote ${TYPES.length} protocol/report schemas`,
);
