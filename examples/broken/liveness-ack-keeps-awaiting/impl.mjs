// A continuation acknowledgement does not end awaiting-continuation: where the reference moves
// an awaiting turn back to running and records continuationAckAt, the turn is put back
// (liveness.rehydrate) as awaiting and unacknowledged, so it still ages towards stalled.
import { runShim } from '../lib/shim.mjs';

let previous = null;

runShim({
  async reply(req, reply, ctx) {
    const state = reply.result?.state ?? (req.method === 'liveness.reset' ? reply.result : undefined);
    if (!state || typeof state !== 'object') return reply;
    const acknowledged =
      req.method === 'liveness.event' &&
      previous?.state === 'awaiting-continuation' &&
      state.state === 'running' &&
      state.continuationAckAt !== null &&
      state.continuationAckAt === state.lastEventAt;
    if (!acknowledged) {
      previous = state;
      return reply;
    }
    const unacknowledged = { ...state, state: 'awaiting-continuation', continuationAckAt: null };
    await ctx.call('liveness.rehydrate', { state: unacknowledged });
    previous = unacknowledged;
    return { ...reply, result: { ...reply.result, state: unacknowledged } };
  },
});
