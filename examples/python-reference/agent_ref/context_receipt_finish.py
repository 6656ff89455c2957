"""The derived fields of a ContextReadReceiptV2 revision, computed from its records and its plan
(docs/spec/context-acquisition-gate.md#derived-fields, CAG-018), and its id (#identity-and-digests).

`finish(plan, receipt, now)` is what every writer of a revision calls last (context.receipt,
context.observe, the reuse and the replay): it never takes a derived field from its caller.
"""

import copy

from . import rules_context_observations as obs
from .rulekit import derived, instant, utf16_sorted, without

ABSORBING = ("stale", "blocked", "unverified")
COMPLETE = ("relevant-complete", "completed")


def derived_status(plan, receipt, missing):
    """The status of a structured-plan receipt that is not stale, blocked or unverified."""
    kinds = [obs.kind_of(r) for r in receipt["observations"]]
    if not missing and plan["mandatorySourceIds"]:
        return "completed" if receipt["consumedAt"] is not None else "relevant-complete"
    if plan["fullRead"]:
        return "escalated-full"
    if "attempt" in kinds or "read" in kinds:
        return "attempted"
    if "baseline" in kinds:
        return "baseline-ready"
    return "planned"


def latest_time(times):
    return max(times, key=instant)


def times_of(r):
    """Every timestamp of a revision, its last updatedAt included: the next is never older (invariant 15)."""
    out = [t for t in (r["createdAt"], r.get("updatedAt"), r["completedAt"], r["consumedAt"]) if t is not None]
    if r["planObservation"] is not None:
        out += [r["planObservation"]["attemptedAt"], r["planObservation"]["observedAt"]]
    out += [obs.event_time(o) for o in r["observations"]]
    out += [e["observedAt"] for e in r["escalations"]]
    return out


def finish(plan, receipt, now):
    """A new revision: derived lists, identities, delivery, status, completion times, id, updatedAt = now."""
    r = copy.deepcopy(receipt)
    # a revision is never older than what it records (invariant 15), whatever the clock says
    now = latest_time([now] + times_of(r))
    records = r["observations"]
    mandatory = set(plan["mandatorySourceIds"])
    reuse = r["reuseFrom"] is not None
    lat = obs.latest(records)
    good = {s for s, i in lat.items() if obs.satisfies(records, i, reuse)}
    structured = r["verificationMode"] == "structured-plan"
    if structured and r["status"] not in ABSORBING:
        satisfied = mandatory & good
        r["status"] = derived_status(plan, r, mandatory - satisfied)
    if not structured or r["status"] in ("stale", "blocked"):
        satisfied = set()
    else:
        satisfied = mandatory & good
    r["satisfiedSourceIds"] = utf16_sorted(satisfied)
    r["missingSourceIds"] = utf16_sorted(mandatory - satisfied)
    r["sourceIdentities"] = [{"sourceId": s, "contentIdentity": copy.deepcopy(records[lat[s]]["contentIdentity"])} for s in utf16_sorted(good)]
    r["fullRead"], r["fullReadReason"] = plan["fullRead"], plan["fullReadReason"]
    if r["status"] in COMPLETE:
        if r["completedAt"] is None:
            r["completedAt"] = now
    else:
        r["completedAt"] = None
    if r["status"] != "completed":
        r["consumedAt"] = None
    r["replanCount"] = sum(1 for e in r["escalations"] if e["action"] == "replan-required")
    body = all(s in good for s in mandatory)
    eligible = r["status"] in COMPLETE and body and r["hostSessionId"] is not None
    if reuse:
        code = "same-session-epoch-content-observed"
    elif r["status"] in ("stale", "blocked", "unverified"):
        code = "receipt-" + r["status"]
    elif r["hostSessionId"] is None:
        code = "host-session-unobservable"
    elif eligible:
        code = "current-session-content-observed"
    else:
        code = "body-read-required"
    r["delivery"] = {"bodyObserved": body, "reused": reuse, "eligible": eligible, "reasonCode": code}
    r["updatedAt"] = now
    r["receiptId"] = derived("receipt-", without(r, "receiptId", "updatedAt"))
    return r
