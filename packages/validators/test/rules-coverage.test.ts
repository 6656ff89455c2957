// @module-tag unit
// docs/rules.md is generated from the registries (rules:check keeps it current); this test keeps
// the registries and the fixture corpus honest with each other: every rule code is produced by
// at least one invalid fixture (the fixture tests assert it is produced at the recorded path),
// and every code a fixture expects is a documented code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIGEST_RULES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { BUNDLE_RULES, ISSUE_CODES, KEYWORD_CODES, SEMANTIC_RULES } from '../src/index.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

function expectedCodes(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const scan = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) scan(abs);
      else if (e.name.endsWith('.expected.json')) {
        const x = JSON.parse(readFileSync(abs, 'utf8')) as { code?: string; keyword?: string };
        const code = x.code ?? (x.keyword ? KEYWORD_CODES[x.keyword] : undefined) ?? `<no code for ${abs}>`;
        map.set(code, [...(map.get(code) ?? []), abs]);
      }
    }
  };
  scan(join(repo, 'conformance/fixtures'));
  scan(join(repo, 'conformance/bundles'));
  return map;
}

const produced = expectedCodes();
const documented = new Set<string>([
  ...Object.keys(ISSUE_CODES),
  ...SEMANTIC_RULES.map((r) => r.code),
  ...BUNDLE_RULES.map((r) => r.code),
  ...DIGEST_RULES.flatMap((r) => (r.code ? [r.code] : [])),
]);

describe('rule codes and fixtures', () => {
  it('each semantic rule is registered once per contract, each bundle rule once per kind', () => {
    const keys = SEMANTIC_RULES.map((r) => `${r.contract}:${r.code}`);
    expect(keys.length - new Set(keys).size).toBe(0);
    const bundleKeys = BUNDLE_RULES.map((r) => `${r.bundle}:${r.code}`);
    expect(bundleKeys.length - new Set(bundleKeys).size).toBe(0);
  });

  it('every rule code is UPPER_SNAKE_CASE and names a spec section that exists', () => {
    for (const r of [...SEMANTIC_RULES, ...BUNDLE_RULES]) {
      expect(r.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      const file = r.specSection.split('#')[0]!;
      expect(existsSync(join(repo, file)), `${r.code}: ${r.specSection}`).toBe(true);
      expect(r.description.length, r.code).toBeGreaterThan(10);
    }
  });

  it('every semantic, bundle and digest code is produced by at least one invalid fixture', () => {
    const missing = [...SEMANTIC_RULES, ...BUNDLE_RULES]
      .map((r) => r.code)
      .concat(DIGEST_RULES.flatMap((r) => (r.code ? [r.code] : [])))
      .filter((code) => !produced.has(code));
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every code an invalid fixture expects is documented', () => {
    const unknown = [...produced.keys()].filter((code) => !documented.has(code));
    expect(unknown).toEqual([]);
  });
});
