"""context.receipt and context.observe: the ContextReadReceiptV2 state machine of one plan, fed
the host's hook events (docs/spec/context-acquisition-gate.md#state-machine, #observation-records;
docs/protocol.md PROTO-011).

Records carry the correlation fields exactly as the event carried them (CAG-017); the derived
fields are computed by context_receipt_finish.finish, never taken from the caller (CAG-018).
"""

import copy

from . import jcs
from . import rules_context_observations as obs
from .context_plan import content_identity, refs_of, source_key
from .context_receipt_finish import ABSORBING, finish
from .errors import Refusal
from .rulekit import instant

INCOMPLETE = ("baseline-ready", "planned", "attempted", "escalated-full")
RISK_RANK = {"normal": 0, "high": 1, "critical": 2}
MAX_OBSERVATIONS = 100
MAX_ESCALATIONS = 20
REPLAYABLE = ("projection-drift", "writer-drift", "observation-orphaned", "observation-write-failed", "delivery-unobserved")
# The lastError code a drift names (CAG-502, "an error code of this page naming the cause"), by its
# reason code first, then by its trigger; any other trigger: the plan is expired (D-RCP-54).
DRIFT_CODES = {
    **{code: "CONTEXT_RECEIPT_NOT_LEDGER_PROJECTION" for code in REPLAYABLE},
    "scope-drift": "CONTEXT_RECEIPT_SCOPE_DRIFT",
    "profile-drift": "CONTEXT_BASELINE_STALE",
    "source-digest": "CONTEXT_BASELINE_STALE",
    "config-digest": "CONTEXT_BASELINE_STALE",
    "profile-catalog-drift": "CONTEXT_PROFILE_CATALOG_DRIFT",
}
FAILURE_MARKERS = (("success", False), ("ok", False), ("isError", True), ("is_error", True))


def transition_invalid(what):
    raise Refusal("CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID", what, path="/event")


def plan_sources(plan):
    return {s["sourceId"]: s for s in plan["baselineSources"] + plan["selectedSources"]}


def expected_key(plan, source):
    """The sourceKey a body a read delivers carries (CAG-008): `profile://<project>/<file>` (the
    `#effective` fragment is the plan's, for the value it embeds), `memory://<project>/<query>`."""
    project = plan["identity"]["project"]
    sid = source["sourceId"]
    if sid.startswith("memory:"):
        return "memory://%s/%s" % (project, sid[len("memory:"):])
    return source_key(project, sid[len("profile:"):])


def with_id(record):
    record["observationId"] = obs.observation_id(record)
    return record


def baseline_results(plan, planobs, session, args_digest):
    """The records of the plan call's own result: it delivered the plan and both baseline bodies."""
    canonical = jcs.canonicalize(plan)
    out = []
    for b in plan["baselineSources"]:
        out.append(with_id({
            "observationId": None,
            "hookEvent": "PostToolUse",
            "toolCallId": planobs["toolCallId"],
            "sourceId": b["sourceId"],
            "sourceKind": b["kind"],
            "contextEpoch": plan["contextBinding"]["contextEpoch"],
            "planId": plan["planId"],
            "activeRoot": plan["identity"]["activeRoot"],
            "hostSessionId": session,
            "argsDigest": args_digest,
            "attemptedAt": planobs["attemptedAt"],
            "observedAt": planobs["observedAt"],
            "outcome": "baseline-ready",
            "successful": True,
            "observable": True,
            "transportSuccess": True,
            "activeRootMatch": True,
            "correlationValid": True,
            "sourceLayer": b["sourceLayer"].split("+")[0],
            "sourceRefsMatch": True,
            "schemaMatch": True,
            "targetMatch": True,
            "bodyObserved": True,
            "cache": False,
            "reusedObservationId": None,
            "resultDigest": jcs.sha256_hex(canonical),
            "contentIdentity": copy.deepcopy(b["contentIdentity"]),
            "bytes": len(canonical.encode("utf-8")),
            "chars": len(canonical),
            "hostDeliveredBytes": None,
            "latencyMs": None,
            "tokens": None,
        }))
    return out


def blocked_error(message):
    return {"code": "CONTEXT_RECEIPT_BLOCKED_PLAN", "message": message, "nextStep": "resolve the blocking cause and plan again."}


