"""The trace.* methods: the LocalTaskTraceGate recorder (docs/spec/local-task-trace-gate.md#recorder-operations).

One trace per process, the current turn's, persisted atomically in `<localDirectory>/trace.json`
after every accepted operation and read back as stored after a restart.
"""

import copy
import os

from . import durable_file, jcs
from .clock import is_utc_timestamp, parse_instant_ns
from .errors import InvalidParams, Refusal
from .ids import derived_id
from .trace_verdict import (ALLOWED_RESULTS, MAX_EVENTS, MAX_PAYLOAD_BYTES, MAX_TRACE_BYTES, RESULTS,
                            TERMINAL_RESULTS, is_key, jcs_bytes, judge)

END_REASONS = ("superseded-by-new-prompt", "stale-turn-recovered-by-new-prompt")
BOUNDARY = {"readOnly": True, "stateMutation": False, "operationReplay": False, "payloadExecution": False,
            "processControl": False}


def new_trace(turn_key, opened_at):
    return {
        "schemaVersion": "LocalTaskTraceV1",
        "traceId": derived_id("trace-", {"turnKey": turn_key, "openedAt": opened_at}),
        "turnKey": turn_key,
        "status": "open",
        "sequence": 0,
        "openedAt": opened_at,
        "completedAt": None,
        "sequenceBase": 0,
        "droppedEvents": 0,
        "prefixDigest": None,
        "events": [],
    }


def replay_of(doc):
    """LocalTaskTraceReplayV1 of a stored trace; a pure function of it."""
    violations = judge(doc)
    readable = doc is not None and doc is not durable_file.UNREADABLE and not jcs.has_lone_surrogate(doc)
    ok = not violations
    out = {
        "schemaVersion": "LocalTaskTraceReplayV1",
        "ok": ok,
        "errorCode": None if ok else violations[0][0],
        "violations": [{"errorCode": c, "message": m, "eventIndex": i} for (c, i, m) in violations],
        "capabilityBoundary": dict(BOUNDARY),
        "traceDigest": jcs.digest_of(doc) if readable else None,
    }
    for name in ("traceId", "turnKey", "status", "sequence", "openedAt", "completedAt", "sequenceBase",
                 "droppedEvents", "prefixDigest"):
        out[name] = copy.deepcopy(doc[name]) if ok else None
    out["events"] = copy.deepcopy(doc["events"]) if ok else []
    return out


