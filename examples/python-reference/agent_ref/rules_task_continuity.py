"""TaskContinuityWriteGate (docs/spec/task-continuity-write-gate.md): TaskRecoveryStateV5,
TaskRecoveryCommitFenceV1, FencedTaskWriteOwnerLeaseV2, CanonicalTaskWriteContextV1,
TaskOperationRecordV1, TaskOperationSetV1, WorkflowTaskTerminalReceiptV1 and the bundles
`envelope-sequence` and `write-context-readback`.

Each issue is reported at the member the invariant finds wrong (the page's Invariants sections).
"""

import unicodedata

from . import jcs
from .rulekit import Issues, digest, instant, without

UNRESOLVED = ("prepared", "dispatched", "observed", "reconcile-required")
ROLES = ("change-record", "completion", "memory", "report")
PENDING_OR_ACTIVE = ("active", "handoff-pending", "takeover-pending")
OP_STATUS = {"acquire": "active", "renew": "active", "reacquire": "active", "handoff-accept": "active", "takeover-accept": "active", "reopen": "active", "release": "released", "handoff-prepare": "handoff-pending", "takeover-prepare": "takeover-pending", "terminal": "terminal"}
# Owner transition table: from statuses, to status, deltas (None: "new" nonce / "=" kept).
OWNER_ROWS = {
    "renew": (("active",), "active", 0, "=", 1, 0, 0),
    "release": (("active",), "released", 1, "new", 1, 1, 0),
    "reacquire": (("released",), "active", 1, "new", 1, 0, 0),
    "handoff-prepare": (("active",), "handoff-pending", 1, "new", 1, 1, 0),
    "handoff-accept": (("handoff-pending",), "active", 0, "new", 1, 0, 0),
    "takeover-prepare": (PENDING_OR_ACTIVE, "takeover-pending", 1, "new", 1, 1, 0),
    "takeover-accept": (("takeover-pending",), "active", 0, "new", 1, 0, 0),
    "terminal": (("active",), "terminal", 1, "new", 1, 1, 0),
    "reopen": (("terminal",), "active", 1, "new", 1, 0, 1),
}
GENERATION_STEP = ("owner-release", "owner-reacquire", "owner-handoff-prepare", "owner-takeover-prepare", "owner-terminal", "owner-reopen")
# Operation edge table: event -> (from phases, to phase or None when the record resolves).
EDGES = {
    "dispatch": (("prepared",), "dispatched"),
    "observe": (("dispatched",), "observed"),
    "mark-reconcile": (("dispatched", "observed"), "reconcile-required"),
    "settle": (("observed",), "settled"),
    "reconcile": (("reconcile-required",), "settled"),
    "abort": (("prepared",), "aborted-zero-effect"),
}
BINDING = ("operationId", "idempotencyKey", "writerGeneration", "expectedStateSequence", "kind", "exactTargets", "targetSetDigest", "beforeDigest")
# Phase shape: effect values, then for each timestamp / digest: "set", "null" or "any".
PHASE_SHAPE = {
    "prepared": (("none",), "null", "null", "null", "null", "null"),
    "dispatched": (("unknown",), "set", "null", "null", "null", "null"),
    "observed": (("unknown",), "set", "set", "null", "set", "null"),
    "reconcile-required": (("unknown",), "set", "any", "null", "iff-observed", "null"),
    "settled": (("known-applied", "known-not-applied"), "set", "any", "set", "iff-observed", "set"),
    "aborted-zero-effect": (("none",), "null", "null", "set", "null", "null"),
}
SHAPE_FIELDS = ("dispatchedAt", "observedAt", "settledAt", "resultDigest", "evidenceDigest")
_JS_TRIM = " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def _eq(a, b):
    return jcs.canonicalize(a) == jcs.canonicalize(b)


# -- TaskOperationRecordV1 -------------------------------------------------------------------

def target_ok(t):
    return unicodedata.normalize("NFKC", t) == t and t.strip(_JS_TRIM) == t and "\\" not in t


