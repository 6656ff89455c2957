"""classify(state, now): the classification table of TurnLivenessStateV1 (pure)."""

from .clock import parse_ms

TERMINAL_STATES = ("completed", "error", "interrupted")


def classify(state, now_ms):
    """(classification, reason, referenceAt string or None, ageMs or None)."""
    s = state["state"]
    if s in TERMINAL_STATES:
        return s, "terminal-state", None, None
    if s == "idle":
        return "idle", "idle", None, None
    th = state["thresholds"]
    lease = state["inFlightOperation"]
    if lease is not None:
        ref = lease["leaseExpiresAt"]
        ref_ms = parse_ms(ref)
        age = max(0, now_ms - ref_ms)
        if now_ms < ref_ms:
            return "running", "active-operation-lease", ref, age
        if age < th["stalledAfterMs"]:
            return "suspect", "operation-lease-expired", ref, age
        return "stalled-recoverable", "operation-lease-expired", ref, age
    if s == "awaiting-continuation":
        ref = state["lastToolOutputAt"]
        age = max(0, now_ms - parse_ms(ref))
        if age < th["suspectAfterMs"]:
            return "awaiting-continuation", "within-grace", ref, age
        if age < th["stalledAfterMs"]:
            return "suspect", "continuation-grace-expired", ref, age
        return "stalled-recoverable", "continuation-timeout", ref, age
    ref = state["lastEventAt"]
    age = max(0, now_ms - parse_ms(ref))
    if age < th["operationLeaseMs"]:
        return "running", "agent-turn-within-lease", ref, age
    if age < th["operationLeaseMs"] + th["stalledAfterMs"]:
        return "suspect", "agent-turn-lease-expired", ref, age
    return "stalled-recoverable", "agent-turn-lease-expired", ref, age


def classify_result(state, now_ms):
    c, reason, ref, age = classify(state, now_ms)
    return {"classification": c, "reason": reason, "referenceAt": ref, "ageMs": age}


