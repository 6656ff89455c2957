"""The turn state machine: count, recovery check, edge (docs/spec/turn-liveness-recovery-gate.md#state-machine).

Pure: apply_event(state, event, context, now_ms) gives (code or None, new state, card or None).
A refused event still returns the counted state (and any card), which the caller persists.
"""

import copy
import re

from . import checkpoint as cp
from . import jcs
from .clock import format_ms, parse_ms
from .ids import derived_id
from .liveness_classify import TERMINAL_STATES, classify
from .liveness_state_check import checkpoint_keys

DEFAULT_THRESHOLDS = {"suspectAfterMs": 120000, "stalledAfterMs": 300000, "operationLeaseMs": 1800000}
# nextAction texts: the page names only "await PostToolUse"; the others are what the cases show.
NEXT_ACTION = {
    "turn-started": "await agent response",
    "tool": "await PostToolUse",
    "output": "await continuation ACK",
    "pre-compact": "await agent continuation after compaction",
    "completed": "none: turn completed",
    "error": "none: turn error",
    "interrupted": "none: turn interrupted",
}
UNSETTLED = "task-operation-unsettled"
UNSETTLED_ACTION = "reconcile-operation-before-completion"
TERMINAL_OF = {"Stop": ("completed", "host-stop"), "TurnError": ("error", "host-error"),
               "TurnInterrupted": ("interrupted", "host-interrupt")}
MAX_ARTIFACTS = 32
MAX_TARGETS = 20



_TURN_KEY_FORMAT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")


def _is_turn_layer_key(value):
    """Whether a host-supplied key is 1 to 256 characters of the turn layer's key format."""
    return isinstance(value, str) and len(value) <= 256 and _TURN_KEY_FORMAT.fullmatch(value) is not None

def unique(items):
    """Items in first-seen order without repeats (the schema's uniqueItems)."""
    out = []
    for i in items:
        if i not in out:
            out.append(i)
    return out


def normalise_thresholds(overrides):
    th = dict(DEFAULT_THRESHOLDS)
    for k in th:
        v = (overrides or {}).get(k)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
            th[k] = int(v)
    th["stalledAfterMs"] = max(th["stalledAfterMs"], th["suspectAfterMs"])
    return th


def fresh_state(now_ms, thresholds=None):
    return {
        "schemaVersion": "TurnLivenessStateV1", "state": "idle", "turnKey": None, "eventSequence": 0,
        "initializedAt": format_ms(now_ms), "startedAt": None, "lastEventType": None, "lastEventAt": None,
        "lastToolCallId": None, "lastToolOutputAt": None, "continuationAckAt": None, "inFlightOperation": None,
        "terminalAt": None, "terminalReason": None, "thresholds": normalise_thresholds(thresholds),
        "checkpoint": None, "checkpointValidation": None, "taskTraceId": None, "taskOperationSetDigest": None,
        "previousTurn": None, "lastRecoveryNoticeKey": None,
    }


def notice_key(turn_key, reference_at, prior_state, reason):
    return derived_id("turn-notice-", {"turnKey": turn_key, "referenceAt": reference_at,
                                       "priorState": prior_state, "reason": reason})


def make_checkpoint(turn_key, phase, operation_id, artifact_paths, next_action, at):
    resume, idem = checkpoint_keys(turn_key, operation_id)
    return {"schemaVersion": "CheckpointV1", "turnKey": turn_key, "phase": phase, "operationId": operation_id,
            "artifactPaths": list(artifact_paths), "nextAction": next_action, "resumeToken": resume,
            "idempotencyKey": idem, "recordedAt": at}


def _message(card):
    lease = " (lease %s)" % card["inFlightOperationId"] if card["inFlightOperationId"] else ""
    head = "Turn %s%s is %s (%s, %d ms after %s). No action was taken; " % (
        card["turnKey"], lease, card["priorState"], card["reason"], card["ageMs"], card["referenceAt"])
    idem = card["checkpoint"]["idempotencyKey"]
    phase = card["checkpoint"]["phase"]
    if idem:
        return head + "verify idempotency key %s against the operation record before the host resumes from checkpoint %s." % (idem, phase)
    return head + "the host may resume from checkpoint %s." % phase


