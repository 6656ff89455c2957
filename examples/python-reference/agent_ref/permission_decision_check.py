"""PermissionDecisionV1: its schema and invariants 1-13 (docs/spec/permission-policy-gate.md#invariants).

`issues(doc)` as `validate` reports them: the schema issues alone when the schema fails, else the
semantic ones. policy.decide answers -32602 for params whose decision would have any.
"""

from . import jcs
from .clock import parse_instant_ns
from .credential_shapes import credential_pointers
from .ids import derived_id
from .run_state_check import schema_issues

DENY_REASONS = ("tool-not-in-task-scope", "resource-not-in-task-scope", "no-matching-grant", "approval-denied")
MAX_CREDENTIAL_LIFE_NS = 3600 * 1_000_000_000


def covers(pattern, resource):
    """docs/spec/permission-policy-gate.md#resource-patterns: equal, or a prefix ending in one `*`."""
    return pattern == resource or (pattern.endswith("*") and resource.startswith(pattern[:-1]))


def decision_id_of(doc):
    return derived_id("prm-", {"runId": doc["runId"], "callId": doc["callId"]})


def decision_digest_of(doc):
    return jcs.digest_of({k: v for k, v in doc.items() if k != "decisionDigest"})


def issues(doc):
    if not isinstance(doc, dict):
        return [{"code": "DOCUMENT_NOT_OBJECT", "path": ""}]
    found = schema_issues("PermissionDecisionV1", doc)
    if found:
        return found
    if jcs.has_lone_surrogate(doc):
        return [{"code": "DIGEST_UNCOMPUTABLE", "path": "/decisionDigest"}]
    out = []

    def add(code, path):
        out.append({"code": code, "path": path})

    if doc["decisionId"] != decision_id_of(doc):
        add("PERMISSION_DECISION_ID_MISMATCH", "/decisionId")
    if doc["decisionDigest"] != decision_digest_of(doc):
        add("PERMISSION_DECISION_DIGEST_MISMATCH", "/decisionDigest")
    inputs, tool = doc["inputs"], doc["tool"]
    approval, provenance = inputs["approval"], inputs["provenance"]
    allow = doc["decision"] == "allow"
    if allow:
        grant = doc["matchedGrant"]
        if grant is None:
            add("PERMISSION_ALLOW_WITHOUT_GRANT", "/matchedGrant")
        elif grant["origin"] == "untrusted-content":
            add("PERMISSION_GRANT_FROM_UNTRUSTED_CONTENT", "/matchedGrant/origin")
        if tool["toolName"] not in inputs["taskScope"]["allowedTools"]:
            add("PERMISSION_TOOL_OUT_OF_SCOPE", "/tool/toolName")
        if not any(covers(p, doc["resource"]) for p in inputs["taskScope"]["allowedResources"]):
            add("PERMISSION_RESOURCE_OUT_OF_SCOPE", "/resource")
        if (tool["requiresConfirmation"] or tool["sideEffectLevel"] == "irreversible") and approval["state"] != "granted":
            add("PERMISSION_CONFIRMATION_MISSING", "/inputs/approval/state")
        if tool["networkEgress"] and provenance["tainted"] and doc["dataFlowPolicyRef"] is None \
                and approval["state"] != "granted":
            add("PERMISSION_TAINTED_EGRESS", "/dataFlowPolicyRef")
    if provenance["tainted"] != bool(provenance["taintSources"]):
        add("PERMISSION_PROVENANCE_INCONSISTENT", "/inputs/provenance/tainted")
    if (approval["approvalRef"] is None) != (approval["state"] == "none"):
        add("PERMISSION_APPROVAL_REF_INCONSISTENT", "/inputs/approval/approvalRef")
    reasons = doc["reasonCodes"]
    if allow:
        reasons_ok = reasons == ["granted"]
    else:
        reasons_ok = "granted" not in reasons and any(r in DENY_REASONS for r in reasons) == (doc["decision"] == "deny")
    if not reasons_ok:
        add("PERMISSION_REASON_MISMATCH", "/reasonCodes")
    credential = doc["credential"]
    if credential is not None:
        if not allow:
            add("PERMISSION_CREDENTIAL_WITHOUT_ALLOW", "/credential")
        life = parse_instant_ns(credential["expiresAt"]) - parse_instant_ns(doc["decidedAt"])
        if not (0 < life <= MAX_CREDENTIAL_LIFE_NS):
            add("PERMISSION_CREDENTIAL_NOT_SHORT_LIVED", "/credential/expiresAt")
    for p in credential_pointers(doc):
        add("PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT", p)
    return out
