"""The `context-acquisition-chain` bundle (docs/spec/context-acquisition-gate.md#bundles): the
receipt's bundle invariants 19-27, the ledger's 8-12 and the reuse decision's 2 (every check,
with the chain) and 6."""

from . import rules_context as ctx
from . import rules_context_observations as obs
from .rulekit import digest, instant, utf16_sorted

REPLAYABLE = ctx.REPLAYABLE
INCOMPLETE = ("baseline-ready", "planned", "attempted", "escalated-full")


def parse(documents, out):
    """(seed, plan, ledgers, receipts, decision, prior plan, prior receipt) as indexes, or None."""
    kinds = [d.get("schemaVersion") if isinstance(d, dict) else None for d in documents]
    bad = "CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER"
    if len(kinds) < 3 or kinds[0] != "IntentSeedV1":
        out.add(bad, "/documents/0/schemaVersion" if kinds else "/documents")
        return None
    if kinds[1] != "ContextReadPlanV2":
        out.add(bad, "/documents/1/schemaVersion")
        return None
    i = 2
    ledgers, receipts = [], []
    while i < len(kinds) and kinds[i] == "ContextSourceObservationLedgerV1":
        ledgers.append(i)
        i += 1
    while i < len(kinds) and kinds[i] in ("ContextReadReceiptV2", "ContextReadReceiptV1"):
        if kinds[i] == "ContextReadReceiptV1":
            out.add("CONTEXT_RECEIPT_V1_NOT_GATE_EVIDENCE", "/documents/%d/schemaVersion" % i)
            return None
        receipts.append(i)
        i += 1
    if not receipts:
        out.add(bad, "/documents/%d/schemaVersion" % i if i < len(kinds) else "/documents")
        return None
    decision = prior_plan = prior_receipt = None
    if i < len(kinds) and kinds[i] == "ContextReuseDecisionV1":
        decision = i
        i += 1
        if i < len(kinds) and kinds[i] in ("ContextReadPlanV2", "ContextReadPlanV1"):
            prior_plan = i
            i += 1
        if i < len(kinds) and kinds[i] in ("ContextReadReceiptV2", "ContextReadReceiptV1"):
            prior_receipt = i
            i += 1
    if i < len(kinds):
        out.add(bad, "/documents/%d/schemaVersion" % i)
        return None
    return 0, 1, ledgers, receipts, decision, prior_plan, prior_receipt


def _reach(a, b):
    if a == b:
        return True
    if a == "unverified":
        return False
    if a == "completed":
        return b in ("stale", "blocked")
    if b == "planned":
        return False
    if b == "baseline-ready":
        return a == "planned"
    return True


def check_chain(documents, out, judge):
    parsed = parse(documents, out)
    if parsed is None:
        return
    si, pi, ledgers, receipts, di, ppi, pri = parsed
    if not all([judge(i) for i in range(len(documents))]):
        return
    S, P = documents[si], documents[pi]
    D = lambda i: "/documents/%d/" % i  # noqa: E731
    order = "CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER"
    if digest(P["identity"]["intentSeed"]) != digest(S):
        out.add(order, D(pi) + "identity/intentSeed")
    if instant(S["createdAt"]) > instant(P["plannedAt"]):
        out.add(order, D(pi) + "plannedAt")
    sources = {s["sourceId"]: s for s in P["baselineSources"] + P["selectedSources"]}
    for ri in receipts:
        _receipt_rules(documents, ri, S, P, sources, ledgers, di, pri, out)
    _revisions(documents, receipts, out)
    _ledgers(documents, ledgers, P, out)
    if di is not None:
        _decision(documents, di, ppi, pri, P, out)


