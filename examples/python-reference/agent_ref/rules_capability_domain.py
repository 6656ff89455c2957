"""AgentCapabilityDomainCompletenessGate (docs/spec/agent-capability-domain-completeness-gate.md):
AgentCapabilityDomainMatrixV1 invariants 1-10 and satisfaction across objects."""

from .rulekit import check_digest, derived, digest, without

OBJECTS = ("kernel", "runtime", "developer-product", "hosted-platform", "enterprise-saas")
# The domain catalogue in canonical order, each with the rank of the object that introduces it.
CATALOGUE = [(d, 0) for d in ("ingress", "cognition", "context-knowledge", "planning", "execution-tools", "response", "observe", "evaluate", "evolve", "governance", "model", "infrastructure")]
CATALOGUE += [(d, 1) for d in ("local-hosted-composition", "state", "tool-registry", "security", "observability", "replay")]
CATALOGUE += [(d, 2) for d in ("build", "version", "publish", "deploy", "invoke", "sdk-cli-api", "local-developer-runtime", "agent-studio")]
CATALOGUE += [(d, 3) for d in ("run-api", "provider-connector-credential", "deployment-fleet", "tenant-workspace")]
CATALOGUE += [(d, 4) for d in ("organization", "entitlement", "usage-metering-billing", "admin-ops", "audit-compliance")]
POSITION = {d: i for i, (d, _) in enumerate(CATALOGUE)}
INTRODUCED = dict(CATALOGUE)


def rank(obj):
    return OBJECTS.index(obj)


def applicable(obj):
    return [d for d, r in CATALOGUE if r <= rank(obj)]


def satisfied(record):
    return record["owner"] is not None and record["runtimeStatus"] == "implemented" and any(v["kind"] != "manual-review" for v in record["validationRoute"])


def verdict_of(doc):
    O = doc["completenessObject"]
    if O is None:
        return {"result": "incomplete", "missingDomains": [], "unsatisfiedDomains": [], "reasonCodes": ["CAPABILITY_COMPLETENESS_OBJECT_MISSING"]}
    records = {r["domain"]: r for r in doc["domains"]}
    missing = [d for d in applicable(O) if d not in records]
    unsatisfied = [d for d in applicable(O) if d in records and not satisfied(records[d])]
    reasons = (["CAPABILITY_DOMAIN_MISSING"] if missing else []) + (["CAPABILITY_DOMAIN_UNSATISFIED"] if unsatisfied else [])
    return {"result": "incomplete" if reasons else "complete-for-declared-object", "missingDomains": missing, "unsatisfiedDomains": unsatisfied, "reasonCodes": reasons}


def check_matrix(doc, out):
    O = doc["completenessObject"]
    check_digest(out, doc, "matrixId", derived("acdm-", {"subject": {"system": doc["subject"]["system"]}, "completenessObject": O}), "CAPABILITY_MATRIX_ID_MISMATCH")
    check_digest(out, doc, "matrixDigest", digest(without(doc, "matrixDigest")), "CAPABILITY_MATRIX_DIGEST_MISMATCH")
    R = doc["domains"]
    seen, duplicate = set(), False
    for i, r in enumerate(R):
        if r["domain"] in seen:
            out.add("CAPABILITY_DOMAIN_DUPLICATE", "domains", i)
            duplicate = True
        seen.add(r["domain"])
        if i > 0 and POSITION[r["domain"]] < POSITION[R[i - 1]["domain"]]:
            out.add("CAPABILITY_DOMAIN_ORDER_INVALID", "domains", i)
        if O is not None and INTRODUCED[r["domain"]] > rank(O):
            out.add("CAPABILITY_DOMAIN_OUT_OF_SCOPE", "domains", i, "domain")
        if r["owner"] is None and r["runtimeStatus"] not in ("absent", "not-applicable"):
            out.add("CAPABILITY_DOMAIN_OWNER_MISSING", "domains", i, "owner")
        if (r["publicPrivateBoundary"] == "not-applicable") != (r["runtimeStatus"] == "not-applicable"):
            out.add("CAPABILITY_DOMAIN_BOUNDARY_INCONSISTENT", "domains", i, "publicPrivateBoundary")
        if r["runtimeStatus"] != "implemented" and r["statusNote"] is None:
            out.add("CAPABILITY_DOMAIN_STATUS_NOTE_MISSING", "domains", i, "statusNote")
    if duplicate:
        return
    V = verdict_of(doc)
    if doc["verdict"] != V:
        out.add("CAPABILITY_VERDICT_MISMATCH", "verdict")
    if doc["claim"] != "none" and V["result"] != "complete-for-declared-object":
        out.add("CAPABILITY_CLAIM_INCOMPLETE", "claim")
        if "CAPABILITY_COMPLETENESS_OBJECT_MISSING" in V["reasonCodes"]:
            out.add("CAPABILITY_COMPLETENESS_OBJECT_MISSING", "completenessObject")
        for _ in V["missingDomains"]:
            out.items.append({"code": "CAPABILITY_DOMAIN_MISSING", "path": out.base + "/domains"})
        for i, r in enumerate(R):
            if r["domain"] in V["unsatisfiedDomains"]:
                out.add("CAPABILITY_DOMAIN_UNSATISFIED", "domains", i)


def satisfies(matrix, required):
    """Satisfaction across objects, for a matrix that passed its own invariants."""
    O = matrix["completenessObject"]
    return matrix["verdict"]["result"] == "complete-for-declared-object" and O is not None and rank(O) >= rank(required)


CONTRACTS = {"AgentCapabilityDomainMatrixV1": check_matrix}
