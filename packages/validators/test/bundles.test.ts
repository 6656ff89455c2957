// @module-tag unit
// Every bundle of the conformance corpus (conformance/bundles/<kind>/{valid,invalid}) through
// validateBundle: valid bundles pass; invalid ones fail with the code their .expected.json records,
// at the recorded JSON Pointer. Generic over every kind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_KINDS, validateBundle } from '../src/index.ts';
import { repoRoot } from './helpers.ts';

interface BundleFile {
  kind: string;
  validity: 'valid' | 'invalid';
  name: string;
  bundle: { kind: string; documents: unknown[] };
  expected?: { kind: string; code: string; instancePath: string };
}

function listBundles(): BundleFile[] {
  const root = join(repoRoot, 'conformance/bundles');
  const out: BundleFile[] = [];
  if (!existsSync(root)) return out;
  for (const kind of readdirSync(root).sort()) {
    for (const validity of ['valid', 'invalid'] as const) {
      const dir = join(root, kind, validity);
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).sort()) {
        if (!file.endsWith('.json') || file.endsWith('.expected.json')) continue;
        const name = file.slice(0, -'.json'.length);
        const expectedPath = join(dir, `${name}.expected.json`);
        out.push({
          kind,
          validity,
          name,
          bundle: JSON.parse(readFileSync(join(dir, file), 'utf8')),
          ...(existsSync(expectedPath) ? { expected: JSON.parse(readFileSync(expectedPath, 'utf8')) } : {}),
        });
      }
    }
  }
  return out;
}

const bundles = listBundles();

describe('conformance bundles', () => {
  it('the corpus is not empty, and every folder is a known kind holding bundles of that kind', () => {
    expect(bundles.length).toBeGreaterThan(0);
    for (const b of bundles) {
      expect(BUNDLE_KINDS, `${b.kind}/${b.validity}/${b.name}`).toContain(b.kind);
      expect(b.bundle.kind).toBe(b.kind);
    }
  });

  for (const b of bundles) {
    const label = `${b.kind}/${b.validity}/${b.name}`;
    if (b.validity === 'valid') {
      it(`${label} is valid`, () => {
        const r = validateBundle(b.bundle);
        expect(r.ok ? [] : r.issues).toEqual([]);
        expect(r.kind).toBe(b.kind);
      });
    } else {
      it(`${label} fails with ${b.expected?.code} at "${b.expected?.instancePath}"`, () => {
        expect(b.expected, 'no .expected.json beside the bundle').toBeDefined();
        const r = validateBundle(b.bundle);
        expect(r.ok).toBe(false);
        if (r.ok) return;
        const hits = r.issues.filter(
          (i) => i.code === b.expected!.code && i.path === b.expected!.instancePath,
        );
        expect(hits, JSON.stringify(r.issues, null, 1)).not.toEqual([]);
      });
    }
  }
});
