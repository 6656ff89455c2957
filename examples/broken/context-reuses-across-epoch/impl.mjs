// A reuse decider that ignores the context epoch: a delivery refused only because the prior
// receipt is of another epoch is granted, as a runtime that reuses yesterday's reads.
import { runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    const decision = reply.result?.decision;
    if (req.method !== 'context.reuse' || decision?.delivery?.reasonCode !== 'context-epoch-mismatch')
      return reply;
    const delivery = { reuse: true, reasonCode: 'same-session-epoch-content-observed' };
    return { ...reply, result: { ...reply.result, decision: { ...decision, delivery } } };
  },
});
