"""The owner transition table of FencedTaskWriteOwnerLeaseV2: guards (step 8) and the new lease."""

import copy
import secrets

from .clock import format_ms, parse_ms
from .errors import Refusal
from .jcs import digest_of, has_lone_surrogate
from .store_keys import is_hex64, is_int

OPERATIONS = ("acquire", "renew", "release", "reacquire", "handoff-prepare", "handoff-accept", "takeover-prepare",
              "takeover-accept", "terminal", "reopen")
MEMBERS = ("operation", "taskId", "projectRootIdentity", "expectedFence", "expectedOwner", "sessionDigest",
           "contextEpoch", "routeRevision", "targetSessionDigest", "handoffRefDigest", "takeoverRefDigest",
           "takeoverEvidence", "terminal", "terminalReceiptDigest")
TERMINAL_STATUSES = ("completed", "rejected", "cancelled", "failed")
LEASE_MS = 30 * 60 * 1000  # this store's (diagnostic) lease duration
# (from status, operation) -> to status; None stands for "no envelope"
ROWS = {
    (None, "acquire"): "active",
    ("active", "renew"): "active",
    ("active", "release"): "released",
    ("released", "reacquire"): "active",
    ("active", "handoff-prepare"): "handoff-pending",
    ("handoff-pending", "handoff-accept"): "active",
    ("active", "takeover-prepare"): "takeover-pending",
    ("handoff-pending", "takeover-prepare"): "takeover-pending",
    ("takeover-pending", "takeover-prepare"): "takeover-pending",
    ("takeover-pending", "takeover-accept"): "active",
    ("active", "terminal"): "terminal",
    ("terminal", "reopen"): "active",
}


def _invalid(message):
    return Refusal("FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID", message, ok=False)


def check_request(r):
    """Step 2 (and D-TCW-29): the request's shape, before storage is read."""
    if r.get("operation") not in OPERATIONS:
        raise _invalid("operation must be one of the ten rows of the owner transition table")
    if any(m not in r for m in MEMBERS) or any(m not in MEMBERS for m in r):
        raise _invalid("an owner transition request has exactly the members " + ", ".join(MEMBERS))
    epoch = r["contextEpoch"]
    if not is_hex64(r["sessionDigest"]) or not is_hex64(r["routeRevision"]) or not isinstance(epoch, str) or \
            not (1 <= len(epoch) <= 256) or has_lone_surrogate(epoch):
        raise _invalid("sessionDigest, contextEpoch or routeRevision is malformed")
    for m in ("targetSessionDigest", "handoffRefDigest", "takeoverRefDigest", "terminalReceiptDigest"):
        if r[m] is not None and not is_hex64(r[m]):
            raise _invalid(m + " must be null or 64 lowercase hex characters")
    ev = r["takeoverEvidence"]
    if ev is not None and not (isinstance(ev, dict) and set(ev) == {
            "readbackContextDigest", "livenessEvidenceDigest", "reconcileReceiptDigest"} and all(
            is_hex64(v) for v in ev.values())):
        raise _invalid("takeoverEvidence must be null or the three evidence digests")
    if r["operation"] == "terminal":
        t = r["terminal"]
        if not isinstance(t, dict) or t.get("terminalStatus") not in TERMINAL_STATUSES:
            raise Refusal("TASK_TERMINAL_INPUT_INVALID", "terminal.terminalStatus must be one of "
                          + ", ".join(TERMINAL_STATUSES), ok=False)
        if t.get("lifecycleRevision") is None or t.get("settledSetDigest") is None or \
                t.get("writeContextDigest") is None:
            raise Refusal("TASK_TERMINAL_EXPECTED_STATE_REQUIRED",
                          "terminal needs lifecycleRevision, settledSetDigest and writeContextDigest", ok=False)
        if not is_int(t["lifecycleRevision"], 1) or not is_hex64(t["settledSetDigest"]) or \
                not is_hex64(t["writeContextDigest"]) or not isinstance(t.get("evidence"), list) or \
                set(t) - {"terminalStatus", "lifecycleRevision", "settledSetDigest", "writeContextDigest", "evidence"}:
            raise Refusal("TASK_TERMINAL_INPUT_INVALID", "a terminal member is malformed", ok=False)
    elif r["terminal"] is not None:
        raise _invalid("terminal is null except for the terminal operation")


def is_replay(envelope, request):
    if envelope is None:
        return False
    ref = envelope["owner"]["transitionRef"]
    return request["operation"] == ref["operation"] and digest_of(request) == ref["requestDigest"]


