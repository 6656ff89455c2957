import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { allSchemas, getSchema } from '../src/index.ts';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const fixturesRoot = join(repoRoot, 'conformance/fixtures');

/** ajv in strict mode with full format checks, every published schema preloaded by $id. */
export function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const schema of allSchemas().values()) ajv.addSchema(schema as object);
  return ajv;
}

const ajv = makeAjv();
const compiled = new Map<string, ValidateFunction>();
export function ajvFor(contract: string): ValidateFunction {
  let fn = compiled.get(contract);
  if (!fn) {
    const schema = getSchema(contract);
    if (!schema) throw new Error(`no schema for ${contract}`);
    fn = ajv.getSchema(schema.$id as string)!;
    compiled.set(contract, fn);
  }
  return fn;
}

/** The second, independent validator: @cfworker/json-schema, draft-07. */
export function cfworkerFor(contract: string): Validator {
  const schema = getSchema(contract);
  if (!schema) throw new Error(`no schema for ${contract}`);
  return new Validator(schema as object, '7', false);
}

export interface FixtureFile {
  contract: string;
  kind: 'valid' | 'invalid';
  name: string;
  path: string;
  document: unknown;
  expected?: { keyword: string; instancePath: string; breaks: string; layer: string };
}

export function listFixtures(): FixtureFile[] {
  const out: FixtureFile[] = [];
  for (const contract of readdirSync(fixturesRoot).sort()) {
    for (const kind of ['valid', 'invalid'] as const) {
      const dir = join(fixturesRoot, contract, kind);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).sort()) {
        if (!file.endsWith('.json') || file.endsWith('.expected.json')) continue;
        const name = file.slice(0, -'.json'.length);
        const path = join(dir, file);
        const expectedPath = join(dir, `${name}.expected.json`);
        out.push({
          contract,
          kind,
          name,
          path,
          document: JSON.parse(readFileSync(path, 'utf8')),
          ...(existsSync(expectedPath) ? { expected: JSON.parse(readFileSync(expectedPath, 'utf8')) } : {}),
        });
      }
    }
  }
  return out;
}
