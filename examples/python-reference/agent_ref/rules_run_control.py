"""RunControlGate (docs/spec/run-control-gate.md): RunStateV1 invariants 1-14."""

from .rulekit import check_digest, derived, digest, pick, without

PAUSES = {"awaiting-approval": ("approval-pending",), "awaiting-dependency": ("dependency-pending",), "blocked": ("loop-detected", "human-takeover")}
TERMINALS = {"succeeded": ("completion-verified",), "failed": ("completion-failed", "budget-exhausted"), "cancelled": ("cancelled",)}
USAGE = (("steps", "maxSteps"), ("toolCalls", "maxToolCalls"), ("retries", "maxRetries"), ("elapsedMs", "maxDurationMs"), ("costMicros", "maxCostMicros"))
LOOP = (("repeatedActionCount", "repeatedAction"), ("repeatedErrorCount", "repeatedError"), ("stepsWithoutStateChange", "noProgressSteps"))


def check_run_state(doc, out):
    check_digest(out, doc, "runId", derived("run-", pick(doc, "taskId", "startedAt")), "RUN_STATE_ID_MISMATCH")
    check_digest(out, doc, "stateDigest", digest(without(doc, "stateDigest")), "RUN_STATE_DIGEST_MISMATCH")
    status = doc["status"]
    pause = doc["pauseReason"]
    if (pause is not None) != (status in PAUSES) or (pause is not None and pause not in PAUSES[status]):
        out.add("RUN_STATUS_PAUSE_REASON_INCONSISTENT", "pauseReason")
    terminal = status in TERMINALS
    reason = doc["terminalReason"]
    if (reason is not None) != terminal or (reason is not None and reason not in TERMINALS[status]):
        out.add("RUN_STATUS_TERMINAL_REASON_INCONSISTENT", "terminalReason")
    if (doc["endedAt"] is not None) != terminal:
        out.add("RUN_STATUS_TERMINAL_REASON_INCONSISTENT", "endedAt")
    calls = doc["toolCalls"]
    if status == "succeeded":
        for i, c in enumerate(calls):
            if c["status"] == "in-flight":
                out.add("RUN_SUCCESS_WITH_CALLS_IN_FLIGHT", "toolCalls", i, "status")
    usage, budget = doc["usage"], doc["budget"]
    if status == "running":
        for used, limit in USAGE:
            if usage[used] > budget[limit]:
                out.add("RUN_BUDGET_EXCEEDED_WHILE_RUNNING", "usage", used)
    if usage["toolCalls"] != len(calls):
        out.add("RUN_BUDGET_USAGE_MISCOUNTED", "usage", "toolCalls")
    if usage["retries"] != sum(1 for c in calls if c["retryOf"] is not None):
        out.add("RUN_BUDGET_USAGE_MISCOUNTED", "usage", "retries")
    loop = doc["loop"]
    if status == "running":
        for counter, threshold in LOOP:
            if loop[counter] >= loop["thresholds"][threshold]:
                out.add("RUN_LOOP_UNHANDLED", "loop", counter)
    if doc["mode"] == "until-done":
        if doc["controls"]["cancellable"] is not True:
            out.add("RUN_UNTIL_DONE_UNCONTROLLED", "controls", "cancellable")
        if doc["controls"]["takeoverChannel"] is None:
            out.add("RUN_UNTIL_DONE_UNCONTROLLED", "controls", "takeoverChannel")
    seen = {}
    for i, c in enumerate(calls):
        if c["callId"] in seen:
            out.add("RUN_TOOL_CALL_DUPLICATE", "toolCalls", i, "callId")
        else:
            seen[c["callId"]] = i
        failed = c["status"] == "failed"
        for m in ("errorClass", "errorCode"):
            if (c[m] is not None) != failed:
                out.add("RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "toolCalls", i, m)
        if c["query"] is not None and not (failed and c["errorClass"] == "unknown-outcome"):
            out.add("RUN_TOOL_CALL_OUTCOME_INCONSISTENT", "toolCalls", i, "query")
        if c["retryOf"] is None:
            continue
        earlier = next((j for j in range(i) if calls[j]["callId"] == c["retryOf"]), None)
        if earlier is None or calls[earlier]["toolName"] != c["toolName"]:
            out.add("RUN_TOOL_CALL_RETRY_UNKNOWN", "toolCalls", i, "retryOf")
            continue
        old = calls[earlier]
        unknown = old["status"] == "failed" and old["errorClass"] == "unknown-outcome"
        if unknown:
            q = old["query"]
            if q is None or q["resolution"] != "no-effect" or not _query_before(q, c):
                out.add("RUN_TOOL_CALL_BLIND_RETRY", "toolCalls", i, "retryOf")
        elif not (old["status"] == "failed" and old["errorClass"] == "transient"):
            out.add("RUN_TOOL_CALL_RETRY_NOT_RETRYABLE", "toolCalls", i, "retryOf")


def _query_before(query, call):
    """The query was made before the retry was called (when both times are recorded)."""
    from .rulekit import instant

    at = query.get("queriedAt") if isinstance(query, dict) else None
    if at is None or call.get("calledAt") is None:
        return True
    return instant(at) <= instant(call["calledAt"])


CONTRACTS = {"RunStateV1": check_run_state}
