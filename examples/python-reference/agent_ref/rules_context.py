"""ContextAcquisitionGate (docs/spec/context-acquisition-gate.md): IntentSeedV1, ContentIdentityV1,
ContextReadBindingV1, ContextReadReceiptV1 and ContextReuseDecisionV1.

The plans, the V2 receipt and the observation ledger are not implemented here yet: `hello` does
not list them (agent_ref/validate.py declares only what a module checks).
"""

import unicodedata

from . import rules_context_observations as obs
from .rulekit import derived, digest, instant, pick, utf16_sorted, without


def check_seed(doc, out):
    """IntentSeedV1: its page states no validator rule beyond the schema (its invariants are
    runtime or checked on the plan)."""


def source_key_normalized(key):
    return unicodedata.normalize("NFKC", key) == key


def check_content_identity(doc, out, base=""):
    if not source_key_normalized(doc["sourceKey"]):
        out.add("CONTENT_SOURCE_KEY_NOT_NORMALIZED", base + "/sourceKey")


def check_binding(doc, out):
    """ContextReadBindingV1: invariant 1 needs the plan (a bundle); invariant 2 is runtime."""


# -- ContextReadReceiptV1 --------------------------------------------------------------------

V1_FLAGS = ("successful", "observable", "transportSuccess", "activeRootMatch", "sourceRefsMatch", "schemaMatch", "targetMatch")


def v1_satisfied(doc):
    if doc["status"] in ("stale", "blocked") or doc["verificationMode"] != "structured-plan":
        return []
    last = {}
    for r in doc["observations"]:
        if r["sourceId"] is not None and r["outcome"] != "attempted" and r["correlationValid"] is True:
            last[r["sourceId"]] = r
    ok = [s for s, r in last.items() if all(r[f] is True for f in V1_FLAGS) and r["outcome"] in ("observed-success", "baseline-ready")]
    return utf16_sorted(ok)


def check_receipt_v1(doc, out):
    if doc["receiptId"] != derived("receipt-", pick(doc, "planId", "verificationMode")):
        out.add("CONTEXT_RECEIPT_ID_MISMATCH", "/receiptId")
    if doc["satisfiedSourceIds"] != v1_satisfied(doc):
        out.add("CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED", "/satisfiedSourceIds")
    if doc["verificationMode"] in ("path-observable", "instruction-only"):
        code = "CONTEXT_RECEIPT_FALLBACK_COMPLETE"
        if doc["status"] not in ("unverified", "stale", "blocked"):
            out.add(code, "/status")
        for f in ("completedAt", "consumedAt"):
            if doc[f] is not None:
                out.add(code, "/" + f)
        if doc["satisfiedSourceIds"]:
            out.add(code, "/satisfiedSourceIds")


# -- ContextReuseDecisionV1 ------------------------------------------------------------------

