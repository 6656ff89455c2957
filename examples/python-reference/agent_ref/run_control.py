"""The run controller: `step(state, event, now_ms)` of docs/spec/run-control-gate.md#run-controller.

Pure: the next state, whether the event was applied, and the notice, or a Refusal that leaves the
state as it was. The checks run in the page's order (1 to 6); the first failing one decides.
"""

import copy

from . import jcs
from .clock import format_ms, parse_instant_ns, parse_ms
from .errors import Refusal
from .ids import derived_id

# docs/protocol.md#runstep-v1-capability-run: the token of each refusal code.
REQUIRED_ACTION = {
    "RUN_STATE_INVALID": "send-a-valid-state",
    "RUN_EVENT_NOT_CANONICAL": "send-plain-json-strings",
    "RUN_NOT_STARTED": "start-the-run",
    "RUN_ALREADY_STARTED": "continue-the-run",
    "RUN_TERMINAL": "start-a-new-run",
    "RUN_EVENT_NOT_ALLOWED": "resume-first",
    "RUN_UNTIL_DONE_UNCONTROLLED": "add-cancellation-and-takeover",
    "RUN_TOOL_CALL_DUPLICATE": "use-a-new-call-id",
    "RUN_TOOL_CALL_RETRY_UNKNOWN": "name-a-recorded-call",
    "RUN_TOOL_CALL_NOT_IN_FLIGHT": "name-an-in-flight-call",
    "RUN_TOOL_CALL_OUTCOME_INCONSISTENT": "state-the-outcome",
    "RUN_TOOL_CALL_QUERY_NOT_UNKNOWN": "query-only-unknown-outcomes",
    "RUN_TOOL_CALL_BLIND_RETRY": "query-the-effect-first",
    "RUN_TOOL_CALL_RETRY_NOT_RETRYABLE": "replan",
    "RUN_SUCCESS_WITH_CALLS_IN_FLIGHT": "record-the-outcome-first",
}
TERMINAL_REASONS = {
    "succeeded": ("completion-verified",),
    "failed": ("completion-failed", "budget-exhausted"),
    "cancelled": ("cancelled",),
}
BUDGET_NOTICE = {"code": "RUN_BUDGET_EXHAUSTED", "requiredAction": "start-a-new-run"}
LOOP_NOTICE = {"code": "RUN_LOOP_DETECTED", "requiredAction": "replan-or-takeover"}
PAUSES = ("awaiting-approval", "awaiting-dependency", "blocked")
MAX_TOOL_CALLS = 1000

# The run controller's table, "Taken in": the statuses (and pause reasons) each event is taken in.
ANY_PAUSE = ("running",) + PAUSES
TAKEN_IN = {
    "step-started": ("running",),
    "step-finished": ("running",),
    "tool-called": ("running",),
    "tool-result": ANY_PAUSE,
    "tool-queried": ANY_PAUSE,
    "approval-requested": ("running",),
    "approval-granted": ("awaiting-approval",),
    "dependency-wait": ("running",),
    "dependency-ready": ("awaiting-dependency",),
    "replanned": ("running", "blocked"),
    "takeover": ("running", "awaiting-approval", "awaiting-dependency", ("blocked", "loop-detected")),
    "cancel": ANY_PAUSE,
    "complete": ("running", ("blocked", "human-takeover")),
}
# Events taken after maxDurationMs (check 5): outcomes and costs are facts, and cancel; every
# other event announces work, which is not started.
FACTS_AFTER_TIME = ("cancel", "tool-result", "tool-queried", "step-finished")


def run_id_of(state):
    return derived_id("run-", {"taskId": state["taskId"], "startedAt": state["startedAt"]})


def state_digest_of(state):
    return jcs.digest_of({k: v for k, v in state.items() if k != "stateDigest"})


def retry_refusal(original, at=None):
    """Why `original` may not be retried (at `at`, when given), or None: invariants 13 and 14 and
    RUN-020 (a query that found `effect-applied` makes a call not retryable, D-RUN-04)."""
    if original["status"] == "failed" and original["errorClass"] == "transient":
        return None
    if original["status"] == "failed" and original["errorClass"] == "unknown-outcome":
        q = original["query"]
        if q is None or q["resolution"] == "still-unknown":
            return "RUN_TOOL_CALL_BLIND_RETRY"
        if q["resolution"] == "effect-applied":
            return "RUN_TOOL_CALL_RETRY_NOT_RETRYABLE"
        if at is not None and parse_instant_ns(q["queriedAt"]) > parse_instant_ns(at):
            return "RUN_TOOL_CALL_BLIND_RETRY"
        return None
    return "RUN_TOOL_CALL_RETRY_NOT_RETRYABLE"


def refuse(code, message):
    return Refusal(code, message, requiredAction=REQUIRED_ACTION[code])


def takes(status, pause_reason, event_type):
    for entry in TAKEN_IN[event_type]:
        if entry == status or entry == (status, pause_reason):
            return True
    return False


