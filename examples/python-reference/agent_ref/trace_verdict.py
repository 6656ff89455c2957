"""The verdict on a LocalTaskTraceV1: the mapped schema failures, else T1-T15.

docs/spec/local-task-trace-gate.md#invariants, "Schema failures as rule codes" and
#validation-verdict. A verdict is an ordered list of (errorCode, eventIndex, message).
"""

import re

from . import jcs
from .clock import is_utc_timestamp, parse_instant_ns
from .ids import derived_id

KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@-]*$")
TRACE_ID = re.compile(r"^trace-[a-f0-9]{24}$")
EVENT_ID = re.compile(r"^event-[a-f0-9]{24}$")
HEX64 = re.compile(r"^[a-f0-9]{64}$")
MAX_SAFE = 2**53 - 1
MAX_EVENTS = 128
MAX_TRACE_BYTES = 131072
MAX_PAYLOAD_BYTES = 8192

STATUSES = ("open", "complete", "failed", "interrupted")
TERMINAL_RESULTS = ("complete", "failed", "interrupted")
HOST_TYPES = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "TurnError",
              "TurnInterrupted", "UnknownHostEvent")
ALLOWED_RESULTS = dict({t: ("observed",) for t in HOST_TYPES}, **{
    "ToolLeaseStarted": ("allowed",),
    "ToolLeaseCompleted": ("success", "error"),
    "ToolLeaseResultDeferred": ("duplicate", "observed"),
    "TurnTerminal": TERMINAL_RESULTS,
})
RESULTS = ("allowed", "complete", "duplicate", "error", "failed", "interrupted", "observed", "success")
TOP_LEVEL = ("schemaVersion", "traceId", "turnKey", "status", "sequence", "openedAt", "completedAt",
             "sequenceBase", "droppedEvents", "prefixDigest", "events")
EVENT_KEYS = ("eventId", "occurrenceKey", "sequence", "observedAt", "type", "result", "payload")
PRECEDENCE = ("TRACE_NOT_FOUND", "TRACE_BOUNDS_EXCEEDED", "TRACE_ID_MISMATCH", "TRACE_SEQUENCE_INVALID",
              "TRACE_DUPLICATE_EVENT", "TRACE_EVENT_INVALID", "TRACE_TERMINAL_INVALID", "TRACE_PREFIX_INVALID")
MAX_VIOLATIONS = 256


def is_int(v, minimum=0):
    if isinstance(v, bool):
        return False
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return isinstance(v, int) and minimum <= v <= MAX_SAFE


def is_key(v):
    return isinstance(v, str) and 1 <= len(v) <= 256 and KEY.match(v) is not None


def jcs_bytes(value):
    return len(jcs.canonicalize(value).encode("utf-8"))


class Verdict:
    def __init__(self):
        self.pairs = {}

    def add(self, code, index, message):
        self.pairs.setdefault((code, index), message)

    def ordered(self):
        def key(pair):
            code, index = pair
            return (PRECEDENCE.index(code), -1 if index is None else index)

        out = [(c, i, self.pairs[(c, i)]) for (c, i) in sorted(self.pairs, key=key)]
        return out[:MAX_VIOLATIONS]


def _schema(doc, v):
    """Mapped schema failures; returns False when identity failed (the verdict is NOT_FOUND)."""
    not_found = []
    if doc.get("schemaVersion") != "LocalTaskTraceV1":
        not_found.append("schemaVersion")
    if not (isinstance(doc.get("traceId"), str) and TRACE_ID.match(doc["traceId"])):
        not_found.append("traceId")
    if not is_key(doc.get("turnKey")):
        not_found.append("turnKey")
    if not is_utc_timestamp(doc.get("openedAt")):
        not_found.append("openedAt")
    extra = [k for k in doc if k not in TOP_LEVEL]
    if not_found or extra:
        v.pairs = {}
        v.add("TRACE_NOT_FOUND", None, "the trace has no valid identity (" + ", ".join(not_found + extra)
              + "); treat it as no trace and do not append to it.")
        return False
    if doc.get("status") not in STATUSES:
        v.add("TRACE_TERMINAL_INVALID", None, "status is missing or not a trace status; refuse the trace.")
    if "completedAt" not in doc or not (doc["completedAt"] is None or is_utc_timestamp(doc["completedAt"])):
        v.add("TRACE_TERMINAL_INVALID", None, "completedAt is missing or malformed; refuse the trace.")
    if not is_int(doc.get("sequence")):
        v.add("TRACE_SEQUENCE_INVALID", None, "sequence is missing or malformed; refuse the trace.")
    for name in ("sequenceBase", "droppedEvents"):
        if not is_int(doc.get(name)):
            v.add("TRACE_PREFIX_INVALID", None, name + " is missing or malformed; refuse the trace.")
    p = doc.get("prefixDigest", 0)
    if not (p is None or (isinstance(p, str) and HEX64.match(p))):
        v.add("TRACE_PREFIX_INVALID", None, "prefixDigest is missing or malformed; refuse the trace.")
    events = doc.get("events")
    if not isinstance(events, list):
        v.add("TRACE_SEQUENCE_INVALID", None, "events is missing or not an array; refuse the trace.")
        return True
    if len(events) > MAX_EVENTS:
        v.add("TRACE_BOUNDS_EXCEEDED", None, "the trace holds more than 128 events; refuse the trace.")
    for i, e in enumerate(events[:MAX_EVENTS]):
        at = "events[%d]" % i
        if not isinstance(e, dict):
            v.add("TRACE_SEQUENCE_INVALID", i, at + " is not an object; refuse the trace.")
            continue
        if not is_int(e.get("sequence"), 1):
            v.add("TRACE_SEQUENCE_INVALID", i, at + ".sequence is missing or malformed; refuse the trace.")
        if not is_utc_timestamp(e.get("observedAt")):
            v.add("TRACE_SEQUENCE_INVALID", i, at + ".observedAt is missing or malformed; refuse the trace.")
        if "eventId" not in e:
            v.add("TRACE_DUPLICATE_EVENT", i, at + ".eventId is missing; refuse the trace.")
        elif not (isinstance(e["eventId"], str) and EVENT_ID.match(e["eventId"])):
            v.add("TRACE_ID_MISMATCH", i, at + ".eventId is malformed; refuse the trace.")
        if e.get("type") not in ALLOWED_RESULTS:
            v.add("TRACE_EVENT_INVALID", i, at + ".type is missing or not one of the event types; refuse the trace.")
        if e.get("result") not in RESULTS:
            v.add("TRACE_EVENT_INVALID", i, at + ".result is missing or not one of the event results; refuse the trace.")
        if not is_key(e.get("occurrenceKey")):
            v.add("TRACE_EVENT_INVALID", i, at + ".occurrenceKey is missing or malformed; refuse the trace.")
        payload = e.get("payload")
        if not isinstance(payload, dict) or len(payload) > 32:
            v.add("TRACE_EVENT_INVALID", i, at + ".payload is missing, not an object or over 32 keys; refuse the trace.")
        if any(k not in EVENT_KEYS for k in e):
            v.add("TRACE_EVENT_INVALID", i, at + " has an unknown property; refuse the trace.")
    return True


