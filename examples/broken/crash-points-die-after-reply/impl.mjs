// Dies after the reply instead of at the crash point: an armed point is not armed in the
// reference; the commit that would reach it completes, is acknowledged, and only then is the
// process killed (SIGKILL). At commit-before-write the commit is durable; at commit-after-write
// the harness is told of a commit it must treat as in doubt.
import { answer, runShim } from '../lib/shim.mjs';

const COMMITS = new Set(['store.commitState', 'store.commitOperation', 'store.transitionOwner']);
let armed = null;

runShim({
  request(req) {
    if (req.method !== 'crash.arm') return req;
    const skip = req.params?.skip ?? 0;
    armed = { skip };
    return { reply: answer(req, { armed: req.params?.point, skip }) };
  },
  reply(req, reply, ctx) {
    if (!armed || !COMMITS.has(req.method) || !reply.result || reply.result.status === 'semantic-noop')
      return reply;
    if (armed.skip > 0) {
      armed.skip -= 1;
      return reply;
    }
    armed = null;
    process.stdout.write(`${JSON.stringify(reply)}\n`, () => ctx.die());
    return new Promise(() => {});
  },
});
