// An owner transition refused because an operation is unresolved (TASK_OPERATION_UNSETTLED:
// release, handoff-prepare) is made to land: the operation is closed as applied without its
// effect observed, and the transition is sent again on the new fence. The next owner inherits a
// task whose last tool call nobody knows the outcome of.

import { settleUnresolved } from '../lib/settle-unresolved.mjs';
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method !== 'store.transitionOwner' || refusalCode(reply) !== 'TASK_OPERATION_UNSETTLED')
      return reply;
    const fence = await settleUnresolved(ctx, request);
    if (!fence) return reply;
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: fence },
    });
    return { ...retried, id: req.id };
  },
});
