// The source catalogue of the `context.*` requests the kit sends: the golden cases of the
// ContextAcquisitionGate (scripts/cases/context.ts) and the exploration of the context capability
// (./capabilities/context.ts) plan against this project, so a change here changes both.
import type { ContextCatalogue } from '@agent-contracts/engines';

/** The active root of the catalogue's project. */
export const CONTEXT_ROOT = '/srv/acme';

/** The live reference of a profile file of the project. */
export const contextRef = (file: string) => ({
  path: `${CONTEXT_ROOT}/.agent/${file}`,
  layer: 'profile',
  exists: true,
  size: 42,
  mtimeMs: 1795770410000,
});

/** The live reference of the project's memory source `memory:status`. */
export const CONTEXT_MEMORY_REF = {
  path: 'memory://acme/status',
  layer: 'memory-query',
  exists: true,
  size: null,
  mtimeMs: null,
};

/** A catalogued, inventoried, readable profile document serving `serves`. */
export const contextDocument = (file: string, serves: string[], over: object = {}) => ({
  file,
  catalogued: true,
  inventoried: true,
  kind: 'profile',
  readable: true,
  requiredToExist: false,
  serves,
  refs: [contextRef(file)],
  ...over,
});

/** The project `acme`: its index, its config and two documents (`testing.md`, `release.md`). */
export const CONTEXT_CATALOGUE: ContextCatalogue = {
  activeRoot: CONTEXT_ROOT,
  project: 'acme',
  index: {
    file: 'README.md',
    refs: [contextRef('README.md')],
    body: { text: '# acme\n\nThe billing service.\n' },
  },
  config: {
    file: 'config.json',
    refs: [contextRef('config.json')],
    body: { value: { language: 'typescript' }, contractVersion: 'profile-config@1' },
  },
  documents: [contextDocument('testing.md', ['testing']), contextDocument('release.md', ['release'])],
} as unknown as ContextCatalogue;

/** The catalogue with `documents` added after its own. */
export const contextCatalogueWith = (...documents: object[]): ContextCatalogue =>
  ({
    ...CONTEXT_CATALOGUE,
    documents: [...CONTEXT_CATALOGUE.documents, ...documents],
  }) as unknown as ContextCatalogue;

/** The catalogue with `refs` added after the own ref of its document `file` (a source of several layers). */
export const contextCatalogueWithRefs = (file: string, ...refs: object[]): ContextCatalogue =>
  ({
    ...CONTEXT_CATALOGUE,
    documents: CONTEXT_CATALOGUE.documents.map((d) =>
      d.file === file ? { ...d, refs: [...d.refs, ...refs] } : d,
    ),
  }) as unknown as ContextCatalogue;