def check_record(doc, out, base=""):
    effects, *shape = PHASE_SHAPE[doc["phase"]]
    if doc["effect"] not in effects:
        out.add("TASK_OPERATION_PHASE_SHAPE_INVALID", base + "/effect")
    observed = doc["observedAt"] is not None
    for field, rule in zip(SHAPE_FIELDS, shape):
        v = doc[field]
        ok = {"set": v is not None, "null": v is None, "any": True, "iff-observed": (v is not None) == observed}[rule]
        if not ok:
            out.add("TASK_OPERATION_PHASE_SHAPE_INVALID", base + "/" + field)
    last = None
    for field in ("preparedAt", "dispatchedAt", "observedAt", "settledAt"):
        if doc[field] is None:
            continue
        if last is not None and instant(doc[field]) < instant(last):
            out.add("TASK_OPERATION_TIMESTAMP_ORDER_INVALID", base + "/" + field)
        last = doc[field]
    targets = doc["exactTargets"]
    for i, t in enumerate(targets):
        if not target_ok(t) or (i > 0 and jcs.utf16_key(t) <= jcs.utf16_key(targets[i - 1])):
            out.add("TASK_OPERATION_TARGETS_INVALID", base + "/exactTargets/%d" % i)
    if doc["targetSetDigest"] != digest(targets):
        out.add("TASK_OPERATION_TARGET_SET_DIGEST_MISMATCH", base + "/targetSetDigest")
    if doc["recordDigest"] != digest(without(doc, "recordDigest")):
        out.add("TASK_OPERATION_RECORD_DIGEST_MISMATCH", base + "/recordDigest")


# -- TaskOperationSetV1 ----------------------------------------------------------------------

def check_set(doc, out, base=""):
    un, settled = doc["unresolved"], doc["settled"]
    if un is not None:
        if un["phase"] not in UNRESOLVED:
            out.add("TASK_OPERATION_SET_INVALID", base + "/unresolved/phase")
        check_record(un, out, base + "/unresolved")
    ids, keys = set(), set()
    if un is not None:
        ids.add(un["operationId"])
        keys.add(un["idempotencyKey"])
    for i, ref in enumerate(settled):
        if ref["operationId"] in ids:
            out.add("TASK_OPERATION_SET_INVALID", base + "/settled/%d/operationId" % i)
        if ref["idempotencyKey"] in keys:
            out.add("TASK_OPERATION_SET_INVALID", base + "/settled/%d/idempotencyKey" % i)
        ids.add(ref["operationId"])
        keys.add(ref["idempotencyKey"])
        if i > 0 and instant(ref["settledAt"]) < instant(settled[i - 1]["settledAt"]):
            out.add("TASK_OPERATION_SET_INVALID", base + "/settled/%d/settledAt" % i)
        want = ("known-applied", "known-not-applied") if ref["phase"] == "settled" else ("none",)
        if ref["effect"] not in want:
            out.add("TASK_OPERATION_SET_INVALID", base + "/settled/%d/effect" % i)
    if len(settled) != min(doc["settledTotal"], 64):
        out.add("TASK_OPERATION_SET_INVALID", base + "/settled")
    expected = digest({"schemaVersion": "TaskOperationSetV1", "settledTotal": doc["settledTotal"], "settled": settled})
    if doc["settledSetDigest"] != expected:
        out.add("TASK_OPERATION_SET_DIGEST_MISMATCH", base + "/settledSetDigest")


# -- FencedTaskWriteOwnerLeaseV2 -------------------------------------------------------------

