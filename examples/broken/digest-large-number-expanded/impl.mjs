// Writes integers of 1e21 and above with all their digits instead of the exponent form
// ECMAScript and RFC 8785 section 3.2.2.3 require ("1e+21").
import { canonicalize, digestResult } from '../lib/jcs.mjs';
import { answer, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'digest' || !reply.result) return reply;
    const number = (n) =>
      Math.abs(n) >= 1e21 && Number.isInteger(n) ? BigInt(n).toString() : JSON.stringify(n);
    return answer(req, digestResult(canonicalize(JSON.parse(req.params.json), { number })));
  },
});
