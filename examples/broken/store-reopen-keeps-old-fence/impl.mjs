// A reopen does not invalidate the fence it consumed: a commit that still carries that fence and
// is refused with LIFECYCLE_STATE_FENCE_MISMATCH is retried with the current fence. The consumed
// fences are kept beside the durable state, so every process on the location honours them (the
// old holder is another process than the one that reopened).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refusalCode, runShim } from '../lib/shim.mjs';

const fenceKey = (f) => (f ? `${f.stateSequence}/${f.writerGeneration}` : '');
let file = null;
const consumed = () => (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []);

runShim({
  async reply(req, reply, ctx) {
    const request = req.params?.request;
    if (req.method === 'hello') {
      const location = req.params?.localDirectory ?? req.params?.stateLocation;
      file =
        typeof location === 'string' && !location.includes(':') ? join(location, 'mutant-fences.json') : null;
      return reply;
    }
    if (req.method === 'store.transitionOwner' && request?.operation === 'reopen' && reply.result) {
      if (file) writeFileSync(file, JSON.stringify([...consumed(), fenceKey(request.expectedFence)]));
      return reply;
    }
    if (!req.method.startsWith('store.commit') || !consumed().includes(fenceKey(request?.expectedFence)))
      return reply;
    if (refusalCode(reply) !== 'LIFECYCLE_STATE_FENCE_MISMATCH' || !reply.error.data.currentFence)
      return reply;
    const retried = await ctx.call(req.method, {
      ...req.params,
      request: { ...request, expectedFence: reply.error.data.currentFence },
    });
    return { ...retried, id: req.id };
  },
});