COMPUTATION_CHECK = {"current-plan-invalid": 1, "execution-optimization-full-only": 2, "legacy-plan-no-content-identity": 3, "no-compatible-prior-plan": 3, "target-mismatch": 4, "plan-content-mismatch": 5}
DELIVERY_CHECK = {"current-plan-invalid": 1, "execution-optimization-full-only": 2, "legacy-or-missing-prior-plan": 3, "target-mismatch": 4, "plan-content-mismatch": 5, "legacy-or-missing-receipt": 6, "prior-receipt-invalid": 7, "prior-receipt-plan-mismatch": 8, "host-session-mismatch": 9, "context-epoch-mismatch": 10, "prior-receipt-incomplete": 11, "source-identity-mismatch": 12, "body-observation-unproven": 13}
DELIVERY_OF_CHECK = {1: "current-plan-invalid", 2: "execution-optimization-full-only", 3: "legacy-or-missing-prior-plan", 4: "target-mismatch", 5: "plan-content-mismatch"}
DOC_CHECKS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def doc_check(d, k):
    """Whether "doc" check k of "Ordered checks" passes on the recorded inputs (None: needs the bundle)."""
    b, plan, rec = d["binding"], d["priorPlan"], d["priorReceipt"]
    if k == 2:
        return d["executionOptimizationMode"] != "full-only"
    if k == 3:
        return plan is not None and plan["schemaVersion"] == "ContextReadPlanV2"
    if k == 4:
        return plan["activeRoot"] == b["activeRoot"] and plan["project"] == b["project"]
    if k == 5:
        return plan["planContentId"] == b["planContentId"]
    if k == 6:
        return rec is not None and rec["schemaVersion"] == "ContextReadReceiptV2"
    if k == 8:
        return rec["planId"] == plan["planId"] and rec["planContentId"] == plan["planContentId"]
    if k == 9:
        return d["hostSessionId"] is not None and d["hostSessionId"] == rec["hostSessionId"]
    if k == 10:
        return b["contextEpoch"] == plan["contextEpoch"] == rec["contextEpoch"]
    if k == 11:
        return rec["verificationMode"] == "structured-plan" and rec["status"] in ("relevant-complete", "completed")
    if k == 12:
        return d["currentSourceIdentitiesDigest"] is not None and d["currentSourceIdentitiesDigest"] == rec["sourceIdentitiesDigest"]
    return None


def _order_ok(d, reason_check, granted, last_doc):
    """Every doc check before the reason's passes, and the reason's own fails when it is doc."""
    for k in DOC_CHECKS:
        if k > last_doc:
            break
        if not granted and k >= reason_check:
            break
        if not doc_check(d, k):
            return False
    if not granted and reason_check in DOC_CHECKS:
        return not doc_check(d, reason_check)
    return True


def check_reuse(d, out):
    if d["decisionId"] != derived("reuse-", without(d, "decisionId")):
        out.add("CONTEXT_REUSE_DECISION_ID_MISMATCH", "/decisionId")
    comp, deliv = d["computation"], d["delivery"]
    order = "CONTEXT_REUSE_REASON_ORDER_VIOLATED"
    comp_check = 6 if comp["reuse"] else COMPUTATION_CHECK[comp["reasonCode"]]
    if not _order_ok(d, comp_check, comp["reuse"], 5):
        out.add(order, "/computation/reasonCode")
    elif not comp["reuse"] and comp_check == 3:
        plan = d["priorPlan"]
        legacy = plan is not None and plan["schemaVersion"] == "ContextReadPlanV1"
        if (comp["reasonCode"] == "legacy-plan-no-content-identity") != legacy:
            out.add(order, "/computation/reasonCode")
    if deliv["reuse"] and not comp["reuse"]:
        out.add("CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION", "/delivery/reuse")
    elif not comp["reuse"] and deliv["reasonCode"] != DELIVERY_OF_CHECK[comp_check]:
        out.add("CONTEXT_REUSE_DELIVERY_WITHOUT_COMPUTATION", "/delivery/reasonCode")
    elif comp["reuse"]:
        deliv_check = 14 if deliv["reuse"] else DELIVERY_CHECK[deliv["reasonCode"]]
        if deliv_check <= 5 or not _order_ok(d, deliv_check, deliv["reuse"], 12):
            out.add(order, "/delivery/reasonCode")
    rf, plan, rec = d["reuseFrom"], d["priorPlan"], d["priorReceipt"]
    bad = "CONTEXT_REUSE_FROM_INCONSISTENT"
    if (rf is None) != (not comp["reuse"]):
        out.add(bad, "/reuseFrom")
    elif rf is not None:
        for f in ("planId", "planContentId"):
            if plan is None or rf[f] != plan[f]:
                out.add(bad, "/reuseFrom/" + f)
        for f in ("receiptId", "sourceIdentitiesDigest"):
            want = (rec[f] if rec is not None else None) if deliv["reuse"] else None
            if rf[f] != want:
                out.add(bad, "/reuseFrom/" + f)
    if deliv["reuse"] and rec is not None and rec["schemaVersion"] == "ContextReadReceiptV1":
        out.add("CONTEXT_REUSE_V1_RECEIPT", "/delivery/reuse")


