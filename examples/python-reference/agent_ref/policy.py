"""policy.observe and policy.decide (capability `policy`): docs/spec/permission-policy-gate.md.

The decision order of "How a policy engine decides" and the run provenance of PRM-016, kept in
memory per session (docs/protocol.md#policyobserve-policydecide-v1-capability-policy, D-GEN-61).
"""

import copy

from . import jcs, protocol_schema, validate
from .clock import format_ms
from .errors import InvalidParams, Refusal
from .ids import derived_id
from .rules_permission import covers, credential_strings

MAX_TAINT_SOURCES = 64
CREDENTIAL_LIFE_MS = 300_000  # D-PRM-03
DENY_REASONS = ("tool-not-in-task-scope", "resource-not-in-task-scope", "no-matching-grant", "approval-denied")


def grant_covers(grant, tool_name, resource, action):
    return grant["tool"] == tool_name and covers(grant["resource"], resource) and action in grant["actions"]


def decide(params, provenance, now_ms):
    """The PermissionDecisionV1 of one call, at now_ms, for a run with this provenance."""
    tool, ctx = params["tool"], params["context"]
    scope, approval = ctx["taskScope"], ctx["approval"]
    resource, action = params["resource"], params["action"]
    tainted = bool(provenance)
    matched = None
    for g in ctx["grants"]:
        if g["origin"] != "untrusted-content" and grant_covers(g, tool["toolName"], resource, action):
            matched = g
            break
    egress = tainted and tool["networkEgress"]
    flow = matched["dataFlowPolicyRef"] if (matched is not None and egress) else None
    reasons = []
    if tool["toolName"] not in scope["allowedTools"]:
        reasons.append("tool-not-in-task-scope")
    if not any(covers(p, resource) for p in scope["allowedResources"]):
        reasons.append("resource-not-in-task-scope")
    if matched is None:
        reasons.append("no-matching-grant")
    if approval["state"] == "denied":
        reasons.append("approval-denied")
    if (tool["requiresConfirmation"] or tool["sideEffectLevel"] == "irreversible") and approval["state"] != "granted":
        reasons.append("confirmation-required")
    if egress and flow is None and approval["state"] != "granted":
        reasons.append("untrusted-data-egress")
    if any(r in DENY_REASONS for r in reasons):
        decision = "deny"
    elif reasons:
        decision = "requires-approval"
    else:
        decision, reasons = "allow", ["granted"]
    credential = None
    if decision == "allow" and matched["credentialRef"] is not None:
        credential = {"ref": matched["credentialRef"], "expiresAt": format_ms(now_ms + CREDENTIAL_LIFE_MS)}
    doc = {
        "schemaVersion": "PermissionDecisionV1",
        "decisionId": derived_id("prm-", {"runId": params["runId"], "callId": params["callId"]}),
        "runId": params["runId"],
        "callId": params["callId"],
        "tool": copy.deepcopy(tool),
        "resource": resource,
        "action": action,
        "inputs": {
            "identity": copy.deepcopy(ctx["identity"]),
            "taskScope": copy.deepcopy(scope),
            "approval": copy.deepcopy(approval),
            "provenance": {"tainted": tainted, "taintSources": copy.deepcopy(provenance)},
        },
        "matchedGrant": None if matched is None else {"grantId": matched["grantId"], "origin": matched["origin"]},
        "dataFlowPolicyRef": flow,
        "credential": credential,
        "decision": decision,
        "reasonCodes": reasons,
        "decidedAt": format_ms(now_ms),
    }
    doc["decisionDigest"] = jcs.digest_of(doc)
    return doc


def first_credential_shape(value):
    """The pointer of the first string (or member name) with a credential value shape, or None."""
    return next(credential_strings(value), None)


def request_view(params):
    """The request in the `{ call, context }` terms of PROTO-604's pointers."""
    return {"call": {k: v for k, v in params.items() if k != "context"}, "context": params["context"]}


class PolicyEngine:
    def __init__(self, clock):
        self.clock = clock
        self.runs = {}  # runId -> taint sources, in the order observed (the first 64)

    def observe(self, params):
        well_formed(params, "PolicyObserveParams", "policy.observe")
        sources = self.runs.setdefault(params["runId"], [])
        seen = any(s["observationId"] == params["observation"]["observationId"] for s in sources)
        if not seen and len(sources) < MAX_TAINT_SOURCES:
            sources.append(copy.deepcopy(params["observation"]))
        return {"runId": params["runId"], "tainted": True, "taintSources": copy.deepcopy(sources)}

    def decide(self, params):
        well_formed(params, "PolicyDecideParams", "policy.decide")
        where = first_credential_shape(request_view(params))
        if where is not None:
            raise Refusal("PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT",
                          "a string of the request has a credential value shape; pass a credref: reference",
                          path=where)
        doc = decide(params, self.runs.get(params["runId"], []), self.clock.now_ms())
        found = validate.judge(doc, "PermissionDecisionV1")
        if found:
            raise InvalidParams("policy.decide: the params give no valid decision (%s at %s)"
                                % (found[0]["code"], found[0]["path"]))
        return doc


def empty_string_in(value):
    if isinstance(value, str):
        return value == ""
    if isinstance(value, list):
        return any(empty_string_in(v) for v in value)
    if isinstance(value, dict):
        return any(empty_string_in(v) for v in value.values())
    return False


def well_formed(params, schema, method):
    """-32602 for params that break their schema, an empty string, an over-long run id, or a lone surrogate."""
    protocol_schema.require(schema, params, method)
    if empty_string_in(params):
        raise InvalidParams(method + ": every string of the params is non-empty")
    if len(params["runId"]) > 256:
        raise InvalidParams(method + ": runId must be 1-256 characters")
    if jcs.has_lone_surrogate(params):
        raise InvalidParams(method + ": a string of the params has a lone surrogate (no digest)")


def install(server):
    engine = PolicyEngine(server.clock)
    server.add_area("policy", {"policy.observe": engine.observe, "policy.decide": engine.decide})
    return engine
