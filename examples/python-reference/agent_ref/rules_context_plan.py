"""ContextAcquisitionGate plans (docs/spec/context-acquisition-gate.md): ContextReadPlanV2
invariants 1-25 and its digest rules; each issue at the field the derivation disagrees with."""

from . import jcs
from .rules_context import source_key_normalized
from .rulekit import derived, digest, instant, utf16_sorted

BUCKETS = (("baselineSources", "baseline"), ("selectedSources", "selected"), ("excludedSources", "excluded"), ("unclassifiedSources", "unclassified"))
MUTATION_INTENTS = ("dev", "fix", "self-fix", "other")
FULL_REASONS = ("explicit-request", "audit-intent", "low-confidence", "cross-service", "release", "security", "destructive")
DERIVED_TRIGGERS = ("low-confidence", "explicit-full", "public-contract", "release", "security", "destructive", "profile-catalog-drift", "missing-reference")


def metadata_digest(ref):
    return digest({k: ref[k] for k in ("path", "layer", "exists", "size", "mtimeMs")})


def action_envelope(final_intent, change_types, risk):
    classes = {"context-read", "analysis-read"}
    if final_intent != "chat":
        classes |= {"test-execution", "workflow-closeout"}
    if final_intent in MUTATION_INTENTS:
        if "docs" in change_types or "public-contract" in change_types:
            classes.add("docs-mutation")
        if any(c != "docs" for c in change_types):
            classes.add("source-mutation")
    if "release" in change_types:
        classes.add("release")
    if "destructive" in change_types:
        classes.add("dangerous")
    classes = utf16_sorted(classes)
    mutation = any(c in classes for c in ("docs-mutation", "source-mutation", "workflow-closeout", "release", "dangerous"))
    return {"allowedActionClasses": classes, "mutationExpected": mutation, "riskCeiling": risk}


def _sources(doc):
    for array, bucket in BUCKETS:
        for i, s in enumerate(doc[array]):
            yield array, bucket, i, s


def full_read(doc):
    seed = doc["identity"]["intentSeed"]
    explicit = doc["fullReadNote"] is not None or doc["fullReadReason"] == "explicit-request"
    reasons = []
    if explicit:
        reasons.append("explicit-request")
    if doc["identity"]["finalIntent"] == "audit":
        reasons.append("audit-intent")
    if seed["confidence"] < 0.6:
        reasons.append("low-confidence")
    if "cross-service" in doc["triggeredEscalations"]:
        reasons.append("cross-service")
    reasons += [c for c in ("release", "security", "destructive") if c in doc["changeTypes"]]
    return bool(reasons), (reasons[0] if reasons else None), explicit


def missing_required(doc):
    return any(s.get("requiredToExist") and not any(r["exists"] for r in s["sourceRefs"]) for _, _, _, s in _sources(doc))


def baseline_digest(doc):
    ident, cov = doc["identity"], doc["candidateCoverage"]
    md = lambda s: [r["metadataDigest"] for r in s["sourceRefs"]]  # noqa: E731
    baseline = [{"sourceId": s["sourceId"], "contentIdentity": s["contentIdentity"], "metadataDigests": md(s)} for s in utf16_sorted(doc["baselineSources"], key=lambda s: s["sourceId"])]
    cands = [s for a, _, _, s in _sources(doc) if a != "baselineSources" and s["kind"] != "memory"]
    candidates = [{"sourceId": s["sourceId"], "requiredToExist": s["requiredToExist"], "metadataDigests": md(s)} for s in utf16_sorted(cands, key=lambda s: s["sourceId"])]
    return digest({"activeRoot": ident["activeRoot"], "project": ident["project"], "baseline": baseline, "cataloguedIds": utf16_sorted(cov["cataloguedIds"]), "inventoryIds": utf16_sorted(cov["inventoryIds"]), "candidates": candidates})


