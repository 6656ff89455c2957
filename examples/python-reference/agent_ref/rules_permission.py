"""PermissionPolicyGate (docs/spec/permission-policy-gate.md): PermissionDecisionV1 invariants 1-13."""

import re

from .ecma_regex import ecma_pattern
from .rulekit import check_digest, derived, digest, instant, pick, ptr, without

DENY_REASONS = ("no-matching-grant", "tool-not-in-task-scope", "resource-not-in-task-scope", "approval-denied")


def covers(pattern, resource):
    """Resource patterns: equal, or `pattern` ends in `*` and `resource` starts with what precedes it."""
    return pattern == resource or (pattern.endswith("*") and resource.startswith(pattern[:-1]))


# The credential value shapes of "Credentials": the page's ECMAScript expressions, read with
# ECMAScript semantics (agent_ref/ecma_regex.py).
_SHAPES = (
    (r"-----BEGIN [A-Z ]*PRIVATE KEY-----", 0),
    (r"\bA(?:KIA|SIA)[0-9A-Z]{16}\b", 0),
    (r"\bgh[pousr]_[A-Za-z0-9]{30,}\b", 0),
    (r"\bsk-[A-Za-z0-9_-]{20,}", 0),
    (r"\bxox[abprs]-[A-Za-z0-9-]{10,}", 0),
    (r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+", 0),
    (r"\bBearer\s+[A-Za-z0-9._~+/-]{16,}", 0),
    (r"\b(?:password|passwd|secret|api[_-]?key|access[_-]?token)\s*[=:]\s*\S{6,}", re.IGNORECASE),
)
CREDENTIAL_SHAPES = [re.compile(ecma_pattern(source), flags) for source, flags in _SHAPES]


def has_credential_shape(text):
    return any(s.search(text) for s in CREDENTIAL_SHAPES)


def credential_strings(value, path=()):
    """Pointers of every string (member names included) with a credential value shape."""
    if isinstance(value, str):
        if has_credential_shape(value):
            yield ptr(*path)
    elif isinstance(value, dict):
        for k, v in value.items():
            if has_credential_shape(k):
                yield ptr(*path, k)
            yield from credential_strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from credential_strings(v, path + (i,))


def check_decision(doc, out):
    check_digest(out, doc, "decisionId", derived("prm-", pick(doc, "runId", "callId")), "PERMISSION_DECISION_ID_MISMATCH")
    check_digest(out, doc, "decisionDigest", digest(without(doc, "decisionDigest")), "PERMISSION_DECISION_DIGEST_MISMATCH")
    decision, inputs, tool = doc["decision"], doc["inputs"], doc["tool"]
    approval = inputs["approval"]
    grant = doc["matchedGrant"]
    if decision == "allow":
        if grant is None:
            out.add("PERMISSION_ALLOW_WITHOUT_GRANT", "matchedGrant")
        elif grant["origin"] == "untrusted-content":
            out.add("PERMISSION_GRANT_FROM_UNTRUSTED_CONTENT", "matchedGrant", "origin")
        scope = inputs["taskScope"]
        if tool["toolName"] not in scope["allowedTools"]:
            out.add("PERMISSION_TOOL_OUT_OF_SCOPE", "tool", "toolName")
        if not any(covers(p, doc["resource"]) for p in scope["allowedResources"]):
            out.add("PERMISSION_RESOURCE_OUT_OF_SCOPE", "resource")
        if (tool["requiresConfirmation"] or tool["sideEffectLevel"] == "irreversible") and approval["state"] != "granted":
            out.add("PERMISSION_CONFIRMATION_MISSING", "inputs", "approval", "state")
        if tool["networkEgress"] and inputs["provenance"]["tainted"] and doc["dataFlowPolicyRef"] is None and approval["state"] != "granted":
            out.add("PERMISSION_TAINTED_EGRESS", "dataFlowPolicyRef")
    prov = inputs["provenance"]
    if prov["tainted"] != bool(prov["taintSources"]):
        out.add("PERMISSION_PROVENANCE_INCONSISTENT", "inputs", "provenance", "tainted")
    if (approval["approvalRef"] is None) != (approval["state"] == "none"):
        out.add("PERMISSION_APPROVAL_REF_INCONSISTENT", "inputs", "approval", "approvalRef")
    reasons = doc["reasonCodes"]
    if decision == "allow":
        reasons_ok = reasons == ["granted"]
    else:
        reasons_ok = "granted" not in reasons and any(r in DENY_REASONS for r in reasons) == (decision == "deny")
    if not reasons_ok:
        out.add("PERMISSION_REASON_MISMATCH", "reasonCodes")
    cred = doc["credential"]
    if cred is not None and decision != "allow":
        out.add("PERMISSION_CREDENTIAL_WITHOUT_ALLOW", "credential")
    if cred is not None:
        life = instant(cred["expiresAt"]) - instant(doc["decidedAt"])
        if not (0 < life <= 3600 * 10**9):
            out.add("PERMISSION_CREDENTIAL_NOT_SHORT_LIVED", "credential", "expiresAt")
    for n, path in enumerate(credential_strings(doc)):
        if n == 16:
            break
        out.add("PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT", path)


CONTRACTS = {"PermissionDecisionV1": check_decision}
