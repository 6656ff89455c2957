// Reads the golden fixture corpus (conformance/fixtures) and checks documents against the
// published schemas and digest rules. Shared by the main job (scripts/conformance.ts) and the
// fixture test, so both judge the corpus the same way.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allSchemas, DIGEST_RULES, getSchema } from '@agent-contracts/schemas';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const fixturesRoot = join(repoRoot, 'conformance/fixtures');

/**
 * The `.expected.json` beside an invalid fixture. `alsoReports` lists what else the document
 * cannot help breaking, because the spec makes the named rule imply it, each with the reason.
 */
export type ExpectedFailure =
  | {
      contract: string;
      layer: 'schema';
      breaks: string;
      keyword: string;
      instancePath: string;
      alsoReports?: { keyword: string; instancePath: string; because: string }[];
    }
  | {
      contract: string;
      layer: 'semantic';
      breaks: string;
      code: string;
      instancePath: string;
      alsoReports?: { code: string; instancePath: string; because: string }[];
    };

export interface FixtureFile {
  contract: string;
  kind: 'valid' | 'invalid';
  name: string;
  path: string;
  document: unknown;
  expected?: ExpectedFailure;
}

/** Every fixture of the corpus, sorted by contract, kind and name. */
export function listFixtures(): FixtureFile[] {
  const out: FixtureFile[] = [];
  if (!existsSync(fixturesRoot)) return out;
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

/** ajv in strict mode with full format checks, every published schema preloaded by $id. */
export function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  for (const schema of allSchemas().values()) ajv.addSchema(schema as object);
  return ajv;
}

const shared = makeAjv();
const compiled = new Map<string, ValidateFunction>();

/** The compiled ajv validator of a contract's published schema. */
export function ajvFor(contract: string): ValidateFunction {
  let fn = compiled.get(contract);
  if (!fn) {
    const schema = getSchema(contract);
    if (!schema) throw new Error(`no schema for ${contract}`);
    const found = shared.getSchema(schema.$id as string);
    if (!found) throw new Error(`schema ${schema.$id} is not loaded`);
    fn = found;
    compiled.set(contract, fn);
  }
  return fn;
}

function at(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, token) =>
        (node as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
}

export interface DigestMismatch {
  pointer: string;
  covers: string;
  expected: string | null;
  actual: unknown;
}

/** Recompute every digest rule of the document's contract; returns the fields that disagree. */
export function digestMismatches(contract: string, document: unknown): DigestMismatch[] {
  const out: DigestMismatch[] = [];
  for (const rule of DIGEST_RULES.filter((r) => r.contract === contract)) {
    for (const { pointer, expected } of rule.compute(document)) {
      const actual = at(document, pointer);
      if (actual !== expected) out.push({ pointer, covers: rule.covers, expected, actual });
    }
  }
  return out;
}

export interface Verdict {
  ok: boolean;
  detail: string;
  errors?: ErrorObject[];
}

/**
 * Judge one fixture against the published schemas and digest rules (the reference validator
 * judges the rule codes): valid ones must pass schema and digests; schema-invalid ones must fail
 * as recorded; semantic-invalid ones must pass the schema (they break only a semantic rule).
 */
export function judge(f: FixtureFile): Verdict {
  const validate = ajvFor(f.contract);
  const valid = validate(f.document) as boolean;
  if (f.kind === 'valid') {
    if (!valid) return { ok: false, detail: 'rejected by the schema', errors: validate.errors ?? [] };
    const mismatches = digestMismatches(f.contract, f.document);
    if (mismatches.length) {
      return { ok: false, detail: `digest mismatch at ${mismatches.map((m) => m.pointer).join(', ')}` };
    }
    return { ok: true, detail: 'accepted' };
  }
  const expected = f.expected;
  if (!expected) return { ok: false, detail: 'no .expected.json beside it' };
  if (expected.layer === 'semantic') {
    return valid
      ? { ok: true, detail: `schema-valid; breaks ${expected.code} at "${expected.instancePath}"` }
      : { ok: false, detail: 'a semantic fixture must pass the schema', errors: validate.errors ?? [] };
  }
  if (valid) return { ok: false, detail: 'accepted by the schema' };
  const hit = (validate.errors ?? []).some(
    (e) => e.keyword === expected.keyword && e.instancePath === expected.instancePath,
  );
  return hit
    ? { ok: true, detail: `rejected: ${expected.keyword} at "${expected.instancePath}"` }
    : {
        ok: false,
        detail: `rejected, but not with ${expected.keyword} at "${expected.instancePath}"`,
        errors: validate.errors ?? [],
      };
}
