// The release step of the spec's contracts: records every contract of schemas/index.json in
// schemas/released.json with the given version. A contract already released and unchanged keeps
// its version; a changed one (the gate allowed only editorial or compatible changes) and a new
// one get <version>. Usage: pnpm schemas:release <version> [--root <dir>]
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  MANIFEST_COMMENT,
  ManifestError,
  type ReleasedContract,
  readManifest,
  sha256,
  workingContracts,
} from '../lib/released-schemas.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { root: { type: 'string' } },
});
const version = positionals[0];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: pnpm schemas:release <major.minor.patch> [--root <dir>]');
  process.exit(2);
}
const root = resolve(values.root ?? fileURLToPath(new URL('../..', import.meta.url)));
const manifestFile = join(root, 'schemas/released.json');
try {
  const manifest = readManifest(manifestFile);
  const contracts: Record<string, ReleasedContract> = {};
  let changed = 0;
  for (const [name, c] of [...workingContracts(root)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (c.text === null) {
      console.error(`schemas:release: ${c.file} is missing; run pnpm schemas:generate`);
      process.exit(1);
    }
    const hash = sha256(c.text);
    const before = manifest.contracts[name];
    if (before && before.sha256 === hash) contracts[name] = before;
    else {
      changed++;
      contracts[name] = { version, $id: c.$id, file: c.file, sha256: hash, schema: JSON.parse(c.text) };
    }
  }
  for (const name of Object.keys(manifest.contracts))
    if (!contracts[name]) {
      console.error(
        `schemas:release: released contract ${name} is gone from schemas/index.json; released contracts stay`,
      );
      process.exit(1);
    }
  writeFileSync(manifestFile, `${JSON.stringify({ $comment: MANIFEST_COMMENT, contracts }, null, 2)}\n`);
  console.log(`schemas/released.json: ${Object.keys(contracts).length} contracts, ${changed} at ${version}`);
} catch (e) {
  if (e instanceof ManifestError) {
    console.error(`schemas:release: ${e.code}: ${e.message}`);
    process.exit(2);
  }
  throw e;
}