def _receipt_rules(documents, ri, S, P, sources, ledgers, di, pri, out):
    R = documents[ri]
    B = "/documents/%d/" % ri
    for k, v in P["contextBinding"].items():
        if R["binding"].get(k) != v:
            out.add("CONTEXT_BINDING_MISMATCH", B + "binding/" + k)
    copy = "CONTEXT_RECEIPT_PLAN_COPY_MISMATCH"
    if set(R["satisfiedSourceIds"]) | set(R["missingSourceIds"]) != set(P["mandatorySourceIds"]):
        out.add(copy, B + "missingSourceIds")
    for f in ("fullRead", "fullReadReason"):
        if R[f] != P[f]:
            out.add(copy, B + f)
    if R["host"] != P["identity"]["host"]:
        out.add(copy, B + "host")
    for i, e in enumerate(R["escalations"]):
        if e["action"] == "planned" and e["trigger"] not in P["triggeredEscalations"]:
            out.add(copy, B + "escalations/%d/trigger" % i)
    records = R["observations"]
    allowed = P["actionEnvelope"]["allowedActionClasses"]
    for i, r in enumerate(records):
        p = B + "observations/%d/" % i
        src = sources.get(r["sourceId"])
        if src is None:
            out.add("CONTEXT_SOURCE_NOT_AUTHORIZED", p + "sourceId")
        else:
            if r["sourceKind"] != src["kind"]:
                out.add("CONTEXT_SOURCE_NOT_AUTHORIZED", p + "sourceKind")
            if not obs.is_attempt(r) and r["sourceLayer"] not in src["sourceLayer"].split("+"):
                out.add("CONTEXT_SOURCE_NOT_AUTHORIZED", p + "sourceLayer")
        if obs.is_attempt(r):
            if r["actionClass"] not in allowed:
                out.add("CONTEXT_RECEIPT_SCOPE_DRIFT", p + "actionClass")
            if r["activeRoot"] != P["identity"]["activeRoot"]:
                out.add("CONTEXT_RECEIPT_SCOPE_DRIFT", p + "activeRoot")
            if src is None:
                out.add("CONTEXT_RECEIPT_SCOPE_DRIFT", p + "sourceId")
    if P["exitCondition"] == "blocked" and R["status"] != "blocked":
        out.add("CONTEXT_RECEIPT_BLOCKED_PLAN", B + "status")
    order = "CONTEXT_ACQUISITION_CHAIN_OUT_OF_ORDER"
    if not (S["contextEpoch"] == P["identity"]["contextEpoch"] == R["binding"]["contextEpoch"]):
        out.add(order, B + "binding/contextEpoch")
    po = R["planObservation"]
    if po is not None:
        planned = instant(P["plannedAt"])
        if instant(po["attemptedAt"]) > planned:
            out.add(order, B + "planObservation/attemptedAt")
        if planned > instant(po["observedAt"]):
            out.add(order, B + "planObservation/observedAt")
        lat = obs.latest(records)
        for sid in R["satisfiedSourceIds"]:
            i = lat.get(sid)
            if i is None or obs.kind_of(records[i]) != "read":
                continue
            r = records[i]
            attempt = next((a for a in records[:i] if obs.is_attempt(a) and a["toolCallId"] == r["toolCallId"] and a["sourceId"] == r["sourceId"]), None)
            times = [po["observedAt"], attempt["attemptedAt"] if attempt else r["attemptedAt"], r["observedAt"]] + ([R["completedAt"]] if R["completedAt"] else [])
            if any(instant(times[k]) > instant(times[k + 1]) for k in range(len(times) - 1)):
                out.add(order, B + "observations/%d/observedAt" % i)
    if R["reuseFrom"] is not None:
        _reuse_proven(documents, ri, di, pri, out)
    _ledger_projection(documents, ri, ledgers, out)


def _reuse_proven(documents, ri, di, pri, out):
    R = documents[ri]
    B = "/documents/%d/" % ri
    bad = "CONTEXT_RECEIPT_REUSE_UNPROVEN"
    dec = documents[di] if di is not None else None
    if dec is None or digest(dec["binding"]) != digest(R["binding"]) or not dec["delivery"]["reuse"] or (dec["reuseFrom"] or {}).get("receiptId") != R["reuseFrom"]["receiptId"]:
        out.add(bad, B + "reuseFrom")
        return
    if instant(dec["evaluatedAt"]) > instant(R["createdAt"]):
        out.add(bad, B + "createdAt")
    prior = documents[pri] if pri is not None else None
    if prior is None or prior["schemaVersion"] != "ContextReadReceiptV2":
        out.add(bad, B + "reuseFrom/receiptId")
        return
    same = prior["binding"]["contextEpoch"] == R["binding"]["contextEpoch"] and prior["binding"]["planContentId"] == R["binding"]["planContentId"] and prior["hostSessionId"] == R["hostSessionId"] and prior["status"] in ("relevant-complete", "completed") and prior["receiptId"] == R["reuseFrom"]["receiptId"]
    if not same:
        out.add(bad, B + "reuseFrom/receiptId")
    precs = prior["observations"]
    by_id = {r["observationId"]: j for j, r in enumerate(precs)}
    for i, r in enumerate(R["observations"]):
        if obs.is_attempt(r) or r["reusedObservationId"] is None:
            continue
        j = by_id.get(r["reusedObservationId"])
        ok = j is not None and not obs.is_attempt(precs[j]) and obs.satisfies(precs, j, prior["reuseFrom"] is not None)
        ok = ok and all(digest(precs[j][k]) == digest(r[k]) for k in ("sourceId", "resultDigest", "contentIdentity"))
        if not ok:
            out.add(bad, B + "observations/%d/reusedObservationId" % i)