# -- ContextReadReceiptV2 --------------------------------------------------------------------

REPLAYABLE = ("projection-drift", "writer-drift", "observation-orphaned", "observation-write-failed", "delivery-unobserved")


def receipt_v2_derivations(doc):
    """(M, satisfied, missing, sourceIdentities, delivery, status or None) of #derived-fields."""
    records = doc["observations"]
    M = set(doc["satisfiedSourceIds"]) | set(doc["missingSourceIds"])
    reuse = doc["reuseFrom"] is not None
    lat = obs.latest(records)
    good = {s for s, i in lat.items() if obs.satisfies(records, i, reuse)}
    if doc["verificationMode"] != "structured-plan" or doc["status"] in ("stale", "blocked"):
        sat = []
    else:
        sat = utf16_sorted(M & good)
    miss = utf16_sorted(M - set(sat))
    idents = [{"sourceId": s, "contentIdentity": records[lat[s]]["contentIdentity"]} for s in utf16_sorted(good)]
    body = all(s in good for s in M)
    status = doc["status"]
    eligible = status in ("relevant-complete", "completed") and body and doc["hostSessionId"] is not None
    if reuse:
        code = "same-session-epoch-content-observed"
    elif status == "stale":
        code = "receipt-stale"
    elif status == "blocked":
        code = "receipt-blocked"
    elif status == "unverified":
        code = "receipt-unverified"
    elif doc["hostSessionId"] is None:
        code = "host-session-unobservable"
    elif eligible:
        code = "current-session-content-observed"
    else:
        code = "body-read-required"
    delivery = {"bodyObserved": body, "reused": reuse, "eligible": eligible, "reasonCode": code}
    derived_status = None
    if doc["verificationMode"] == "structured-plan" and status not in ("stale", "blocked", "unverified"):
        kinds = [obs.kind_of(r) for r in records]
        if not miss and M:
            derived_status = "completed" if doc["consumedAt"] is not None else "relevant-complete"
        elif doc["fullRead"]:
            derived_status = "escalated-full"
        elif "attempt" in kinds or "read" in kinds:
            derived_status = "attempted"
        elif "baseline" in kinds:
            derived_status = "baseline-ready"
        else:
            derived_status = "planned"
    return M, sat, miss, idents, delivery, derived_status


