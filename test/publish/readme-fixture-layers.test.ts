// @module-tag integration
// The README's recipe for other languages counts the invalid fixtures a plain JSON Schema
// validator can judge (layer "schema") and those that need the semantic rules (layer
// "semantic"); the counts follow the fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/packed-project.js';

describe('README: fixture layers', () => {
  it('names as many schema-layer and semantic-layer fixtures as conformance/fixtures holds', () => {
    const fixtures = join(repoRoot, 'conformance/fixtures');
    const layers = new Map<string, number>();
    for (const contract of readdirSync(fixtures, { withFileTypes: true }).filter((d) => d.isDirectory()))
      for (const f of readdirSync(join(fixtures, contract.name, 'invalid')).filter((n) =>
        n.endsWith('.expected.json'),
      )) {
        const layer = JSON.parse(readFileSync(join(fixtures, contract.name, 'invalid', f), 'utf8'))
          .layer as string;
        layers.set(layer, (layers.get(layer) ?? 0) + 1);
      }
    expect([...layers.keys()].sort()).toEqual(['schema', 'semantic']);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(`\`"layer": "schema"\` (${layers.get('schema')} documents)`);
    expect(readme).toContain(`\`"layer": "semantic"\` (${layers.get('semantic')} documents)`);
  });
});
