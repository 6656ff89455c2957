// @module-tag unit
// The one source catalogue of the context requests (src/explore/context-catalogue.ts): the golden
// cases plan against it exactly, so a copy of it in the generator that drifts fails here.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTEXT_CATALOGUE, contextCatalogueWith, contextDocument } from '../src/explore/index.ts';
import { loadCases } from '../src/index.ts';

const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));

describe('the context catalogue', () => {
  it('is the catalogue of every context.plan of the golden cases', () => {
    const plans = loadCases(conformanceDir)
      .filter((c) => c.id.startsWith('context/'))
      .flatMap((c) => c.steps.filter((s) => s.method === 'context.plan'));
    expect(plans.length).toBeGreaterThan(10);
    for (const step of plans)
      expect((step.params as { catalogue: unknown }).catalogue).toEqual(CONTEXT_CATALOGUE);
  });

  it('is extended with documents after its own, the rest unchanged', () => {
    const more = contextDocument('security.md', ['security']);
    const extended = contextCatalogueWith(more);
    expect(extended.documents.map((d) => d.file)).toEqual(['testing.md', 'release.md', 'security.md']);
    expect({ ...extended, documents: CONTEXT_CATALOGUE.documents }).toEqual(CONTEXT_CATALOGUE);
    expect(CONTEXT_CATALOGUE.documents).toHaveLength(2);
  });
});
