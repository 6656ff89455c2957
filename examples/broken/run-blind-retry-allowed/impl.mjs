// A run controller that lets a blind retry through: a retry of an unknown-outcome call refused
// with RUN_TOOL_CALL_BLIND_RETRY is asked again as if a query had found no effect, and the answer
// is handed back with the original (unqueried) call: the retry is made without a query.
import { reseal } from '../lib/run-state.mjs';
import { refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  async reply(req, reply, ctx) {
    if (req.method !== 'run.step' || refusalCode(reply) !== 'RUN_TOOL_CALL_BLIND_RETRY') return reply;
    const { state, event } = req.params;
    const i = state.toolCalls.findIndex((c) => c.callId === event.retryOf);
    if (i < 0) return reply;
    const original = state.toolCalls[i];
    const toolCalls = state.toolCalls.map((c, j) =>
      j === i ? { ...c, query: { queriedAt: state.updatedAt, resolution: 'no-effect' } } : c,
    );
    const again = await ctx.call('run.step', { state: reseal({ ...state, toolCalls }), event });
    if (!again.result) return reply;
    const next = again.result.state;
    const restored = next.toolCalls.map((c, j) => (j === i ? original : c));
    return {
      ...again,
      id: req.id,
      result: { ...again.result, state: reseal({ ...next, toolCalls: restored }) },
    };
  },
});
