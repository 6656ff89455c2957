// A continuation acknowledgement does not end awaiting-continuation: where the reference moves
// an awaiting turn back to running and records continuationAckAt, the turn is put back
// (liveness.rehydrate) as awaiting and unacknowledged, so it still ages towards stalled. Used by
// examples/broken/liveness-ack-keeps-awaiting and, as its behaviour bug, examples/legacy-shaped.

/** A reply hook of runShim (shim.mjs) with the bug; one per process (it remembers the last state). */
export function ackKeepsAwaiting() {
  let previous = null;
  return async (req, reply, ctx) => {
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
  };
}
