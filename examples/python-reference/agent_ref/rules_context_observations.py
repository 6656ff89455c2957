"""The observation records a ContextReadReceiptV2 and a ContextSourceObservationLedgerV1 share
(docs/spec/context-acquisition-gate.md#observation-records and the receipt's invariants 2-7),
and the derived fields of a V2 receipt (#derived-fields)."""

from .rulekit import derived, instant, utf16_sorted, without

TELEMETRY = ("observationId", "attemptedAt", "observedAt", "bytes", "chars", "hostDeliveredBytes", "latencyMs", "tokens")
SUCCESS_FLAGS = ("successful", "observable", "transportSuccess", "activeRootMatch", "correlationValid", "sourceRefsMatch", "schemaMatch", "targetMatch", "bodyObserved")


def is_attempt(r):
    return r["hookEvent"] == "PreToolUse"


def kind_of(r):
    """'attempt', 'reuse', 'baseline' or 'read'."""
    if is_attempt(r):
        return "attempt"
    if r["reusedObservationId"] is not None:
        return "reuse"
    if r["outcome"] == "baseline-ready":
        return "baseline"
    return "read"


def event_time(r):
    return r["attemptedAt"] if is_attempt(r) else r["observedAt"]


def observation_id(r):
    return derived("obs-", without(r, *TELEMETRY))


def correlated(records, i, plan_observation, ledger):
    r = records[i]
    k = kind_of(r)
    if k == "read":
        matches = [a for a in records[:i] if is_attempt(a) and a["toolCallId"] == r["toolCallId"] and a["sourceId"] == r["sourceId"]]
        if len(matches) != 1:
            return False
        a = matches[0]
        return (
            a["contextEpoch"] == r["contextEpoch"]
            and a["planId"] == r["planId"]
            and instant(a["attemptedAt"]) == instant(r["attemptedAt"])
            and (a["argsDigest"] is None or r["argsDigest"] is None or a["argsDigest"] == r["argsDigest"])
        )
    if ledger:
        return True
    p = plan_observation
    if p is None:
        return False
    same = r["toolCallId"] == p["toolCallId"] and instant(r["attemptedAt"]) == instant(p["attemptedAt"]) and instant(r["observedAt"]) == instant(p["observedAt"])
    return same and (k != "baseline" or r["sourceKind"] == "profile-baseline")


def classify_outcome(r, k):
    if not r["activeRootMatch"]:
        return ("wrong-root",)
    if not r["correlationValid"]:
        return ("invalid",)
    if not r["observable"]:
        return ("unobservable",)
    if not r["transportSuccess"]:
        return ("failed",)
    if not (r["sourceRefsMatch"] and r["schemaMatch"] and r["targetMatch"]):
        return ("invalid",)
    if not r["successful"]:
        return ("failed",)
    if k == "baseline":
        return ("baseline-ready",)
    if k == "reuse":
        return ("observed-success", "baseline-ready")
    return ("observed-success",)


def check_records(records, binding, out, plan_observation=None, ledger=False, updated_at=None):
    """Receipt invariants 2-7 over `records` (at /observations/<i>/...)."""
    seen = set()
    last_time = None
    for i, r in enumerate(records):
        p = "/observations/%d/" % i
        if r["observationId"] != observation_id(r):
            out.add("CONTEXT_OBSERVATION_ID_MISMATCH", p + "observationId")
        if r["observationId"] in seen:
            out.add("CONTEXT_OBSERVATION_DUPLICATE", p + "observationId")
        seen.add(r["observationId"])
        t = event_time(r)
        t_field = "attemptedAt" if is_attempt(r) else "observedAt"
        if last_time is not None and instant(t) < instant(last_time):
            out.add("CONTEXT_OBSERVATION_ORDER_INVALID", p + t_field)
        last_time = t
        if updated_at is not None and instant(t) > instant(updated_at):
            out.add("CONTEXT_OBSERVATION_ORDER_INVALID", p + t_field)
        if is_attempt(r):
            continue
        if instant(r["attemptedAt"]) > instant(r["observedAt"]):
            out.add("CONTEXT_OBSERVATION_ORDER_INVALID", p + "observedAt")
        k = kind_of(r)
        if r["activeRootMatch"] != (r["activeRoot"] == binding["activeRoot"]):
            out.add("CONTEXT_OBSERVATION_FLAGS_INCONSISTENT", p + "activeRootMatch")
        bound = r["contextEpoch"] == binding["contextEpoch"] and r["planId"] == binding["planId"]
        corr = correlated(records, i, plan_observation, ledger)
        if r["correlationValid"] and bound and not corr:
            out.add("CONTEXT_POST_TOOL_USE_UNCORRELATED", p + "correlationValid")
        elif r["correlationValid"] != (bound and corr):
            out.add("CONTEXT_OBSERVATION_FLAGS_INCONSISTENT", p + "correlationValid")
        if not ledger and plan_observation is None and k in ("baseline", "reuse"):
            out.add("CONTEXT_POST_TOOL_USE_UNCORRELATED", p + "correlationValid")
        if r["successful"] and not r["bodyObserved"]:
            out.add("CONTEXT_OBSERVATION_FLAGS_INCONSISTENT", p + "bodyObserved")
        if r["reusedObservationId"] is not None and r["cache"] is not True:
            out.add("CONTEXT_OBSERVATION_FLAGS_INCONSISTENT", p + "cache")
        if r["outcome"] not in classify_outcome(r, k):
            out.add("CONTEXT_OBSERVATION_OUTCOME_INCONSISTENT", p + "outcome")


def latest(records):
    """{sourceId: index} of each source's latest record."""
    out = {}
    for i, r in enumerate(records):
        if not is_attempt(r) and r["correlationValid"] is True:
            out[r["sourceId"]] = i
    return out


def satisfies(records, i, receipt_reuse_from):
    r = records[i]
    if r["outcome"] not in ("observed-success", "baseline-ready"):
        return False
    if not all(r[f] is True for f in SUCCESS_FLAGS) or r["contentIdentity"] is None:
        return False
    if r["cache"] and not (kind_of(r) == "reuse" and receipt_reuse_from):
        return False
    return not any(j != i and not is_attempt(o) and o["toolCallId"] == r["toolCallId"] and o["sourceId"] == r["sourceId"] for j, o in enumerate(records))


def satisfied_sources(records, reuse_from):
    lat = latest(records)
    return utf16_sorted([s for s, i in lat.items() if satisfies(records, i, reuse_from)])


def sorted_ids(ids):
    return utf16_sorted(ids)
