"""delegate (capability `delegation`): docs/spec/delegation-gate.md#how-delegate-decides.

Stateless. A contract parent is judged first (schema and invariants 1-7: DELEGATION_PARENT_INVALID),
then the request against invariants 3, 4 and 6 and the containment of bundle rules 2 to 5 with
the parent's scope in place of P, in the page's order of codes; the accepted contract is built
from the parent and the request at the implementation's clock.
"""

import copy

from . import jcs, protocol_schema, validate
from .clock import format_ms, is_utc_timestamp, parse_instant_ns
from .errors import InvalidParams, Refusal
from .ids import derived_id
from .policy import empty_string_in
from .rules_permission import covers

LIMITS = ("maxSteps", "maxToolCalls", "maxRetries", "maxDurationMs", "maxCostMicros")
WILDCARD = "*"


def _ptr(*parts):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def delegation_id_of(doc):
    return derived_id("dlg-", {
        "parent": {"kind": doc["parent"]["kind"], "ref": doc["parent"]["ref"]},
        "delegate": doc["delegate"],
        "inputSnapshot": {"ref": doc["inputSnapshot"]["ref"], "digest": doc["inputSnapshot"]["digest"]},
    })


def delegation_digest_of(doc):
    return jcs.digest_of({k: v for k, v in doc.items() if k != "delegationDigest"})


def wildcards(scope):
    """Invariant 3: every `*` tool, action or whole resource, as pointers into `scope`."""
    out = []
    for i, t in enumerate(scope["allowedTools"]):
        if t == WILDCARD:
            out.append(_ptr("allowedTools", i))
    for i, p in enumerate(scope["permissions"]):
        if p["tool"] == WILDCARD:
            out.append(_ptr("permissions", i, "tool"))
        if p["resource"] == WILDCARD:
            out.append(_ptr("permissions", i, "resource"))
        for j, a in enumerate(p["actions"]):
            if a == WILDCARD:
                out.append(_ptr("permissions", i, "actions", j))
    return out


def tools_not_allowed(scope):
    """Invariant 4: permissions for a tool outside `allowedTools`."""
    return [_ptr("permissions", i, "tool") for i, p in enumerate(scope["permissions"])
            if p["tool"] not in scope["allowedTools"]]


def criterion_repeats(criteria):
    """Invariant 7: each repeated criterion id after its first."""
    seen, out = set(), []
    for i, c in enumerate(criteria):
        if c["id"] in seen:
            out.append(_ptr("acceptanceCriteria", i, "id"))
        seen.add(c["id"])
    return out


def permission_covered(q, p):
    return q["tool"] == p["tool"] and covers(q["resource"], p["resource"]) and all(a in q["actions"] for a in p["actions"])


def containment(parent, child):
    """Bundle rules 2 to 5: (code, pointer into child) of each break, in the page's order."""
    out = []
    for j, t in enumerate(child["allowedTools"]):
        if t not in parent["allowedTools"]:
            out.append(("DELEGATION_TOOL_NOT_CONTAINED", _ptr("allowedTools", j)))
    for j, p in enumerate(child["permissions"]):
        if not any(permission_covered(q, p) for q in parent["permissions"]):
            out.append(("DELEGATION_PERMISSION_NOT_CONTAINED", _ptr("permissions", j)))
    if child["budget"]["currency"] != parent["budget"]["currency"]:
        out.append(("DELEGATION_BUDGET_EXCEEDS_PARENT", _ptr("budget", "currency")))
    for limit in LIMITS:
        if child["budget"][limit] > parent["budget"][limit]:
            out.append(("DELEGATION_BUDGET_EXCEEDS_PARENT", _ptr("budget", limit)))
    if parse_instant_ns(child["deadline"]) > parse_instant_ns(parent["deadline"]):
        out.append(("DELEGATION_DEADLINE_EXCEEDS_PARENT", _ptr("deadline")))
    return out


def contract_issues(doc):
    """The issues of a DelegationContractV1, as `validate` reports them (agent_ref/rules_delegation.py)."""
    return validate.judge(doc, "DelegationContractV1")


def is_contract(parent):
    return isinstance(parent, dict) and "schemaVersion" in parent


