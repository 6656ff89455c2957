// The evidence of a terminal closeout: the pure checks of the page, in its order (the file
// checks are the store's).
import type { TaskTerminalEvidenceItemV1 } from '@agent-contracts/schemas';
import { fail, type TaskCheckResult } from './result.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the schema's evidence path pattern excludes control characters on purpose.
const EVIDENCE_PATH = /^(?!\.\.?(?:\/|$))[^/\\\x00-\x1f]+(?:\/(?!\.\.?(?:\/|$))[^/\\\x00-\x1f]+)*$/;

const EVIDENCE_ROLES = ['change-record', 'completion', 'memory', 'report'] as const;

/** The pure evidence checks of terminal closeout, in the page's order. */
export function checkTerminalEvidence(evidence: readonly TaskTerminalEvidenceItemV1[]): TaskCheckResult {
  const roles = evidence.map((i) => i.role);
  if (roles.length !== 4 || roles.some((r, i) => r !== EVIDENCE_ROLES[i])) {
    return fail(
      'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
      `Evidence must be exactly one item per role, sorted: ${EVIDENCE_ROLES.join(', ')}; provide the missing evidence.`,
    );
  }
  if (new Set(evidence.map((i) => i.path)).size !== evidence.length) {
    return fail(
      'TASK_TERMINAL_EVIDENCE_DUPLICATE',
      'Two evidence items name the same path; one file per role.',
    );
  }
  for (const item of evidence) {
    if (item.path.length > 1024 || !EVIDENCE_PATH.test(item.path)) {
      return fail(
        'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
        `Evidence path ${JSON.stringify(item.path.slice(0, 200))} is not a normalised relative path of at most 1024 characters; use "/"-separated segments without "", "." or "..".`,
      );
    }
  }
  return { ok: true };
}
