"""DelegationGate (docs/spec/delegation-gate.md): DelegationContractV1 and `delegation-chain`."""

from .rulekit import before, check_digest, derived, digest, duplicates, instant, without
from .rules_permission import covers

LIMITS = ("maxSteps", "maxToolCalls", "maxRetries", "maxDurationMs", "maxCostMicros")


def delegation_id(doc):
    p, s = doc["parent"], doc["inputSnapshot"]
    return derived("dlg-", {"parent": {"kind": p["kind"], "ref": p["ref"]}, "delegate": doc["delegate"], "inputSnapshot": {"ref": s["ref"], "digest": s["digest"]}})


def check_delegation(doc, out):
    check_digest(out, doc, "delegationId", delegation_id(doc), "DELEGATION_ID_MISMATCH")
    check_digest(out, doc, "delegationDigest", digest(without(doc, "delegationDigest")), "DELEGATION_DIGEST_MISMATCH")
    for i, t in enumerate(doc["allowedTools"]):
        if t == "*":
            out.add("DELEGATION_WILDCARD_GRANT", "allowedTools", i)
    for i, p in enumerate(doc["permissions"]):
        if p["tool"] == "*":
            out.add("DELEGATION_WILDCARD_GRANT", "permissions", i, "tool")
        if p["resource"] == "*":
            out.add("DELEGATION_WILDCARD_GRANT", "permissions", i, "resource")
        for j, a in enumerate(p["actions"]):
            if a == "*":
                out.add("DELEGATION_WILDCARD_GRANT", "permissions", i, "actions", j)
        if p["tool"] not in doc["allowedTools"]:
            out.add("DELEGATION_GRANT_TOOL_NOT_ALLOWED", "permissions", i, "tool")
    parent = doc["parent"]
    if (parent["delegationDigest"] is None) != (parent["kind"] == "run"):
        out.add("DELEGATION_PARENT_REF_INCONSISTENT", "parent", "delegationDigest")
    if not before(doc["createdAt"], doc["deadline"]):
        out.add("DELEGATION_DEADLINE_NOT_AFTER_CREATION", "deadline")
    for i in duplicates(doc["acceptanceCriteria"], lambda c: c["id"]):
        out.add("DELEGATION_CRITERION_DUPLICATE", "acceptanceCriteria", i, "id")


def permission_covered(p, grants):
    return any(q["tool"] == p["tool"] and covers(q["resource"], p["resource"]) and all(a in q["actions"] for a in p["actions"]) for q in grants)


def check_chain(documents, out, judge):
    valid = all([judge(i, "DelegationContractV1") for i in range(len(documents))])
    if not valid:
        return
    for i in range(1, len(documents)):
        P, C = documents[i - 1], documents[i]
        base = "/documents/%d/" % i
        if C["parent"] != {"kind": "delegation", "ref": P["delegationId"], "delegationDigest": P["delegationDigest"]}:
            out.add("DELEGATION_CHAIN_PARENT_MISMATCH", base + "parent")
        if C["delegator"] != P["delegate"]:
            out.add("DELEGATION_CHAIN_PARENT_MISMATCH", base + "delegator")
        for j, t in enumerate(C["allowedTools"]):
            if t not in P["allowedTools"]:
                out.add("DELEGATION_TOOL_NOT_CONTAINED", base + "allowedTools/%d" % j)
        for j, p in enumerate(C["permissions"]):
            if not permission_covered(p, P["permissions"]):
                out.add("DELEGATION_PERMISSION_NOT_CONTAINED", base + "permissions/%d" % j)
        for limit in LIMITS:
            if C["budget"][limit] > P["budget"][limit]:
                out.add("DELEGATION_BUDGET_EXCEEDS_PARENT", base + "budget/" + limit)
        if C["budget"]["currency"] != P["budget"]["currency"]:
            out.add("DELEGATION_BUDGET_EXCEEDS_PARENT", base + "budget/currency")
        if instant(C["deadline"]) > instant(P["deadline"]):
            out.add("DELEGATION_DEADLINE_EXCEEDS_PARENT", base + "deadline")


CONTRACTS = {"DelegationContractV1": check_delegation}
BUNDLES = {"delegation-chain": check_chain}
