"""RepairCollaborationRoleBoundaryGate (docs/spec/repair-collaboration-role-boundary-gate.md):
RepairRoleBoundaryV1 invariants 1-14. Parties are compared by `id` (the page: "held by different
party ids")."""

from .rulekit import check_digest, derived, digest, pick, without

ROLES = ("decider", "accepter", "executor", "verifier")
AUTHORITY = ("decider", "accepter")
DIRECT = ("hook", "runtime", "replay", "tests")
CLASSES = ("low", "medium", "high", "critical")
RANKS = {
    "sideEffectLevel": {"none": 0, "read": 0, "local-write": 1, "external-write": 2, "irreversible": 3},
    "blastRadius": {"single-file": 0, "module": 1, "repository": 2, "cross-system": 3},
    "dataSensitivity": {"none": 0, "internal": 1, "personal": 2, "secret": 3},
}


def risk_class(risk):
    return CLASSES[max(RANKS[k][risk[k]] for k in RANKS)]


def _side(role):
    return "authority" if role in AUTHORITY else "execution"


def check_boundary(doc, out):
    check_digest(out, doc, "boundaryId", derived("rrb-", pick(doc, "subject", "repairTaskId")), "REPAIR_ROLE_BOUNDARY_ID_MISMATCH")
    check_digest(out, doc, "boundaryDigest", digest(without(doc, "boundaryDigest")), "REPAIR_ROLE_BOUNDARY_DIGEST_MISMATCH")
    assignments = doc["roleAssignments"]
    holder = {}
    sides = {}  # party id -> {side: first index}
    for i, a in enumerate(assignments):
        if a["role"] in holder:
            out.add("REPAIR_ROLE_ASSIGNMENT_DUPLICATE", "roleAssignments", i, "role")
        else:
            holder[a["role"]] = a["party"]
        pid = a["party"]["id"]
        seen = sides.setdefault(pid, set())
        side = _side(a["role"])
        if seen and side not in seen:
            out.add("REPAIR_ROLE_SEPARATION_VIOLATED", "roleAssignments", i, "party")
        seen.add(side)
    for role in ROLES:
        if role not in holder:
            out.add("REPAIR_ROLE_ASSIGNMENT_MISSING", "roleAssignments")
    auth = doc["authorizationEvidence"]
    authorized = set()
    for i, e in enumerate(auth):
        if e["role"] in authorized:
            out.add("REPAIR_ROLE_AUTHORIZATION_DUPLICATE", "authorizationEvidence", i, "role")
        authorized.add(e["role"])
        if not any(x["digest"] is not None for x in e["evidence"]):
            out.add("REPAIR_ROLE_AUTHORIZATION_UNPINNED", "authorizationEvidence", i, "evidence")
        h = holder.get(e["role"])
        grantor = e["grantedBy"]["id"]
        bad = h is not None and h["id"] == grantor
        if _side(e["role"]) == "execution":
            decider = holder.get("decider")
            bad = bad or decider is None or decider["id"] != grantor
        if bad:
            out.add("REPAIR_ROLE_AUTHORIZATION_GRANTOR_INVALID", "authorizationEvidence", i, "grantedBy")
    if doc["status"] != "proposed":
        for role in holder:
            if role not in authorized:
                out.add("REPAIR_ROLE_AUTHORIZATION_MISSING", "authorizationEvidence")
    rr = doc["independentReReview"]
    if rr is not None:
        if rr["role"] == "executor":
            out.add("REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT", "independentReReview", "role")
        ex = holder.get("executor")
        if ex is not None and ex["id"] == rr["party"]["id"]:
            out.add("REPAIR_ROLE_REREVIEW_NOT_INDEPENDENT", "independentReReview", "party")
        execution_digests = {x["digest"] for x in doc["executionEvidence"] if x["digest"] is not None}
        if not any(x["kind"] in DIRECT and x["digest"] is not None and x["digest"] not in execution_digests for x in rr["evidence"]):
            out.add("REPAIR_ROLE_REREVIEW_EVIDENCE_NOT_OWN", "independentReReview", "evidence")
        if rr["outcome"] == "rejected" and doc["status"] == "accepted":
            out.add("REPAIR_ROLE_ACCEPTED_AFTER_REJECTION", "status")
    computed = risk_class(doc["risk"])
    if doc["risk"]["riskClass"] != computed:
        out.add("REPAIR_ROLE_RISK_CLASS_MISMATCH", "risk", "riskClass")
    if computed in ("high", "critical") and doc["status"] in ("verified", "accepted") and rr is None:
        out.add("REPAIR_ROLE_REREVIEW_MISSING", "independentReReview")


CONTRACTS = {"RepairRoleBoundaryV1": check_boundary}
