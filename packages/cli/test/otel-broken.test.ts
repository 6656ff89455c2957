// The broken OpenTelemetry checkers of examples/broken/otel-* (each the reference with one rule
// broken, mapper.json naming the rule and the cases that must catch it): every listed case must
// give another verdict than its case states, and every clean case must still pass, so each
// broken checker breaks exactly its rule and the golden cases see it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOtelCases } from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';
import { type OtelChecker, observed } from '../src/otel/cases.ts';
import { parseOtlpText } from '../src/otel/input.ts';

const BROKEN = fileURLToPath(new URL('../../../examples/broken/', import.meta.url));
const cases = loadOtelCases(fileURLToPath(new URL('../../../conformance/', import.meta.url)));
const mutants = readdirSync(BROKEN).filter((n) => existsSync(join(BROKEN, n, 'mapper.json')));

function requestsOf(c: (typeof cases)[number]): unknown[] {
  if ('requests' in c.input) return c.input.requests;
  const parsed = parseOtlpText(Buffer.from(c.input.text, 'utf8'), { maxBytes: 1 << 24, maxDepth: 512 });
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return parsed.requests;
}
const gives = (check: OtelChecker, c: (typeof cases)[number]) => observed(check(requestsOf(c)), c.expect);

describe('broken OpenTelemetry checkers', () => {
  it('exist', () => expect(mutants.length).toBeGreaterThanOrEqual(4));
  for (const name of mutants)
    it(`${name} is caught by its cases and passes every clean case`, async () => {
      const manifest = JSON.parse(readFileSync(join(BROKEN, name, 'mapper.json'), 'utf8')) as {
        cases: string[];
      };
      const { check } = (await import(join(BROKEN, name, 'checker.ts'))) as { check: OtelChecker };
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