def start_state(event, now_ms):
    now = format_ms(now_ms)
    state = {
        "schemaVersion": "RunStateV1",
        "runId": "",
        "taskId": event["taskId"],
        "mode": event["mode"],
        "controls": copy.deepcopy(event["controls"]),
        "status": "running",
        "pauseReason": None,
        "terminalReason": None,
        "budget": copy.deepcopy(event["budget"]),
        "usage": {"steps": 0, "toolCalls": 0, "retries": 0, "elapsedMs": 0, "costMicros": 0},
        "loop": {
            "thresholds": copy.deepcopy(event["thresholds"]),
            "lastActionDigest": None,
            "repeatedActionCount": 0,
            "lastErrorDigest": None,
            "repeatedErrorCount": 0,
            "stepsWithoutStateChange": 0,
        },
        "toolCalls": [],
        "startedAt": now,
        "updatedAt": now,
        "endedAt": None,
        "eventCount": 1,
    }
    state["runId"] = run_id_of(state)
    return seal(state)


def seal(state):
    state.pop("stateDigest", None)
    state["stateDigest"] = state_digest_of(state)
    return state


def find_call(state, call_id):
    for c in state["toolCalls"]:
        if c["callId"] == call_id:
            return c
    return None


def check_calls(state, event):
    """Check 4: the call checks, in the page's order."""
    t = event["type"]
    if t == "tool-called":
        if find_call(state, event["callId"]) is not None:
            raise refuse("RUN_TOOL_CALL_DUPLICATE", "callId " + event["callId"] + " is already recorded")
        if event["retryOf"] is not None:
            original = find_call(state, event["retryOf"])
            if original is None or original["toolName"] != event["toolName"]:
                raise refuse("RUN_TOOL_CALL_RETRY_UNKNOWN", "retryOf names no recorded call of this tool")
            code = retry_refusal(original)
            if code is not None:
                raise refuse(code, "call " + original["callId"] + " may not be retried")
    elif t in ("tool-result", "tool-queried"):
        call = find_call(state, event["callId"])
        if call is None:
            raise refuse("RUN_TOOL_CALL_RETRY_UNKNOWN", "callId names no recorded call")
        if t == "tool-result":
            if call["status"] != "in-flight":
                raise refuse("RUN_TOOL_CALL_NOT_IN_FLIGHT", "the call already has its result")
            failed = event["outcome"] == "failed"
            if (event["errorClass"] is not None) != failed or (event["errorCode"] is not None) != failed:
                raise refuse("RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "error fields must be set exactly on a failure")
        elif not (call["status"] == "failed" and call["errorClass"] == "unknown-outcome"):
            raise refuse("RUN_TOOL_CALL_QUERY_NOT_UNKNOWN", "only an unknown outcome is queried")
    elif t == "complete" and event["outcome"] == "succeeded":
        if any(c["status"] == "in-flight" for c in state["toolCalls"]):
            raise refuse("RUN_SUCCESS_WITH_CALLS_IN_FLIGHT", "a call has no outcome yet")


def over_announced_limit(state, event, elapsed):
    """Check 5: whether the event announces work beyond a limit (not started: applied false)."""
    t = event["type"]
    usage, budget = state["usage"], state["budget"]
    if t not in FACTS_AFTER_TIME and elapsed > budget["maxDurationMs"]:
        return True
    if t == "step-started" and usage["steps"] + 1 > budget["maxSteps"]:
        return True
    if t == "tool-called":
        if usage["toolCalls"] + 1 > min(budget["maxToolCalls"], MAX_TOOL_CALLS):
            return True
        if event["retryOf"] is not None and usage["retries"] + 1 > budget["maxRetries"]:
            return True
    return False


def over_a_limit(state):
    usage, budget = state["usage"], state["budget"]
    return (usage["steps"] > budget["maxSteps"] or usage["toolCalls"] > budget["maxToolCalls"]
            or usage["retries"] > budget["maxRetries"] or usage["elapsedMs"] > budget["maxDurationMs"]
            or usage["costMicros"] > budget["maxCostMicros"])


def stop(state, now):
    state["status"] = "failed"
    state["pauseReason"] = None
    state["terminalReason"] = "budget-exhausted"
    state["endedAt"] = now


def set_status(state, status, pause_reason=None, terminal_reason=None, now=None):
    state["status"] = status
    state["pauseReason"] = pause_reason
    state["terminalReason"] = terminal_reason
    if status in TERMINAL_REASONS:
        state["endedAt"] = now


def reset_loop(loop):
    loop["lastActionDigest"] = None
    loop["repeatedActionCount"] = 0
    loop["lastErrorDigest"] = None
    loop["repeatedErrorCount"] = 0
    loop["stepsWithoutStateChange"] = 0


def apply(state, event, now):
    """The table's effect of an event that passed checks 1 to 5."""
    t = event["type"]
    usage, loop = state["usage"], state["loop"]
    if t == "step-started":
        usage["steps"] += 1
    elif t == "step-finished":
        usage["costMicros"] += event["costMicros"]
        loop["stepsWithoutStateChange"] = 0 if event["stateChanged"] else loop["stepsWithoutStateChange"] + 1
    elif t == "tool-called":
        state["toolCalls"].append({
            "callId": event["callId"],
            "toolName": event["toolName"],
            "actionDigest": event["actionDigest"],
            "step": max(usage["steps"], 1),  # a call before the first step-started is in step 1
            "calledAt": now,
            "status": "in-flight",
            "errorClass": None,
            "errorCode": None,
            "retryOf": event["retryOf"],
            "query": None,
        })
        usage["toolCalls"] += 1
        if event["retryOf"] is not None:
            usage["retries"] += 1
        if loop["lastActionDigest"] == event["actionDigest"]:
            loop["repeatedActionCount"] += 1
        else:
            loop["lastActionDigest"] = event["actionDigest"]
            loop["repeatedActionCount"] = 1
    elif t == "tool-result":
        call = find_call(state, event["callId"])
        call["status"] = event["outcome"]
        call["errorClass"] = event["errorClass"]
        call["errorCode"] = event["errorCode"]
        usage["costMicros"] += event["costMicros"]
        if event["outcome"] == "succeeded":
            loop["lastErrorDigest"] = None
            loop["repeatedErrorCount"] = 0
        else:
            error = jcs.digest_of({"toolName": call["toolName"], "errorClass": event["errorClass"],
                                   "errorCode": event["errorCode"]})
            if loop["lastErrorDigest"] == error:
                loop["repeatedErrorCount"] += 1
            else:
                loop["lastErrorDigest"] = error
                loop["repeatedErrorCount"] = 1
    elif t == "tool-queried":
        find_call(state, event["callId"])["query"] = {"queriedAt": now, "resolution": event["resolution"]}
    elif t == "approval-requested":
        set_status(state, "awaiting-approval", "approval-pending")
    elif t == "dependency-wait":
        set_status(state, "awaiting-dependency", "dependency-pending")
    elif t in ("approval-granted", "dependency-ready"):
        set_status(state, "running")
    elif t == "replanned":
        reset_loop(loop)
        set_status(state, "running")
    elif t == "takeover":
        set_status(state, "blocked", "human-takeover")
    elif t == "cancel":
        set_status(state, "cancelled", terminal_reason="cancelled", now=now)
    elif t == "complete":
        if event["outcome"] == "succeeded":
            set_status(state, "succeeded", terminal_reason="completion-verified", now=now)
        else:
            set_status(state, "failed", terminal_reason="completion-failed", now=now)


def loop_reached(state):
    loop = state["loop"]
    th = loop["thresholds"]
    return (loop["repeatedActionCount"] >= th["repeatedAction"] or loop["repeatedErrorCount"] >= th["repeatedError"]
            or loop["stepsWithoutStateChange"] >= th["noProgressSteps"])


def step(state, event, now_ms):
    """One event; `state` is a valid RunStateV1 or None. Returns {state, applied, notice}."""
    t = event["type"]
    # 1. canonical form, start, and "run until done" without its controls
    if jcs.has_lone_surrogate(event):
        raise refuse("RUN_EVENT_NOT_CANONICAL", "an event string has a lone surrogate")
    if state is None:
        if t != "start":
            raise refuse("RUN_NOT_STARTED", "send start first")
        controls = event["controls"]
        if event["mode"] == "until-done" and not (controls["cancellable"] and controls["takeoverChannel"] is not None):
            raise refuse("RUN_UNTIL_DONE_UNCONTROLLED", "until-done needs cancellation and a takeover channel")
        return {"state": start_state(event, now_ms), "applied": True, "notice": None}
    if t == "start":
        raise refuse("RUN_ALREADY_STARTED", "the run has started")
    # 2. nothing moves a terminal run
    if state["status"] in TERMINAL_REASONS:
        raise refuse("RUN_TERMINAL", "the run is " + state["status"])
    # 3. the status takes the event
    if not takes(state["status"], state["pauseReason"], t):
        raise refuse("RUN_EVENT_NOT_ALLOWED", t + " is not taken in " + state["status"])
    # 4. the calls
    check_calls(state, event)
    # 5. the budget: elapsed time never decreases
    nxt = copy.deepcopy(state)
    now = format_ms(now_ms)
    started = parse_ms(state["startedAt"])
    nxt["usage"]["elapsedMs"] = max(state["usage"]["elapsedMs"], now_ms - started)
    nxt["updatedAt"] = now
    nxt["eventCount"] += 1
    if over_announced_limit(nxt, event, nxt["usage"]["elapsedMs"]):
        stop(nxt, now)
        return {"state": seal(nxt), "applied": False, "notice": dict(BUDGET_NOTICE)}
    apply(nxt, event, now)
    notice = None
    if nxt["status"] not in TERMINAL_REASONS and over_a_limit(nxt):
        stop(nxt, now)
        notice = dict(BUDGET_NOTICE)
    # 6. the loop
    elif nxt["status"] == "running" and loop_reached(nxt):
        set_status(nxt, "blocked", "loop-detected")
        notice = dict(LOOP_NOTICE)
    return {"state": seal(nxt), "applied": True, "notice": notice}