def identity_inputs(doc):
    """D-CTX-53: the plan's arrays sorted (UTF-16 code units), whatever order the plan lists them in."""
    ident, seed = doc["identity"], doc["identity"]["intentSeed"]
    srcs = []
    for array, bucket, _, s in _sources(doc):
        srcs.append({
            "sourceId": s["sourceId"], "bucket": bucket, "kind": s["kind"],
            "mandatory": s.get("mandatory", False) if bucket in ("baseline", "selected") else False,
            "authority": s["authority"], "reasonCode": s["reasonCode"], "sourceLayer": s["sourceLayer"],
            "requiredToExist": s["requiredToExist"], "metadataDigests": [r["metadataDigest"] for r in s["sourceRefs"]],
        })
    return {
        "target": {"activeRoot": ident["activeRoot"], "project": ident["project"], "host": ident["host"]},
        "intent": {"finalIntent": ident["finalIntent"], "riskHint": seed["riskHint"], "confidenceClass": "low" if seed["confidence"] < 0.6 else "normal", "changeTypes": utf16_sorted(doc["changeTypes"]), "actionEnvelope": {**doc["actionEnvelope"], "allowedActionClasses": utf16_sorted(doc["actionEnvelope"]["allowedActionClasses"])}},
        "baselineDigest": doc["baselineDigest"],
        "sources": utf16_sorted(srcs, key=lambda s: s["sourceId"]),
        "resolution": {**{k: utf16_sorted(doc[k]) for k in ("mandatorySourceIds", "triggeredEscalations")}, **{k: doc[k] for k in ("exitCondition", "fullRead", "fullReadReason", "localSourcesRequested")}},
        "versions": {"contextPlan": "ContextReadPlanV2", "contextReceipt": "ContextReadReceiptV2", "contentIdentity": "ContentIdentityV1", "contextBinding": "ContextReadBindingV1", "planner": ident["planner"]},
    }


def _canonical(values, path, out, key=None):
    keys = [jcs.utf16_key(key(v) if key else v) for v in values]
    for i in range(1, len(keys)):
        if keys[i] <= keys[i - 1]:
            out.add("CONTEXT_PLAN_NOT_CANONICAL", "%s/%d" % (path, i))


