"""Validation of a stored TurnLivenessStateV1: its schema, then invariants 1-12 of the gate page.

Returns issues as {code, path}; an empty list means valid. Used by rehydration (a state read from
disk or handed to liveness.rehydrate is validated, never repaired).
"""

from . import checkpoint as cp
from .clock import parse_instant_ns, parse_ms
from .ids import derived_id
from .liveness_classify import TERMINAL_STATES
from .schema_check import check_contract

REASON_OF = {"completed": "host-stop", "error": "host-error", "interrupted": "host-interrupt"}
PREVIOUS_REASONS = {
    "completed": ("host-stop",),
    "error": ("host-error",),
    "interrupted": ("host-interrupt", "superseded-by-new-prompt", "stale-turn-recovered-by-new-prompt"),
}


def checkpoint_keys(turn_key, operation_id):
    resume = derived_id("resume-", {"purpose": "resume", "turnKey": turn_key, "operationId": operation_id})
    idem = None if operation_id is None else derived_id(
        "idem-", {"purpose": "idempotency", "turnKey": turn_key, "operationId": operation_id})
    return resume, idem


def _le(a, b):
    return a is None or b is None or parse_instant_ns(a) <= parse_instant_ns(b)


def _validation_consistent(v):
    """Invariant 12 over one embedded CheckpointValidationResultV1: it equals the decision table."""
    try:
        for item in v["evidence"]:
            cp.check_item(item)
        if v["mode"] == "post-execution" and v["deadlineAt"] is None:
            return False
        if v["mode"] == "response-time" and v["deadlineAt"] is not None:
            return False
        for item in v["evidence"]:
            if parse_instant_ns(item["observedAt"]) > parse_instant_ns(v["observedAt"]):
                return False
        again = cp.decide(v["turnKey"], v["mode"], v["evidence"], v["deadlineAt"], parse_ms(v["observedAt"]),
                          v["blockingIssues"], v["requiredActions"] or None)
    except Exception:
        return False
    if v["status"] == "blocked":
        return again["status"] == "blocked" and v["blocking"] is True and len(v["requiredActions"]) > 0 and \
            v["evidenceState"] == again["evidenceState"] and v["errorCode"] is None
    return all(v[k] == again[k] for k in ("status", "blocking", "evidenceState", "errorCode", "requiredActions"))


