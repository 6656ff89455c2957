// A fence mismatch names the wrong fence: where the reference refuses a stale commit with
// LIFECYCLE_STATE_FENCE_MISMATCH and the fence it read as `data.currentFence`, the refusal
// carries the caller's own stale `expectedFence` instead. The code is right; a client that
// retries with the fence the refusal names retries with the stale one again.
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    const expected = req.params?.request?.expectedFence;
    if (
      refusalCode(reply) !== 'LIFECYCLE_STATE_FENCE_MISMATCH' ||
      !expected ||
      !reply.error.data.currentFence
    )
      return reply;
    return { ...reply, error: { ...reply.error, data: { ...reply.error.data, currentFence: expected } } };
  },
});
