"""TurnLivenessRecoveryGate (docs/spec/turn-liveness-recovery-gate.md): TurnLivenessContractV1,
TurnLivenessStateV1, TurnLivenessEvidenceV1, TurnRecoveryCardV1, CheckpointV1,
CheckpointValidationResultV1 and the bundles `turn-state-evidence`, `turn-state-card`,
`turn-recovery-cards` and `checkpoint-operation`.

The classification and the decision table are those the liveness area serves
(agent_ref/liveness_classify.py, agent_ref/checkpoint.py); the gate compares times at millisecond
precision.
"""

from . import checkpoint as cp
from .clock import parse_ms
from .errors import Refusal
from .liveness_classify import TERMINAL_STATES, classify
from .liveness_state_check import PREVIOUS_REASONS, REASON_OF, checkpoint_keys
from .rulekit import derived, digest, without

ms = parse_ms


def _le(a, b):
    return a is None or b is None or ms(a) <= ms(b)


# -- CheckpointV1 ----------------------------------------------------------------------------

def check_checkpoint(c, out, base=""):
    resume, idem = checkpoint_keys(c["turnKey"], c["operationId"])
    if c["resumeToken"] != resume:
        out.add("TURN_CHECKPOINT_KEY_MISMATCH", base + "/resumeToken")
    if c["idempotencyKey"] != idem:
        out.add("TURN_CHECKPOINT_KEY_MISMATCH", base + "/idempotencyKey")
    phase = c["phase"]
    if (phase.startswith("tool:") or phase in ("tool-output-persisted", "tool-error-observed")) and c["operationId"] is None:
        out.add("TURN_CHECKPOINT_PHASE_INVALID", base + "/operationId")
    if (phase == "turn-started" or phase.startswith("terminal:")) and c["operationId"] is not None:
        out.add("TURN_CHECKPOINT_PHASE_INVALID", base + "/operationId")


# -- CheckpointValidationResultV1 ------------------------------------------------------------

def check_validation(v, out, base=""):
    bad = "TURN_CHECKPOINT_VALIDATION_INCONSISTENT"
    items_ok = True
    for i, item in enumerate(v["evidence"]):
        try:
            cp.check_item(item)
        except Refusal:
            out.add(bad, base + "/evidence/%d/eventType" % i)
            items_ok = False
        if ms(item["observedAt"]) > ms(v["observedAt"]):
            out.add(bad, base + "/evidence/%d/observedAt" % i)
            items_ok = False
    if (v["deadlineAt"] is None) != (v["mode"] == "response-time"):
        out.add(bad, base + "/deadlineAt")
        items_ok = False
    terminal_item = any(e["kind"] in cp.TERMINAL_KINDS for e in v["evidence"])
    if v["mode"] == "post-execution" and v["status"] == "pass" and not terminal_item:
        out.add("TURN_TERMINAL_EVIDENCE_REQUIRED", base + "/status")
        return
    if not items_ok:
        return
    again = cp.decide(v["turnKey"], v["mode"], v["evidence"], v["deadlineAt"], ms(v["observedAt"]), v["blockingIssues"], v["requiredActions"] or None)
    for field in ("status", "blocking", "evidenceState", "errorCode", "requiredActions"):
        if field == "requiredActions" and again["status"] == "blocked":
            ok = len(v["requiredActions"]) > 0
        else:
            ok = v[field] == again[field] and type(v[field]) is type(again[field])
        if not ok:
            out.add(bad, base + "/" + field)


# -- TurnLivenessContractV1 ------------------------------------------------------------------

