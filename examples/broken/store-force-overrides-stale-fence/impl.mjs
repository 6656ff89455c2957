// `force: true` overrides a stale fence: a forced commit refused with LIFECYCLE_STATE_FENCE_MISMATCH
// is retried with the current fence the refusal carries, so it lands on top of whatever won.
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method !== 'store.commitState' || request?.force !== true) return reply;
    if (refusalCode(reply) !== 'LIFECYCLE_STATE_FENCE_MISMATCH' || !reply.error.data.currentFence)
      return reply;
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: reply.error.data.currentFence },
    });
    return { ...retried, id: req.id };
  },
});
