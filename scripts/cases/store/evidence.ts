// The terminal evidence of the store cases: the conformance project root (its bytes and the four
// evidence items a terminal request names are CONFORMANCE_PROJECT and CONFORMANCE_EVIDENCE of
// @agent-contracts/harness/explore, as exploration names them), laid out in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CONFORMANCE_EVIDENCE,
  CONFORMANCE_PROJECT,
  type StoreEvidenceItem,
} from '@agent-contracts/harness/explore';

export type EvidenceItem = StoreEvidenceItem;
export const EVIDENCE: readonly EvidenceItem[] = CONFORMANCE_EVIDENCE;

/**
 * The projectRoot layout of docs/protocol.md#terminal-evidence, in a temporary directory: the
 * files of the conformance project root plus `closeout/outside.md`, a symbolic link to a regular
 * file outside that directory.
 */
export function conformanceProjectRoot(): { root: string; remove: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'store-cases-'));
  const root = join(base, 'project');
  for (const [path, text] of Object.entries(CONFORMANCE_PROJECT)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(base, 'outside.md'), 'outside the project root\n');
  symlinkSync('../../outside.md', join(root, 'closeout/outside.md'));
  return { root, remove: () => rmSync(base, { recursive: true, force: true }) };
}
