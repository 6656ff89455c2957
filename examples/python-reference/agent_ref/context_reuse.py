"""context.reuse (capability `context`): docs/protocol.md#context-v1-capability-context and
docs/spec/context-acquisition-gate.md#contextreusedecisionv1.

The ContextReuseDecisionV1 is made by the page's ordered checks, the first failing one setting the
reason codes; checks 1 to 5 decide computation reuse, 1 to 13 delivery reuse. A granted delivery
reuse with a `planCall` opens the plan's receipt by the `create-by-reuse` row of the receipt's
state machine: one reuse result per mandatory source, each a copy of the prior receipt's
satisfying record for it.
"""

import copy

from . import context_receipt_finish, context_session, jcs, protocol_schema, validate, validate_schema
from . import rules_context_observations as obs
from .clock import is_utc_timestamp
from .errors import InvalidParams, Refusal
from .rulekit import derived, digest, instant, utf16_sorted

PLAN_CONTRACTS = ("ContextReadPlanV2", "ContextReadPlanV1")
RECEIPT_CONTRACTS = ("ContextReadReceiptV2", "ContextReadReceiptV1")


# -- params ------------------------------------------------------------------------------------

def _shape_schema():
    """ContextReuseParams with the members that `$ref` a contract left to check_params."""
    schema = copy.deepcopy(protocol_schema.load("ContextReuseParams"))
    props = schema["properties"]
    props["priorPlan"] = {}
    props["priorReceipt"] = {}
    items = props["currentSourceIdentities"]["anyOf"][0]["items"]
    items["properties"]["contentIdentity"] = {}
    return schema


def _contract(method, where, doc, allowed):
    """A document one of `allowed` contracts accepts (its schema only), or -32602."""
    if doc is None:
        return
    name = doc.get("schemaVersion") if isinstance(doc, dict) else None
    if name not in allowed:
        raise InvalidParams("%s: params%s is not a %s document" % (method, where, " or ".join(allowed)))
    found = validate_schema.issues(name, doc)
    if found:
        raise InvalidParams("%s: params%s%s breaks %s (%s)" % (method, where, found[0]["path"], name, found[0]["code"]))


def check_params(params):
    method = "context.reuse"
    if jcs.has_lone_surrogate(params):
        raise InvalidParams(method + ": a string of the params has a lone surrogate (no digest)")
    protocol_schema.require("ContextReuseParams", params, method, _shape_schema())
    _contract(method, "/priorPlan", params["priorPlan"], PLAN_CONTRACTS)
    _contract(method, "/priorReceipt", params["priorReceipt"], RECEIPT_CONTRACTS)
    for i, item in enumerate(params["currentSourceIdentities"] or []):
        _contract(method, "/currentSourceIdentities/%d/contentIdentity" % i, item["contentIdentity"], ("ContentIdentityV1",))
    call = params.get("planCall")
    if call is not None and not is_utc_timestamp(call["attemptedAt"]):
        raise InvalidParams(method + ": params/planCall/attemptedAt is not an RFC 3339 UTC timestamp")


# -- the recorded inputs -----------------------------------------------------------------------

def identities_digest(identities):
    """JCS SHA-256 of `[{sourceId, contentIdentity}]` sorted by sourceId (#identity-and-digests-3)."""
    items = [{"sourceId": x["sourceId"], "contentIdentity": x["contentIdentity"]} for x in identities]
    return digest(utf16_sorted(items, key=lambda x: x["sourceId"]))


def plan_summary(plan):
    if plan is None:
        return None
    if plan["schemaVersion"] == "ContextReadPlanV2":
        b = plan["contextBinding"]
        return {"schemaVersion": "ContextReadPlanV2", "planId": plan["planId"], "planContentId": plan["planContentId"],
                "contextEpoch": b["contextEpoch"], "activeRoot": plan["identity"]["activeRoot"], "project": plan["identity"]["project"]}
    ident = plan["identity"]
    return {"schemaVersion": "ContextReadPlanV1", "planId": plan["planId"], "planContentId": None,
            "contextEpoch": ident["contextEpoch"], "activeRoot": ident["activeRoot"], "project": ident["project"]}


