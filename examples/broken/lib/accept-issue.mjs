// The validator mutants: a document (or bundle) whose only errors carry one rule code is
// answered as valid. Every other verdict is the reference's own.
import { answer, runShim } from './shim.mjs';

/**
 * Run the reference with `method` ('validate' or 'validateBundle') blind to rule `code`.
 *
 * @param {'validate' | 'validateBundle'} method
 * @param {string} code
 */
export function acceptIssue(method, code) {
  runShim({
    reply(req, reply) {
      if (req.method !== method || reply.result?.ok !== false) return reply;
      const issues = reply.result.issues ?? [];
      if (issues.length === 0 || !issues.every((i) => i.code === code)) return reply;
      return answer(req, { ok: true, issues: [] });
    },
  });
}
