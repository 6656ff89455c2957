// A replay claims it may execute: every flag of its capability boundary is true, where the spec
// fixes them all false (a replay is a data projection that executes nothing).
import { runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    const boundary = reply.result?.capabilityBoundary;
    if (req.method !== 'trace.replay' || !boundary) return reply;
    const claimed = Object.fromEntries(Object.keys(boundary).map((k) => [k, true]));
    return { ...reply, result: { ...reply.result, capabilityBoundary: claimed } };
  },
});
