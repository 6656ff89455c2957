// Accepts strings with lone surrogates (escaping them as \udxxx) instead of refusing them with
// DIGEST_INPUT_INVALID (D-GEN-01: values that are not plain JSON are refused, never coerced).
import { canonicalize, digestResult } from '../lib/jcs.mjs';
import { answer, refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'digest' || refusalCode(reply) !== 'DIGEST_INPUT_INVALID') return reply;
    let value;
    try {
      value = JSON.parse(req.params.json);
    } catch {
      return reply;
    }
    return answer(req, digestResult(canonicalize(value)));
  },
});
