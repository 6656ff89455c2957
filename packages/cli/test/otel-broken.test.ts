// @module-tag unit
// The broken OpenTelemetry checkers of examples/broken/otel-* (each the reference with one rule
// broken; mutant.json with capability otel names the rule and the cases that must catch it):
// every listed case must give another verdict than its case states, and every clean case must
// still pass, so each broken checker breaks exactly its rule and the golden cases see it. Each is
// run as `agent-contracts mutants` runs it: `check(requests, reference)`, with the reference's
// parts (src/commands/mutants/otel.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadOtelCases } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { OTEL_REFERENCE } from '../src/commands/mutants/otel.ts';
import { observed } from '../src/otel/cases.ts';
import { parseOtlpText } from '../src/otel/input.ts';
import type { OtelVerdict } from '../src/otel/judge.ts';

const BROKEN = fileURLToPath(new URL('../../../examples/broken/', import.meta.url));
const cases = loadOtelCases(fileURLToPath(new URL('../../../conformance/', import.meta.url)));
const manifestOf = (name: string) =>
  JSON.parse(readFileSync(join(BROKEN, name, 'mutant.json'), 'utf8')) as {
    capability: string;
    cases: string[];
    impl: string;
  };
const mutants = readdirSync(BROKEN).filter(
  (n) => existsSync(join(BROKEN, n, 'mutant.json')) && manifestOf(n).capability === 'otel',
);
type Check = (requests: readonly unknown[], reference: typeof OTEL_REFERENCE) => OtelVerdict;

function requestsOf(c: (typeof cases)[number]): unknown[] {
  if ('requests' in c.input) return c.input.requests;
  const parsed = parseOtlpText(Buffer.from(c.input.text, 'utf8'), { maxBytes: 1 << 24, maxDepth: 512 });
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.requests;
}
const gives = (check: Check, c: (typeof cases)[number]) =>
  observed(check(requestsOf(c), OTEL_REFERENCE), c.expect);

describe('broken OpenTelemetry checkers', () => {
  it('exist, each a plain ES module with a mutant.json, none in TypeScript', () => {
    expect(mutants.length).toBeGreaterThanOrEqual(5);
    for (const name of mutants) expect(manifestOf(name).impl, name).toMatch(/\.mjs$/);
    expect(readdirSync(join(BROKEN, 'lib')).filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('the reference itself, handed the same way, passes every case', () => {
    const reference: Check = (requests, ref) => ref.checkRequests(requests);
    for (const c of cases) expect(gives(reference, c), c.id).toEqual(c.expect);
  });

  for (const name of mutants)
    it(`${name} is caught by its cases and passes every clean case`, async () => {
      const manifest = manifestOf(name);
      const { check } = (await import(pathToFileURL(join(BROKEN, name, manifest.impl)).href)) as {
        check: Check;
      };
      expect(manifest.cases.length).toBeGreaterThan(0);
      for (const id of manifest.cases) {
        const c = cases.find((x) => x.id === id);
        expect(c, id).toBeDefined();
        expect(gives(check, c!), id).not.toEqual(c!.expect);
      }
      for (const c of cases.filter((x) => x.id.startsWith('otel/clean/')))
        expect(gives(check, c), c.id).toEqual(c.expect);
    });
});