def open_receipt(plan, params, now):
    """The create rows of the state machine."""
    mode, session = params["verificationMode"], params["hostSessionId"]
    call = params.get("planCall")
    if mode == "structured-plan" and call is None:
        raise Refusal("CONTEXT_BINDING_REQUIRED", "a structured-plan receipt needs its plan call", path="/open/planCall")
    planobs = None
    if mode == "structured-plan":
        # the plan is made inside its own tool call (invariant 24): attemptedAt <= plannedAt <= observedAt
        if instant(call["attemptedAt"]) > instant(plan["plannedAt"]) or instant(plan["plannedAt"]) > instant(now):
            raise Refusal("CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED", "the plan call was attempted after the plan was made", path="/open/planCall/attemptedAt")
        planobs = {"toolCallId": call["toolCallId"], "attemptedAt": call["attemptedAt"], "observedAt": now}
    receipt = {
        "schemaVersion": "ContextReadReceiptV2",
        "receiptId": None,
        "binding": copy.deepcopy(plan["contextBinding"]),
        "host": plan["identity"]["host"],
        "hostSessionId": session,
        "verificationMode": mode,
        "status": "planned",
        "planObservation": planobs,
        "observations": [],
        "satisfiedSourceIds": [],
        "missingSourceIds": [],
        "fullRead": plan["fullRead"],
        "fullReadReason": plan["fullReadReason"],
        "escalations": [{"trigger": t, "reasonCode": t, "observedAt": now, "action": "planned"} for t in plan["triggeredEscalations"]][-MAX_ESCALATIONS:],
        "replanCount": 0,
        "lastError": None,
        "sourceIdentities": [],
        "delivery": None,
        "reuseFrom": None,
        "createdAt": now,
        "updatedAt": now,
        "completedAt": None,
        "consumedAt": None,
    }
    if plan["exitCondition"] == "blocked":
        receipt["status"] = "blocked"
        receipt["lastError"] = blocked_error("the plan is blocked (an unclassified candidate or a missing required source).")
    elif mode != "structured-plan":
        receipt["status"] = "unverified"
    elif params.get("baselineDelivered", True):
        receipt["observations"] = baseline_results(plan, planobs, session, call.get("argsDigest"))
    return finish(plan, receipt, now)


def incompatibility(plan, event):
    """Why a PreToolUse is incompatible with the plan (CAG-501), or None."""
    env = plan["actionEnvelope"]
    if event["actionClass"] not in env["allowedActionClasses"]:
        return "action class %s is outside the plan's envelope" % event["actionClass"]
    risk = event.get("risk", "normal")
    if RISK_RANK[risk] > RISK_RANK[env["riskCeiling"]]:
        return "risk %s is above the plan's ceiling %s" % (risk, env["riskCeiling"])
    if event["activeRoot"] != plan["identity"]["activeRoot"]:
        return "root %s is not the plan's %s" % (event["activeRoot"], plan["identity"]["activeRoot"])
    sources = plan_sources(plan)
    for sid in event["sourceIds"]:
        if sid not in sources:
            return "source %s is not a source of the plan" % sid
    return None


def go_stale(receipt, trigger, reason_code, error, now):
    r = copy.deepcopy(receipt)
    r["status"] = "stale"
    r["escalations"].append({"trigger": trigger, "reasonCode": reason_code, "observedAt": now, "action": "replan-required"})
    r["escalations"] = r["escalations"][-MAX_ESCALATIONS:]
    r["lastError"] = error
    return r


def attempt_records(plan, event, now):
    sources = plan_sources(plan)
    return [with_id({
        "observationId": None,
        "hookEvent": "PreToolUse",
        "toolCallId": event["toolCallId"],
        "sourceId": sid,
        "sourceKind": sources[sid]["kind"],
        "actionClass": event["actionClass"],
        "contextEpoch": event["contextEpoch"],
        "planId": event["planId"],
        "activeRoot": event["activeRoot"],
        "hostSessionId": event["hostSessionId"],
        "argsDigest": event.get("argsDigest"),
        "attemptedAt": now,
        "observedAt": None,
        "outcome": "attempted",
    }) for sid in event["sourceIds"]]


