// Reads a repeated member name last-wins, as JSON.parse does, instead of refusing the text with
// DIGEST_INPUT_INVALID (RFC 7493 section 2.3: I-JSON objects do not repeat names; a reader that
// keeps the first value would digest another document).
import { canonicalize, digestResult } from '../lib/jcs.mjs';
import { answer, refusalCode, runShim } from '../lib/shim.mjs';

runShim({
  reply(req, reply) {
    if (req.method !== 'digest' || refusalCode(reply) !== 'DIGEST_INPUT_INVALID') return reply;
    let value;
    try {
      value = JSON.parse(req.params.json);
      return answer(req, digestResult(canonicalize(value)));
    } catch {
      return reply;
    }
  },
});
