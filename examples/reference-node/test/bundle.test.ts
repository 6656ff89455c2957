// @module-tag integration
// @module-tag slow
// The bundle the main job starts (scripts/bundle-reference.mjs): built from the sources, rebuilt
// only when an input changed, and the same implementation: the golden cases of the digest and store
// areas pass against it on SQLite, as they do against the sources.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCases, runSuite, startSubprocess } from '@agent-contracts/harness';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const conformanceDir = join(repo, 'conformance');
const script = join(repo, 'scripts/bundle-reference.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'reference-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bundle(...args: string[]): string {
  const r = spawnSync(process.execPath, [script, '--quiet', ...args], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.trim();
}

describe('the reference bundle', () => {
  it('is rebuilt only when an input changed, and names every input with its digest', () => {
    const main = bundle();
    expect(main).toBe(join(repo, 'examples/reference-node/dist/main.mjs'));
    const built = statSync(main).mtimeMs;
    expect(bundle()).toBe(main);
    expect(statSync(main).mtimeMs).toBe(built);
    const manifest = JSON.parse(readFileSync(join(repo, 'examples/reference-node/dist/bundle.json'), 'utf8'));
    expect(manifest.entry).toBe('examples/reference-node/src/main.ts');
    for (const input of [
      'examples/reference-node/src/handler.ts',
      'packages/store/src/open.ts',
      'packages/store/src/backends/sqlite.ts',
      'packages/validators/src/index.ts',
      'packages/store/package.json',
    ])
      expect(manifest.inputs[input]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('passes the digest and store cases on SQLite, as the sources do', async () => {
    const main = bundle();
    const cases = loadCases(conformanceDir).filter((c) => /^(digest|store)\//.test(c.id));
    expect(cases.length).toBeGreaterThan(300);
    const impl = await startSubprocess({ command: `node ${main}`, stateLocation: tmp });
    try {
      expect(impl.hello.name).toBe('agent-contracts reference (node)');
      const results = await runSuite(impl, cases, { conformanceDir, timeoutMs: 10_000, restartBudget: 0 });
      expect(results.filter((r) => r.outcome !== 'pass').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
    } finally {
      await impl.close();
    }
  });
});
