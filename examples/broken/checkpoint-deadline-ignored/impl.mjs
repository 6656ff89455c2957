// The post-execution deadline is ignored: checkpoint.validate runs as if the deadline were in a
// distant future, so a checkpoint past its deadline is never incomplete-timeout.
import { runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    if (req.method !== 'checkpoint.validate' || req.params?.deadlineAt == null) return req;
    return { ...req, params: { ...req.params, deadlineAt: '9999-12-31T23:59:59.999Z' } };
  },
});