def check_lease(doc, out, base=""):
    B = base
    if doc["leaseDigest"] != digest(without(doc, "leaseDigest")):
        out.add("FENCED_TASK_WRITE_OWNER_DIGEST_MISMATCH", B + "/leaseDigest")
    for ref in ("transitionRef", "handoffRef", "takeoverRef"):
        r = doc[ref]
        if r is not None and r["refDigest"] != digest(without(r, "refDigest")):
            out.add("FENCED_TASK_WRITE_OWNER_DIGEST_MISMATCH", B + "/%s/refDigest" % ref)
    status = doc["status"]
    if (doc["handoffRef"] is not None) != (status == "handoff-pending"):
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/handoffRef")
    if (doc["takeoverRef"] is not None) != (status == "takeover-pending"):
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/takeoverRef")
    issued, expires = instant(doc["issuedAt"]), instant(doc["expiresAt"])
    if (expires <= issued) if status in PENDING_OR_ACTIVE else (expires != issued):
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/expiresAt")
    t = doc["transitionRef"]
    if instant(t["committedAt"]) != issued:
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/transitionRef/committedAt")
    if (t["priorLeaseDigest"] is None) != (t["operation"] == "acquire"):
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/transitionRef/priorLeaseDigest")
    for ref in ("handoffRef", "takeoverRef"):
        r = doc[ref]
        if r is None:
            continue
        if instant(r["preparedAt"]) != issued:
            out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/%s/preparedAt" % ref)
        if t["priorLeaseDigest"] is not None and r["fromLeaseDigest"] != t["priorLeaseDigest"]:
            out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/%s/fromLeaseDigest" % ref)
    if OP_STATUS.get(t["operation"]) != status:
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/status")
    if t["operation"] == "acquire":
        for field, value in (("ownerGeneration", 1), ("leaseRevision", 1), ("revocationEpoch", 0), ("reopenGeneration", 0)):
            if doc[field] != value:
                out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/" + field)
    g = doc["ownerGeneration"]
    if g > doc["leaseRevision"] or g < 1 + doc["revocationEpoch"] + doc["reopenGeneration"]:
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/ownerGeneration")
    h = doc["handoffRef"]
    if h is not None and h["targetSessionDigest"] == doc["sessionDigest"]:
        out.add("FENCED_TASK_WRITE_OWNER_INVALID", B + "/handoffRef/targetSessionDigest")


# -- WorkflowTaskTerminalReceiptV1 -----------------------------------------------------------

def check_receipt(doc, out, base=""):
    if doc["receiptDigest"] != digest(without(doc, "receiptDigest")):
        out.add("TASK_TERMINAL_RECEIPT_DIGEST_MISMATCH", base + "/receiptDigest")
    if doc["terminalGeneration"] != doc["ownerGeneration"] + 1:
        out.add("TASK_TERMINAL_RECEIPT_INVALID", base + "/terminalGeneration")
    if doc["expectedWriterGeneration"] != doc["ownerGeneration"]:
        out.add("TASK_TERMINAL_RECEIPT_INVALID", base + "/expectedWriterGeneration")
    paths = set()
    for i, e in enumerate(doc["evidence"]):
        if i >= len(ROLES) or e["role"] != ROLES[i]:
            out.add("TASK_TERMINAL_EVIDENCE_INCOMPLETE", base + "/evidence/%d/role" % i)
        if e["path"] in paths:
            out.add("TASK_TERMINAL_EVIDENCE_DUPLICATE", base + "/evidence/%d/path" % i)
        paths.add(e["path"])


# -- CanonicalTaskWriteContextV1, TaskRecoveryCommitFenceV1 ----------------------------------

def check_write_context(doc, out):
    if doc["contextDigest"] != digest(without(doc, "contextDigest", "readAt")):
        out.add("TASK_WRITE_CONTEXT_DIGEST_MISMATCH", "/contextDigest")


def check_fence(doc, out):
    s, g = doc["stateSequence"], doc["writerGeneration"]
    if not ((s, g) == (0, 0) or 1 <= g <= s):
        out.add("LIFECYCLE_STATE_FENCE_REQUIRED", "/writerGeneration")


# -- TaskRecoveryStateV5 ---------------------------------------------------------------------

