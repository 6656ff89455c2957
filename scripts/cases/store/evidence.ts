// The terminal evidence of the store cases: the bytes of the conformance project root, the four
// evidence items a terminal request names, and that root laid out in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sha256 } from './names.ts';

/**
 * The conformance project root (docs/protocol.md#terminal-evidence): terminal evidence paths of
 * every store case are resolved against a directory holding exactly these bytes, plus
 * `closeout/outside.md`, a symbolic link to a regular file outside that directory.
 */
export const CONFORMANCE_EVIDENCE: Readonly<Record<string, string>> = {
  'closeout/change-record.md': 'Change record: the conformance task wrote only its own store entries.\n',
  'closeout/completion.md': 'Completion: every step of the conformance task finished.\n',
  'closeout/memory.md': 'Memory: nothing from the conformance task needs to be remembered.\n',
  'closeout/report.md': 'Report: the conformance task is complete.\n',
};

const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;
export type EvidenceItem = { role: string; path: string; sha256: string; bytes: number };
export const EVIDENCE: EvidenceItem[] = EVIDENCE_ROLES.map((role) => {
  const path = `closeout/${role}.md`;
  const text = CONFORMANCE_EVIDENCE[path] as string;
  return { role, path, sha256: sha256(text), bytes: Buffer.byteLength(text) };
});

/** The projectRoot layout of docs/protocol.md#terminal-evidence, in a temporary directory. */
export function conformanceProjectRoot(): { root: string; remove: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'store-cases-'));
  const root = join(base, 'project');
  for (const [path, text] of Object.entries(CONFORMANCE_EVIDENCE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(base, 'outside.md'), 'outside the project root\n');
  symlinkSync('../../outside.md', join(root, 'closeout/outside.md'));
  return { root, remove: () => rmSync(base, { recursive: true, force: true }) };
}
