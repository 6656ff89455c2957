// A continuation acknowledgement does not end awaiting-continuation: where the reference moves
// an awaiting turn back to running and records continuationAckAt, the turn is put back
// (liveness.rehydrate) as awaiting and unacknowledged, so it still ages towards stalled.
import { ackKeepsAwaiting } from '../lib/ack-keeps-awaiting.mjs';
import { runShim } from '../lib/shim.mjs';

runShim({ reply: ackKeepsAwaiting() });
