// A host key outside the turn layer's key format is not refused: where the reference refuses a
// UserPromptSubmit whose turnKey or taskTraceId breaks the format (TURN_KEY_INVALID,
// TURN_TRACE_ID_INVALID), the malformed member is dropped and the turn starts with a derived key.
import { runShim } from '../lib/shim.mjs';

const FORMAT = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,255}$/;

runShim({
  request(req) {
    const event = req.method === 'liveness.event' ? req.params?.event : undefined;
    if (event?.type !== 'UserPromptSubmit') return req;
    const { turnKey, taskTraceId, ...rest } = event;
    const kept = {
      ...rest,
      ...(typeof turnKey === 'string' && FORMAT.test(turnKey) ? { turnKey } : {}),
      ...(typeof taskTraceId === 'string' && FORMAT.test(taskTraceId) ? { taskTraceId } : {}),
    };
    return { ...req, params: { ...req.params, event: kept } };
  },
});