def check_contract(doc, out):
    if doc["contractDigest"] != digest(without(doc, "contractDigest")):
        out.add("TURN_CONTRACT_DIGEST_MISMATCH", "/contractDigest")
    th = doc["thresholds"]
    if th["stalledAfterMs"] < th["suspectAfterMs"]:
        out.add("TURN_THRESHOLDS_INVALID", "/thresholds/stalledAfterMs")
    if doc["checkpointValidation"]["postExecutionDeadlineMs"] != th["operationLeaseMs"] + th["stalledAfterMs"]:
        out.add("TURN_CONTRACT_ROW_INVALID", "/checkpointValidation/postExecutionDeadlineMs")
    mapped = doc["eventEvidence"]["mappedEvents"]
    if not all(e in mapped for e in ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")):
        out.add("TURN_CONTRACT_ROW_INVALID", "/eventEvidence/mappedEvents")
    w = doc["capabilityBoundary"]["hostNativeWatchdog"]
    if w["detectsWithoutEvent"] is True and w["status"] != "host-native-verified":
        out.add("TURN_CONTRACT_ROW_INVALID", "/capabilityBoundary/hostNativeWatchdog/detectsWithoutEvent")
    if not all(s in doc["validation"]["faultScenarios"] for s in ("no-continuation", "active-lease", "restart-rehydrate", "duplicate-recovery")):
        out.add("TURN_FAULT_MATRIX_INCOMPLETE", "/validation/faultScenarios")


# -- TurnLivenessStateV1 ---------------------------------------------------------------------

TURN_FIELDS = ("turnKey", "startedAt", "checkpoint", "checkpointValidation", "taskTraceId", "previousTurn", "inFlightOperation", "lastToolCallId", "lastToolOutputAt", "continuationAckAt", "terminalAt", "terminalReason", "lastRecoveryNoticeKey")
STARTED_FIELDS = ("turnKey", "startedAt", "lastEventType", "lastEventAt", "checkpoint", "checkpointValidation", "taskTraceId")


def check_state(s, out):
    th = s["thresholds"]
    if th["stalledAfterMs"] < th["suspectAfterMs"]:
        out.add("TURN_THRESHOLDS_INVALID", "/thresholds/stalledAfterMs")
    state = s["state"]
    if state == "idle":
        for f in TURN_FIELDS:
            if s[f] is not None:
                out.add("TURN_EVENT_EVIDENCE_MISSING", "/" + f)
        return
    missing = [f for f in STARTED_FIELDS if s[f] is None]
    for f in missing:
        out.add("TURN_EVENT_EVIDENCE_MISSING", "/" + f)
    if s["eventSequence"] < 1:
        out.add("TURN_EVENT_EVIDENCE_MISSING", "/eventSequence")
    if missing:
        return
    started, last = s["startedAt"], s["lastEventAt"]
    if not _le(s["initializedAt"], started):
        out.add("TURN_EVENT_ORDER_INVALID", "/startedAt")
    if not _le(started, last):
        out.add("TURN_EVENT_ORDER_INVALID", "/lastEventAt")
    for f in ("lastToolOutputAt", "continuationAckAt", "terminalAt"):
        if not (_le(started, s[f]) and _le(s[f], last)):
            out.add("TURN_EVENT_ORDER_INVALID", "/" + f)
    prev = s["previousTurn"]
    if prev is not None and not _le(prev["terminalAt"], started):
        out.add("TURN_EVENT_ORDER_INVALID", "/previousTurn/terminalAt")
    lease = s["inFlightOperation"]
    if state == "awaiting-continuation":
        for f in ("lastToolOutputAt", "lastToolCallId"):
            if s[f] is None:
                out.add("TURN_AWAITING_STATE_INVALID", "/" + f)
        if lease is not None:
            out.add("TURN_AWAITING_STATE_INVALID", "/inFlightOperation")
        ack = s["continuationAckAt"]
        if ack is not None and s["lastToolOutputAt"] is not None and ms(ack) >= ms(s["lastToolOutputAt"]):
            out.add("TURN_AWAITING_STATE_INVALID", "/continuationAckAt")
    terminal = state in TERMINAL_STATES
    if lease is not None:
        if terminal:
            out.add("TURN_TERMINAL_LEASE_NOT_CLEARED", "/inFlightOperation")
        elif state != "running":
            out.add("TURN_OPERATION_LEASE_INVALID", "/inFlightOperation")
        if ms(lease["startedAt"]) < ms(started):
            out.add("TURN_OPERATION_LEASE_INVALID", "/inFlightOperation/startedAt")
        if ms(lease["leaseExpiresAt"]) != ms(lease["startedAt"]) + th["operationLeaseMs"]:
            out.add("TURN_OPERATION_LEASE_INVALID", "/inFlightOperation/leaseExpiresAt")
    if terminal != (s["terminalAt"] is not None):
        out.add("TURN_TERMINAL_FIELDS_INVALID", "/terminalAt")
    if terminal != (s["terminalReason"] is not None) or (terminal and s["terminalReason"] != REASON_OF[state]):
        out.add("TURN_TERMINAL_FIELDS_INVALID", "/terminalReason")
    if prev is not None:
        if prev["reason"] not in PREVIOUS_REASONS[prev["terminalState"]]:
            out.add("TURN_TERMINAL_FIELDS_INVALID", "/previousTurn/reason")
        if prev["turnKey"] == s["turnKey"]:
            out.add("TURN_KEY_REUSED", "/previousTurn/turnKey")
    c, v = s["checkpoint"], s["checkpointValidation"]
    rt, pe = v["responseTime"], v["postExecution"]
    bind = "TURN_CHECKPOINT_BINDING_MISMATCH"
    for path, doc in (("/checkpoint/turnKey", c), ("/checkpointValidation/responseTime/turnKey", rt), ("/checkpointValidation/postExecution/turnKey", pe)):
        if doc["turnKey"] != s["turnKey"]:
            out.add(bind, path)
    if rt["mode"] != "response-time":
        out.add(bind, "/checkpointValidation/responseTime/mode")
    if pe["mode"] != "post-execution":
        out.add(bind, "/checkpointValidation/postExecution/mode")
    if pe["deadlineAt"] is None or ms(pe["deadlineAt"]) != ms(started) + th["operationLeaseMs"] + th["stalledAfterMs"]:
        out.add(bind, "/checkpointValidation/postExecution/deadlineAt")
    phase = c["phase"]
    if lease is not None and not terminal:  # a lease kept in a terminal state is invariant 6 alone (D-TLR-58)
        if c["operationId"] != lease["operationId"]:
            out.add("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/operationId")
        if phase not in ("tool:" + lease["toolName"], "pre-compact"):
            out.add("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/phase")
    if terminal:
        if phase != "terminal:" + state:
            out.add("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/phase")
        if c["operationId"] is not None:
            out.add("TURN_CHECKPOINT_PHASE_INVALID", "/checkpoint/operationId")
    pe_path = "/checkpointValidation/postExecution/status"
    if pe["status"] == "pass" and not (terminal and any(e["kind"] in cp.TERMINAL_KINDS and e.get("terminalStatus") == state for e in pe["evidence"])):
        out.add("TURN_TERMINAL_EVIDENCE_REQUIRED", pe_path)
    if terminal and pe["status"] != "pass" and not (pe["status"] == "blocked" and pe["blockingIssues"]):
        out.add("TURN_TERMINAL_EVIDENCE_REQUIRED", pe_path)
    check_validation(rt, out, "/checkpointValidation/responseTime")
    check_validation(pe, out, "/checkpointValidation/postExecution")
    check_checkpoint(c, out, "/checkpoint")


# -- TurnLivenessEvidenceV1, TurnRecoveryCardV1 -----------------------------------------------

def check_evidence(doc, out):
    state_like = {"state": doc["persistedState"], "inFlightOperation": doc["inFlightOperation"], "lastToolOutputAt": doc["lastToolOutputAt"], "lastEventAt": doc["lastEventAt"], "thresholds": doc["thresholds"]}
    try:
        c, reason, ref, age = classify(state_like, ms(doc["observedAt"]))
    except (TypeError, KeyError):
        out.add("TURN_EVIDENCE_CLASSIFICATION_MISMATCH", "/classification")
        return
    if doc["classification"] != c:
        out.add("TURN_EVIDENCE_CLASSIFICATION_MISMATCH", "/classification")
    if doc["reason"] != reason:
        out.add("TURN_EVIDENCE_CLASSIFICATION_MISMATCH", "/reason")
    if (doc["referenceAt"] is None) != (ref is None) or (ref is not None and ms(doc["referenceAt"]) != ms(ref)):
        out.add("TURN_EVIDENCE_CLASSIFICATION_MISMATCH", "/referenceAt")
    elapsed = None if ref is None else max(0, ms(doc["observedAt"]) - ms(ref))
    if doc["elapsedMs"] != elapsed:
        out.add("TURN_EVIDENCE_CLASSIFICATION_MISMATCH", "/elapsedMs")
    if doc["checkpoint"] is not None:
        check_checkpoint(doc["checkpoint"], out, "/checkpoint")


def check_card(doc, out):
    key = derived("turn-notice-", {"turnKey": doc["turnKey"], "referenceAt": doc["referenceAt"], "priorState": doc["priorState"], "reason": doc["reason"]})
    if doc["noticeKey"] != key:
        out.add("TURN_RECOVERY_NOTICE_KEY_MISMATCH", "/noticeKey")
    bad = "TURN_RECOVERY_CARD_INCONSISTENT"
    age = ms(doc["observedAt"]) - ms(doc["referenceAt"])
    if doc["ageMs"] != age or age < 0:
        out.add(bad, "/ageMs")
    pairs = {"continuation-grace-expired": ("suspect",), "continuation-timeout": ("stalled-recoverable",)}
    if doc["priorState"] not in pairs.get(doc["reason"], ("suspect", "stalled-recoverable")):
        out.add(bad, "/reason")
    if (doc["inFlightOperationId"] is not None) != (doc["reason"] == "operation-lease-expired"):
        out.add(bad, "/inFlightOperationId")
    if doc["checkpoint"]["turnKey"] != doc["turnKey"]:
        out.add(bad, "/checkpoint/turnKey")
    if ms(doc["lastEventAt"]) > ms(doc["observedAt"]):
        out.add(bad, "/lastEventAt")
    if (doc["recommendedAction"] == "verify-idempotency-then-resume-via-host") != (doc["checkpoint"]["idempotencyKey"] is not None):
        out.add(bad, "/recommendedAction")
    check_checkpoint(doc["checkpoint"], out, "/checkpoint")


# -- bundles ---------------------------------------------------------------------------------

EVIDENCE_COPIES = ("turnKey", "startedAt", "lastEventType", "lastEventAt", "lastToolOutputAt", "continuationAckAt", "inFlightOperation", "thresholds", "checkpoint", "checkpointValidation", "taskTraceId")
CARD_COPIES = ("turnKey", "lastEventType", "lastEventAt", "lastToolOutputAt", "continuationAckAt", "checkpoint")


def check_state_evidence(documents, out, judge):
    """[state, evidence, optional state read again]."""
    if len(documents) not in (2, 3):
        out.add("BUNDLE_INVALID", "/documents")
        return
    kinds = ["TurnLivenessStateV1", "TurnLivenessEvidenceV1", "TurnLivenessStateV1"][: len(documents)]
    if not all([judge(i, k) for i, k in enumerate(kinds)]):
        return
    state, ev = documents[0], documents[1]
    code = "TURN_EVIDENCE_SOURCE_MISMATCH"
    if ev["sourceStateDigest"] != digest(state):
        out.add(code, "/documents/1/sourceStateDigest")
    if ev["sourceEventSequence"] != state["eventSequence"]:
        out.add(code, "/documents/1/sourceEventSequence")
    if ev["persistedState"] != state["state"]:
        out.add(code, "/documents/1/persistedState")
    for f in EVIDENCE_COPIES:
        if digest(ev[f]) != digest(state[f]):
            out.add(code, "/documents/1/" + f)
    if len(documents) == 3 and digest(documents[2]) != digest(state):
        out.add(code, "/documents/2")


def check_state_card(documents, out, judge):
    """[state, card]: the card was classified from the state."""
    if len(documents) != 2:
        out.add("BUNDLE_INVALID", "/documents")
        return
    if not all([judge(0, "TurnLivenessStateV1"), judge(1, "TurnRecoveryCardV1")]):
        return
    state, card = documents
    code = "TURN_EVIDENCE_SOURCE_MISMATCH"
    if card["sourceStateDigest"] != digest(state):
        out.add(code, "/documents/1/sourceStateDigest")
    if card["sourceEventSequence"] != state["eventSequence"]:
        out.add(code, "/documents/1/sourceEventSequence")
    c, reason, ref, _ = classify(state, ms(card["observedAt"]))
    if card["priorState"] != c:
        out.add(code, "/documents/1/priorState")
    if card["reason"] != reason:
        out.add(code, "/documents/1/reason")
    if ref is None or ms(card["referenceAt"]) != ms(ref):
        out.add(code, "/documents/1/referenceAt")
    for f in CARD_COPIES:
        if digest(card[f]) != digest(state[f]):
            out.add(code, "/documents/1/" + f)
    lease = state["inFlightOperation"]
    if card["inFlightOperationId"] != (lease["operationId"] if lease else None):
        out.add(code, "/documents/1/inFlightOperationId")


def check_recovery_cards(documents, out, judge):
    """The cards of one observer: no noticeKey twice."""
    if not all([judge(i, "TurnRecoveryCardV1") for i in range(len(documents))]):
        return
    seen = set()
    for i, card in enumerate(documents):
        if card["noticeKey"] in seen:
            out.add("TURN_RECOVERY_NOTICE_DUPLICATE", "/documents/%d/noticeKey" % i)
        seen.add(card["noticeKey"])


def check_checkpoint_operation(documents, out, judge):
    """[CheckpointV1, TaskOperationRecordV1]: the record carries the checkpoint's key (TLR-015)."""
    if len(documents) != 2:
        out.add("BUNDLE_INVALID", "/documents")
        return
    if not all([judge(0, "CheckpointV1"), judge(1, "TaskOperationRecordV1")]):
        return
    c, record = documents
    if c["operationId"] != record["operationId"]:
        out.add("TURN_CHECKPOINT_KEY_MISMATCH", "/documents/1/operationId")
    if c["idempotencyKey"] != record["idempotencyKey"]:
        out.add("TURN_CHECKPOINT_KEY_MISMATCH", "/documents/1/idempotencyKey")


def _wrap(check):
    return lambda doc, out: check(doc, out, "")


CONTRACTS = {
    "TurnLivenessContractV1": check_contract,
    "TurnLivenessStateV1": check_state,
    "TurnLivenessEvidenceV1": check_evidence,
    "TurnRecoveryCardV1": check_card,
    "CheckpointV1": _wrap(check_checkpoint),
    "CheckpointValidationResultV1": _wrap(check_validation),
}
BUNDLES = {
    "turn-state-evidence": check_state_evidence,
    "turn-state-card": check_state_card,
    "turn-recovery-cards": check_recovery_cards,
    "checkpoint-operation": check_checkpoint_operation,
}
BUNDLE_NEEDS = {
    "turn-state-evidence": ("TurnLivenessStateV1", "TurnLivenessEvidenceV1"),
    "turn-state-card": ("TurnLivenessStateV1", "TurnRecoveryCardV1"),
    "turn-recovery-cards": ("TurnRecoveryCardV1",),
    "checkpoint-operation": ("CheckpointV1", "TaskOperationRecordV1"),
}
