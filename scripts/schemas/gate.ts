// pnpm schemas:gate: the working schemas against schemas/released.json, through schema-diff's
// classifier (compareSchemas). For every released contract:
//   identical, editorial        pass;
//   compatible                  passes only with a pending changeset of at least a minor bump
//                               of @agent-contracts/schemas (which publishes the schema files);
//   breaking                    fails: a released contract is frozen, the new shape is a new
//                               contract name (...V3) beside it;
//   gone                        fails: a released contract stays readable.
// Contracts not yet released are not gated here (the changeset check covers them).
// Exit 0 pass, 1 fail, 2 unreadable manifest or schemas. Codes: docs/releasing.md.
// Usage: pnpm schemas:gate [--root <dir>]
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareSchemas } from '@agent-contracts/schemas';
import { atLeast, pendingBumps } from '../lib/changeset-bumps.js';
import { ManifestError, readManifest, sha256, workingContracts } from '../lib/released-schemas.js';

const SCHEMAS_PACKAGE = '@agent-contracts/schemas';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? fileURLToPath(new URL('../..', import.meta.url)));

let manifest: ReturnType<typeof readManifest>;
let working: ReturnType<typeof workingContracts>;
try {
  manifest = readManifest(join(root, 'schemas/released.json'));
  working = workingContracts(root);
} catch (e) {
  const code = e instanceof ManifestError ? e.code : 'SCHEMAS_UNREADABLE';
  console.error(`schemas:gate: ${code}: ${(e as Error).message}`);
  process.exit(2);
}

const bump = (await pendingBumps(root)).get(SCHEMAS_PACKAGE) ?? 'none';
const failures: string[] = [];
const counts = { identical: 0, editorial: 0, compatible: 0 };
for (const [name, released] of Object.entries(manifest.contracts).sort(([a], [b]) => (a < b ? -1 : 1))) {
  const now = working.get(name);
  if (!now || now.text === null) {
    failures.push(
      `SCHEMA_RELEASED_REMOVED: ${name} (released ${released.version}) is gone; a released contract stays readable beside its successor.`,
    );
    continue;
  }
  if (sha256(now.text) === released.sha256) {
    counts.identical++;
    continue;
  }
  const { compatibility, changes } = compareSchemas(released.schema, JSON.parse(now.text));
  const where = changes
    .filter((c) => c.kind !== 'editorial')
    .slice(0, 5)
    .map((c) => `${c.path || '/'} (${c.kind}: ${c.message})`)
    .join('; ');
  if (compatibility === 'breaking')
    failures.push(
      `SCHEMA_RELEASED_BREAKING: ${name} (released ${released.version}) changed incompatibly at ${where}. Released contracts are frozen: revert it and add the new shape as a new contract (e.g. ${name.replace(/V(\d+)$/, (_, n) => `V${Number(n) + 1}`)}) beside it.`,
    );
  else if (compatibility === 'compatible' && !atLeast(bump, 'minor'))
    failures.push(
      `SCHEMA_RELEASED_NEEDS_CHANGESET: ${name} (released ${released.version}) widened at ${where}; that needs a changeset with at least a minor bump of ${SCHEMAS_PACKAGE} (pending: ${bump}). Run \`pnpm changeset\`.`,
    );
  else counts[compatibility === 'compatible' ? 'compatible' : 'editorial']++;
}
for (const f of failures) console.error(`schemas:gate: ${f}`);
console.log(
  `schemas:gate: ${Object.keys(manifest.contracts).length} released contracts: ${counts.identical} identical, ${counts.editorial} editorial, ${counts.compatible} compatible with a minor changeset, ${failures.length} failing`,
);
process.exit(failures.length ? 1 : 0);