def check_plan_v2(doc, out):
    ident, seed = doc["identity"], doc["identity"]["intentSeed"]
    final = ident["finalIntent"]
    ct = doc["changeTypes"]
    if ident["contextEpoch"] != seed["contextEpoch"]:
        out.add("CONTEXT_EPOCH_MISMATCH", "/identity/contextEpoch")
    if final != seed["semantic"]:
        out.add("CONTEXT_INTENT_MISMATCH", "/identity/finalIntent")
    if instant(doc["plannedAt"]) < instant(seed["createdAt"]):
        out.add("CONTEXT_PLAN_CHRONOLOGY_INVALID", "/plannedAt")
    fr, frr, explicit = full_read(doc)
    if not ct and final not in ("chat", "resume") and not fr:
        out.add("CONTEXT_CHANGE_TYPES_REQUIRED", "/changeTypes")
    # 5 canonical order
    for path, values in (("/changeTypes", ct), ("/actionEnvelope/allowedActionClasses", doc["actionEnvelope"]["allowedActionClasses"]), ("/triggeredEscalations", doc["triggeredEscalations"]), ("/mandatorySourceIds", doc["mandatorySourceIds"]), ("/candidateCoverage/cataloguedIds", doc["candidateCoverage"]["cataloguedIds"]), ("/candidateCoverage/inventoryIds", doc["candidateCoverage"]["inventoryIds"])):
        _canonical(values, path, out)
    for array, _ in BUCKETS:
        keys = [jcs.utf16_key(s["sourceId"]) for s in doc[array]]
        for i in range(1, len(keys)):
            if keys[i] < keys[i - 1]:
                out.add("CONTEXT_PLAN_NOT_CANONICAL", "/%s/%d" % (array, i))
    for array, _, i, s in _sources(doc):
        _canonical(s["sourceRefs"], "/%s/%d/sourceRefs" % (array, i), out, key=lambda r: r["layer"] + ":" + r["path"])
        for j, r in enumerate(s["sourceRefs"]):
            if r["metadataDigest"] != metadata_digest(r):
                out.add("CONTEXT_SOURCE_METADATA_DIGEST_MISMATCH", "/%s/%d/sourceRefs/%d/metadataDigest" % (array, i, j))
    env = action_envelope(final, ct, seed["riskHint"])
    for k, v in env.items():
        if doc["actionEnvelope"][k] != v:
            out.add("CONTEXT_ACTION_ENVELOPE_MISMATCH", "/actionEnvelope/" + k)
    # 8 candidate coverage
    cov = "CONTEXT_CANDIDATE_COVERAGE_INVALID"
    catalogued, inventory = set(doc["candidateCoverage"]["cataloguedIds"]), set(doc["candidateCoverage"]["inventoryIds"])
    seen = set()
    profile_ids = set()
    for array, bucket, i, s in _sources(doc):
        sid = s["sourceId"]
        if sid in seen:
            out.add(cov, "/%s/%d/sourceId" % (array, i))
        seen.add(sid)
        if sid.startswith("profile:"):
            profile_ids.add(sid)
        if bucket == "unclassified" and not (sid in inventory and sid not in catalogued):
            out.add(cov, "/%s/%d/sourceId" % (array, i))
        if sid in inventory and sid not in catalogued and not (bucket == "unclassified" or (bucket == "selected" and s["reasonCode"] == "explicit-selector") or (bucket == "excluded" and s["reasonCode"] == "excluded-metadata-only")):
            out.add(cov, "/%s/%d/reasonCode" % (array, i))
        if s["kind"] in ("profile", "profile-local") and s["authority"] != ("profile-catalog" if sid in catalogued else "profile-inventory"):
            out.add(cov, "/%s/%d/authority" % (array, i))
    if profile_ids != catalogued | inventory:
        out.add(cov, "/candidateCoverage")
    # 9 baseline
    base = doc["baselineSources"]
    for code, authority in (("baseline-readme", "lossless-plan-baseline"), ("baseline-config", "effective-non-local-config")):
        hits = [i for i, s in enumerate(base) if s["reasonCode"] == code]
        if len(hits) != 1:
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/baselineSources")
            continue
        i = hits[0]
        if base[i]["authority"] != authority:
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/baselineSources/%d/authority" % i)
        if not any(r["exists"] for r in base[i]["sourceRefs"]):
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/baselineSources/%d/sourceRefs" % i)
    for i, s in enumerate(base):
        if not source_key_normalized(s["contentIdentity"]["sourceKey"]):
            out.add("CONTENT_SOURCE_KEY_NOT_NORMALIZED", "/baselineSources/%d/contentIdentity/sourceKey" % i)
    if doc["baselineDigest"] != baseline_digest(doc):
        out.add("CONTEXT_BASELINE_STALE", "/baselineDigest")
    # 11 descriptors
    desc = "CONTEXT_SOURCE_DESCRIPTOR_INVALID"
    for array, bucket, i, s in _sources(doc):
        p = "/%s/%d/" % (array, i)
        sid = s["sourceId"]
        memory = sid.startswith("memory:")
        if (s["kind"] == "memory") != memory:
            out.add(desc, p + "kind")
        if s["kind"] == "memory":
            if s["authority"] != "bounded-memory-query":
                out.add(desc, p + "authority")
            if s["reasonCode"] != ("memory-status" if sid == "memory:status" else "memory-session"):
                out.add(desc, p + "reasonCode")
            query = sid[len("memory:"):]
            want = {"path": "memory://%s/%s" % (ident["project"], query), "layer": "memory-query", "exists": True, "size": None, "mtimeMs": None}
            refs = s["sourceRefs"]
            if len(refs) != 1 or any(refs[0].get(k) != v for k, v in want.items()):
                out.add(desc, p + "sourceRefs")
        elif s["reasonCode"] in ("memory-status", "memory-session"):
            out.add(desc, p + "reasonCode")
        layers = []
        for r in s["sourceRefs"]:
            if r["layer"] not in layers:
                layers.append(r["layer"])
        if s["sourceLayer"] != "+".join(layers):
            out.add(desc, p + "sourceLayer")
        if s["reasonCode"] == "intent-change-type" and not ct:
            out.add(desc, p + "reasonCode")
    # 12 memory queries
    sel = doc["selectedSources"]
    mem = {s["sourceId"]: s for s in sel if s["sourceId"].startswith("memory:")}
    want = {"memory:status": True}
    if final == "resume":
        want.update({"memory:session": True, "memory:summary": False})
    if set(mem) != set(want) or any(mem[k]["mandatory"] != v for k, v in want.items()):
        out.add("CONTEXT_MEMORY_QUERIES_INVALID", "/selectedSources")
    else:
        reasons = {"memory:status": "memory-status", "memory:session": "memory-session", "memory:summary": "memory-session"}
        if any(mem[k]["reasonCode"] != reasons[k] for k in want):
            out.add("CONTEXT_MEMORY_QUERIES_INVALID", "/selectedSources")
    # 13 mandatory
    for i, s in enumerate(sel):
        if s["kind"] in ("profile", "profile-local") and not s["mandatory"]:
            out.add("CONTEXT_MANDATORY_SOURCES_MISMATCH", "/selectedSources/%d/mandatory" % i)
    mand = utf16_sorted([s["sourceId"] for s in base + sel if s.get("mandatory")])
    if doc["mandatorySourceIds"] != mand:
        out.add("CONTEXT_MANDATORY_SOURCES_MISMATCH", "/mandatorySourceIds")
    # 14, 15 full read
    if doc["fullRead"] != fr:
        out.add("CONTEXT_FULL_READ_MISMATCH", "/fullRead")
    if doc["fullReadReason"] != frr:
        out.add("CONTEXT_FULL_READ_MISMATCH", "/fullReadReason")
    if (doc["fullReadNote"] is not None) != (doc["fullReadReason"] == "explicit-request"):
        out.add("CONTEXT_FULL_REASON_REQUIRED", "/fullReadNote")
    # 16 selection (with the derived full-read decision)
    selp = "CONTEXT_SELECTION_INVALID"
    for array, bucket, i, s in _sources(doc):
        p = "/%s/%d/reasonCode" % (array, i)
        if fr:
            if bucket == "excluded" and s["kind"] == "profile" and s["reasonCode"] != "excluded-metadata-only":
                out.add(selp, p)
            if bucket == "selected" and s["kind"] in ("profile", "profile-local") and s["reasonCode"] not in ("full-read", "explicit-selector"):
                out.add(selp, p)
        else:
            if s["reasonCode"] == "full-read":
                out.add(selp, p)
            if final == "chat" and bucket == "selected" and s["kind"] in ("profile", "profile-local") and s["reasonCode"] != "explicit-selector":
                out.add(selp, p)
    # 17 local sources
    local = "CONTEXT_LOCAL_SOURCE_NOT_REQUESTED"
    for array, bucket, i, s in _sources(doc):
        if s["kind"] == "profile-local":
            if bucket == "selected" and not doc["localSourcesRequested"]:
                out.add(local, "/%s/%d" % (array, i))
            elif not doc["localSourcesRequested"] and not (bucket == "excluded" and s["reasonCode"] == "excluded-local-policy"):
                out.add(local, "/%s/%d" % (array, i))
        elif s["reasonCode"] == "excluded-local-policy":
            out.add(local, "/%s/%d/reasonCode" % (array, i))
    # 18 skip reasons
    for i, s in enumerate(doc["excludedSources"]):
        if s["skipReason"].strip().lower() in ("not needed", "暂不需要"):
            out.add("CONTEXT_SKIP_REASON_INVALID", "/excludedSources/%d/skipReason" % i)
    # 19 triggers
    missing = missing_required(doc)
    cond = {
        "low-confidence": seed["confidence"] < 0.6,
        "explicit-full": explicit or final == "audit",
        "public-contract": "public-contract" in ct,
        "release": "release" in ct,
        "security": "security" in ct,
        "destructive": "destructive" in ct,
        "profile-catalog-drift": bool(doc["unclassifiedSources"]),
        "missing-reference": missing,
    }
    if any((t in doc["triggeredEscalations"]) != c for t, c in cond.items()):
        out.add("CONTEXT_ESCALATIONS_MISMATCH", "/triggeredEscalations")
    exit_condition = "blocked" if doc["unclassifiedSources"] or missing else ("escalated-full" if fr else "relevant-complete")
    if doc["exitCondition"] != exit_condition:
        out.add("CONTEXT_EXIT_CONDITION_MISMATCH", "/exitCondition")
    cache = doc["cacheDecision"]
    if cache["cacheKey"] != doc["planContentId"]:
        out.add("CONTEXT_CACHE_DECISION_INVALID", "/cacheDecision/cacheKey")
    if bool(cache["reusedArtifacts"]) != (cache["status"] == "hit"):
        out.add("CONTEXT_CACHE_DECISION_INVALID", "/cacheDecision/reusedArtifacts")
    ii = identity_inputs(doc)
    for k, v in ii.items():
        if digest(doc["identityInputs"].get(k)) != digest(v):
            out.add("CONTEXT_IDENTITY_INPUTS_MISMATCH", "/identityInputs/" + k)
    content_id = "plan-content-" + digest(doc["identityInputs"])
    if doc["planContentId"] != content_id:
        out.add("CONTEXT_PLAN_CONTENT_ID_MISMATCH", "/planContentId")
    plan_id = derived("plan-", {"planContentId": doc["planContentId"], "contextEpoch": ident["contextEpoch"], "invocationNonce": ident["invocationNonce"]})
    if doc["planId"] != plan_id:
        out.add("CONTEXT_PLAN_ID_MISMATCH", "/planId")
    binding = {"planId": doc["planId"], "planContentId": doc["planContentId"], "contextEpoch": ident["contextEpoch"], "activeRoot": ident["activeRoot"], "project": ident["project"]}
    for k, v in binding.items():
        if doc["contextBinding"][k] != v:
            out.add("CONTEXT_BINDING_MISMATCH", "/contextBinding/" + k)


