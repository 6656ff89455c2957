// A runtime built before the spec: the reference implementation (examples/reference-node) behind
// protocol v1, its documents rewritten in an older shape, with one behaviour bug of its own. It is
// what an existing agent host with a thin adapter looks like to the kit (issue 21), and the kit's
// output must name its behaviour bug by pointer through the broken shape.
//
// The older shape, applied to every result and refusal `data` on the way out:
// - `schemaVersion` is a number (`"TurnLivenessStateV1"` is sent as `1`);
// - `null` is sent as `""`;
// - the digest member `taskOperationSetDigest` is missing.
// The behaviour bug: a continuation acknowledgement does not end awaiting-continuation (the turn
// is put back as awaiting and unacknowledged, so it still ages towards stalled).
//
// `--shape=current` keeps the documents in their current shape (the bug alone): the control that
// tells which cases differ in behaviour. Requests pass through unchanged. Nothing of the
// reference is copied: it runs as a child behind examples/broken/lib/shim.mjs.
import { ackKeepsAwaiting } from '../broken/lib/ack-keeps-awaiting.mjs';
import { runShim } from '../broken/lib/shim.mjs';

const legacyShape = !process.argv.includes('--shape=current');

/** The dropped digest member. */
const DROPPED = 'taskOperationSetDigest';

/** A value in the older shape. */
function toLegacy(value) {
  if (value === null) return '';
  if (Array.isArray(value)) return value.map(toLegacy);
  if (typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === DROPPED) continue;
    const version = k === 'schemaVersion' && typeof v === 'string' ? /V(\d+)$/.exec(v) : null;
    out[k] = version ? Number(version[1]) : toLegacy(v);
  }
  return out;
}

/** The behaviour bug, on the reply in its current shape. */
const bug = ackKeepsAwaiting();

runShim({
  async reply(req, reply, ctx) {
    const buggy = await bug(req, reply, ctx);
    // hello and shutdown are the adapter's own: only the documents are in the older shape.
    if (!legacyShape || req.method === 'hello' || req.method === 'shutdown') return buggy;
    if (Object.hasOwn(buggy, 'result')) return { ...buggy, result: toLegacy(buggy.result) };
    if (buggy.error?.data !== undefined)
      return { ...buggy, error: { ...buggy.error, data: toLegacy(buggy.error.data) } };
    return buggy;
  },
});