def check_receipt_v2(doc, out):
    if doc["receiptId"] != derived("receipt-", without(doc, "receiptId", "updatedAt")):
        out.add("CONTEXT_RECEIPT_ID_MISMATCH", "/receiptId")
    records, binding, po = doc["observations"], doc["binding"], doc["planObservation"]
    obs.check_records(records, binding, out, po)
    status = doc["status"]
    results = [r for r in records if not obs.is_attempt(r)]
    for i, r in enumerate(results):
        if any(o is not r and o["toolCallId"] == r["toolCallId"] and o["sourceId"] == r["sourceId"] for o in results):
            if status not in ("unverified", "stale", "blocked"):
                out.add("CONTEXT_POST_TOOL_USE_CONFLICT", "/status")
            break
    M, sat, miss, idents, delivery, derived_status = receipt_v2_derivations(doc)
    bad = "CONTEXT_RECEIPT_SATISFIED_NOT_DERIVED"
    if doc["satisfiedSourceIds"] != sat or not M or set(doc["satisfiedSourceIds"]) & set(doc["missingSourceIds"]):
        out.add(bad, "/satisfiedSourceIds")
    if doc["missingSourceIds"] != miss:
        out.add(bad, "/missingSourceIds")
    if digest(doc["sourceIdentities"]) != digest(idents):
        out.add("CONTEXT_RECEIPT_SOURCE_IDENTITIES_NOT_DERIVED", "/sourceIdentities")
    for f, v in delivery.items():
        if doc["delivery"][f] != v:
            out.add("CONTEXT_RECEIPT_DELIVERY_NOT_DERIVED", "/delivery/" + f)
    if derived_status is not None and status != derived_status:
        out.add("CONTEXT_RECEIPT_STATUS_NOT_DERIVED", "/status")
    complete = status in ("relevant-complete", "completed")
    unproven = "CONTEXT_RECEIPT_COMPLETION_UNPROVEN"
    if complete and (doc["verificationMode"] != "structured-plan" or po is None or doc["missingSourceIds"] or not doc["satisfiedSourceIds"]):
        out.add(unproven, "/status")
    if (doc["completedAt"] is not None) != complete:
        out.add(unproven, "/completedAt")
    if (doc["consumedAt"] is not None) != (status == "completed"):
        out.add(unproven, "/consumedAt")
    fallback = "CONTEXT_RECEIPT_FALLBACK_COMPLETE"
    if doc["verificationMode"] in ("path-observable", "instruction-only"):
        if status not in ("unverified", "stale", "blocked"):
            out.add(fallback, "/status")
        if po is not None:
            out.add(fallback, "/planObservation")
        for f in ("completedAt", "consumedAt"):
            if doc[f] is not None:
                out.add(fallback, "/" + f)
        if doc["satisfiedSourceIds"]:
            out.add(fallback, "/satisfiedSourceIds")
    else:
        if po is None:
            out.add(fallback, "/planObservation")
        elif instant(doc["createdAt"]) != instant(po["observedAt"]):
            out.add(fallback, "/createdAt")
    back = "CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED"
    created, updated = instant(doc["createdAt"]), instant(doc["updatedAt"])
    if po is not None and instant(po["attemptedAt"]) > instant(po["observedAt"]):
        out.add(back, "/planObservation/attemptedAt")
    for i, r in enumerate(records):
        field = "attemptedAt" if obs.is_attempt(r) else "observedAt"
        t = instant(r[field])
        if obs.is_attempt(r) and po is not None and t < instant(po["observedAt"]):
            out.add(back, "/observations/%d/attemptedAt" % i)
        if not created <= t <= updated:
            out.add(back, "/observations/%d/%s" % (i, field))
    for i, e in enumerate(doc["escalations"]):
        if not created <= instant(e["observedAt"]) <= updated:
            out.add(back, "/escalations/%d/observedAt" % i)
    if doc["completedAt"] is not None:
        lat = obs.latest(records)
        for s_id in M:
            if s_id in lat and instant(doc["completedAt"]) < instant(records[lat[s_id]]["observedAt"]):
                out.add(back, "/completedAt")
    chain = [doc["completedAt"], doc["consumedAt"], doc["updatedAt"]]
    if doc["completedAt"] is not None and doc["consumedAt"] is not None and instant(doc["completedAt"]) > instant(doc["consumedAt"]):
        out.add(back, "/consumedAt")
    for f in ("completedAt", "consumedAt"):
        if doc[f] is not None and instant(doc[f]) > updated:
            out.add(back, "/" + f)
    del chain
    stale = "CONTEXT_RECEIPT_STALE_UNRECORDED"
    replans = sum(1 for e in doc["escalations"] if e["action"] == "replan-required")
    if doc["replanCount"] != replans:
        out.add(stale, "/replanCount")
    if (status == "stale") != (replans >= 1):
        out.add(stale, "/status")
    if status == "stale":
        if doc["lastError"] is None:
            out.add(stale, "/lastError")
        if not doc["escalations"] or doc["escalations"][-1]["action"] != "replan-required":
            out.add(stale, "/escalations")
    if (doc["fullReadReason"] is None) != (not doc["fullRead"]):
        out.add("CONTEXT_RECEIPT_FULL_READ_REASON_INVALID", "/fullReadReason")
    rf = doc["reuseFrom"]
    ri = "CONTEXT_RECEIPT_REUSE_INCONSISTENT"
    if rf is None:
        if any(obs.kind_of(r) == "reuse" for r in records):
            out.add(ri, "/reuseFrom")
    else:
        if rf["planContentId"] != binding["planContentId"]:
            out.add(ri, "/reuseFrom/planContentId")
        if rf["planId"] == binding["planId"]:
            out.add(ri, "/reuseFrom/planId")
        if doc["hostSessionId"] is None:
            out.add(ri, "/hostSessionId")
        if rf["sourceIdentitiesDigest"] != digest(doc["sourceIdentities"]):
            out.add(ri, "/reuseFrom/sourceIdentitiesDigest")