def check_envelope(doc, out):
    owner, ops, receipt = doc["owner"], doc["operations"], doc["terminalReceipt"]
    if doc["stateDigest"] != digest(doc["state"]):
        out.add("LIFECYCLE_STATE_DIGEST_MISMATCH", "/stateDigest")
    if doc["envelopeDigest"] != digest(without(doc, "envelopeDigest")):
        out.add("LIFECYCLE_STATE_DIGEST_MISMATCH", "/envelopeDigest")
    check_lease(owner, out, "/owner")
    check_set(ops, out, "/operations")
    if receipt is not None:
        check_receipt(receipt, out, "/terminalReceipt")
    for part, doc_part in (("owner", owner), ("terminalReceipt", receipt)):
        if doc_part is None:
            continue
        for key in ("taskId", "projectRootIdentity"):
            if doc_part[key] != doc[key]:
                out.add("LIFECYCLE_STATE_IDENTITY_MISMATCH", "/%s/%s" % (part, key))
    if doc["writerGeneration"] != owner["ownerGeneration"] or doc["writerGeneration"] > doc["sequence"]:
        out.add("LIFECYCLE_STATE_SHAPE_INVALID", "/writerGeneration")
    if doc["lifecycleRevision"] != owner["reopenGeneration"] + 1:
        out.add("LIFECYCLE_STATE_SHAPE_INVALID", "/lifecycleRevision")
    if (doc["previousEnvelopeDigest"] is None) != (doc["sequence"] == 1):
        out.add("LIFECYCLE_STATE_SHAPE_INVALID", "/previousEnvelopeDigest")
    if doc["sequence"] == 1 and doc["commitKind"] != "owner-acquire":
        out.add("LIFECYCLE_STATE_SHAPE_INVALID", "/commitKind")
    kind, at = doc["commitKind"], instant(doc["committedAt"])
    t = owner["transitionRef"]
    if kind.startswith("owner-"):
        if t["operation"] != kind[len("owner-"):]:
            out.add("LIFECYCLE_STATE_COMMIT_KIND_INVALID", "/owner/transitionRef/operation")
        if instant(t["committedAt"]) != at:
            out.add("LIFECYCLE_STATE_COMMIT_KIND_INVALID", "/owner/transitionRef/committedAt")
        if instant(owner["issuedAt"]) != at:
            out.add("LIFECYCLE_STATE_COMMIT_KIND_INVALID", "/owner/issuedAt")
    else:
        if instant(owner["issuedAt"]) > at:
            out.add("LIFECYCLE_STATE_COMMIT_KIND_INVALID", "/owner/issuedAt")
        if owner["status"] != "active":
            out.add("LIFECYCLE_STATE_COMMIT_KIND_INVALID", "/owner/status")
    if kind.startswith("operation-"):
        _operation_result(doc, kind[len("operation-"):], at, out)
    _terminal_binding(doc, out)
    _lineage(doc, out)
    un = ops["unresolved"]
    if un is not None:
        if un["writerGeneration"] > doc["writerGeneration"]:
            out.add("TASK_OPERATION_SET_INVALID", "/operations/unresolved/writerGeneration")
        if un["expectedStateSequence"] >= doc["sequence"]:
            out.add("TASK_OPERATION_SET_INVALID", "/operations/unresolved/expectedStateSequence")


_PHASE_TIME = {"prepare": ("prepared", "preparedAt"), "dispatch": ("dispatched", "dispatchedAt"), "observe": ("observed", "observedAt"), "mark-reconcile": ("reconcile-required", None)}
_RESOLVING = {"settle": "settled", "reconcile": "settled", "abort": "aborted-zero-effect"}


