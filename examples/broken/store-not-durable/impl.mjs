// Acknowledges commits that are not durable: the task store is kept in memory whatever location
// hello names, so every acknowledged commit is lost when the process dies.
import { runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    if (req.method !== 'hello' || typeof req.params?.stateLocation !== 'string') return req;
    const { stateLocation } = req.params;
    // Host-local state stays where it was; only the store moves to memory.
    return {
      ...req,
      params: {
        ...req.params,
        localDirectory: req.params.localDirectory ?? stateLocation,
        stateLocation: 'memory:',
      },
    };
  },
});
