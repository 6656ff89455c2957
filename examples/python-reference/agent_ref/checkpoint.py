"""checkpoint.validate: the decision table of CheckpointValidationResultV1.

docs/spec/turn-liveness-recovery-gate.md#decision-table, with the evidence cap of D-TLR-21 and
the clock raised to the latest evidence time (D-TLR-27). Pure: the liveness area reuses it.
"""

from .clock import format_ms, is_utc_timestamp, parse_instant_ns, parse_ms
from .errors import InvalidParams, Refusal

MODES = ("response-time", "post-execution")
NON_TERMINAL_KINDS = ("host-event", "tool-output", "pre-compact", "sidecar-observation")
TERMINAL_KINDS = ("host-terminal-event", "host-native-terminal-status")
HOST_EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "Stop", "TurnError",
               "TurnInterrupted", "UnknownHostEvent")
TERMINAL_STATUS_OF = {"Stop": "completed", "TurnError": "error", "TurnInterrupted": "interrupted"}
MAX_EVIDENCE = 16


def inconsistent(message):
    return Refusal("TURN_CHECKPOINT_VALIDATION_INCONSISTENT", message,
                   requiredActions=["recompute-from-valid-inputs"])


def check_item(item):
    """Invariant 3 and the item's shape; raises TURN_CHECKPOINT_VALIDATION_INCONSISTENT."""
    if not isinstance(item, dict):
        raise inconsistent("an evidence item is not an object")
    kind = item.get("kind")
    event_type = item.get("eventType")
    seq = item.get("eventSequence")
    terminal = kind in TERMINAL_KINDS
    allowed = {"kind", "eventType", "eventSequence", "observedAt"} | ({"terminalStatus"} if terminal else set())
    if kind not in NON_TERMINAL_KINDS + TERMINAL_KINDS or set(item) != allowed:
        raise inconsistent("an evidence item has an unknown kind or the wrong members")
    if event_type not in HOST_EVENTS or isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
        raise inconsistent("an evidence item has a bad eventType or eventSequence")
    if not is_utc_timestamp(item.get("observedAt")):
        raise inconsistent("an evidence item's observedAt is not an RFC 3339 UTC timestamp")
    if kind == "tool-output" and event_type != "PostToolUse":
        raise inconsistent("a tool-output item must be a PostToolUse")
    if kind == "pre-compact" and event_type != "PreCompact":
        raise inconsistent("a pre-compact item must be a PreCompact")
    if kind == "sidecar-observation" and event_type != "UnknownHostEvent":
        raise inconsistent("a sidecar-observation item has eventType UnknownHostEvent")
    if kind == "host-terminal-event" and TERMINAL_STATUS_OF.get(event_type) != item.get("terminalStatus"):
        raise inconsistent("a host-terminal-event item's terminalStatus does not go with its eventType")
    if kind == "host-native-terminal-status":
        if event_type != "UnknownHostEvent" or item.get("terminalStatus") not in ("completed", "error", "interrupted"):
            raise inconsistent("a host-native-terminal-status item is malformed")


def cap_evidence(items):
    """At most 16 items: the oldest non-terminal items go first, terminal items stay (D-TLR-21)."""
    items = list(items)
    while len(items) > MAX_EVIDENCE:
        for i, item in enumerate(items):
            if item["kind"] not in TERMINAL_KINDS:
                del items[i]
                break
        else:
            del items[0]
    return items


def decide(turn_key, mode, evidence, deadline_at, now_ms, blocking_issues=(), required_actions=None):
    """The result document; mode and items are already checked. now is raised to the evidence."""
    latest = now_ms
    for item in evidence:
        latest = max(latest, parse_ms(item["observedAt"]))
    observed_at = format_ms(latest)
    any_evidence = len(evidence) > 0
    qualifying = any(mode == "response-time" or e["kind"] in TERMINAL_KINDS for e in evidence)
    backed = "source-backed" if any_evidence else "unverified"
    if blocking_issues:
        row = ("blocked", True, backed, None, list(required_actions) if required_actions else list(blocking_issues))
    elif qualifying:
        row = ("pass", False, "verified", None, [])
    elif mode == "post-execution" and deadline_at is not None and \
            parse_instant_ns(observed_at) >= parse_instant_ns(deadline_at):
        row = ("incomplete-timeout", True, backed, "TRACE_COMPLETION_TIMEOUT", ["record-timeout-and-recover"])
    else:
        row = ("unverified", mode == "post-execution", backed, "HOST_RESULT_INCOMPLETE", ["collect-" + mode + "-evidence"])
    status, blocking, evidence_state, error_code, actions = row
    return {
        "schemaVersion": "CheckpointValidationResultV1",
        "turnKey": turn_key,
        "mode": mode,
        "evidence": [dict(e) for e in evidence],
        "blockingIssues": list(blocking_issues),
        "observedAt": observed_at,
        "deadlineAt": deadline_at,
        "status": status,
        "blocking": blocking,
        "evidenceState": evidence_state,
        "requiredActions": actions,
        "errorCode": error_code,
    }


def _codes(value, name):
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidParams("checkpoint.validate: " + name + " must be an array of strings")
    return value


def validate(params, now_ms):
    mode = params.get("mode")
    if mode not in MODES:
        raise Refusal("CHECKPOINT_MODE_INVALID", "mode must be response-time or post-execution",
                      requiredActions=["select-response-time-or-post-execution-mode"])
    turn_key = params.get("turnKey")
    if not isinstance(turn_key, str):
        raise InvalidParams("checkpoint.validate: turnKey must be a string")
    evidence = params.get("evidence")
    if not isinstance(evidence, list):
        raise InvalidParams("checkpoint.validate: evidence must be an array")
    for item in evidence:
        check_item(item)
    deadline_at = params.get("deadlineAt")
    if mode == "post-execution" and not is_utc_timestamp(deadline_at):
        raise inconsistent("post-execution needs a deadlineAt")
    if mode == "response-time" and deadline_at is not None:
        raise inconsistent("response-time has no deadlineAt")
    return decide(turn_key, mode, cap_evidence(evidence), deadline_at, now_ms,
                  _codes(params.get("blockingIssues"), "blockingIssues"),
                  _codes(params.get("requiredActions"), "requiredActions"))


def methods(server):
    return {"checkpoint.validate": lambda params: validate(params, server.clock.now_ms())}