def _current_ledger(documents, ledgers, R):
    best = None
    for li in ledgers:
        L = documents[li]
        if digest(L["identity"]) != digest(R["binding"]) or instant(L["updatedAt"]) > instant(R["updatedAt"]):
            continue
        if best is None or L["revision"] > documents[best]["revision"]:
            best = li
    return best


def _ledger_projection(documents, ri, ledgers, out):
    R = documents[ri]
    same = [li for li in ledgers if digest(documents[li]["identity"]) == digest(R["binding"])]
    if not same:
        return
    li = _current_ledger(documents, ledgers, R)
    stored = {r["observationId"]: r for r in documents[li]["observations"]} if li is not None else {}
    records = R["observations"]
    reuse = R["reuseFrom"] is not None
    for i, r in enumerate(records):
        if obs.is_attempt(r) or obs.kind_of(r) == "reuse" or not obs.satisfies(records, i, reuse):
            continue
        if r["observationId"] not in stored or digest(stored[r["observationId"]]) != digest(r):
            out.add("CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION", "/documents/%d/observations/%d" % (ri, i))


def _revisions(documents, receipts, out):
    by_binding = {}
    for ri in receipts:
        by_binding.setdefault(digest(documents[ri]["binding"]), []).append(ri)
    for group in by_binding.values():
        group = sorted(group, key=lambda i: instant(documents[i]["updatedAt"]))
        for a, b in zip(group, group[1:]):
            A, Bd = documents[a], documents[b]
            if A["status"] in ("stale", "blocked"):
                last = A["escalations"][-1]["reasonCode"] if A["escalations"] else None
                forbidden = A["status"] == "blocked" or last not in REPLAYABLE
                if forbidden and digest(A) != digest(Bd):
                    out.add("CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN", "/documents/%d/status" % b)
                continue
            if not _reach(A["status"], Bd["status"]):
                out.add("CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID", "/documents/%d/status" % b)
            later = {r["observationId"]: r for r in Bd["observations"]}
            if len(Bd["observations"]) < 100 and any(r["observationId"] not in later or digest(later[r["observationId"]]) != digest(r) for r in A["observations"]):
                out.add("CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID", "/documents/%d/observations" % b)


def _ledgers(documents, ledgers, P, out):
    for li in ledgers:
        L = documents[li]
        if L["fold"] is not None and set(e["sourceId"] for e in L["fold"]["sources"]) != set(P["mandatorySourceIds"]):
            out.add("CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED", "/documents/%d/fold/sources" % li)
        if digest(L["identity"]) != digest(P["contextBinding"]):
            out.add("CONTEXT_SOURCE_OBSERVATION_FOLD_NOT_DERIVED", "/documents/%d/identity" % li)
    for x in range(len(ledgers)):
        for y in range(x + 1, len(ledgers)):
            a, b = ledgers[x], ledgers[y]
            A, Bd = documents[a], documents[b]
            if A["ledgerId"] != Bd["ledgerId"]:
                continue
            if A["revision"] > Bd["revision"]:
                a, b, A, Bd = b, a, Bd, A
            if A["revision"] == Bd["revision"]:
                if digest(A) != digest(Bd):
                    out.add("CONTEXT_SOURCE_OBSERVATION_REVISION_INVALID", "/documents/%d/revision" % max(a, b))
                continue
            if instant(Bd["updatedAt"]) < instant(A["updatedAt"]):
                out.add("CONTEXT_SOURCE_OBSERVATION_REVISION_INVALID", "/documents/%d/updatedAt" % b)
            if digest(A["identity"]) != digest(Bd["identity"]):
                continue
            later = {r["observationId"]: (j, r) for j, r in enumerate(Bd["observations"])}
            recs = A["observations"]
            lat = obs.latest(recs)
            keep = set(lat.values())
            for i in list(keep):
                r = recs[i]
                keep |= {j for j, o in enumerate(recs) if obs.is_attempt(o) and o["toolCallId"] == r["toolCallId"] and o["sourceId"] == r["sourceId"]}
            keep |= {j for j, o in enumerate(recs) if not obs.is_attempt(o) and o["successful"] is True}
            if any(recs[j]["observationId"] not in later for j in keep):
                out.add("CONTEXT_SOURCE_OBSERVATION_EVIDENCE_LOST", "/documents/%d/observations" % b)
            for r in recs:
                hit = later.get(r["observationId"])
                if hit is not None and digest(hit[1]) != digest(r):
                    out.add("CONTEXT_SOURCE_OBSERVATION_REWRITTEN", "/documents/%d/observations/%d" % (b, hit[0]))


