// A receipt engine that counts a PreToolUse as a read: after an attempt, the reply claims every
// attempted source satisfied, as a runtime that reports "context loaded" once a read was started.
import { runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    const event = req.params?.event;
    const receipt = reply.result?.receipt;
    if (req.method !== 'context.observe' || event?.event !== 'PreToolUse' || !receipt) return reply;
    const attempted = new Set(event.sourceIds ?? []);
    const satisfied = [...new Set([...receipt.satisfiedSourceIds, ...attempted])].sort();
    const missing = receipt.missingSourceIds.filter((s) => !attempted.has(s));
    const status = missing.length === 0 ? 'relevant-complete' : receipt.status;
    return {
      ...reply,
      result: {
        ...reply.result,
        receipt: { ...receipt, satisfiedSourceIds: satisfied, missingSourceIds: missing, status },
      },
    };
  },
});
