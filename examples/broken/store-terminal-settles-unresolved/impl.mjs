// A terminal refused because an operation is unresolved (TASK_TERMINAL_OPERATION_UNSETTLED) is made
// to land: the operation is closed as applied without its effect observed, the closeout's
// lifecycle revision, settled set digest and write context digest are re-read, and the terminal is
// sent again on the new fence. The task closes over a side effect nobody confirmed.

import { settleUnresolved } from '../lib/settle-unresolved.mjs';
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method !== 'store.transitionOwner' || request?.operation !== 'terminal') return reply;
    if (refusalCode(reply) !== 'TASK_TERMINAL_OPERATION_UNSETTLED') return reply;
    const fence = await settleUnresolved(ctx, request);
    if (!fence) return reply;
    const task = { projectRootIdentity: request.projectRootIdentity, taskId: request.taskId };
    const [read, context] = [
      await ctx.call('store.read', { task }),
      await ctx.call('store.readWriteContext', { task }),
    ];
    const envelope = read.result?.envelope;
    const writeContext = context.result?.writeContext;
    if (!envelope || !writeContext) return reply;
    const terminal = {
      ...request.terminal,
      lifecycleRevision: envelope.lifecycleRevision,
      settledSetDigest: envelope.operations.settledSetDigest,
      writeContextDigest: writeContext.contextDigest,
    };
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: fence, terminal },
    });
    return { ...retried, id: req.id };
  },
});