def guard(envelope, r, context_digest_now):
    """Step 8 of an owner transition: raises the row's refusal, returns the target status."""
    lease = None if envelope is None else envelope["owner"]
    status = None if lease is None else lease["status"]
    op = r["operation"]
    if op == "terminal" and status in ("released", "handoff-pending", "takeover-pending"):
        raise Refusal("TASK_TERMINAL_OWNER_MISMATCH", "only the active holder closes a task", ok=False)
    to = ROWS.get((status, op))
    if to is None:
        raise _invalid("the owner transition table has no %s from %s" % (op, status or "no envelope"))
    holder = lease is not None and r["sessionDigest"] == lease["sessionDigest"]
    unresolved = envelope is not None and envelope["operations"]["unresolved"] is not None
    if op in ("renew", "release", "handoff-prepare") and not holder:
        raise Refusal("TASK_WRITE_OWNER_SESSION_MISMATCH", "only the holder may " + op, ok=False)
    if op == "handoff-prepare" and (r["targetSessionDigest"] is None or r["targetSessionDigest"] == lease["sessionDigest"]):
        raise Refusal("TASK_WRITE_OWNER_HANDOFF_INVALID", "a handoff needs a target session other than the holder",
                      ok=False)
    if op in ("release", "handoff-prepare") and unresolved:
        raise Refusal("TASK_OPERATION_UNSETTLED", "resolve the unresolved operation first", ok=False)
    if op == "handoff-accept" and (r["sessionDigest"] != lease["handoffRef"]["targetSessionDigest"] or
                                   r["handoffRefDigest"] != lease["handoffRef"]["refDigest"]):
        raise Refusal("TASK_WRITE_OWNER_HANDOFF_INVALID", "only the target session accepts, naming the pending ref",
                      ok=False)
    if op == "takeover-prepare":
        ev = r["takeoverEvidence"]
        if ev is None or r["targetSessionDigest"] != r["sessionDigest"] or \
                ev["readbackContextDigest"] != context_digest_now:
            raise Refusal("TASK_WRITE_OWNER_TAKEOVER_INVALID",
                          "a takeover needs its evidence, the requester as target and a current readback", ok=False)
    if op == "takeover-accept" and (r["sessionDigest"] != lease["takeoverRef"]["targetSessionDigest"] or
                                    r["takeoverRefDigest"] != lease["takeoverRef"]["refDigest"]):
        raise Refusal("TASK_WRITE_OWNER_TAKEOVER_INVALID", "only the target session accepts, naming the pending ref",
                      ok=False)
    if op == "terminal" and not holder:
        raise Refusal("TASK_TERMINAL_OWNER_MISMATCH", "only the active holder closes a task", ok=False)
    if op == "reopen" and r["terminalReceiptDigest"] != envelope["terminalReceipt"]["receiptDigest"]:
        raise Refusal("FENCED_TASK_WRITE_OWNER_CAS_MISMATCH", "reopen must name the current terminal receipt", ok=False)
    return to


def new_nonce():
    return "owner-" + secrets.token_hex(20)


def next_lease(envelope, r, to_status, committed_at):
    """The lease the row produces (digests sealed by the caller)."""
    op = r["operation"]
    at_ms = parse_ms(committed_at)
    if envelope is None:
        cur = None
        lease = {
            "schemaVersion": "FencedTaskWriteOwnerLeaseV2", "taskId": r["taskId"],
            "projectRootIdentity": r["projectRootIdentity"], "ownerGeneration": 1, "ownerNonce": new_nonce(),
            "leaseRevision": 1, "reopenGeneration": 0, "revocationEpoch": 0,
        }
    else:
        cur = envelope["owner"]
        lease = copy.deepcopy(cur)
        del lease["leaseDigest"]
        lease["leaseRevision"] = cur["leaseRevision"] + 1
        if op != "renew":
            lease["ownerNonce"] = new_nonce()
        if op in ("release", "reacquire", "handoff-prepare", "takeover-prepare", "terminal", "reopen"):
            lease["ownerGeneration"] = cur["ownerGeneration"] + 1
        if op in ("release", "handoff-prepare", "takeover-prepare", "terminal"):
            lease["revocationEpoch"] = cur["revocationEpoch"] + 1
        if op == "reopen":
            lease["reopenGeneration"] = cur["reopenGeneration"] + 1
    if op in ("acquire", "reacquire", "handoff-accept", "takeover-accept", "reopen"):
        lease["sessionDigest"] = r["sessionDigest"]
    if op in ("acquire", "renew", "reacquire", "handoff-accept", "takeover-accept", "reopen"):
        lease["contextEpoch"] = r["contextEpoch"]
        lease["routeRevision"] = r["routeRevision"]
    lease["status"] = to_status
    lease["issuedAt"] = committed_at
    if to_status in ("released", "terminal"):
        lease["expiresAt"] = committed_at
    elif op == "renew":
        lease["expiresAt"] = format_ms(max(at_ms + LEASE_MS, parse_ms(cur["expiresAt"]) + 1))
    else:
        lease["expiresAt"] = format_ms(at_ms + LEASE_MS)
    lease["handoffRef"] = None
    lease["takeoverRef"] = None
    prior = None if cur is None else cur["leaseDigest"]
    if op == "handoff-prepare":
        lease["handoffRef"] = {"fromLeaseDigest": prior, "targetSessionDigest": r["targetSessionDigest"],
                               "preparedAt": committed_at}
    if op == "takeover-prepare":
        lease["takeoverRef"] = dict({"fromLeaseDigest": prior, "targetSessionDigest": r["targetSessionDigest"]},
                                    **r["takeoverEvidence"], preparedAt=committed_at)
    lease["transitionRef"] = {"operation": op, "priorLeaseDigest": prior, "requestDigest": digest_of(r),
                              "committedAt": committed_at}
    return lease
