// A reopen does not invalidate the fence it consumed: a commit that still carries that fence and
// is refused with LIFECYCLE_STATE_FENCE_MISMATCH is retried with the current fence.
import { refusalCode, runShim } from '../lib/shim.mjs';

const fenceKey = (f) => (f ? `${f.stateSequence}/${f.writerGeneration}` : '');
const consumed = new Set();

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method === 'store.transitionOwner' && request?.operation === 'reopen' && reply.result) {
      consumed.add(fenceKey(request.expectedFence));
      return reply;
    }
    if (!req.method.startsWith('store.commit') || !consumed.has(fenceKey(request?.expectedFence)))
      return reply;
    if (refusalCode(reply) !== 'LIFECYCLE_STATE_FENCE_MISMATCH' || !reply.error.data.currentFence)
      return reply;
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: reply.error.data.currentFence },
    });
    return { ...retried, id: req.id };
  },
});
