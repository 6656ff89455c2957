"""RunStateV1: its schema and invariants 1-14 (docs/spec/run-control-gate.md#invariants).

`issues(state)` lists what is wrong with a state as `validate` reports it, `{code, path}` with
JSON Pointers into the state: the schema issues alone when the schema fails (docs/spec/index.md,
Schema failures, item 4), else the semantic ones. `run.step` refuses a state with any issue
(RUN_STATE_INVALID).
"""

from . import jcs, schema_check
from .clock import parse_instant_ns
from .ids import derived_id

PAUSE_REASONS = {
    "awaiting-approval": ("approval-pending",),
    "awaiting-dependency": ("dependency-pending",),
    "blocked": ("loop-detected", "human-takeover"),
}
TERMINAL_REASONS = {
    "succeeded": ("completion-verified",),
    "failed": ("completion-failed", "budget-exhausted"),
    "cancelled": ("cancelled",),
}
LIMITS = (("steps", "maxSteps"), ("toolCalls", "maxToolCalls"), ("retries", "maxRetries"),
          ("elapsedMs", "maxDurationMs"), ("costMicros", "maxCostMicros"))
COUNTERS = (("repeatedActionCount", "repeatedAction"), ("repeatedErrorCount", "repeatedError"),
            ("stepsWithoutStateChange", "noProgressSteps"))
MAX_ISSUES = 64


def schema_code(keyword):
    """`SCHEMA_` + the keyword in upper snake case (docs/rules.md, Schema codes)."""
    if keyword == "additionalProperties":
        return "SCHEMA_ADDITIONAL_PROPERTY"
    snake = "".join("_" + c if c.isupper() else c for c in keyword)
    return "SCHEMA_" + snake.upper()


def schema_issues(contract, value):
    return [{"code": schema_code(k), "path": p} for (p, k) in schema_check.check_contract(contract, value)]


def run_id_of(state):
    return derived_id("run-", {"taskId": state["taskId"], "startedAt": state["startedAt"]})


def state_digest_of(state):
    return jcs.digest_of({k: v for k, v in state.items() if k != "stateDigest"})


def issues(state):
    if not isinstance(state, dict):
        return [{"code": "DOCUMENT_NOT_OBJECT", "path": ""}]
    found = schema_issues("RunStateV1", state)
    if found:
        return found[:MAX_ISSUES]
    if jcs.has_lone_surrogate(state):
        return [{"code": "DIGEST_UNCOMPUTABLE", "path": "/stateDigest"}]
    return semantic_issues(state)[:MAX_ISSUES]


def semantic_issues(s):
    out = []

    def add(code, path):
        out.append({"code": code, "path": path})

    if s["runId"] != run_id_of(s):
        add("RUN_STATE_ID_MISMATCH", "/runId")
    if s["stateDigest"] != state_digest_of(s):
        add("RUN_STATE_DIGEST_MISMATCH", "/stateDigest")
    status = s["status"]
    allowed_pause = PAUSE_REASONS.get(status, (None,))
    if s["pauseReason"] not in allowed_pause:
        add("RUN_STATUS_PAUSE_REASON_INCONSISTENT", "/pauseReason")
    terminal = status in TERMINAL_REASONS
    if s["terminalReason"] not in TERMINAL_REASONS.get(status, (None,)):
        add("RUN_STATUS_TERMINAL_REASON_INCONSISTENT", "/terminalReason")
    if (s["endedAt"] is not None) != terminal:
        add("RUN_STATUS_TERMINAL_REASON_INCONSISTENT", "/endedAt")
    calls = s["toolCalls"]
    if status == "succeeded":
        for i, c in enumerate(calls):
            if c["status"] == "in-flight":
                add("RUN_SUCCESS_WITH_CALLS_IN_FLIGHT", "/toolCalls/%d/status" % i)
    usage, budget = s["usage"], s["budget"]
    if status == "running":
        for used, limit in LIMITS:
            if usage[used] > budget[limit]:
                add("RUN_BUDGET_EXCEEDED_WHILE_RUNNING", "/usage/" + used)
    if usage["toolCalls"] != len(calls):
        add("RUN_BUDGET_USAGE_MISCOUNTED", "/usage/toolCalls")
    if usage["retries"] != sum(1 for c in calls if c["retryOf"] is not None):
        add("RUN_BUDGET_USAGE_MISCOUNTED", "/usage/retries")
    loop = s["loop"]
    if status == "running":
        for counter, threshold in COUNTERS:
            if loop[counter] >= loop["thresholds"][threshold]:
                add("RUN_LOOP_UNHANDLED", "/loop/" + counter)
    if s["mode"] == "until-done" and not (s["controls"]["cancellable"] and s["controls"]["takeoverChannel"] is not None):
        add("RUN_UNTIL_DONE_UNCONTROLLED", "/controls")
    out.extend(call_issues(calls))
    return out


def call_issues(calls):
    out = []
    seen = {}
    for i, c in enumerate(calls):
        base = "/toolCalls/%d" % i
        if c["callId"] in seen:
            out.append({"code": "RUN_TOOL_CALL_DUPLICATE", "path": base + "/callId"})
        failed = c["status"] == "failed"
        if (c["errorClass"] is not None) != failed:
            out.append({"code": "RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "path": base + "/errorClass"})
        if (c["errorCode"] is not None) != failed:
            out.append({"code": "RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "path": base + "/errorCode"})
        if c["query"] is not None and c["errorClass"] != "unknown-outcome":
            out.append({"code": "RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "path": base + "/query"})
        if c["retryOf"] is not None:
            j = seen.get(c["retryOf"])
            if j is None or calls[j]["toolName"] != c["toolName"]:
                out.append({"code": "RUN_TOOL_CALL_RETRY_UNKNOWN", "path": base + "/retryOf"})
            else:
                code = retry_refusal(calls[j], c["calledAt"])
                if code is not None:
                    out.append({"code": code, "path": base + "/retryOf"})
        seen.setdefault(c["callId"], i)
    return out


def retry_refusal(original, at=None):
    """Why `original` may not be retried (at `at`, when given), or None: invariants 13 and 14."""
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
