// Serialises -0 as "-0" instead of "0" (RFC 8785 section 3.2.2.3, ECMAScript Number::toString).
import { canonicalize, digestResult } from '../lib/jcs.mjs';
import { answer, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'digest' || !reply.result) return reply;
    const number = (n) => (Object.is(n, -0) ? '-0' : JSON.stringify(n));
    return answer(req, digestResult(canonicalize(JSON.parse(req.params.json), { number })));
  },
});
