// schemas/released.json: the manifest of released contracts. Each entry names the contract's
// release version (the spec's, never an npm version), its $id and file, the sha256 of the
// released schema file and the released schema itself, so the gate can classify a change
// against it without git history. Written by scripts/schemas/release.ts, read by the gate.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReleasedContract {
  readonly version: string;
  readonly $id: string;
  readonly file: string;
  readonly sha256: string;
  readonly schema: Record<string, unknown>;
}

export interface ReleasedManifest {
  readonly $comment: string;
  readonly contracts: Record<string, ReleasedContract>;
}

export const MANIFEST_COMMENT =
  'Written by `pnpm schemas:release <version>`; do not edit. Released contracts are frozen: `pnpm schemas:gate` fails a breaking change to any of them (docs/releasing.md).';

/** How the generator writes a schema file; its sha256 is over exactly these bytes. */
export const schemaText = (schema: unknown): string => `${JSON.stringify(schema, null, 2)}\n`;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export class ManifestError extends Error {
  constructor(
    readonly code: 'RELEASED_MANIFEST_INVALID',
    message: string,
  ) {
    super(message);
  }
}

/** Reads and checks a manifest: every entry complete, and its schema matching its sha256. */
export function readManifest(file: string): ReleasedManifest {
  if (!existsSync(file)) return { $comment: MANIFEST_COMMENT, contracts: {} };
  let data: ReleasedManifest;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as ReleasedManifest;
  } catch (e) {
    throw new ManifestError('RELEASED_MANIFEST_INVALID', `${file} is not JSON: ${(e as Error).message}`);
  }
  if (!data || typeof data !== 'object' || typeof data.contracts !== 'object' || data.contracts === null)
    throw new ManifestError('RELEASED_MANIFEST_INVALID', `${file} has no "contracts" object`);
  for (const [name, entry] of Object.entries(data.contracts)) {
    for (const field of ['version', '$id', 'file', 'sha256'] as const)
      if (typeof entry?.[field] !== 'string')
        throw new ManifestError('RELEASED_MANIFEST_INVALID', `${file}: ${name} has no "${field}"`);
    if (sha256(schemaText(entry.schema)) !== entry.sha256)
      throw new ManifestError(
        'RELEASED_MANIFEST_INVALID',
        `${file}: the schema recorded for ${name} does not hash to its sha256; the manifest was edited by hand. Restore it from git.`,
      );
  }
  return data;
}

/** The contracts of a schemas directory, from its index.json: name -> { $id, file, text }. */
export function workingContracts(
  root: string,
): Map<string, { $id: string; file: string; text: string | null }> {
  const index = JSON.parse(readFileSync(join(root, 'schemas/index.json'), 'utf8')) as {
    schemas: { name: string; $id: string; file: string }[];
  };
  const out = new Map<string, { $id: string; file: string; text: string | null }>();
  for (const s of index.schemas) {
    const path = join(root, s.file);
    out.set(s.name, { $id: s.$id, file: s.file, text: existsSync(path) ? readFileSync(path, 'utf8') : null });
  }
  return out;
}