def first_refusal(scope, request, now_ns):
    """The first violation in the order of DLG-013, as (code, pointer into the request)."""
    checks = [("DELEGATION_WILDCARD_GRANT", p) for p in wildcards(request)]
    checks += [("DELEGATION_GRANT_TOOL_NOT_ALLOWED", p) for p in tools_not_allowed(request)]
    order = ("DELEGATION_TOOL_NOT_CONTAINED", "DELEGATION_PERMISSION_NOT_CONTAINED",
             "DELEGATION_BUDGET_EXCEEDS_PARENT", "DELEGATION_DEADLINE_EXCEEDS_PARENT")
    contained = containment(scope, request)
    for code in order:
        checks += [(c, p) for (c, p) in contained if c == code]
    if parse_instant_ns(request["deadline"]) <= now_ns:
        checks.append(("DELEGATION_DEADLINE_NOT_AFTER_CREATION", "/deadline"))
    checks += [("DELEGATION_CRITERION_DUPLICATE", p) for p in criterion_repeats(request["acceptanceCriteria"])]
    return checks[0] if checks else None


def delegate(params, now_ms):
    protocol_schema.require("DelegateParams", params, "delegate", without_parent_schema())
    if jcs.has_lone_surrogate(params):
        raise InvalidParams("delegate: a string of the params has a lone surrogate (no digest)")
    if empty_string_in({k: v for k, v in params["request"].items() if k != "outputSchema"}) or (
            not is_contract(params["parent"]) and empty_string_in(params["parent"])):
        raise InvalidParams("delegate: every string of the grant and the request (outside outputSchema) is non-empty")
    parent, request = params["parent"], params["request"]
    if is_contract(parent):
        found = contract_issues(parent)
        if found:
            raise Refusal("DELEGATION_PARENT_INVALID", "the parent is not a valid DelegationContractV1 (%s at %s)"
                          % (found[0]["code"], found[0]["path"]), path="/parent" + found[0]["path"])
        origin = {"kind": "delegation", "ref": parent["delegationId"], "delegationDigest": parent["delegationDigest"]}
        delegator = parent["delegate"]
    else:
        protocol_schema.require("DelegateParams", parent, "delegate", grant_schema())
        if not is_utc_timestamp(parent["deadline"]):
            raise InvalidParams("delegate: params.parent.deadline must be an RFC 3339 UTC timestamp")
        origin = {"kind": "run", "ref": parent["runId"], "delegationDigest": None}
        delegator = parent["agent"]
    if not is_utc_timestamp(request["deadline"]):
        raise InvalidParams("delegate: params.request.deadline must be an RFC 3339 UTC timestamp")
    refusal = first_refusal(parent, request, now_ms * 1_000_000)
    if refusal is not None:
        code, path = refusal
        raise Refusal(code, "the request is outside the delegator's scope", path=path)
    doc = {
        "schemaVersion": "DelegationContractV1",
        "delegationId": "",
        "parent": origin,
        "delegator": delegator,
    }
    for name in ("delegate", "inputSnapshot", "allowedTools", "permissions", "budget", "deadline", "outputSchema",
                 "acceptanceCriteria"):
        doc[name] = copy.deepcopy(request[name])
    doc["createdAt"] = format_ms(now_ms)
    doc["delegationId"] = delegation_id_of(doc)
    doc["delegationDigest"] = delegation_digest_of(doc)
    found = contract_issues(doc)
    if found:
        raise InvalidParams("delegate: the request gives no valid contract (%s at %s)" % (found[0]["code"], found[0]["path"]))
    return doc


def without_parent_schema():
    """DelegateParams with `parent` left to the method (its contract branch is a `$ref`)."""
    schema = copy.deepcopy(protocol_schema.load("DelegateParams"))
    schema["properties"]["parent"] = {}
    return schema


def grant_schema():
    for branch in protocol_schema.load("DelegateParams")["properties"]["parent"]["anyOf"]:
        if "$ref" not in branch:
            return branch
    raise InvalidParams("delegate: no grant schema")


def install(server):
    server.add_area("delegation", {"delegate": lambda params: delegate(params, server.clock.now_ms())})
