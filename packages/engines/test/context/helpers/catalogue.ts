// The project the context engine's unit tests plan against: `acme` at /srv/acme, its index
// (README.md), its configuration (config.json) and the documents a test gives, each with one
// profile ref. One place for the catalogue, so that the plan, receipt, reuse and ledger tests
// build the same one (docs/spec/context-acquisition-gate.md, "Planning through the protocol").
import type { ContextCatalogue, ContextDocumentInput } from '../../../src/index.ts';

export const ROOT = '/srv/acme';

/** Where a catalogue lives: its root and project, and the modification time of each of its refs. */
export interface Place {
  readonly root?: string;
  readonly project?: string;
  readonly mtimeMs?: number;
}

/** The profile ref of `file` under the place's root, with `over` on top. */
export const ref = (file: string, over: object = {}, at: Place = {}) => ({
  path: `${at.root ?? ROOT}/.agent/${file}`,
  layer: 'profile',
  exists: true,
  size: 10,
  mtimeMs: at.mtimeMs ?? 1795770410000,
  ...over,
});

/** A catalogued, inventoried, readable profile document serving `testing`, with `over` on top. */
export const documentOf = (
  file: string,
  over: Partial<ContextDocumentInput> = {},
  at: Place = {},
): ContextDocumentInput => ({
  file,
  catalogued: true,
  inventoried: true,
  kind: 'profile',
  readable: true,
  requiredToExist: false,
  serves: ['testing'],
  refs: [ref(file, {}, at)],
  ...over,
});

/** The catalogue of the place with `documents` (by default the one document `testing.md`). */
export const catalogueOf = (
  documents: ContextDocumentInput[] = [documentOf('testing.md')],
  at: Place = {},
): ContextCatalogue => ({
  activeRoot: at.root ?? ROOT,
  project: at.project ?? 'acme',
  index: { file: 'README.md', refs: [ref('README.md', {}, at)], body: { text: '# acme' } },
  config: {
    file: 'config.json',
    refs: [ref('config.json', {}, at)],
    body: { value: {}, contractVersion: 'profile-config@1' },
  },
  documents,
});