def transport_failed(value):
    """A failure marker at the outer or any nested level of a tool result."""
    if isinstance(value, dict):
        for key, bad in FAILURE_MARKERS:
            if key in value and value[key] is bad:
                return True
        if "error" in value:  # any value, null included (D-RCP-59)
            return True
        return any(transport_failed(v) for v in value.values())
    if isinstance(value, list):
        return any(transport_failed(v) for v in value)
    return False


def correlated_attempt(records, event):
    """The one attempt record a result correlates with, or None: no "unique match" heuristics
    (D-RCP-03), two attempts of the same call and source (say, of two host sessions) correlate none."""
    found = [a for a in records
             if obs.is_attempt(a) and a["toolCallId"] == event["toolCallId"] and a["sourceId"] == event["sourceId"]
             and a["contextEpoch"] == event["contextEpoch"] and a["planId"] == event["planId"]
             and (a["argsDigest"] is None or event.get("argsDigest") is None or a["argsDigest"] == event.get("argsDigest"))]
    return found[0] if len(found) == 1 else None


def result_record(plan, receipt, event, now):
    binding = plan["contextBinding"]
    source = plan_sources(plan)[event["sourceId"]]
    memory = source["kind"] == "memory"
    attempt = correlated_attempt(receipt["observations"], event)
    key = expected_key(plan, source)
    body, claim = event.get("body"), event.get("contentIdentity")
    identity, body_observed = None, False
    if body is not None:
        identity = content_identity(key, body)
        body_observed = True
        if claim is not None and jcs.canonicalize(claim) != jcs.canonicalize(identity):
            identity, body_observed = None, False
    elif claim is not None:
        identity, body_observed = copy.deepcopy(claim), True
    live = event.get("liveRefs")
    if live is None:
        refs_match = False  # not re-observed: never fresh, a memory query's neither
    else:
        refs_match = [r["metadataDigest"] for r in refs_of(live)] == [r["metadataDigest"] for r in source["sourceRefs"]]
    schema_match = event.get("schemaMatch", not memory)
    target_match = event.get("targetMatch", not memory)
    if event.get("planContentId", binding["planContentId"]) != binding["planContentId"]:
        target_match = False
    if event.get("project", binding["project"]) != binding["project"]:
        target_match = False
    if identity is not None and identity["sourceKey"] != key:
        target_match = False
    observable = "toolResult" in event
    result = event.get("toolResult")
    canonical = jcs.canonicalize(result) if observable else None
    r = {
        "observationId": None,
        "hookEvent": "PostToolUse",
        "toolCallId": event["toolCallId"],
        "sourceId": event["sourceId"],
        "sourceKind": source["kind"],
        "contextEpoch": event["contextEpoch"],
        "planId": event["planId"],
        "activeRoot": event["activeRoot"],
        "hostSessionId": event["hostSessionId"],
        "argsDigest": event.get("argsDigest"),
        "attemptedAt": attempt["attemptedAt"] if attempt is not None else now,
        "observedAt": now,
        "outcome": None,
        "successful": event.get("sourceOk", True) is True and body_observed,
        "observable": observable,
        "transportSuccess": observable and not transport_failed(result),
        "activeRootMatch": event["activeRoot"] == binding["activeRoot"],
        "correlationValid": attempt is not None and event["contextEpoch"] == binding["contextEpoch"] and event["planId"] == binding["planId"],
        "sourceLayer": event["sourceLayer"],
        "sourceRefsMatch": refs_match,
        "schemaMatch": schema_match is True,
        "targetMatch": target_match is True,
        "bodyObserved": body_observed,
        "cache": event.get("cache") is True,
        "reusedObservationId": None,
        "resultDigest": jcs.sha256_hex(canonical) if observable else None,
        "contentIdentity": identity,
        "bytes": len(canonical.encode("utf-8")) if observable else None,
        "chars": len(canonical) if observable else None,
        "hostDeliveredBytes": event.get("hostDeliveredBytes"),
        "latencyMs": event.get("latencyMs"),
        "tokens": event.get("tokens"),
    }
    r["outcome"] = obs.classify_outcome(r, "read")[0]
    return with_id(r)


