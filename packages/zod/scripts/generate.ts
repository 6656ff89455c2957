// Generates packages/zod/src/generated/contracts.generated.ts from every schema the
// @agent-contracts/schemas registry publishes, and test/contract-types.generated.ts, which makes
// `tsc` check the inferred types against the hand-written interfaces. `--check` writes nothing and exits 1 when the
// committed file differs from what the schemas give.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getSchema, SCHEMA_NAMES } from '@agent-contracts/schemas';
import { type ContractSchema, generateTypeCheckModule, generateZodModule } from './codegen.ts';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const targets = {
  module: resolve(pkgDir, 'src/generated/contracts.generated.ts'),
  types: resolve(pkgDir, 'test/contract-types.generated.ts'),
};
const check = process.argv.includes('--check');

let files: [string, string][];
try {
  const contracts: ContractSchema[] = SCHEMA_NAMES.map((name) => {
    const schema = getSchema(name);
    if (!schema) throw new Error(`${name}: listed in SCHEMA_NAMES but getSchema() has no schema`);
    return { name, schema };
  });
  files = [
    [targets.module, generateZodModule(contracts)],
    [targets.types, generateTypeCheckModule(SCHEMA_NAMES)],
  ];
} catch (e) {
  console.error(`zod: ${(e as Error).message}`);
  process.exit(1);
}

if (check) {
  const stale = files.filter(([path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text);
  if (stale.length) {
    for (const [path] of stale) {
      console.error(
        `zod: ${relative(process.cwd(), path)} differs from what the published schemas generate.`,
      );
    }
    console.error('zod: run `pnpm zod:generate` and commit the result.');
    process.exit(1);
  }
  console.log(`zod: ${SCHEMA_NAMES.length} contract schemas up to date`);
} else {
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  console.log(
    `zod: wrote ${SCHEMA_NAMES.length} contract schemas (${relative(process.cwd(), targets.module)})`,
  );
}