def receipt_summary(receipt):
    if receipt is None:
        return None
    if receipt["schemaVersion"] == "ContextReadReceiptV2":
        b = receipt["binding"]
        return {"schemaVersion": "ContextReadReceiptV2", "receiptId": receipt["receiptId"], "planId": b["planId"],
                "planContentId": b["planContentId"], "contextEpoch": b["contextEpoch"], "hostSessionId": receipt["hostSessionId"],
                "verificationMode": receipt["verificationMode"], "status": receipt["status"],
                "sourceIdentitiesDigest": digest(receipt["sourceIdentities"])}
    # V1: no content id and no source identities; its `hostSessionId` ("" when unobservable) is
    # never compared (the field is "null for V1").
    return {"schemaVersion": "ContextReadReceiptV1", "receiptId": receipt["receiptId"], "planId": receipt["planId"],
            "planContentId": None, "contextEpoch": receipt["contextEpoch"], "hostSessionId": None,
            "verificationMode": receipt["verificationMode"], "status": receipt["status"], "sourceIdentitiesDigest": None}


def _valid(doc):
    return not validate.judge(doc)


# -- the ordered checks ------------------------------------------------------------------------

COMPUTATION = {2: "execution-optimization-full-only", 4: "target-mismatch", 5: "plan-content-mismatch"}
DELIVERY = {2: "execution-optimization-full-only", 3: "legacy-or-missing-prior-plan", 4: "target-mismatch",
            5: "plan-content-mismatch", 6: "legacy-or-missing-receipt", 7: "prior-receipt-invalid",
            8: "prior-receipt-plan-mismatch", 9: "host-session-mismatch", 10: "context-epoch-mismatch",
            11: "prior-receipt-incomplete", 12: "source-identity-mismatch", 13: "body-observation-unproven"}


def body_observation_proven(plan, prior, session):
    """Check 13 (D-RCP-23): every mandatory source has a record of the prior receipt that
    satisfies there with the decision's host session."""
    records = prior["observations"]
    reuse = prior["reuseFrom"] is not None
    return all(any(not obs.is_attempt(r) and r["sourceId"] == s and r["hostSessionId"] == session and obs.satisfies(records, i, reuse)
                   for i, r in enumerate(records))
               for s in plan["mandatorySourceIds"])


def first_failure(plan, params):
    """The number of the first failing check (1-13), or None when all pass."""
    binding = plan["contextBinding"]
    prior_plan, prior = params["priorPlan"], params["priorReceipt"]
    if params["executionOptimizationMode"] == "full-only":
        return 2
    if prior_plan is None or prior_plan["schemaVersion"] != "ContextReadPlanV2" or not _valid(prior_plan):
        return 3
    pp = plan_summary(prior_plan)
    if pp["activeRoot"] != binding["activeRoot"] or pp["project"] != binding["project"]:
        return 4
    if pp["planContentId"] != binding["planContentId"]:
        return 5
    if prior is None or prior["schemaVersion"] != "ContextReadReceiptV2":
        return 6
    if not _valid(prior):
        return 7
    pr = receipt_summary(prior)
    if pr["planId"] != pp["planId"] or pr["planContentId"] != pp["planContentId"]:
        return 8
    session = params["hostSessionId"]
    if session is None or session != pr["hostSessionId"]:
        return 9
    if not binding["contextEpoch"] == pp["contextEpoch"] == pr["contextEpoch"]:
        return 10
    if pr["verificationMode"] != "structured-plan" or pr["status"] not in ("relevant-complete", "completed"):
        return 11
    current = params["currentSourceIdentities"]
    mandatory = set(plan["mandatorySourceIds"])
    if (current is None or identities_digest(current) != pr["sourceIdentitiesDigest"]
            or {x["sourceId"] for x in current} != mandatory or {x["sourceId"] for x in prior["sourceIdentities"]} != mandatory):
        return 12
    if not body_observation_proven(plan, prior, session):
        return 13
    return None