class Recorder:
    def __init__(self, clock):
        self.clock = clock
        self.path = None
        self.trace = None
        self.verified = False  # True while the held trace is one this recorder built from a valid one
        self.event_sizes = {}

    def on_hello(self, state_location, local_directory):
        self.path = os.path.join(local_directory, "trace.json") if local_directory else None
        self.trace = durable_file.read(self.path)
        self.verified = False
        self.event_sizes = {}

    def _persist(self, trace, verified=False):
        if not verified:
            self.event_sizes = {}  # sizes are cached per eventId only within traces this recorder built
        durable_file.write(self.path, trace)
        self.trace = trace
        self.verified = verified

    def _size(self, trace):
        """UTF-8 bytes of the JCS form of the trace, from cached sizes of its (immutable) events."""
        head = jcs_bytes(dict(trace, events=[]))
        events = trace["events"]
        total = 0
        for e in events:
            key = e["eventId"]
            size = self.event_sizes.get(key)
            if size is None:
                size = self.event_sizes[key] = jcs_bytes(e)
            total += size
        return head + total + max(0, len(events) - 1)

    def _stored(self):
        return None if self.trace is durable_file.UNREADABLE else self.trace

    # --- open -------------------------------------------------------------------------------

    def open(self, params):
        turn_key = params.get("turnKey")
        opened_at = params.get("openedAt", self.clock.now())
        reason = params.get("previousTurnEndReason", "superseded-by-new-prompt")
        if reason not in END_REASONS:
            raise InvalidParams("trace.open: previousTurnEndReason must be one of " + ", ".join(END_REASONS))
        if not is_key(turn_key) or not is_utc_timestamp(opened_at):
            raise Refusal("TRACE_NOT_FOUND", "O1: a trace needs a turnKey of the key format and an RFC 3339 UTC openedAt",
                          step="O1")
        current = self._stored()
        if isinstance(current, dict) and current.get("turnKey") == turn_key:
            return {"trace": current, "unchanged": True, "previous": None}
        previous = current
        if isinstance(current, dict) and current.get("status") == "open" and not judge(current):
            previous, _, _ = self._appended(current, "TurnTerminal", "interrupted", "turn-terminal",
                                            {"reason": reason}, None, None)
        trace = new_trace(turn_key, opened_at)
        self._persist(trace, verified=True)
        return {"trace": trace, "unchanged": False, "previous": previous}

    # --- append -----------------------------------------------------------------------------

    def _appended(self, trace, type_, result, occurrence_key, payload, expected_sequence, observed_at):
        """A3-A10 on a valid trace: (new trace, event, dropped) or a Refusal."""
        if trace["status"] != "open":
            raise Refusal("TRACE_TERMINAL_INVALID", "A3: the trace is closed; start a new trace for the next turn", step="A3")
        if expected_sequence is not None and expected_sequence != trace["sequence"] + 1:
            raise Refusal("TRACE_SEQUENCE_INVALID", "A4: expectedSequence is not the next sequence", step="A4")
        if (type_ not in ALLOWED_RESULTS or result not in RESULTS or not is_key(occurrence_key)
                or not isinstance(payload, dict) or len(payload) > 32 or jcs.has_lone_surrogate(payload)):
            raise Refusal("TRACE_EVENT_INVALID", "A5: type, result, occurrenceKey or payload is malformed", step="A5")
        if (type_ == "TurnTerminal") != (result in TERMINAL_RESULTS):
            raise Refusal("TRACE_TERMINAL_INVALID", "A5: a terminal result goes only with TurnTerminal, and back",
                          step="A5")
        if result not in ALLOWED_RESULTS[type_]:
            raise Refusal("TRACE_EVENT_INVALID", "A5: the result is not allowed for the type", step="A5")
        if jcs_bytes(payload) > MAX_PAYLOAD_BYTES:
            raise Refusal("TRACE_BOUNDS_EXCEEDED", "A6: the payload is over 8192 bytes of JCS; reduce it", step="A6")
        event_id = derived_id("event-", {"traceId": trace["traceId"], "type": type_, "occurrenceKey": occurrence_key})
        if any(e["eventId"] == event_id for e in trace["events"]):
            raise Refusal("TRACE_DUPLICATE_EVENT", "A7: the occurrence is already recorded", step="A7", eventId=event_id)
        floor = trace["events"][-1]["observedAt"] if trace["events"] else trace["openedAt"]
        if observed_at is not None:
            if not is_utc_timestamp(observed_at) or parse_instant_ns(observed_at) < parse_instant_ns(floor):
                raise Refusal("TRACE_SEQUENCE_INVALID", "A8: observedAt is malformed or earlier than the last event",
                              step="A8")
        else:
            observed_at = self.clock.now()
            if parse_instant_ns(observed_at) < parse_instant_ns(floor):
                observed_at = floor
        # Events are never changed once written, so the new trace shares them with the old one.
        trace = dict(trace, events=list(trace["events"]))
        event = {
            "eventId": event_id,
            "occurrenceKey": occurrence_key,
            "sequence": trace["sequence"] + 1,
            "observedAt": observed_at,
            "type": type_,
            "result": result,
            "payload": copy.deepcopy(payload),
        }
        trace["events"].append(event)
        trace["sequence"] = event["sequence"]
        if type_ == "TurnTerminal":
            trace["status"] = result
            trace["completedAt"] = observed_at
        dropped = []
        while len(trace["events"]) > MAX_EVENTS or self._size(trace) > MAX_TRACE_BYTES:
            removed = trace["events"].pop(0)
            trace["prefixDigest"] = jcs.digest_of({"prefixDigest": trace["prefixDigest"], "event": removed})
            trace["sequenceBase"] += 1
            trace["droppedEvents"] += 1
            dropped.append(removed)
        return trace, event, dropped

    def append(self, params):
        expected = params.get("expectedSequence")
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, (int, float))):
            raise InvalidParams("trace.append: expectedSequence must be a number")
        current = self._stored()
        if current is None:
            raise Refusal("TRACE_NOT_FOUND", "A1: there is no current trace; open one for the turn", step="A1")
        violations = [] if self.verified else judge(self.trace)
        if violations:
            raise Refusal(violations[0][0], "A2: the stored trace is invalid; it is never appended to or repaired",
                          step="A2", violations=[{"errorCode": c, "message": m, "eventIndex": i} for (c, i, m) in violations])
        trace, event, dropped = self._appended(current, params.get("type"), params.get("result"),
                                               params.get("occurrenceKey"), params.get("payload"), expected,
                                               params.get("observedAt"))
        self._persist(trace, verified=True)
        return {"trace": trace, "event": event, "dropped": dropped}

    def close(self, params):
        result = params.get("result")
        reason = params.get("reason")
        if not isinstance(reason, str):
            raise InvalidParams("trace.close: reason must be a string")
        return self.append({"type": "TurnTerminal", "result": result, "occurrenceKey": "turn-terminal",
                            "payload": {"reason": reason}})

    def replay(self, params):
        return replay_of(self.trace)

    def current(self, params):
        return None if self.trace is durable_file.UNREADABLE else self.trace

    def load(self, params):
        if "trace" not in params:
            raise InvalidParams("trace.load: params.trace is required")
        self._persist(params["trace"])
        return None


def install(server):
    recorder = Recorder(server.clock)
    server.on_hello.append(recorder.on_hello)
    server.add_area("trace", {
        "trace.open": recorder.open,
        "trace.append": recorder.append,
        "trace.close": recorder.close,
        "trace.replay": recorder.replay,
        "trace.current": recorder.current,
        "trace.load": recorder.load,
    })
    return recorder
