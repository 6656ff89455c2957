// A re-delivered occurrence is answered as accepted: where the reference refuses an append with
// TRACE_DUPLICATE_EVENT, the reply is the existing event and the current trace.
import { answer, refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    if (req.method !== 'trace.append' || refusalCode(reply) !== 'TRACE_DUPLICATE_EVENT') return reply;
    const trace = (await ctx.call('trace.current', {})).result;
    const event = trace?.events?.find((e) => e.eventId === reply.error.data.eventId) ?? null;
    return answer(req, { trace, event, dropped: 0 });
  },
});
