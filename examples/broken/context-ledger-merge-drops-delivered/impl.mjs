// An observation ledger whose write replaces the stored set with the writer's snapshot: a writer
// holding an older snapshot, writing last, drops the records delivered after it was taken.
import { runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    const snapshot = req.params?.snapshot;
    const ledger = reply.result?.ledger;
    if (req.method !== 'context.ledger' || req.params?.op !== 'write' || !snapshot || !ledger) return reply;
    const observations = snapshot.observations;
    return { ...reply, result: { ...reply.result, ledger: { ...ledger, observations } } };
  },
});
