"""TaskContractGate (docs/spec/task-contract-gate.md): TaskContractV1, ToolContractV1 and the
bundle `task-contract-with-tools`."""

from .rulekit import check_digest, derived, digest, duplicates, ecma_regex_compiles, jcs_bytes, nesting, pick, without

# Which members each criterion kind uses ("Completion criteria").
_MEMBERS = ("command", "expectedExitCode", "path", "predicate", "digest", "pattern", "schema")
EXTERNAL = ("external-write", "irreversible")
NEXT_STEPS = {
    "business-rejection": ("fix-input", "replan", "hand-over", "fail"),
    "transient": ("retry-with-backoff", "replan", "hand-over", "fail"),
    "permanent": ("fix-input", "replan", "hand-over", "fail"),
    "unknown-outcome": ("query-then-retry", "compensate", "hand-over"),
}


def schema_too_large(schema):
    """The embedded-schema limits: 16384 UTF-8 bytes of RFC 8785 form, 16 levels of nesting."""
    return jcs_bytes(schema) > 16384 or nesting(schema) > 16


def _needed(c):
    kind = c["kind"]
    if kind == "command":
        return ("command", "expectedExitCode")
    if kind == "file-predicate":
        extra = {"digest-equals": ("digest",), "matches": ("pattern",)}.get(c["predicate"], ())
        return ("path", "predicate") + extra
    return ("path", "schema")


def _set(value):
    return value is not None and value != []


def check_task_contract(doc, out):
    check_digest(out, doc, "taskId", derived("ttc-", {"subject": {"system": doc["subject"]["system"]}, "taskName": doc["taskName"]}), "TASK_CONTRACT_ID_MISMATCH")
    check_digest(out, doc, "contractDigest", digest(without(doc, "contractDigest")), "TASK_CONTRACT_DIGEST_MISMATCH")
    criteria = doc["completionCriteria"]
    for i in duplicates(criteria, lambda c: c["name"]):
        out.add("TASK_CONTRACT_CRITERION_DUPLICATE", "completionCriteria", i, "name")
    for i, c in enumerate(criteria):
        needed = _needed(c)
        for m in _MEMBERS:
            if m in needed and not _set(c[m]):
                out.add("TASK_CONTRACT_CRITERION_NOT_CHECKABLE", "completionCriteria", i, m)
            elif m not in needed and _set(c[m]):
                out.add("TASK_CONTRACT_CRITERION_MEMBER_STRAY", "completionCriteria", i, m)
        if c["pattern"] is not None and not ecma_regex_compiles(c["pattern"]):
            out.add("TASK_CONTRACT_CRITERION_PATTERN_INVALID", "completionCriteria", i, "pattern")
        if c["schema"] is not None and schema_too_large(c["schema"]):
            out.add("TASK_CONTRACT_SCHEMA_TOO_LARGE", "completionCriteria", i, "schema")
    cons = doc["constraints"]
    tools = cons["tools"]
    for i in duplicates(tools, lambda t: t["toolName"]):
        out.add("TASK_CONTRACT_TOOL_DUPLICATE", "constraints", "tools", i, "toolName")
    for i, t in enumerate(tools):
        if t["sideEffectLevel"] not in cons["allowedSideEffects"]:
            out.add("TASK_CONTRACT_TOOL_SIDE_EFFECT_NOT_ALLOWED", "constraints", "tools", i, "sideEffectLevel")
    if tools and cons["budget"]["maxToolCalls"] < 1:
        out.add("TASK_CONTRACT_BUDGET_NO_TOOL_CALLS", "constraints", "budget", "maxToolCalls")