def invariants(s):
    issues = []

    def bad(code, path=""):
        issues.append({"code": code, "path": path})

    th = s["thresholds"]
    if th["stalledAfterMs"] < th["suspectAfterMs"]:
        bad("TURN_THRESHOLDS_INVALID", "/thresholds")
    state = s["state"]
    turn_fields = ("turnKey", "startedAt", "checkpoint", "checkpointValidation", "taskTraceId", "previousTurn",
                   "inFlightOperation", "lastToolCallId", "lastToolOutputAt", "continuationAckAt", "terminalAt",
                   "terminalReason", "lastRecoveryNoticeKey")
    if state == "idle":
        if any(s[f] is not None for f in turn_fields):
            bad("TURN_EVENT_EVIDENCE_MISSING")
        return issues
    if any(s[f] is None for f in ("turnKey", "startedAt", "lastEventType", "lastEventAt", "checkpoint",
                                  "checkpointValidation", "taskTraceId")) or s["eventSequence"] < 1:
        bad("TURN_EVENT_EVIDENCE_MISSING")
        return issues
    started = s["startedAt"]
    last = s["lastEventAt"]
    order = [(s["initializedAt"], started), (started, last)]
    for f in ("lastToolOutputAt", "continuationAckAt", "terminalAt"):
        order += [(started, s[f]), (s[f], last)]
    if s["previousTurn"] is not None:
        order.append((s["previousTurn"]["terminalAt"], started))
    if not all(_le(a, b) for a, b in order):
        bad("TURN_EVENT_ORDER_INVALID")
    lease = s["inFlightOperation"]
    if state == "awaiting-continuation":
        ack = s["continuationAckAt"]
        if s["lastToolOutputAt"] is None or s["lastToolCallId"] is None or lease is not None or (
                ack is not None and parse_instant_ns(ack) >= parse_instant_ns(s["lastToolOutputAt"])):
            bad("TURN_AWAITING_STATE_INVALID")
    if lease is not None:
        if state != "running" or parse_instant_ns(lease["startedAt"]) < parse_instant_ns(started) or \
                parse_ms(lease["leaseExpiresAt"]) != parse_ms(lease["startedAt"]) + th["operationLeaseMs"]:
            bad("TURN_OPERATION_LEASE_INVALID", "/inFlightOperation")
    terminal = state in TERMINAL_STATES
    if terminal and lease is not None:
        bad("TURN_TERMINAL_LEASE_NOT_CLEARED", "/inFlightOperation")
    if terminal != (s["terminalAt"] is not None) or terminal != (s["terminalReason"] is not None) or (
            terminal and s["terminalReason"] != REASON_OF[state]):
        bad("TURN_TERMINAL_FIELDS_INVALID")
    prev = s["previousTurn"]
    if prev is not None:
        if prev["reason"] not in PREVIOUS_REASONS[prev["terminalState"]]:
            bad("TURN_TERMINAL_FIELDS_INVALID", "/previousTurn")
        if prev["turnKey"] == s["turnKey"]:
            bad("TURN_KEY_REUSED", "/previousTurn/turnKey")
    c = s["checkpoint"]
    v = s["checkpointValidation"]
    rt, pe = v["responseTime"], v["postExecution"]
    deadline = parse_ms(started) + th["operationLeaseMs"] + th["stalledAfterMs"]
    if c["turnKey"] != s["turnKey"] or rt["turnKey"] != s["turnKey"] or pe["turnKey"] != s["turnKey"] or \
            rt["mode"] != "response-time" or pe["mode"] != "post-execution" or \
            pe["deadlineAt"] is None or parse_ms(pe["deadlineAt"]) != deadline:
        bad("TURN_CHECKPOINT_BINDING_MISMATCH", "/checkpointValidation")
    phase = c["phase"]
    if lease is not None and (c["operationId"] != lease["operationId"] or
                              phase not in ("tool:" + lease["toolName"], "pre-compact")):
        bad("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/phase")
    if terminal and (phase != "terminal:" + state or c["operationId"] is not None):
        bad("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/phase")
    if (phase.startswith("tool:") or phase in ("tool-output-persisted", "tool-error-observed")) and \
            c["operationId"] is None:
        bad("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/operationId")
    if (phase == "turn-started" or phase.startswith("terminal:")) and c["operationId"] is not None:
        bad("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/operationId")
    if pe["status"] == "pass" and not (terminal and any(
            e["kind"] in cp.TERMINAL_KINDS and e.get("terminalStatus") == state for e in pe["evidence"])):
        bad("TURN_TERMINAL_EVIDENCE_REQUIRED", "/checkpointValidation/postExecution/status")
    if terminal and pe["status"] != "pass" and not (pe["status"] == "blocked" and pe["blockingIssues"]):
        bad("TURN_TERMINAL_EVIDENCE_REQUIRED", "/checkpointValidation/postExecution/status")
    if not _validation_consistent(rt) or not _validation_consistent(pe):
        bad("TURN_CHECKPOINT_VALIDATION_INCONSISTENT", "/checkpointValidation")
    resume, idem = checkpoint_keys(c["turnKey"], c["operationId"])
    if c["resumeToken"] != resume or c["idempotencyKey"] != idem:
        bad("TURN_CHECKPOINT_KEY_MISMATCH", "/checkpoint")
    return issues


def validate_state(doc):
    """Issues of a stored state document ([] when valid)."""
    if not isinstance(doc, dict):
        return [{"code": "TURN_STATE_INVALID", "path": ""}]
    schema_issues = check_contract("TurnLivenessStateV1", doc)
    if schema_issues:
        return [{"code": "SCHEMA_" + kw.upper(), "path": path} for path, kw in schema_issues]
    return invariants(doc)