# -- ContextSourceObservationLedgerV1 --------------------------------------------------------

def check_ledger(doc, out):
    ident = doc["identity"]
    if doc["ledgerId"] != derived("ledger-", {"contextEpoch": ident["contextEpoch"]}):
        out.add("CONTEXT_SOURCE_OBSERVATION_LEDGER_ID_MISMATCH", "/ledgerId")
    if doc["ledgerDigest"] != digest(without(doc, "ledgerDigest")):
        out.add("CONTEXT_SOURCE_OBSERVATION_LEDGER_DIGEST_MISMATCH", "/ledgerDigest")
    records = doc["observations"]
    obs.check_records(records, ident, out, None, ledger=True, updated_at=doc["updatedAt"])
    for i, r in enumerate(records):
        p = "/observations/%d/" % i
        for f in ("contextEpoch", "planId"):
            if r[f] != ident[f]:
                out.add("CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH", p + f)
        if r["activeRoot"] != ident["activeRoot"] and not (not obs.is_attempt(r) and r["outcome"] == "wrong-root"):
            out.add("CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH", p + "activeRoot")
        if not obs.is_attempt(r) and r["reusedObservationId"] is not None:
            out.add("CONTEXT_SOURCE_OBSERVATION_REUSE_RECORD", p + "reusedObservationId")
    fold = doc["fold"]
    if fold is None:
        return
    bad = "CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED"
    sources = fold["sources"]
    ids = [e["sourceId"] for e in sources]
    if ids != utf16_sorted(set(ids)) or len(set(ids)) != len(ids):
        out.add(bad, "/fold/sources")
    lat = obs.latest(records)
    for j, e in enumerate(sources):
        i = lat.get(e["sourceId"])
        rec = records[i] if i is not None else None
        if e["observationId"] != (rec["observationId"] if rec else None):
            out.add(bad, "/fold/sources/%d/observationId" % j)
        if e["resultDigest"] != (rec["resultDigest"] if rec else None):
            out.add(bad, "/fold/sources/%d/resultDigest" % j)
        if e["satisfied"] != (i is not None and obs.satisfies(records, i, False)):
            out.add(bad, "/fold/sources/%d/satisfied" % j)
    sat = utf16_sorted([e["sourceId"] for e in sources if e["satisfied"]])
    miss = utf16_sorted([e["sourceId"] for e in sources if not e["satisfied"]])
    if fold["satisfiedSourceIds"] != sat:
        out.add(bad, "/fold/satisfiedSourceIds")
    if fold["missingSourceIds"] != miss:
        out.add(bad, "/fold/missingSourceIds")
    expected = digest({"identity": ident, "sources": sources, "satisfiedSourceIds": fold["satisfiedSourceIds"], "missingSourceIds": fold["missingSourceIds"]})
    if fold["foldDigest"] != expected:
        out.add("CONTEXT_SOURCE_OBSERVATION_FOLD_DIGEST_MISMATCH", "/fold/foldDigest")


CONTRACTS = {
    "ContextSourceObservationLedgerV1": check_ledger,
    "ContextReadReceiptV2": check_receipt_v2,
    "IntentSeedV1": check_seed,
    "ContentIdentityV1": lambda doc, out: check_content_identity(doc, out),
    "ContextReadBindingV1": check_binding,
    "ContextReadReceiptV1": check_receipt_v1,
    "ContextReuseDecisionV1": check_reuse,
}
