// A fresh temporary directory for a test file, shared by the CLI's tests and test/integration.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-contracts-cli-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
