"""ToolPermissionBoundaryGate (docs/spec/tool-permission-boundary-gate.md): ToolPermissionBoundaryV1,
HumanInLoopBoundaryV1 and the bundle `tool-permission-boundary`."""

from .rulekit import check_digest, derived, digest, duplicates, pick, without

HOST_OWNED = ("file-read", "file-write", "file-delete", "command-execute")
ADAPTER_STATES = ("missing", "failed", "invalid", "outside-workspace")
# Bundle rule 5: the user confirmations strong enough for each tool confirmation.
STRONG_ENOUGH = {"per-invocation": ("each-action",), "per-session": ("each-action", "once-per-session"), "none": ("each-action", "once-per-session", "not-required")}


def check_tool_boundary(doc, out):
    check_digest(out, doc, "boundaryId", derived("tpb-", pick(doc, "subject")), "TOOL_PERMISSION_BOUNDARY_ID_MISMATCH")
    check_digest(out, doc, "boundaryDigest", digest(without(doc, "boundaryDigest")), "TOOL_PERMISSION_BOUNDARY_DIGEST_MISMATCH")
    for name, key in (("permissionOwners", "permissionClass"), ("dangerousOperations", "operationId"), ("adapterStates", "state"), ("fallbacks", "fallbackId")):
        for i in duplicates(doc[name], lambda x, key=key: x[key]):
            out.add("TOOL_PERMISSION_DUPLICATE", name, i)
    owners = doc["permissionOwners"]
    for cls in HOST_OWNED:
        if not any(o["permissionClass"] == cls for o in owners):
            out.add("TOOL_PERMISSION_CLASS_MISSING", "permissionOwners")
    for i, o in enumerate(owners):
        if o["permissionClass"] in HOST_OWNED and o["holder"]["kind"] != "host":
            out.add("TOOL_PERMISSION_OWNER_NOT_HOST", "permissionOwners", i, "holder", "kind")
    ops = doc["dangerousOperations"]
    for cls in ("file-delete", "command-execute"):
        if not any(o["permissionClass"] == cls for o in ops):
            out.add("TOOL_PERMISSION_DANGEROUS_OPERATION_UNLISTED", "dangerousOperations")
    for i, o in enumerate(ops):
        if o["confirmation"] == "none":
            out.add("TOOL_PERMISSION_CONFIRMATION_MISSING", "dangerousOperations", i, "confirmation")
        if o["sideEffectLevel"] == "irreversible" and o["waivable"] is not False:
            out.add("TOOL_PERMISSION_IRREVERSIBLE_WAIVABLE", "dangerousOperations", i, "waivable")
    by_id = {}
    for o in ops:
        by_id.setdefault(o["operationId"], o)
    for j, op_id in enumerate(doc["automaticMode"]["waivedConfirmations"]):
        if op_id not in by_id:
            out.add("TOOL_PERMISSION_OPERATION_UNKNOWN", "automaticMode", "waivedConfirmations", j)
        elif by_id[op_id]["waivable"] is False:
            out.add("TOOL_PERMISSION_AUTO_WAIVES_NON_WAIVABLE", "automaticMode", "waivedConfirmations", j)
    states = doc["adapterStates"]
    for st in ADAPTER_STATES:
        if not any(s["state"] == st for s in states):
            out.add("TOOL_PERMISSION_ADAPTER_STATE_MISSING", "adapterStates")
    fallbacks = {}
    for f in doc["fallbacks"]:
        fallbacks.setdefault(f["fallbackId"], f)
    for i, s in enumerate(states):
        if s["behaviour"] == "local-shadow-deny":
            out.add("TOOL_PERMISSION_SHADOW_DENY", "adapterStates", i, "behaviour")
        uses = s["behaviour"] == "use-fallback"
        fid = s["fallbackId"]
        if (fid is not None) != uses or (fid is not None and fid not in fallbacks):
            out.add("TOOL_PERMISSION_FALLBACK_UNRESOLVED", "adapterStates", i, "fallbackId")
        elif fid is not None and fallbacks[fid]["trigger"] != "adapter-" + s["state"]:
            out.add("TOOL_PERMISSION_FALLBACK_TRIGGER_MISMATCH", "adapterStates", i, "fallbackId")


def check_human_boundary(doc, out):
    check_digest(out, doc, "boundaryId", derived("hil-", pick(doc, "subject")), "HUMAN_LOOP_BOUNDARY_ID_MISMATCH")
    check_digest(out, doc, "boundaryDigest", digest(without(doc, "boundaryDigest")), "HUMAN_LOOP_BOUNDARY_DIGEST_MISMATCH")
    classes = doc["actionClasses"]
    for i in duplicates(classes, lambda c: c["actionClass"]):
        out.add("HUMAN_LOOP_ACTION_CLASS_DUPLICATE", "actionClasses", i)
    for i, c in enumerate(classes):
        if c["finalResponsibility"] in ("model", "agent"):
            out.add("HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN", "actionClasses", i, "finalResponsibility")
        if c["reversibility"] == "irreversible":
            if c["humanReview"] != "before-action":
                out.add("HUMAN_LOOP_IRREVERSIBLE_WITHOUT_REVIEW", "actionClasses", i, "humanReview")
            if c["automaticMode"] == "without-confirmation":
                out.add("HUMAN_LOOP_IRREVERSIBLE_AUTO_UNCONFIRMED", "actionClasses", i, "automaticMode")


def check_bundle(documents, out, judge):
    if len(documents) != 2 or not all(isinstance(d, dict) for d in documents) or [d.get("schemaVersion") for d in documents] != ["ToolPermissionBoundaryV1", "HumanInLoopBoundaryV1"]:
        out.add("BUNDLE_INVALID", "/documents")
        return
    if not all([judge(0), judge(1)]):
        return
    tool, human = documents
    if human["toolPermissionBoundaryId"] != tool["boundaryId"]:
        out.add("HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH", "/documents/1/toolPermissionBoundaryId")
    if human["subject"] != tool["subject"]:
        out.add("HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH", "/documents/1/subject")
    ops = {}
    for o in tool["dangerousOperations"]:
        ops.setdefault(o["operationId"], o)
    covered = set()
    for i, c in enumerate(human["actionClasses"]):
        base = "/documents/1/actionClasses/%d/" % i
        for j, op_id in enumerate(c["operations"]):
            if op_id not in ops:
                out.add("HUMAN_LOOP_OPERATION_UNKNOWN", base + "operations/%d" % j)
                continue
            covered.add(op_id)
            op = ops[op_id]
            if c["automaticMode"] == "without-confirmation" and op["waivable"] is False:
                out.add("HUMAN_LOOP_AUTO_WAIVES_NON_WAIVABLE", base + "automaticMode")
            if c["userConfirmation"] not in STRONG_ENOUGH[op["confirmation"]]:
                out.add("HUMAN_LOOP_CONFIRMATION_WEAKER_THAN_TOOL", base + "userConfirmation")
    for op_id in ops:
        if op_id not in covered:
            out.items.append({"code": "HUMAN_LOOP_OPERATION_UNCOVERED", "path": "/documents/1/actionClasses"})


CONTRACTS = {"ToolPermissionBoundaryV1": check_tool_boundary, "HumanInLoopBoundaryV1": check_human_boundary}
BUNDLES = {"tool-permission-boundary": check_bundle}