def _decision(documents, di, ppi, pri, P, out):
    d = documents[di]
    B = "/documents/%d/" % di
    ev = "CONTEXT_REUSE_EVIDENCE_MISMATCH"
    prior_plan = documents[ppi] if ppi is not None else None
    prior_rec = documents[pri] if pri is not None else None
    if d["priorPlan"] is not None and prior_plan is not None:
        copies = {"schemaVersion": prior_plan["schemaVersion"], "planId": prior_plan["planId"], "planContentId": prior_plan.get("planContentId"), "contextEpoch": prior_plan["identity"]["contextEpoch"], "activeRoot": prior_plan["identity"]["activeRoot"], "project": prior_plan["identity"]["project"]}
        for k, v in copies.items():
            if d["priorPlan"].get(k) != v:
                out.add(ev, B + "priorPlan/" + k)
    if d["priorReceipt"] is not None and prior_rec is not None:
        v2 = prior_rec["schemaVersion"] == "ContextReadReceiptV2"
        copies = {
            "schemaVersion": prior_rec["schemaVersion"], "receiptId": prior_rec["receiptId"],
            "planId": prior_rec["binding"]["planId"] if v2 else prior_rec["planId"],
            "planContentId": prior_rec["binding"]["planContentId"] if v2 else None,
            "contextEpoch": prior_rec["binding"]["contextEpoch"] if v2 else prior_rec["contextEpoch"],
            "hostSessionId": prior_rec["hostSessionId"] if v2 else None,
            "verificationMode": prior_rec["verificationMode"], "status": prior_rec["status"],
            "sourceIdentitiesDigest": digest(prior_rec["sourceIdentities"]) if v2 else None,
        }
        for k, v in copies.items():
            if d["priorReceipt"].get(k) != v:
                out.add(ev, B + "priorReceipt/" + k)
    # Invariant 2 with the chain: every check, the bundle ones included.
    first = _first_failing(d, P, prior_plan, prior_rec)
    comp, deliv = d["computation"], d["delivery"]
    comp_first = first if first is not None and first <= 5 else None
    want_comp = comp_first is None
    if comp["reuse"] != want_comp or (not comp["reuse"] and ctx.COMPUTATION_CHECK.get(comp["reasonCode"]) != comp_first):
        out.add("CONTEXT_REUSE_REASON_ORDER_VIOLATED", B + "computation/reasonCode")
    want_deliv = first is None
    if deliv["reuse"] != want_deliv or (not deliv["reuse"] and ctx.DELIVERY_CHECK.get(deliv["reasonCode"]) != first):
        out.add("CONTEXT_REUSE_REASON_ORDER_VIOLATED", B + "delivery/reasonCode")


def _first_failing(d, P, prior_plan, prior_rec):
    if digest(P["contextBinding"]) != digest(d["binding"]):
        return 1
    for k in range(2, 14):
        if k in ctx.DOC_CHECKS:
            if not ctx.doc_check(d, k):
                return k
        elif k == 7:
            if prior_rec is None or prior_rec["schemaVersion"] != "ContextReadReceiptV2":
                return 7
        elif k == 13:
            mand = P["mandatorySourceIds"]
            recs = prior_rec["observations"]
            reuse = prior_rec["reuseFrom"] is not None
            for s in mand:
                if not any(r["sourceId"] == s and not obs.is_attempt(r) and r["hostSessionId"] == d["hostSessionId"] and obs.satisfies(recs, j, reuse) for j, r in enumerate(recs)):
                    return 13
        if k == 12 and prior_rec is not None and prior_rec["schemaVersion"] == "ContextReadReceiptV2":
            if {e["sourceId"] for e in prior_rec["sourceIdentities"]} != set(P["mandatorySourceIds"]):
                return 12
    return None


BUNDLES = {"context-acquisition-chain": check_chain}
BUNDLE_NEEDS = {"context-acquisition-chain": ("IntentSeedV1", "ContextReadPlanV1", "ContextReadPlanV2", "ContextReadReceiptV1", "ContextReadReceiptV2", "ContextReuseDecisionV1", "ContextSourceObservationLedgerV1")}