def recovery_card(pre, t_ms, observer):
    """The card due for state `pre` classified at t, or None; never for a key already emitted."""
    if pre["state"] not in ("running", "awaiting-continuation"):
        return None
    c, reason, ref, age = classify(pre, t_ms)
    if c not in ("suspect", "stalled-recoverable"):
        return None
    key = notice_key(pre["turnKey"], ref, c, reason)
    last = pre["lastRecoveryNoticeKey"]
    if key == last:
        return None
    if c == "suspect":
        stalled_reason = "continuation-timeout" if reason == "continuation-grace-expired" else reason
        if last == notice_key(pre["turnKey"], ref, "stalled-recoverable", stalled_reason):
            return None  # D-TLR-26: no suspect card after the stalled card of the same condition
    lease = pre["inFlightOperation"]
    card = {
        "schemaVersion": "TurnRecoveryCardV1",
        "noticeKey": key,
        "observedAt": format_ms(t_ms),
        "turnKey": pre["turnKey"],
        "priorState": c,
        "reason": reason,
        "referenceAt": ref,
        "ageMs": age,
        "sourceStateDigest": jcs.digest_of(pre),
        "sourceEventSequence": pre["eventSequence"],
        "lastEventType": pre["lastEventType"],
        "lastEventAt": pre["lastEventAt"],
        "lastToolOutputAt": pre["lastToolOutputAt"],
        "continuationAckAt": pre["continuationAckAt"],
        "inFlightOperationId": lease["operationId"] if (lease and reason == "operation-lease-expired") else None,
        "checkpoint": copy.deepcopy(pre["checkpoint"]),
        "recommendedAction": "verify-idempotency-then-resume-via-host" if pre["checkpoint"]["idempotencyKey"]
        else "resume-from-checkpoint-via-host",
    }
    card["message"] = _message(card)
    card["capabilityBoundary"] = {"mode": "observation-only", "observer": observer, "stateMutation": False,
                                  "operationReplay": False, "processControl": False, "hostWakeup": False}
    return card


def _item(kind, event_type, seq, at, terminal_status=None):
    item = {"kind": kind, "eventType": event_type, "eventSequence": seq, "observedAt": at}
    if terminal_status is not None:
        item["terminalStatus"] = terminal_status
    return item


def _response_kind(event_type):
    return {"PostToolUse": "tool-output", "PreCompact": "pre-compact"}.get(event_type, "host-event")


def _revalidate(s, event_type, t, post_item, unresolved, refused_stop):
    at = format_ms(t)
    seq = s["eventSequence"]
    pe = s["checkpointValidation"]["postExecution"]
    evidence = list(pe["evidence"]) + ([post_item] if post_item else [])
    issues = list(pe["blockingIssues"])
    if refused_stop:
        issues = [UNSETTLED]
    elif not unresolved:
        issues = [i for i in issues if i != UNSETTLED]
    actions = [UNSETTLED_ACTION] if UNSETTLED in issues else None
    s["checkpointValidation"] = {
        "responseTime": cp.decide(s["turnKey"], "response-time", [_item(_response_kind(event_type), event_type, seq, at)],
                                  None, t),
        "postExecution": cp.decide(s["turnKey"], "post-execution", cp.cap_evidence(evidence), pe["deadlineAt"], t,
                                   issues, actions),
    }


def _ack(s, t):
    if s["state"] == "awaiting-continuation":
        s["continuationAckAt"] = format_ms(t)


