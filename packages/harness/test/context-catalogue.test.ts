// @module-tag unit
// The one source catalogue of the context requests (src/explore/context-catalogue.ts): the golden
// cases plan against it exactly, so a copy of it in the generator that drifts fails here.
import { fileURLToPath } from 'node:url';
import type { ContextCatalogue } from '@agent-contracts/engines';
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_CATALOGUE,
  contextCatalogueWith,
  contextCatalogueWithRefs,
  contextDocument,
  contextRef,
} from '../src/explore/index.ts';
import { loadCases } from '../src/index.ts';

const conformanceDir = fileURLToPath(new URL('../../../conformance/', import.meta.url));

describe('the context catalogue', () => {
  it('is the catalogue of every context.plan of the golden cases', () => {
    const plans = loadCases(conformanceDir)
      .filter((c) => c.id.startsWith('context/'))
      .flatMap((c) => c.steps.filter((s) => s.method === 'context.plan'));
    expect(plans.length).toBeGreaterThan(10);
    // A case may give a document more refs (contextCatalogueWithRefs: a source of several
    // layers) and the catalogue more documents (contextCatalogueWith: the case's own, after the
    // catalogue's); the catalogue's own documents and refs come first, the rest is the catalogue
    // exactly.
    const own = (catalogue: ContextCatalogue) => ({
      ...catalogue,
      documents: catalogue.documents.slice(0, CONTEXT_CATALOGUE.documents.length).map((d, i) => ({
        ...d,
        refs: d.refs.slice(0, CONTEXT_CATALOGUE.documents[i]?.refs.length ?? 0),
      })),
    });
    for (const step of plans)
      expect(own((step.params as { catalogue: ContextCatalogue }).catalogue)).toEqual(CONTEXT_CATALOGUE);
  });

  it('gives a document more refs after its own, the rest unchanged', () => {
    const shared = { ...contextRef('testing.md'), layer: 'profile-shared' };
    const more = contextCatalogueWithRefs('testing.md', shared);
    expect(more.documents[0]?.refs).toEqual([contextRef('testing.md'), shared]);
    expect({
      ...more,
      documents: [{ ...more.documents[0], refs: [contextRef('testing.md')] }, more.documents[1]],
    }).toEqual(CONTEXT_CATALOGUE);
  });

  it('is extended with documents after its own, the rest unchanged', () => {
    const more = contextDocument('security.md', ['security']);
    const extended = contextCatalogueWith(more);
    expect(extended.documents.map((d) => d.file)).toEqual(['testing.md', 'release.md', 'security.md']);
    expect({ ...extended, documents: CONTEXT_CATALOGUE.documents }).toEqual(CONTEXT_CATALOGUE);
    expect(CONTEXT_CATALOGUE.documents).toHaveLength(2);
  });
});
