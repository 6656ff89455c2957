"""context.ledger (capability `context`): docs/protocol.md#context-v1-capability-context and
docs/spec/context-acquisition-gate.md#contextsourceobservationledgerv1.

`write` merges a writer's snapshot into the plan's stored ContextSourceObservationLedgerV1 by the
merge rule (#merge-rule): first write wins by `observationId`, new records placed in event
order among the stored ones, eviction only of records that are neither a source's latest record
nor its attempt. A writer's older snapshot therefore never drops a stored record. `replay` rebuilds the plan's
receipt from the stored ledger by the replay rules (#replay): only records of sources whose live
metadata is still fresh, nothing executed again.
"""

import copy

from . import context_plan, context_receipt, context_receipt_finish, context_session, jcs, protocol_schema, validate_schema
from . import rules_context_observations as obs
from .errors import InvalidParams, Refusal
from .rules_context import REPLAYABLE
from .rulekit import derived, digest, instant, utf16_sorted

LEDGER_LIMIT = 128
RECEIPT_LIMIT = 100
BINDING_FIELDS = ("contextEpoch", "planId", "planContentId", "activeRoot", "project")


def _shape_schema():
    """ContextLedgerParams with the snapshot (a `$ref` to the ledger contract) left to check_params."""
    schema = copy.deepcopy(protocol_schema.load("ContextLedgerParams"))
    for branch in schema["anyOf"]:
        if "snapshot" in branch["properties"]:
            branch["properties"]["snapshot"] = {}
    return schema


def check_params(params):
    method = "context.ledger"
    if jcs.has_lone_surrogate(params):
        raise InvalidParams(method + ": a string of the params has a lone surrogate (no digest)")
    protocol_schema.require("ContextLedgerParams", params, method, _shape_schema())
    if params["op"] == "write":
        found = validate_schema.issues("ContextSourceObservationLedgerV1", params["snapshot"])
        if found:
            raise InvalidParams("%s: params/snapshot%s breaks ContextSourceObservationLedgerV1 (%s)" % (method, found[0]["path"], found[0]["code"]))


# -- the merge rule ----------------------------------------------------------------------------

def of_binding(r, identity):
    """Ledger invariant 4: the record's epoch and plan id are the identity's, and so is its root
    unless it is a wrong-root result."""
    if r["contextEpoch"] != identity["contextEpoch"] or r["planId"] != identity["planId"]:
        return False
    return r["activeRoot"] == identity["activeRoot"] or (not obs.is_attempt(r) and r["outcome"] == "wrong-root")


def protected(records):
    """Indexes of the records eviction may not remove: each source's latest record and its attempt."""
    keep = set()
    for i in obs.latest(records).values():
        keep.add(i)
        r = records[i]
        for j, a in enumerate(records[:i]):
            if obs.is_attempt(a) and a["toolCallId"] == r["toolCallId"] and a["sourceId"] == r["sourceId"]:
                keep.add(j)
    return keep


def evict(records, limit):
    """Oldest first, only unprotected records, until at most `limit` remain; None when impossible."""
    records = list(records)
    while len(records) > limit:
        keep = protected(records)
        victim = next((i for i in range(len(records)) if i not in keep), None)
        if victim is None:
            return None
        del records[victim]
    return records


def fold_of(identity, records, mandatory):
    """The fold against the plan's mandatory sources (ledger invariant 6, D-RCP-14)."""
    lat = obs.latest(records)
    sources = []
    for s in utf16_sorted(set(mandatory)):
        i = lat.get(s)
        r = records[i] if i is not None else None
        sources.append({"sourceId": s, "observationId": r["observationId"] if r else None,
                        "resultDigest": r["resultDigest"] if r else None,
                        "satisfied": i is not None and obs.satisfies(records, i, False)})
    sat = [e["sourceId"] for e in sources if e["satisfied"]]
    miss = [e["sourceId"] for e in sources if not e["satisfied"]]
    fold = {"sources": sources, "satisfiedSourceIds": sat, "missingSourceIds": miss}
    fold["foldDigest"] = digest({"identity": identity, "sources": sources, "satisfiedSourceIds": sat, "missingSourceIds": miss})
    return fold


def placed(stored, new):
    """Rule 2 (D-RCP-58): each new record before the first stored record with a later event time,
    after the stored records of its own time; `new` is in event order already."""
    out, j = [], 0
    for r in stored:
        while j < len(new) and instant(obs.event_time(new[j])) < instant(obs.event_time(r)):
            out.append(new[j])
            j += 1
        out.append(r)
    return out + new[j:]


def merge(stored, identity, snapshot_records, mandatory, now):
    """(ledger, dropped) after merging the snapshot's records into `stored` (None: nothing stored)."""
    if stored is not None and stored["identity"] != identity:
        stored = None  # rule 1: another binding's records are not carried over
    records = list(stored["observations"]) if stored is not None else []
    present = {r["observationId"] for r in records}
    dropped, new = [], []
    for r in snapshot_records:
        if not of_binding(r, identity) or (not obs.is_attempt(r) and r["reusedObservationId"] is not None):
            if r["observationId"] not in dropped:
                dropped.append(r["observationId"])
            continue
        if r["observationId"] in present:
            continue  # rule 2: first write wins, times are never back-filled
        present.add(r["observationId"])
        new.append(r)
    new.sort(key=lambda r: instant(obs.event_time(r)))  # stable: recording order among equal times
    kept = evict(placed(records, new), LEDGER_LIMIT)
    if kept is not None:
        now = not_before(now, stored["updatedAt"] if stored is not None else None, *(obs.event_time(r) for r in kept))
    if kept is None:
        raise Refusal("CONTEXT_SOURCE_OBSERVATION_LEDGER_FULL",
                      "the merged ledger holds more than %d records that are a source's latest record or its attempt" % LEDGER_LIMIT,
                      path="/snapshot/observations")
    ledger = {
        "schemaVersion": "ContextSourceObservationLedgerV1",
        "ledgerId": derived("ledger-", {"contextEpoch": identity["contextEpoch"]}),
        "identity": dict(identity),
        "revision": (stored["revision"] + 1) if stored is not None else 1,
        "observations": kept,
        "fold": fold_of(identity, kept, mandatory),
        "updatedAt": now,
    }
    ledger["ledgerDigest"] = digest(ledger)
    return ledger, dropped