def _operation_result(doc, event, at, out):
    ops = doc["operations"]
    un, settled = ops["unresolved"], ops["settled"]
    bad = "LIFECYCLE_STATE_COMMIT_KIND_INVALID"
    if event in _PHASE_TIME:
        phase, field = _PHASE_TIME[event]
        if un is None:
            out.add(bad, "/operations/unresolved")
            return
        if un["phase"] != phase:
            out.add(bad, "/operations/unresolved/phase")
        elif field is not None and instant(un[field]) != at:
            out.add(bad, "/operations/unresolved/" + field)
        return
    if un is not None:
        out.add(bad, "/operations/unresolved")
    if not settled:
        out.add(bad, "/operations/settled")
        return
    last = len(settled) - 1
    if settled[last]["phase"] != _RESOLVING[event]:
        out.add(bad, "/operations/settled/%d/phase" % last)
    if instant(settled[last]["settledAt"]) != at:
        out.add(bad, "/operations/settled/%d/settledAt" % last)


def _terminal_binding(doc, out):
    owner, receipt, lineage = doc["owner"], doc["terminalReceipt"], doc["terminalLineage"]
    code = "WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH"
    terminal = owner["status"] == "terminal"
    if (receipt is not None) != terminal:
        out.add(code, "/terminalReceipt")
        return
    if receipt is None:
        return
    expect = {
        "terminalOwnerLeaseDigest": owner["leaseDigest"],
        "lifecycleRevision": doc["lifecycleRevision"],
        "terminalGeneration": owner["ownerGeneration"],
        "holderSession": owner["sessionDigest"],
        "settledSetDigest": doc["operations"]["settledSetDigest"],
        "expectedStateSequence": doc["sequence"] - 1,
    }
    for field, value in expect.items():
        if receipt[field] != value:
            out.add(code, "/terminalReceipt/" + field)
    if instant(receipt["issuedAt"]) != instant(owner["issuedAt"]):
        out.add(code, "/terminalReceipt/issuedAt")
    entry = {"lifecycleRevision": receipt["lifecycleRevision"], "terminalStatus": receipt["terminalStatus"], "receiptDigest": receipt["receiptDigest"], "terminalAt": receipt["issuedAt"]}
    if not lineage:
        out.add(code, "/terminalLineage")
    elif not _eq(lineage[-1], entry):
        out.add(code, "/terminalLineage/%d" % (len(lineage) - 1))


def _lineage(doc, out):
    lineage = doc["terminalLineage"]
    terminal = doc["owner"]["status"] == "terminal"
    rev = doc["lifecycleRevision"]
    ok = all(lineage[i]["lifecycleRevision"] == lineage[i - 1]["lifecycleRevision"] + 1 for i in range(1, len(lineage)))
    if lineage:
        ok = ok and lineage[-1]["lifecycleRevision"] == (rev if terminal else rev - 1)
    else:
        ok = ok and rev == 1 and not terminal
    if not ok:
        out.add("LIFECYCLE_STATE_SHAPE_INVALID", "/terminalLineage")


# -- bundles ---------------------------------------------------------------------------------