def check_tool_contract(doc, out):
    check_digest(out, doc, "toolContractId", derived("tool-", pick(doc, "toolName", "toolVersion")), "TOOL_CONTRACT_ID_MISMATCH")
    check_digest(out, doc, "contractDigest", digest(without(doc, "contractDigest")), "TOOL_CONTRACT_DIGEST_MISMATCH")
    for field in ("inputSchema", "outputSchema"):
        if schema_too_large(doc[field]):
            out.add("TOOL_CONTRACT_SCHEMA_TOO_LARGE", field)
    errors, routes = doc["errors"], doc["effectRoutes"]
    for i in duplicates(errors, lambda e: e["errorCode"]):
        out.add("TOOL_CONTRACT_ERROR_DUPLICATE", "errors", i, "errorCode")
    for i, e in enumerate(errors):
        step, cls = e["nextStep"], e["errorClass"]
        if cls == "unknown-outcome" and step == "retry-with-backoff":
            out.add("TOOL_CONTRACT_UNKNOWN_OUTCOME_BLIND_RETRY", "errors", i, "nextStep")
        elif step not in NEXT_STEPS[cls]:
            out.add("TOOL_CONTRACT_NEXT_STEP_NOT_ALLOWED", "errors", i, "nextStep")
        if (step == "query-then-retry" and routes["queryTool"] is None) or (
            step == "compensate" and routes["compensationTool"] is None
        ):
            out.add("TOOL_CONTRACT_NEXT_STEP_ROUTE_MISSING", "errors", i, "nextStep")
    external = doc["sideEffectLevel"] in EXTERNAL
    if external and routes["queryTool"] is None and routes["compensationTool"] is None:
        out.add("TOOL_CONTRACT_EFFECT_ROUTE_MISSING", "effectRoutes")
    if external and not any(e["errorClass"] == "unknown-outcome" for e in errors):
        out.add("TOOL_CONTRACT_UNKNOWN_OUTCOME_UNDECLARED", "errors")
    idem, retry = doc["idempotency"], doc["retry"]
    if external and retry["retryable"] and idem["kind"] != "key":
        out.add("TOOL_CONTRACT_RETRY_NOT_IDEMPOTENT", "retry", "retryable")
    key = idem["keyField"]
    if idem["kind"] == "none":
        key_ok = key is None
    else:
        schema = doc["inputSchema"]
        props, required = schema.get("properties"), schema.get("required")
        key_ok = (
            key is not None
            and isinstance(props, dict)
            and key in props
            and isinstance(required, list)
            and key in required
        )
    if not key_ok:
        out.add("TOOL_CONTRACT_IDEMPOTENCY_KEY_INVALID", "idempotency", "keyField")
    if (retry["maxAttempts"] != 1) if not retry["retryable"] else (retry["maxAttempts"] <= 1):
        out.add("TOOL_CONTRACT_RETRY_ATTEMPTS_INCONSISTENT", "retry", "maxAttempts")
    if doc["sideEffectLevel"] == "irreversible" and doc["requiresConfirmation"] is not True:
        out.add("TOOL_CONTRACT_CONFIRMATION_MISSING", "requiresConfirmation")
    if any(r["kind"] in ("network-host", "service") for r in doc["permissionScope"]["resources"]) and not doc["networkEgress"]:
        out.add("TOOL_CONTRACT_NETWORK_EGRESS_UNDECLARED", "networkEgress")


def check_bundle(documents, out, judge):
    shape_ok = True
    for i, d in enumerate(documents):
        want = "TaskContractV1" if i == 0 else "ToolContractV1"
        if not isinstance(d, dict) or d.get("schemaVersion") != want:
            out.add("TASK_CONTRACT_BUNDLE_SHAPE_INVALID", "/documents/%d/schemaVersion" % i)
            shape_ok = False
    valid = all([judge(i) for i in range(len(documents))])
    if not valid or not shape_ok:
        return
    task, tools = documents[0], documents[1:]
    for i, ref in enumerate(task["constraints"]["tools"]):
        match = next((t for t in tools if t["contractDigest"] == ref["toolContractDigest"]), None)
        base = "/documents/0/constraints/tools/%d/" % i
        if match is None:
            out.add("TASK_CONTRACT_TOOL_CONTRACT_MISSING", base + "toolContractDigest")
            continue
        for m in ("toolName", "sideEffectLevel"):
            if ref[m] != match[m]:
                out.add("TASK_CONTRACT_TOOL_FACTS_MISMATCH", base + m)


CONTRACTS = {"TaskContractV1": check_task_contract, "ToolContractV1": check_tool_contract}
BUNDLES = {"task-contract-with-tools": check_bundle}
