// Non-terminal evidence counts as post-execution evidence: a tool-output item (PostToolUse) is
// taken for a host terminal event that completed the turn.
import { runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    if (req.method !== 'checkpoint.validate' || !Array.isArray(req.params?.evidence)) return req;
    const evidence = req.params.evidence.map((e) =>
      e?.kind === 'tool-output' ? { ...e, kind: 'host-terminal-event', terminalStatus: 'completed' } : e,
    );
    return { ...req, params: { ...req.params, evidence } };
  },
});
