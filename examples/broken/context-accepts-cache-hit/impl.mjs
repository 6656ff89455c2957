// A receipt engine that accepts a computation-cache hit as a delivery: the `cache` flag of a
// PostToolUse is dropped before the reference sees it, so a cached answer counts as a read body.
import { runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    const event = req.params?.event;
    if (req.method !== 'context.observe' || event?.event !== 'PostToolUse' || event.cache !== true)
      return req;
    const { cache: _cache, ...read } = event;
    return { ...req, params: { ...req.params, event: read } };
  },
});