def _start_turn(s, event, t):
    at = format_ms(t)
    turn_key = s["turnKey"]
    s["state"] = "running"
    s["startedAt"] = at
    for f in ("lastToolCallId", "lastToolOutputAt", "continuationAckAt", "inFlightOperation", "terminalAt",
              "terminalReason", "lastRecoveryNoticeKey"):
        s[f] = None
    s["checkpoint"] = make_checkpoint(turn_key, "turn-started", None, [], NEXT_ACTION["turn-started"], at)
    s["taskTraceId"] = event.get("taskTraceId") or derived_id("trace-", {"turnKey": turn_key, "openedAt": at})
    th = s["thresholds"]
    deadline = format_ms(t + th["operationLeaseMs"] + th["stalledAfterMs"])
    s["checkpointValidation"] = {
        "responseTime": cp.decide(turn_key, "response-time", [], None, t),
        "postExecution": cp.decide(turn_key, "post-execution", [], deadline, t),
    }


def apply_event(state, event, context, now_ms, observer="hook-event-time"):
    s = copy.deepcopy(state)
    pre = state
    etype = event["type"]
    at = event.get("at")
    host_t = parse_ms(at) if at is not None else now_ms
    floor = parse_ms(s["lastEventAt"] or s["initializedAt"])
    t = max(host_t, floor)
    at_s = format_ms(t)
    unresolved = bool(context.get("unresolvedOperation", False))
    # 1. count
    s["eventSequence"] += 1
    s["lastEventType"] = etype
    s["lastEventAt"] = at_s
    # 2. recovery check
    card = recovery_card(pre, t, context.get("observer") or observer)
    if card is not None:
        s["lastRecoveryNoticeKey"] = card["noticeKey"]
    # 3. edge
    st = s["state"]
    # TLR-500: copied after step 2, before the edge, by every event processed beyond counting:
    # every UserPromptSubmit (a refused one included) and every event while running or awaiting.
    if "taskOperationSetDigest" in context and (etype == "UserPromptSubmit" or st in ("running", "awaiting-continuation")):
        s["taskOperationSetDigest"] = context["taskOperationSetDigest"]
    if etype == "UserPromptSubmit":
        # A host-supplied key or trace id is stored in the state: one outside the turn layer's
        # key format is refused, never derived around (TLR-019).
        if "turnKey" in event and not _is_turn_layer_key(event["turnKey"]):
            return "TURN_KEY_INVALID", s, card
        if "taskTraceId" in event and not _is_turn_layer_key(event["taskTraceId"]):
            return "TURN_TRACE_ID_INVALID", s, card
        new_key = event.get("turnKey") or derived_id("turn-", {"sessionKey": event.get("sessionKey"),
                                                                "eventSequence": s["eventSequence"],
                                                                "startedAt": at_s})
        previous = s["previousTurn"]
        if new_key == s["turnKey"] or (previous is not None and new_key == previous["turnKey"]):
            return "TURN_KEY_REUSED", s, card
        if st in ("running", "awaiting-continuation"):
            reason = "stale-turn-recovered-by-new-prompt" if s["lastRecoveryNoticeKey"] else "superseded-by-new-prompt"
            s["previousTurn"] = {"turnKey": s["turnKey"], "terminalState": "interrupted", "terminalAt": at_s,
                                 "reason": reason}
        elif st in TERMINAL_STATES:
            s["previousTurn"] = {"turnKey": s["turnKey"], "terminalState": st, "terminalAt": s["terminalAt"],
                                 "reason": s["terminalReason"]}
        s["turnKey"] = new_key
        _start_turn(s, event, t)
        _revalidate(s, etype, t, None, unresolved, False)
        return None, s, card
    if st == "idle":
        return "TURN_NOT_STARTED", s, card
    if st in TERMINAL_STATES:
        return "TURN_TERMINAL_FINAL", s, card
    lease = s["inFlightOperation"]
    code = None
    post_item = None
    refused_stop = False
    if etype == "PreToolUse":
        if event["hostDecision"] != "allowed":
            _ack(s, t)
            s["state"] = "running"
            code = "TURN_LEASE_NOT_HOST_ALLOWED"
        elif st == "running" and lease is not None:
            code = "TURN_OPERATION_LEASE_HELD"
        else:
            _ack(s, t)
            s["state"] = "running"
            s["inFlightOperation"] = {
                "operationId": event["operationId"], "toolName": event["toolName"], "ownedByAgent": True,
                "hostDecision": "allowed", "mutating": bool(event["mutating"]),
                "targetPaths": unique(event.get("targetPaths") or [])[:MAX_TARGETS], "startedAt": at_s,
                "leaseExpiresAt": format_ms(t + s["thresholds"]["operationLeaseMs"]),
                "operationRecordDigest": event.get("operationRecordDigest"),
            }
            s["checkpoint"] = make_checkpoint(s["turnKey"], "tool:" + event["toolName"], event["operationId"],
                                              s["checkpoint"]["artifactPaths"], NEXT_ACTION["tool"], at_s)
    elif etype == "PostToolUse":
        op = event["operationId"]
        if st == "running" and lease is not None and op == lease["operationId"]:
            s["state"] = "awaiting-continuation"
            s["lastToolCallId"] = op
            s["lastToolOutputAt"] = at_s
            s["continuationAckAt"] = None
            s["inFlightOperation"] = None
            mutated = event.get("mutatedTargets")
            paths = list(s["checkpoint"]["artifactPaths"])
            # the event's mutatedTargets when given (even []), else a mutating lease's targets
            for p in (mutated if mutated is not None else lease["targetPaths"] if lease["mutating"] else []):
                if p not in paths and len(paths) < MAX_ARTIFACTS:
                    paths.append(p)
            phase = "tool-error-observed" if event.get("outcome") == "error" else "tool-output-persisted"
            s["checkpoint"] = make_checkpoint(s["turnKey"], phase, op, paths, NEXT_ACTION["output"], at_s)
            post_item = _item("tool-output", "PostToolUse", s["eventSequence"], at_s)
        elif op == s["lastToolCallId"]:
            pass  # a duplicate delivery moves nothing but the count
        else:
            code = "TURN_TOOL_OUTPUT_UNMATCHED"
    elif etype == "PreCompact":
        _ack(s, t)
        s["state"] = "running"
        s["checkpoint"] = make_checkpoint(s["turnKey"], "pre-compact", lease["operationId"] if lease else None,
                                          s["checkpoint"]["artifactPaths"], NEXT_ACTION["pre-compact"], at_s)
        post_item = _item("pre-compact", "PreCompact", s["eventSequence"], at_s)
    elif etype in TERMINAL_OF:
        status, reason = TERMINAL_OF[etype]
        if etype == "Stop" and unresolved:
            code = "TURN_TERMINAL_OPERATIONS_UNSETTLED"
            refused_stop = True
        else:
            _ack(s, t)
            s["state"] = status
            s["inFlightOperation"] = None
            s["terminalAt"] = at_s
            s["terminalReason"] = reason
            s["checkpoint"] = make_checkpoint(s["turnKey"], "terminal:" + status, None,
                                              s["checkpoint"]["artifactPaths"], NEXT_ACTION[status], at_s)
            post_item = _item("host-terminal-event", etype, s["eventSequence"], at_s, status)
    else:  # UnknownHostEvent
        _ack(s, t)
        s["state"] = "running"
    _revalidate(s, etype, t, post_item, unresolved, refused_stop)
    return code, s, card


def watchdog(state, now_ms):
    """A host-native watchdog tick: (state, card); classifies at max(clock, lastEventAt)."""
    if state["state"] not in ("running", "awaiting-continuation"):
        return state, None
    t = max(now_ms, parse_ms(state["lastEventAt"]))
    card = recovery_card(state, t, "host-native-watchdog")
    if card is None:
        return state, None
    s = copy.deepcopy(state)
    s["lastRecoveryNoticeKey"] = card["noticeKey"]
    return s, card