def write(entry, params, now):
    plan, snapshot = entry["plan"], params["snapshot"]
    binding = plan["contextBinding"]
    for f in BINDING_FIELDS:
        if snapshot["identity"][f] != binding[f]:
            raise Refusal("CONTEXT_SOURCE_OBSERVATION_IDENTITY_MISMATCH",
                          "the snapshot is of another plan's ledger; it is never merged into this plan's",
                          path="/snapshot/identity/" + f)
    ledger, dropped = merge(entry["ledger"], binding, snapshot["observations"], plan["mandatorySourceIds"], now)
    entry["ledger"] = ledger
    return {"ledger": ledger, "dropped": dropped, "receipt": None, "replayed": []}


# -- replay ------------------------------------------------------------------------------------

def plan_sources(plan):
    return {s["sourceId"]: s for s in plan["baselineSources"] + plan["selectedSources"]}


def fresh(source, live_refs):
    """D-RCP-16: the source's live metadata hashes to the plan's metadata digests (in ref order);
    a memory query that was not re-observed is fresh."""
    if source is None:
        return False
    live = live_refs.get(source["sourceId"])
    if live is None:
        return source["kind"] == "memory"
    # as a PostToolUse's liveRefs are compared (agent_ref/context_receipt.py): refs in the plan's order
    return [r["metadataDigest"] for r in context_plan.refs_of(live)] == [r["metadataDigest"] for r in source["sourceRefs"]]


def conflicting(records):
    """The first result record that has an earlier result record of the same call and source."""
    seen = set()
    for r in records:
        if obs.is_attempt(r):
            continue
        key = (r["toolCallId"], r["sourceId"])
        if key in seen:
            return r
        seen.add(key)
    return None


def in_receipt_time(r, receipt):
    """Receipt invariant 15: no event of the receipt before it was created, and no attempt before
    the plan was observed; a ledger record outside that is not replayed (D-RCP-53)."""
    if instant(obs.event_time(r)) < instant(receipt["createdAt"]):
        return False
    po = receipt["planObservation"]
    return not (obs.is_attempt(r) and po is not None and instant(r["attemptedAt"]) < instant(po["observedAt"]))


def not_before(now, *times):
    """The time of a new revision: `now`, or the latest of `times` when the clock is behind it (a
    revision is never older than what it holds or replaces)."""
    return max((now,) + tuple(t for t in times if t is not None), key=instant)


def replay_forbidden(message):
    return Refusal("CONTEXT_SOURCE_LEDGER_REPLAY_FORBIDDEN", message, path="/planId")


def replay(entry, params, now):
    plan, receipt, ledger = entry["plan"], entry["receipt"], entry["ledger"]
    if receipt is None or ledger is None:
        raise replay_forbidden("the plan has no open receipt or no stored ledger to replay")
    if receipt["status"] == "blocked":
        raise replay_forbidden("a blocked receipt is never replaced by a replay")
    if receipt["status"] == "stale" and receipt["escalations"][-1]["reasonCode"] not in REPLAYABLE:
        raise replay_forbidden("the receipt is stale for a reason a replay cannot bypass; plan again")
    if any(ledger["identity"][f] != receipt["binding"][f] for f in BINDING_FIELDS):
        raise replay_forbidden("the ledger's identity is not the receipt's binding")
    sources, live = plan_sources(plan), params["liveRefs"]
    records = [r for r in ledger["observations"] if fresh(sources.get(r["sourceId"]), live) and in_receipt_time(r, receipt)]
    records = evict(records, RECEIPT_LIMIT)
    if records is None:
        raise replay_forbidden("the fresh ledger records do not fit in a receipt")
    now = not_before(now, receipt["updatedAt"], ledger["updatedAt"])
    successor = {k: copy.deepcopy(v) for k, v in receipt.items()}
    successor.update({
        "observations": records,
        "escalations": [e for e in receipt["escalations"] if e["action"] == "planned"],
        "replanCount": 0,
        "lastError": None,
        "reuseFrom": None,
        "completedAt": None,
        "consumedAt": None,
    })
    if successor["verificationMode"] == "structured-plan":
        successor["status"] = "planned"
        conflict = conflicting(records)
        if conflict is not None:  # the result row "conflicting duplicate", as when it was observed
            successor["status"] = "unverified"
            successor["lastError"] = context_receipt.conflict_error(conflict)
    successor = context_receipt_finish.finish(plan, successor, now)
    entry["receipt"] = successor
    return {"ledger": ledger, "dropped": [], "receipt": successor, "replayed": [r["observationId"] for r in records]}


def ledger(state, params, now):
    check_params(params)
    entry = context_session.lookup(state, params["planId"])
    if params["op"] == "write":
        return write(entry, params, now)
    return replay(entry, params, now)