CONTRACTS = {"ContextReadPlanV2": check_plan_v2}


# -- ContextReadPlanV1 (compatibility) -------------------------------------------------------

def _entry_name(entry):
    for k in ("file", "name", "selector"):
        if isinstance(entry.get(k), str):
            return entry[k]
    return None


def check_plan_v1(doc, out):
    ident, seed = doc["identity"], doc["identity"]["intentSeed"]
    if ident["contextEpoch"] != seed["contextEpoch"]:
        out.add("CONTEXT_EPOCH_MISMATCH", "/identity/contextEpoch")
    plan_id = derived("plan-", {k: v for k, v in doc.items() if k not in ("planId", "planningTelemetry")})
    if doc["planId"] != plan_id:
        out.add("CONTEXT_PLAN_ID_MISMATCH", "/planId")
    bc = doc["baselineContext"]
    if bc["baselineDigest"] != digest({k: v for k, v in bc.items() if k != "baselineDigest"}):
        out.add("CONTEXT_BASELINE_STALE", "/baselineContext/baselineDigest")
    refs = [("/selectedSources/%d/sourceRefs/%d" % (i, j), r) for i, s in enumerate(doc["selectedSources"]) for j, r in enumerate(s["sourceRefs"])]
    refs += [("/baselineContext/readme/sourceRefs/%d" % j, r) for j, r in enumerate(bc["readme"]["sourceRefs"])]
    refs += [("/baselineContext/configSourceRefs/%d" % j, r) for j, r in enumerate(bc["configSourceRefs"])]
    for path, r in refs:
        if r["metadataDigest"] != metadata_digest(r):
            out.add("CONTEXT_SOURCE_METADATA_DIGEST_MISMATCH", path + "/metadataDigest")
    sel = doc["selectedSources"]
    for sid in ("profile:README.md", "profile:config.json"):
        hits = [i for i, s in enumerate(sel) if s["sourceId"] == sid]
        if not hits:
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/selectedSources")
            continue
        i = hits[0]
        if sel[i]["kind"] != "profile-baseline":
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/selectedSources/%d/kind" % i)
        if sel[i]["mandatory"] is not True:
            out.add("CONTEXT_BASELINE_INCOMPLETE", "/selectedSources/%d/mandatory" % i)
    if bc["project"] != ident["project"]:
        out.add("CONTEXT_ACTIVE_TARGET_MISMATCH", "/baselineContext/project")
    if doc["mandatorySourceIds"] != utf16_sorted([s["sourceId"] for s in sel if s["mandatory"]]):
        out.add("CONTEXT_MANDATORY_SOURCES_MISMATCH", "/mandatorySourceIds")
    cov = doc["catalogCoverage"]
    bad = "CONTEXT_CANDIDATE_COVERAGE_INVALID"
    classes = [("selectedIds", set(cov["selectedIds"])), ("excludedIds", set(cov["excludedIds"])), ("unclassifiedIds", set(cov["unclassifiedIds"]))]
    for a in range(3):
        for b in range(a + 1, 3):
            if classes[a][1] & classes[b][1]:
                out.add(bad, "/catalogCoverage/" + classes[b][0])
    if cov["excludedIds"] != [s["sourceId"] for s in doc["excludedSources"]] and set(cov["excludedIds"]) != {s["sourceId"] for s in doc["excludedSources"]}:
        out.add(bad, "/catalogCoverage/excludedIds")
    if not set(cov["selectedIds"]) <= {s["sourceId"] for s in sel}:
        out.add(bad, "/catalogCoverage/selectedIds")
    names = {_entry_name(e) for e in bc["catalog"] + bc["inventory"]} - {None}
    if set(cov["selectedIds"]) | set(cov["excludedIds"]) | set(cov["unclassifiedIds"]) != {"profile:" + n for n in names}:
        out.add(bad, "/catalogCoverage")
    ex = doc["exitCondition"]
    if (cov["unclassifiedIds"] and ex != "blocked") or (doc["fullRead"] and ex not in ("escalated-full", "blocked")) or (not doc["fullRead"] and ex == "escalated-full"):
        out.add("CONTEXT_EXIT_CONDITION_MISMATCH", "/exitCondition")
    if bool(doc["fullReadReason"]) != doc["fullRead"]:
        out.add("CONTEXT_FULL_REASON_REQUIRED", "/fullReadReason")
    files = utf16_sorted([s["selector"] for s in sel if s["kind"] in ("profile", "profile-local")])
    if doc["profile"]["selectedFiles"] != files:
        out.add("CONTEXT_SELECTION_INVALID", "/profile/selectedFiles")
    queries = utf16_sorted([s["selector"] for s in sel if s["kind"] == "memory" and s["mandatory"]])
    if doc["memory"]["requiredQueries"] != queries:
        out.add("CONTEXT_SELECTION_INVALID", "/memory/requiredQueries")
    local = any(s["kind"] == "profile-local" or s["selector"] == "config.local.json" for s in sel)
    if local and not doc["profile"]["configLocalRequested"]:
        out.add("CONTEXT_SELECTION_INVALID", "/profile/configLocalRequested")
    if doc["budget"]["advisory"] != (not doc["budget"]["force"]):
        out.add("CONTEXT_PLAN_INVALID", "/budget/advisory")
    for i, s in enumerate(doc["excludedSources"]):
        if s["skipReason"].strip().lower() in ("not needed", "暂不需要"):
            out.add("CONTEXT_SKIP_REASON_INVALID", "/excludedSources/%d/skipReason" % i)
    env = action_envelope(ident["finalIntent"], doc["changeTypes"], seed["riskHint"])
    for k, v in env.items():
        if doc["actionEnvelope"][k] != v:
            out.add("CONTEXT_ACTION_ENVELOPE_MISMATCH", "/actionEnvelope/" + k)


CONTRACTS["ContextReadPlanV1"] = check_plan_v1
