"""AgentRoutingGate (docs/spec/agent-routing-gate.md): AgentRouteDecisionV1 and `intent-route`."""

from .rulekit import check_digest, derived, digest, without

MODE_RANK = {"read-only": 0, "plan-only": 1, "interactive": 2, "auto": 3}
SEED_FIELDS = ("contextEpoch", "semantic", "riskHint", "confidence", "continuationHint")


def _same(a, b):
    return a["kind"] == b["kind"] and a["name"] == b["name"] and a["mode"] == b["mode"]


def check_decision(doc, out):
    S, R = doc["input"]["intentSeed"], doc["route"]
    check_digest(out, doc, "decisionId", derived("route-", {"seedDigest": S["seedDigest"], "decidedAt": doc["decidedAt"]}), "ROUTE_DECISION_ID_MISMATCH")
    check_digest(out, doc, "decisionDigest", digest(without(doc, "decisionDigest")), "ROUTE_DECISION_DIGEST_MISMATCH")
    if doc["intent"]["source"] != "intent-seed":
        out.add("ROUTE_INTENT_FROM_KEYWORDS", "intent", "source")
    if doc["intent"]["canonical"] != S["semantic"]:
        out.add("ROUTE_INTENT_SEED_MISMATCH", "intent", "canonical")
    code = doc["reason"]["code"]
    if (code == "explicit-command" and not any(s["kind"] == "explicit-command" for s in doc["input"]["signals"])) or (
        code == "continuation" and S["continuationHint"] is not True
    ):
        out.add("ROUTE_REASON_UNSUPPORTED", "reason", "code")
    needs = R["mode"] == "auto" and (S["riskHint"] in ("high", "critical") or S["confidence"] < 0.6)
    conf = doc["confirmation"]
    if needs and conf is None:
        out.add("ROUTE_MODE_CONFIRMATION_MISSING", "confirmation")
    elif needs and S["riskHint"] == "critical" and conf["by"] != "user":
        out.add("ROUTE_MODE_CONFIRMATION_MISSING", "confirmation", "by")
    current = R
    targets = []
    ended = False
    for i, step in enumerate(doc["degradation"]):
        if step["when"] is None:
            out.add("ROUTE_DEGRADATION_CONDITION_MISSING", "degradation", i, "when")
        if ended:
            out.add("ROUTE_DEGRADATION_AFTER_TERMINAL", "degradation", i)
        to = step["to"]
        mode_only = False
        if to["kind"] == "route":
            target = to["route"]
            if _same(target, R):
                out.add("ROUTE_DEGRADATION_RETURNS_TO_CHOSEN", "degradation", i, "to")
            elif any(_same(target, t) for t in targets):
                out.add("ROUTE_DEGRADATION_CYCLE", "degradation", i, "to")
            if MODE_RANK[target["mode"]] > MODE_RANK[current["mode"]]:
                out.add("ROUTE_DEGRADATION_ESCALATES", "degradation", i, "to", "route", "mode")
            mode_only = target["kind"] == current["kind"] and target["name"] == current["name"] and MODE_RANK[target["mode"]] < MODE_RANK[current["mode"]]
            targets.append(target)
        else:
            ended = True
        if not step["announced"] and not mode_only:
            out.add("ROUTE_DEGRADATION_UNANNOUNCED", "degradation", i, "announced")
        if to["kind"] == "route":
            current = to["route"]


def check_bundle(documents, out, judge):
    if len(documents) != 2 or [d.get("schemaVersion") if isinstance(d, dict) else None for d in documents] != ["AgentRouteDecisionV1", "IntentSeedV1"]:
        out.add("ROUTE_SEED_REF_MISMATCH", "/documents")
        return
    if not all([judge(0), judge(1)]):
        return
    S, seed = documents[0]["input"]["intentSeed"], documents[1]
    if S["seedDigest"] != digest(seed):
        out.add("ROUTE_SEED_REF_MISMATCH", "/documents/0/input/intentSeed/seedDigest")
    for f in SEED_FIELDS:
        if S[f] != seed.get(f) or type(S[f]) is not type(seed.get(f)):
            out.add("ROUTE_SEED_REF_MISMATCH", "/documents/0/input/intentSeed/" + f)


CONTRACTS = {"AgentRouteDecisionV1": check_decision}
BUNDLES = {"intent-route": check_bundle}
BUNDLE_NEEDS = {"intent-route": ("AgentRouteDecisionV1", "IntentSeedV1")}
