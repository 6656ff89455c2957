// @module-tag unit
// checkTerminalEvidence: the message of a refused path is bounded whatever the path's length (the
// path is the caller's, untrusted); the path checks themselves are golden cases
// (store/terminal/evidence-*).
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { checkTerminalEvidence } from '../../src/task-continuity/index.js';

const SHA = 'a'.repeat(64);
const items = (reportPath: string): TaskTerminalEvidenceItemV1[] =>
  (['change-record', 'completion', 'memory', 'report'] as const).map((role) => ({
    role,
    path: role === 'report' ? reportPath : `closeout/${role}.md`,
    sha256: SHA,
    bytes: 1,
  }));

describe('checkTerminalEvidence', () => {
  it('refuses a 10 MB path without repeating it whole in the message', () => {
    const path = `closeout/${'x'.repeat(10 * 1024 * 1024)}`;
    const r = checkTerminalEvidence(items(path));
    expect(r).toMatchObject({ ok: false, code: 'TASK_TERMINAL_EVIDENCE_PATH_INVALID' });
    expect(r.ok ? '' : r.message.length).toBeLessThan(500);
    expect(r.ok ? '' : r.message).toContain(JSON.stringify(path.slice(0, 200)));
  });
});
