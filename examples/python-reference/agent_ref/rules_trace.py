"""LocalTaskTraceGate (docs/spec/local-task-trace-gate.md): LocalTaskTraceV1 (T1-T15),
LocalTaskTraceReplayV1 (R1-R6) and the bundle `trace-replay` (B1-B3).

Each T rule is reported at the JSON Pointer of the member it judges (the trace's eventIndex
becomes `/events/<i>/<member>`); the verdict order and the trace's own verdict for the replay are
those of agent_ref/trace_verdict.py, which the recorder and `trace.replay` use.
"""

from . import trace_verdict as tv
from .rulekit import derived, digest, instant, jcs_bytes

TERMINAL_RESULTS = tv.TERMINAL_RESULTS
COPIED = ("traceId", "turnKey", "status", "sequence", "openedAt", "completedAt", "sequenceBase", "droppedEvents", "prefixDigest")


def trace_issues(doc):
    """[(code, eventIndex or None, pointer)] of T1-T15 over a schema-valid trace."""
    found = []

    def add(code, index, path):
        found.append((code, index, path))

    if jcs_bytes(doc) > tv.MAX_TRACE_BYTES:
        add("TRACE_BOUNDS_EXCEEDED", None, "")
    events = doc["events"]
    for i, e in enumerate(events):
        if jcs_bytes(e["payload"]) > tv.MAX_PAYLOAD_BYTES:
            add("TRACE_BOUNDS_EXCEEDED", i, "/events/%d/payload" % i)
    if doc["traceId"] != derived("trace-", {"turnKey": doc["turnKey"], "openedAt": doc["openedAt"]}):
        add("TRACE_ID_MISMATCH", None, "/traceId")
    seen = set()
    for i, e in enumerate(events):
        if e["eventId"] != derived("event-", {"traceId": doc["traceId"], "type": e["type"], "occurrenceKey": e["occurrenceKey"]}):
            add("TRACE_ID_MISMATCH", i, "/events/%d/eventId" % i)
        if e["sequence"] != doc["sequenceBase"] + i + 1:
            add("TRACE_SEQUENCE_INVALID", i, "/events/%d/sequence" % i)
        before = events[i - 1]["observedAt"] if i else doc["openedAt"]
        if instant(e["observedAt"]) < instant(before):
            add("TRACE_SEQUENCE_INVALID", i, "/events/%d/observedAt" % i)
        if e["eventId"] in seen:
            add("TRACE_DUPLICATE_EVENT", i, "/events/%d/eventId" % i)
        seen.add(e["eventId"])
        terminal_type, terminal_result = e["type"] == "TurnTerminal", e["result"] in TERMINAL_RESULTS
        if terminal_type != terminal_result:
            add("TRACE_TERMINAL_INVALID", i, "/events/%d/result" % i)
        elif e["result"] not in tv.ALLOWED_RESULTS[e["type"]]:
            add("TRACE_EVENT_INVALID", i, "/events/%d/result" % i)
        if terminal_type and i < len(events) - 1:
            add("TRACE_TERMINAL_INVALID", i, "/events/%d/type" % i)
    if doc["sequence"] != doc["sequenceBase"] + len(events):
        add("TRACE_SEQUENCE_INVALID", None, "/sequence")
    status = doc["status"]
    if status == "open":
        if doc["completedAt"] is not None or any(e["type"] == "TurnTerminal" for e in events):
            add("TRACE_TERMINAL_INVALID", None, "/status")
    else:
        last = events[-1] if events else None
        if last is None or last["type"] != "TurnTerminal" or last["result"] != status:
            add("TRACE_TERMINAL_INVALID", None, "/status")
        elif doc["completedAt"] != last["observedAt"]:
            add("TRACE_TERMINAL_INVALID", None, "/completedAt")
    if doc["droppedEvents"] != doc["sequenceBase"]:
        add("TRACE_PREFIX_INVALID", None, "/droppedEvents")
    if (doc["prefixDigest"] is None) != (doc["droppedEvents"] == 0):
        add("TRACE_PREFIX_INVALID", None, "/prefixDigest")
    return found


def check_trace(doc, out):
    for code, _, path in trace_issues(doc):
        out.add(code, path)


def rebuilt_trace(r):
    t = {"schemaVersion": "LocalTaskTraceV1"}
    for f in COPIED:
        t[f] = r[f]
    t["events"] = r["events"]
    return t


def check_replay(r, out):
    bad = "TRACE_REPLAY_MISMATCH"
    violations = r["violations"]
    if r["ok"] != (not violations):
        out.add(bad, "/ok")
    if (r["errorCode"] is None) != r["ok"] or (violations and r["errorCode"] != violations[0]["errorCode"]):
        out.add(bad, "/errorCode")
    seen = set()
    for i, v in enumerate(violations):
        pair = (v["errorCode"], v["eventIndex"])
        key = (tv.PRECEDENCE.index(v["errorCode"]), -1 if v["eventIndex"] is None else v["eventIndex"])
        if pair in seen or (i > 0 and key <= last_key):
            out.add(bad, "/violations/%d" % i)
        seen.add(pair)
        last_key = key
    if any(v["errorCode"] == "TRACE_NOT_FOUND" for v in violations) and (len(violations) != 1 or violations[0]["eventIndex"] is not None):
        out.add(bad, "/violations")
    if not r["ok"]:
        for f in COPIED:
            if r[f] is not None:
                out.add(bad, "/" + f)
        if r["events"]:
            out.add(bad, "/events")
        return
    missing = [f for f in ("traceId", "turnKey", "status", "sequence", "openedAt", "sequenceBase", "droppedEvents", "traceDigest") if r[f] is None]
    for f in missing:
        out.add(bad, "/" + f)
    if missing:
        return
    from . import validate_schema

    t = rebuilt_trace(r)
    schema = validate_schema.issues("LocalTaskTraceV1", t)
    for i in schema:
        out.add(bad, i["path"])
    if schema:
        return
    for _, _, path in trace_issues(t):
        out.add(bad, path)
    if r["traceDigest"] != digest(t):
        out.add(bad, "/traceDigest")


def check_trace_replay(documents, out, judge):
    """[trace, replay]: the replay projects the trace (B1-B3)."""
    if len(documents) != 2:
        out.add("BUNDLE_INVALID", "/documents")
        return
    if not all([judge(0, "LocalTaskTraceV1"), judge(1, "LocalTaskTraceReplayV1")]):
        return
    t, r = documents
    bad = "TRACE_REPLAY_MISMATCH"
    if r["traceDigest"] != digest(t):
        out.add(bad, "/documents/1/traceDigest")
    verdict = {(c, i) for c, i, _ in tv.judge(t)}
    if r["ok"] != (not verdict):
        out.add(bad, "/documents/1/ok")
    if {(v["errorCode"], v["eventIndex"]) for v in r["violations"]} != verdict:
        out.add(bad, "/documents/1/violations")
    if r["ok"]:
        if digest(r["events"]) != digest(t["events"]):
            out.add(bad, "/documents/1/events")
        for f in COPIED:
            if digest(r[f]) != digest(t[f]):
                out.add(bad, "/documents/1/" + f)


CONTRACTS = {"LocalTaskTraceV1": check_trace, "LocalTaskTraceReplayV1": check_replay}
BUNDLES = {"trace-replay": check_trace_replay}
BUNDLE_NEEDS = {"trace-replay": ("LocalTaskTraceV1", "LocalTaskTraceReplayV1")}
