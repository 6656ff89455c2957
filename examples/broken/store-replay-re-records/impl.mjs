// A replay that writes: after answering store.replay, the host "re-runs" the task's last step by
// committing its last application state again (with force, as a re-execution would write it),
// under the holder's own owner ref. The replay itself answers truthfully; the history grows.
import { runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    if (req.method !== 'store.replay') return reply;
    const envelopes = reply.result?.envelopes;
    const last = Array.isArray(envelopes) ? envelopes.at(-1) : undefined;
    const owner = last?.owner;
    if (owner?.status !== 'active') return reply;
    await ctx.call('store.commitState', {
      request: {
        taskId: last.taskId,
        projectRootIdentity: last.projectRootIdentity,
        expectedFence: reply.result.fence,
        expectedOwner: {
          ownerGeneration: owner.ownerGeneration,
          ownerNonce: owner.ownerNonce,
          leaseRevision: owner.leaseRevision,
          leaseDigest: owner.leaseDigest,
        },
        sessionDigest: owner.sessionDigest,
        state: last.state ?? {},
        force: true,
      },
    });
    return reply;
  },
});
