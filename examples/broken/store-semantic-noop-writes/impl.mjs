// A state commit that changes nothing still writes: where the reference answers semantic-noop,
// the commit is sent again with force, which writes a new envelope.
import { runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method !== 'store.commitState' || request?.force === true) return reply;
    if (reply.result?.status !== 'semantic-noop') return reply;
    const retried = await ctx.call(req.method, { ...req.params, request: { ...request, force: true } });
    return { ...retried, id: req.id };
  },
});