def _pair(P, N, i, out):
    B = "/documents/%d" % i
    if N["sequence"] != P["sequence"] + 1:
        out.add("LIFECYCLE_STATE_SEQUENCE_INVALID", B + "/sequence")
    if N["previousEnvelopeDigest"] != P["envelopeDigest"]:
        out.add("LIFECYCLE_STATE_SEQUENCE_INVALID", B + "/previousEnvelopeDigest")
    if instant(N["committedAt"]) < instant(P["committedAt"]):
        out.add("LIFECYCLE_STATE_SEQUENCE_INVALID", B + "/committedAt")
    same_task = True
    for key in ("taskId", "projectRootIdentity"):
        if N[key] != P[key]:
            out.add("LIFECYCLE_STATE_IDENTITY_MISMATCH", B + "/" + key)
            same_task = False
    kind = N["commitKind"]
    step = 1 if kind in GENERATION_STEP else 0
    generation_ok = N["writerGeneration"] - P["writerGeneration"] == step
    if not generation_ok:
        out.add("LIFECYCLE_WRITER_GENERATION_TRANSITION_INVALID", B + "/writerGeneration")
    commit_kind = "LIFECYCLE_STATE_COMMIT_KIND_INVALID"
    if kind.startswith("owner-"):
        if same_task and generation_ok:
            _owner_row(P["owner"], N["owner"], kind[len("owner-"):], B + "/owner", out)
    elif not _eq(N["owner"], P["owner"]):
        out.add(commit_kind, B + "/owner")
    if kind.startswith("operation-"):
        _edge(P["operations"], N["operations"], kind[len("operation-"):], B + "/operations", out)
    elif not _eq(N["operations"], P["operations"]):
        out.add(commit_kind, B + "/operations")
    if kind.startswith("owner-") and not _eq(N["state"], P["state"]):
        out.add(commit_kind, B + "/state")
    if kind == "owner-terminal":
        receipt = N["terminalReceipt"]
        if receipt is not None:
            _receipt_binding(P, N, receipt, B + "/terminalReceipt", out)
            entry = {"lifecycleRevision": receipt["lifecycleRevision"], "terminalStatus": receipt["terminalStatus"], "receiptDigest": receipt["receiptDigest"], "terminalAt": receipt["issuedAt"]}
            if not _eq(N["terminalLineage"], (P["terminalLineage"] + [entry])[-64:]):
                out.add(commit_kind, B + "/terminalLineage")
    elif kind == "owner-reopen":
        if not _eq(N["terminalLineage"], P["terminalLineage"]):
            out.add(commit_kind, B + "/terminalLineage")
    else:
        if not _eq(N["terminalReceipt"], P["terminalReceipt"]):
            out.add(commit_kind, B + "/terminalReceipt")
        if not _eq(N["terminalLineage"], P["terminalLineage"]):
            out.add(commit_kind, B + "/terminalLineage")


def _owner_row(P, N, op, base, out):
    code = "FENCED_TASK_WRITE_OWNER_TRANSITION_INVALID"
    row = OWNER_ROWS.get(op)
    if row is None:
        out.add(code, base + "/transitionRef/operation")
        return
    froms, to, dg, nonce, dr, de, dre = row
    if P["status"] not in froms or N["status"] != to:
        out.add(code, base + "/status")
    for field, delta in (("ownerGeneration", dg), ("leaseRevision", dr), ("revocationEpoch", de), ("reopenGeneration", dre)):
        if N[field] - P[field] != delta:
            out.add(code, base + "/" + field)
    if (N["ownerNonce"] == P["ownerNonce"]) != (nonce == "="):
        out.add(code, base + "/ownerNonce")
    if op in ("release", "handoff-prepare", "takeover-prepare", "terminal"):
        for field in ("sessionDigest", "contextEpoch", "routeRevision"):
            if N[field] != P[field]:
                out.add(code, base + "/" + field)
    if op == "renew":
        if N["sessionDigest"] != P["sessionDigest"]:
            out.add(code, base + "/sessionDigest")
        if instant(N["expiresAt"]) <= instant(P["expiresAt"]):
            out.add(code, base + "/expiresAt")
    if N["transitionRef"]["priorLeaseDigest"] != P["leaseDigest"]:
        out.add(code, base + "/transitionRef/priorLeaseDigest")


def _edge(P, N, event, base, out):
    code = "TASK_OPERATION_TRANSITION_INVALID"
    pu, nu = P["unresolved"], N["unresolved"]
    if event == "prepare":
        if pu is not None or nu is None or nu["phase"] != "prepared":
            out.add(code, base + "/unresolved")
        if not _eq(N["settled"], P["settled"]) or N["settledTotal"] != P["settledTotal"]:
            out.add(code, base + "/settled")
        return
    froms, to = EDGES[event]
    if pu is None or pu["phase"] not in froms:
        out.add(code, base + ("/settled" if event in _RESOLVING else "/unresolved"))
        return
    if event in _RESOLVING:
        refs = N["settled"]
        last = refs[-1] if refs else None
        if nu is not None or last is None or last["operationId"] != pu["operationId"] or last["phase"] != to or N["settledTotal"] != P["settledTotal"] + 1 or not _eq(refs[:-1], (P["settled"])[-(len(refs) - 1):] if len(refs) > 1 else []):
            out.add(code, base + "/settled")
        return
    if nu is None or nu["phase"] != to or any(not _eq(nu[k], pu[k]) for k in BINDING):
        out.add(code, base + "/unresolved")
    if not _eq(N["settled"], P["settled"]):
        out.add(code, base + "/settled")