def decide(plan, params, now):
    """The ContextReuseDecisionV1 for the current plan and the request, evaluated at `now`."""
    failed = first_failure(plan, params)
    prior_plan, prior = plan_summary(params["priorPlan"]), receipt_summary(params["priorReceipt"])
    if failed is not None and failed <= 5:
        if failed == 3:
            legacy = prior_plan is not None and prior_plan["schemaVersion"] == "ContextReadPlanV1"
            reason = "legacy-plan-no-content-identity" if legacy else "no-compatible-prior-plan"
        else:
            reason = COMPUTATION[failed]
        computation = {"reuse": False, "reasonCode": reason}
    else:
        computation = {"reuse": True, "reasonCode": "content-identity-match"}
    if failed is None:
        delivery = {"reuse": True, "reasonCode": "same-session-epoch-content-observed"}
    else:
        delivery = {"reuse": False, "reasonCode": DELIVERY[failed]}
    reuse_from = None
    if computation["reuse"]:
        granted = delivery["reuse"]
        reuse_from = {"planId": prior_plan["planId"], "planContentId": prior_plan["planContentId"],
                      "receiptId": prior["receiptId"] if granted else None,
                      "sourceIdentitiesDigest": prior["sourceIdentitiesDigest"] if granted else None}
    current = params["currentSourceIdentities"]
    decision = {
        "schemaVersion": "ContextReuseDecisionV1",
        "binding": dict(plan["contextBinding"]),
        "executionOptimizationMode": params["executionOptimizationMode"],
        "hostSessionId": params["hostSessionId"],
        "currentSourceIdentitiesDigest": identities_digest(current) if current is not None else None,
        "priorPlan": prior_plan,
        "priorReceipt": prior,
        "computation": computation,
        "delivery": delivery,
        "reuseFrom": reuse_from,
        "evaluatedAt": now,
    }
    decision["decisionId"] = derived("reuse-", decision)
    return decision


# -- create-by-reuse ---------------------------------------------------------------------------

def reuse_record(prior_record, binding, session, plan_observation):
    """A reuse result (#observation-records): the prior record with this plan's epoch and plan id,
    the decision's host session, the plan call's tool call id and times, `cache: true` and the
    prior record's id."""
    r = dict(prior_record)
    r.update({
        "contextEpoch": binding["contextEpoch"],
        "planId": binding["planId"],
        "hostSessionId": session,
        "toolCallId": plan_observation["toolCallId"],
        "attemptedAt": plan_observation["attemptedAt"],
        "observedAt": plan_observation["observedAt"],
        "cache": True,
        "reusedObservationId": prior_record["observationId"],
    })
    r["observationId"] = obs.observation_id(r)
    return r


def open_by_reuse(plan, params, decision, now):
    call, prior = params["planCall"], params["priorReceipt"]
    po = {"toolCallId": call["toolCallId"], "attemptedAt": call["attemptedAt"], "observedAt": now}
    # Each source's latest record, the one the prior receipt's sourceIdentities (which check 12
    # compared) come from; an earlier satisfying record may carry an older body (D-RCP-53).
    latest = obs.latest(prior["observations"])
    records = [reuse_record(prior["observations"][latest[s]], plan["contextBinding"], params["hostSessionId"], po)
               for s in plan["mandatorySourceIds"]]
    receipt = {
        "schemaVersion": "ContextReadReceiptV2",
        "binding": dict(plan["contextBinding"]),
        "host": plan["identity"]["host"],
        "hostSessionId": params["hostSessionId"],
        "verificationMode": "structured-plan",
        "status": "planned",
        "planObservation": po,
        "observations": records,
        "satisfiedSourceIds": [],
        "missingSourceIds": utf16_sorted(plan["mandatorySourceIds"]),
        "fullRead": plan["fullRead"],
        "fullReadReason": plan["fullReadReason"],
        "escalations": [{"trigger": t, "reasonCode": t, "observedAt": now, "action": "planned"} for t in plan["triggeredEscalations"]],
        "replanCount": 0,
        "lastError": None,
        "sourceIdentities": [],
        "delivery": {"bodyObserved": False, "reused": True, "eligible": False, "reasonCode": "same-session-epoch-content-observed"},
        "reuseFrom": dict(decision["reuseFrom"]),
        "createdAt": now,
        "updatedAt": now,
        "completedAt": None,
        "consumedAt": None,
    }
    return context_receipt_finish.finish(plan, receipt, now)


def reuse(state, params, now):
    check_params(params)
    entry = context_session.lookup(state, params["planId"])
    plan = entry["plan"]
    decision = decide(plan, params, now)
    receipt = None
    if decision["delivery"]["reuse"] and params.get("planCall") is not None:
        if entry["receipt"] is not None:
            raise Refusal("CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID", "the plan's receipt is open already; a reuse opens only a plan without one", path="/planCall")
        # the plan is made inside its own tool call (receipt invariant 24, D-RCP-53)
        if instant(params["planCall"]["attemptedAt"]) > instant(plan["plannedAt"]):
            raise Refusal("CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED", "the plan call was attempted after the plan was made", path="/planCall/attemptedAt")
        if instant(now) < instant(plan["plannedAt"]):
            raise Refusal("CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED", "the plan was made after now; no receipt opens before its plan", path="/plannedAt")
        receipt = open_by_reuse(plan, params, decision, now)
        entry["receipt"] = receipt
    return {"decision": decision, "receipt": receipt}

