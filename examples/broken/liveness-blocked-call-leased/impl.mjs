// A lease is granted for a tool call the host blocked: liveness.lease refused with
// TURN_LEASE_NOT_HOST_ALLOWED is answered ok.
import { answer, refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'liveness.lease' || refusalCode(reply) !== 'TURN_LEASE_NOT_HOST_ALLOWED') return reply;
    return answer(req, { ok: true });
  },
});