def _receipt_binding(P, N, receipt, base, out):
    expect = {
        "expectedStateSequence": P["sequence"],
        "expectedWriterGeneration": P["writerGeneration"],
        "lifecycleRevision": P["lifecycleRevision"],
        "priorOwnerLeaseDigest": P["owner"]["leaseDigest"],
        "ownerGeneration": P["owner"]["ownerGeneration"],
        "holderSession": P["owner"]["sessionDigest"],
        "settledSetDigest": P["operations"]["settledSetDigest"],
        "terminalOwnerLeaseDigest": N["owner"]["leaseDigest"],
    }
    for field, value in expect.items():
        if receipt[field] != value:
            out.add("WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH", base + "/" + field)
    if instant(receipt["issuedAt"]) != instant(N["committedAt"]):
        out.add("WORKFLOW_TASK_TERMINAL_BINDING_MISMATCH", base + "/issuedAt")


def check_envelope_sequence(documents, out, judge):
    if not all([judge(i, "TaskRecoveryStateV5") for i in range(len(documents))]):
        return
    for i in range(1, len(documents)):
        _pair(documents[i - 1], documents[i], i, out)


def check_readback(documents, out, judge):
    valid = [judge(0, "TaskRecoveryStateV5")] + [judge(i, "CanonicalTaskWriteContextV1") for i in range(1, len(documents))]
    if not all(valid):
        return
    R = documents[0]
    owner = R["owner"]
    derived = {
        "taskId": R["taskId"],
        "projectRootIdentity": R["projectRootIdentity"],
        "lifecycleRevision": R["lifecycleRevision"],
        "stateSequence": R["sequence"],
        "writerGeneration": R["writerGeneration"],
        "holderSession": owner["sessionDigest"],
        "contextEpoch": owner["contextEpoch"],
        "routeRevision": owner["routeRevision"],
        "ownerLeaseDigest": owner["leaseDigest"],
        "ownerStatus": owner["status"],
        "operationSetDigest": digest(R["operations"]),
        "settledSetDigest": R["operations"]["settledSetDigest"],
        "envelopeDigest": R["envelopeDigest"],
    }
    for i in range(1, len(documents)):
        c = documents[i]
        for field, value in derived.items():
            if c[field] != value:
                out.add("TASK_WRITE_CONTEXT_READBACK_MISMATCH", "/documents/%d/%s" % (i, field))
        if instant(c["readAt"]) < instant(R["committedAt"]):
            out.add("TASK_WRITE_CONTEXT_READBACK_MISMATCH", "/documents/%d/readAt" % i)


def _wrap(check):
    return lambda doc, out: check(doc, out, "")


CONTRACTS = {
    "TaskRecoveryStateV5": check_envelope,
    "TaskRecoveryCommitFenceV1": check_fence,
    "FencedTaskWriteOwnerLeaseV2": _wrap(check_lease),
    "CanonicalTaskWriteContextV1": check_write_context,
    "TaskOperationRecordV1": _wrap(check_record),
    "TaskOperationSetV1": _wrap(check_set),
    "WorkflowTaskTerminalReceiptV1": _wrap(check_receipt),
}
BUNDLES = {"envelope-sequence": check_envelope_sequence, "write-context-readback": check_readback}
BUNDLE_NEEDS = {"envelope-sequence": ("TaskRecoveryStateV5",), "write-context-readback": ("TaskRecoveryStateV5", "CanonicalTaskWriteContextV1")}
