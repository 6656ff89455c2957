import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { printable, truncated } from '@agent-contracts/harness';
import { CliError } from '../../errors.js';

/**
 * The capabilities a broken implementation can break: hello's capability names, and `otel`, a
 * broken OpenTelemetry checker (an ES module judged on the cases of conformance/otel, otel.ts).
 */
export const MUTANT_CAPABILITIES = [
  'digest',
  'validate',
  'bundles',
  'store',
  'liveness',
  'checkpoint',
  'trace',
  'crash-points',
  'run',
  'policy',
  'delegation',
  'otel',
  'context',
] as const;

export type MutantCapability = (typeof MUTANT_CAPABILITIES)[number];

/**
 * `mutant.json`: one broken implementation, the rule it breaks and what must catch it
 * (docs/conformance-quality.md#the-manifest).
 */
export interface MutantManifest {
  /** The folder name: the implementation's id in the table. */
  readonly id: string;
  readonly folder: string;
  readonly capability: MutantCapability;
  /** The one rule broken, in a sentence. */
  readonly rule: string;
  /** The spec section of the rule (`docs/spec/<page>.md#<anchor>`). */
  readonly spec: string;
  /** Globs over golden case ids: at least one of these must fail. */
  readonly cases: readonly string[];
  /** Globs over fault scenario ids (`faults/...`): run only these, and they count as listed cases. */
  readonly faults: readonly string[];
  /** The entry point, relative to the folder, run by the node that runs this command. */
  readonly impl: string;
}

const MAX_MANIFEST_BYTES = 64 * 1024;
const KEYS = new Set(['$comment', 'capability', 'rule', 'spec', 'cases', 'faults', 'impl']);

function refuse(where: string, why: string): never {
  throw new CliError(
    'MUTANTS_INVALID',
    `${where}: ${why}; see docs/conformance-quality.md#the-manifest for the fields of mutant.json.`,
  );
}

const globs = (where: string, value: unknown, name: string, prefix: string | null): string[] => {
  if (!Array.isArray(value) || !value.every((g) => typeof g === 'string' && g.length > 0 && g.length <= 200))
    refuse(where, `"${name}" must be an array of non-empty glob strings`);
  for (const g of value as string[]) {
    const isFault = g.startsWith('faults/');
    if (prefix === null ? isFault : !isFault)
      refuse(
        where,
        `"${name}" entry ${JSON.stringify(printable(truncated(g, 80)))} belongs in "${isFault ? 'faults' : 'cases'}"`,
      );
  }
  return value as string[];
};

/** Read and check the manifest of one folder. */
export function readManifest(folder: string, id: string): MutantManifest {
  const file = join(folder, 'mutant.json');
  const where = printable(file);
  if (statSync(file).size > MAX_MANIFEST_BYTES) refuse(where, `larger than ${MAX_MANIFEST_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    refuse(where, `not JSON (${printable((e as Error).message)})`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) refuse(where, 'not a JSON object');
  const m = raw as Record<string, unknown>;
  for (const k of Object.keys(m))
    if (!KEYS.has(k)) refuse(where, `unknown field ${JSON.stringify(printable(truncated(k, 80)))}`);
  if (!MUTANT_CAPABILITIES.includes(m.capability as MutantCapability))
    refuse(where, `"capability" must be one of ${MUTANT_CAPABILITIES.join(', ')}`);
  for (const k of ['rule', 'spec', 'impl'] as const)
    if (typeof m[k] !== 'string' || m[k].length === 0 || m[k].length > 500)
      refuse(where, `"${k}" must be a non-empty string`);
  if (!/^docs\/spec\/[a-z0-9-]+\.md#[a-z0-9-]+$/.test(m.spec as string))
    refuse(where, '"spec" must name a spec section, docs/spec/<page>.md#<anchor>');
  const impl = m.impl as string;
  if (impl.includes('..') || impl.startsWith('/') || !existsSync(join(folder, impl)))
    refuse(where, `"impl" must be a file inside the folder`);
  const cases = globs(where, m.cases ?? [], 'cases', null);
  const faults = globs(where, m.faults ?? [], 'faults', 'faults/');
  if (cases.length + faults.length === 0) refuse(where, 'it lists no case and no fault scenario to catch it');
  if (m.capability === 'otel') {
    // A broken checker is judged on the mapping's cases alone (conformance/otel).
    if (faults.length) refuse(where, 'an otel checker runs no fault scenario: "faults" must be empty');
    const other = cases.find((g) => !g.startsWith('otel/'));
    if (other !== undefined)
      refuse(
        where,
        `an otel checker's "cases" are otel/... ids, not ${JSON.stringify(printable(truncated(other, 80)))}`,
      );
    if (!/\.(mjs|js)$/.test(impl)) refuse(where, 'an otel checker\'s "impl" is an ES module (.mjs or .js)');
  } else {
    const otel = cases.find((g) => g.startsWith('otel/'));
    if (otel !== undefined)
      refuse(
        where,
        `${JSON.stringify(printable(truncated(otel, 80)))} is a case of the OpenTelemetry mapping, which only an otel checker (capability "otel") runs`,
      );
  }
  return {
    id,
    folder,
    capability: m.capability as MutantCapability,
    rule: m.rule as string,
    spec: m.spec as string,
    cases,
    faults,
    impl,
  };
}

/** Every folder of `dir` that holds a `mutant.json`, in name order. */
export function readManifests(dir: string): MutantManifest[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    throw new CliError(
      'INPUT_NOT_FOUND',
      `${printable(dir)} is not a readable directory of broken implementations.`,
    );
  }
  const found = names
    .filter((n) => existsSync(join(dir, n, 'mutant.json')))
    .map((n) => readManifest(join(dir, n), n));
  if (found.length === 0)
    throw new CliError(
      'MUTANTS_INVALID',
      `${printable(dir)} holds no folder with a mutant.json; see docs/conformance-quality.md#adding-a-broken-implementation.`,
    );
  return found;
}