def _invariants(doc, v):
    events = doc["events"]
    if jcs_bytes(doc) > MAX_TRACE_BYTES:
        v.add("TRACE_BOUNDS_EXCEEDED", None, "T1: the trace is over 131072 bytes of JCS; refuse the trace.")
    trace_id = doc["traceId"]
    if trace_id != derived_id("trace-", {"turnKey": doc["turnKey"], "openedAt": doc["openedAt"]}):
        v.add("TRACE_ID_MISMATCH", None, "T3: traceId does not recompute; refuse the trace.")
    if doc["sequence"] != doc["sequenceBase"] + len(events):
        v.add("TRACE_SEQUENCE_INVALID", None, "T6: sequence is not sequenceBase + events.length; refuse the trace.")
    seen = set()
    previous = parse_instant_ns(doc["openedAt"])
    last = len(events) - 1
    for i, e in enumerate(events):
        if jcs_bytes(e["payload"]) > MAX_PAYLOAD_BYTES:
            v.add("TRACE_BOUNDS_EXCEEDED", i, "T2: events[%d].payload is over 8192 bytes of JCS; refuse the trace." % i)
        if e["eventId"] != derived_id("event-", {"traceId": trace_id, "type": e["type"], "occurrenceKey": e["occurrenceKey"]}):
            v.add("TRACE_ID_MISMATCH", i, "T4: events[%d].eventId does not recompute; refuse the trace." % i)
        if e["sequence"] != doc["sequenceBase"] + i + 1:
            v.add("TRACE_SEQUENCE_INVALID", i, "T5: events[%d].sequence is not sequenceBase + %d; refuse the trace." % (i, i + 1))
        at = parse_instant_ns(e["observedAt"])
        if at < previous:
            v.add("TRACE_SEQUENCE_INVALID", i, "T7: events[%d].observedAt is earlier than the event before it; refuse the trace." % i)
        previous = at
        if e["eventId"] in seen:
            v.add("TRACE_DUPLICATE_EVENT", i, "T8: events[%d] repeats an occurrence already in the trace; refuse the trace." % i)
        seen.add(e["eventId"])
        is_terminal_type = e["type"] == "TurnTerminal"
        if is_terminal_type != (e["result"] in TERMINAL_RESULTS):
            v.add("TRACE_TERMINAL_INVALID", i, "T9: events[%d] pairs a terminal type and a non-terminal result; refuse the trace." % i)
        elif e["result"] not in ALLOWED_RESULTS[e["type"]]:
            v.add("TRACE_EVENT_INVALID", i, "T10: events[%d].result is not allowed for its type; refuse the trace." % i)
        if is_terminal_type and i < last:
            v.add("TRACE_TERMINAL_INVALID", i, "T11: events[%d] is a terminal event that is not last; refuse the trace." % i)
    status = doc["status"]
    if status == "open":
        if doc["completedAt"] is not None or any(e["type"] == "TurnTerminal" for e in events):
            v.add("TRACE_TERMINAL_INVALID", None, "T12: an open trace has a completedAt or a terminal event; refuse the trace.")
    else:
        tail = events[-1] if events else None
        if not (tail and tail["type"] == "TurnTerminal" and tail["result"] == status
                and doc["completedAt"] == tail["observedAt"]):
            v.add("TRACE_TERMINAL_INVALID", None, "T13: a closed trace does not end with its terminal event at completedAt; refuse the trace.")
    if doc["droppedEvents"] != doc["sequenceBase"]:
        v.add("TRACE_PREFIX_INVALID", None, "T14: droppedEvents differs from sequenceBase; refuse the trace.")
    if (doc["prefixDigest"] is None) != (doc["droppedEvents"] == 0):
        v.add("TRACE_PREFIX_INVALID", None, "T15: prefixDigest is null iff nothing was dropped; refuse the trace.")


def judge(doc):
    """Ordered violations of a stored trace (empty when valid); doc None means no trace."""
    v = Verdict()
    if not isinstance(doc, dict) or jcs.has_lone_surrogate(doc):
        v.add("TRACE_NOT_FOUND", None, "there is no trace, or it is not a JSON object of plain data; open a trace for the turn.")
        return v.ordered()
    if _schema(doc, v) and not v.pairs:
        _invariants(doc, v)
    return v.ordered()
