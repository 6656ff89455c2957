// An append after the terminal event is answered as accepted (nothing is written, but the
// caller is told it was): the refusal at step A3 becomes a reply with the current trace.
import { answer, refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    if (req.method !== 'trace.append' || refusalCode(reply) !== 'TRACE_TERMINAL_INVALID') return reply;
    if (reply.error.data.step !== 'A3') return reply;
    const trace = (await ctx.call('trace.current', {})).result;
    return answer(req, { trace, event: trace.events.at(-1), dropped: 0 });
  },
});
