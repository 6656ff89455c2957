// The terminal event is appended but the trace keeps status open and no completedAt: the trace
// reported after a TurnTerminal event says the turn never ended.
import { runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'trace.append' && req.method !== 'trace.close') return reply;
    const trace = reply.result?.trace;
    if (!trace || trace.status === 'open') return reply;
    return { ...reply, result: { ...reply.result, trace: { ...trace, status: 'open', completedAt: null } } };
  },
});
