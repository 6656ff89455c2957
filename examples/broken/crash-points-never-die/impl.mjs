// Declares crash points but never dies at one: crash.arm is answered and nothing is armed.
import { answer, runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    if (req.method !== 'crash.arm') return req;
    return { reply: answer(req, { armed: req.params?.point, skip: req.params?.skip ?? 0 }) };
  },
});
