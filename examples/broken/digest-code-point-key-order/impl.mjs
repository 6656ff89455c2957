// Sorts object keys by Unicode code point instead of UTF-16 code units (RFC 8785 section 3.2.3).
import { canonicalize, digestResult } from '../lib/jcs.mjs';
import { answer, runShim } from '../lib/shim.mjs';

const codePoints = (a, b) => {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

runShim({
  reply(req, reply) {
    if (req.method !== 'digest' || !reply.result) return reply;
    return answer(req, digestResult(canonicalize(JSON.parse(req.params.json), { compareKeys: codePoints })));
  },
});
