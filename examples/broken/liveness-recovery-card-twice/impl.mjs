// Two recovery cards for one notice key: where the reference emits no card because the turn's
// card was already emitted, the last card is emitted again.
import { runShim } from '../lib/shim.mjs';

let last = null;

runShim({
  reply(req, reply) {
    if (req.method !== 'liveness.event' && req.method !== 'liveness.watchdog') return reply;
    const result = reply.result ?? reply.error?.data;
    if (!result || !('card' in result)) return reply;
    if (result.card) {
      last = result.card;
      return reply;
    }
    const turnKey = result.state?.turnKey;
    if (!last || turnKey !== last.turnKey) return reply;
    if (reply.result) return { ...reply, result: { ...reply.result, card: last } };
    return reply;
  },
});