def conflict_error(rec):
    """The lastError of a receipt a conflicting duplicate PostToolUse made unverified."""
    return {
        "code": "CONTEXT_POST_TOOL_USE_CONFLICT",
        "message": "two different PostToolUse results for tool call %s and %s." % (rec["toolCallId"], rec["sourceId"]),
        "nextStep": "keep the receipt unverified; replan once if the action still needs context.",
    }


def evict(records):
    """Drop the oldest records that are neither a latest record of a source nor its attempt."""
    while len(records) > MAX_OBSERVATIONS:
        lat = obs.latest(records)
        keep = set(lat.values())
        for i in lat.values():
            r = records[i]
            for j, a in enumerate(records[:i]):
                if obs.is_attempt(a) and a["toolCallId"] == r["toolCallId"] and a["sourceId"] == r["sourceId"]:
                    keep.add(j)
        drop = next((j for j in range(len(records)) if j not in keep), None)
        if drop is None:
            return
        del records[drop]


def observe(plan, receipt, event, now):
    """(receipt, changed) after one event."""
    if receipt is None:
        raise Refusal("CONTEXT_BINDING_REQUIRED", "the plan has no open receipt: open it with context.receipt first", path="/planId")
    status = receipt["status"]
    if status in ABSORBING:
        return receipt, False
    if instant(now) < instant(receipt["updatedAt"]):
        raise Refusal("CONTEXT_RECEIPT_TIMESTAMP_BACKFILLED", "the event is older than the receipt's last revision", path="/event")
    kind = event["event"]
    ids = {r["observationId"] for r in receipt["observations"]}
    if kind == "PreToolUse":
        why = incompatibility(plan, event)
        if why is not None:
            r = go_stale(receipt, "scope-drift", "scope-drift", {
                "code": "CONTEXT_RECEIPT_SCOPE_DRIFT",
                "message": "an attempt is incompatible with the plan: %s." % why,
                "nextStep": "replan once before the broader action.",
            }, now)
            return finish(plan, r, now), True
        if status not in INCOMPLETE:
            transition_invalid("a %s receipt takes no further attempt" % status)
        new = [a for a in attempt_records(plan, event, now) if a["observationId"] not in ids]
        if not new:
            return receipt, False
        r = copy.deepcopy(receipt)
        r["observations"].extend(new)
        evict(r["observations"])
        return finish(plan, r, now), True
    if kind == "PostToolUse":
        if status not in INCOMPLETE and status != "relevant-complete":
            transition_invalid("a %s receipt takes no further result" % status)
        if event["sourceId"] not in plan_sources(plan):
            raise Refusal("CONTEXT_SOURCE_NOT_AUTHORIZED", "the source is not a source of the plan", path="/event/sourceId")
        rec = result_record(plan, receipt, event, now)
        if rec["observationId"] in ids:
            return receipt, False
        r = copy.deepcopy(receipt)
        conflict = any(not obs.is_attempt(o) and o["toolCallId"] == rec["toolCallId"] and o["sourceId"] == rec["sourceId"] for o in r["observations"])
        r["observations"].append(rec)
        evict(r["observations"])
        if conflict:
            r["status"] = "unverified"
            r["lastError"] = conflict_error(rec)
        return finish(plan, r, now), True
    if kind == "drift":
        trigger = event["trigger"]
        code = event.get("reasonCode", trigger)
        r = go_stale(receipt, trigger, code, {
            "code": DRIFT_CODES.get(code) or DRIFT_CODES.get(trigger) or "CONTEXT_BINDING_PLAN_EXPIRED",
            "message": "%s (%s) was observed." % (trigger, code),
            "nextStep": "plan again in the current epoch.",
        }, now)
        return finish(plan, r, now), True
    if kind == "block":
        r = copy.deepcopy(receipt)
        r["status"] = "blocked"
        r["lastError"] = blocked_error("the plan was found blocked.")
        return finish(plan, r, now), True
    if kind == "consume":
        if status != "relevant-complete":
            transition_invalid("only a relevant-complete receipt is consumed")
        r = copy.deepcopy(receipt)
        r["status"] = "completed"
        r["consumedAt"] = now
        return finish(plan, r, now), True
    transition_invalid("unknown event " + kind)

