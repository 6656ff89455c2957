// A prepare refused because another operation is unresolved (TASK_OPERATION_IN_FLIGHT) is made to
// land: the unresolved operation is closed as applied without its effect observed, and the prepare
// is sent again on the new fence. Two tool calls are in flight as far as the world knows.

import { settleUnresolved } from '../lib/settle-unresolved.mjs';
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method !== 'store.commitOperation' || request?.event?.event !== 'prepare') return reply;
    if (refusalCode(reply) !== 'TASK_OPERATION_IN_FLIGHT') return reply;
    const fence = await settleUnresolved(ctx, request);
    if (!fence) return reply;
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: fence },
    });
    return { ...retried, id: req.id };
  },
});
