"""The operation edge table and the late/duplicate receipt rules (TaskOperationRecordV1).

decide(E, event, at, find_record) -> ("replayed",) | ("refuse", code, message) |
("apply", commitKind, new operation set). Replays are recognised before the fence (step 4);
refusals are reported at step 8 by the caller.
"""

import unicodedata

from .errors import Refusal
from .jcs import utf16_key
from .store_documents import resolve, seal_record, seal_set
from .store_keys import KIND, OP_ID, is_hex64, is_int

EVENTS = ("prepare", "dispatch", "observe", "settle", "mark-reconcile", "reconcile", "abort")
BINDING = ("operationId", "idempotencyKey", "writerGeneration", "targetSetDigest", "beforeDigest")
KNOWN = ("known-applied", "known-not-applied")
SAME_GENERATION = ("dispatch", "observe", "settle")


def _bad(message):
    return Refusal("TASK_OPERATION_TRANSITION_INVALID", "malformed operation event: " + message, ok=False)


def check_event(e):
    """Request shape (D-TCW-29): refused before the read."""
    if not isinstance(e, dict) or e.get("event") not in EVENTS:
        raise _bad("event must be one of " + ", ".join(EVENTS))
    name = e["event"]
    if not (isinstance(e.get("operationId"), str) and OP_ID.match(e["operationId"])):
        raise _bad("operationId")
    if not (isinstance(e.get("idempotencyKey"), str) and OP_ID.match(e["idempotencyKey"])):
        raise _bad("idempotencyKey")
    if not is_hex64(e.get("beforeDigest")):
        raise _bad("beforeDigest")
    if name == "prepare":
        allowed = {"event", "operationId", "idempotencyKey", "kind", "exactTargets", "beforeDigest"}
        if not (isinstance(e.get("kind"), str) and len(e["kind"]) <= 64 and KIND.match(e["kind"])):
            raise _bad("kind")
        if not isinstance(e.get("exactTargets"), list):
            raise Refusal("TASK_OPERATION_TARGETS_INVALID", "exactTargets must be an array of targets", ok=False)
    else:
        allowed = {"event"} | set(BINDING)
        if not is_int(e.get("writerGeneration"), 1) or not is_hex64(e.get("targetSetDigest")):
            raise _bad("writerGeneration or targetSetDigest")
        if name == "observe":
            allowed |= {"resultDigest"}
            if not is_hex64(e.get("resultDigest")):
                raise _bad("resultDigest")
        if name in ("settle", "reconcile"):
            # effect and evidenceDigest are judged after the fence, owner and binding (TCW-501 check 11)
            allowed |= {"effect", "evidenceDigest"}
    if set(e) - allowed:
        raise _bad("unknown member")


def targets_valid(targets):
    if not (1 <= len(targets) <= 256):
        return False
    for t in targets:
        if not isinstance(t, str) or not (1 <= len(t) <= 1024) or "\\" in t or t != t.strip():
            return False
        if unicodedata.normalize("NFKC", t) != t or any(0xD800 <= ord(c) <= 0xDFFF for c in t):
            return False
    keys = [utf16_key(t) for t in targets]
    return all(a < b for a, b in zip(keys, keys[1:]))


def _refuse(code, message):
    return ("refuse", code, message)


def _binding_equal(event, record):
    return all(event[k] == record[k] for k in BINDING)


def _settle(record, event, at, phase):
    """The record resolved by a settle/reconcile (phase settled) or an abort, at `at`."""
    r = {k: v for k, v in record.items() if k != "recordDigest"}
    r["phase"] = phase
    if phase == "aborted-zero-effect":
        r["effect"] = "none"
    else:
        r["effect"] = event["effect"]
        r["evidenceDigest"] = event["evidenceDigest"]
    r["settledAt"] = at
    return seal_record(r)


def decide(envelope, event, at, find_record):
    ops = envelope["operations"]
    u = ops["unresolved"]
    name = event["event"]
    op_id = event["operationId"]
    generation = envelope["writerGeneration"]
    if name == "prepare":
        if u is not None and u["operationId"] == op_id:
            same = u["phase"] == "prepared" and all(
                event[k] == u[k] for k in ("idempotencyKey", "kind", "exactTargets", "beforeDigest"))
            return ("replayed",) if same else _refuse("TASK_OPERATION_REPLAY_MISMATCH",
                                                     "a different prepare of the unresolved operation")
        if u is not None:
            return _refuse("TASK_OPERATION_IN_FLIGHT", "another operation is unresolved; resolve it first")
        if any(s["operationId"] == op_id for s in ops["settled"]):
            return _refuse("TASK_OPERATION_ALREADY_SETTLED", "the operationId is already resolved; use a new one")
        if any(s["idempotencyKey"] == event["idempotencyKey"] for s in ops["settled"]):
            return _refuse("TASK_OPERATION_IDEMPOTENCY_KEY_REUSED", "the idempotencyKey was used before; mint a new one")
        if not targets_valid(event["exactTargets"]):
            return _refuse("TASK_OPERATION_TARGETS_INVALID",
                           "exactTargets must be 1 to 256 normalised, unique targets sorted by UTF-16 code units")
        record = seal_record({
            "schemaVersion": "TaskOperationRecordV1", "operationId": op_id,
            "idempotencyKey": event["idempotencyKey"], "writerGeneration": generation,
            "expectedStateSequence": envelope["sequence"], "kind": event["kind"],
            "exactTargets": list(event["exactTargets"]), "targetSetDigest": None,
            "beforeDigest": event["beforeDigest"], "phase": "prepared", "effect": "none", "preparedAt": at,
            "dispatchedAt": None, "observedAt": None, "settledAt": None, "resultDigest": None,
            "evidenceDigest": None,
        })
        return ("apply", "operation-prepare", seal_set(record, ops["settledTotal"], ops["settled"]))
    if u is not None and u["operationId"] == op_id:
        return _decide_unresolved(ops, u, event, at, generation)
    ref = next((s for s in ops["settled"] if s["operationId"] == op_id), None)
    if ref is None:
        return _refuse("TASK_OPERATION_CAS_MISMATCH", "no unresolved or recently resolved operation has this id")
    if name not in ("settle", "reconcile", "abort"):
        return _refuse("TASK_OPERATION_CAS_MISMATCH", "the operation is already resolved")
    record = find_record(op_id)
    if record is None or not _binding_equal(event, record):
        return _refuse("TASK_OPERATION_CAS_MISMATCH", "the event's binding does not match the resolved operation")
    if name == "abort":
        again = _settle(record, event, ref["settledAt"], "aborted-zero-effect")
    elif event.get("effect") in KNOWN and is_hex64(event.get("evidenceDigest")):
        again = _settle(record, event, ref["settledAt"], "settled")
    else:
        again = None
    if again is not None and again["recordDigest"] == ref["recordDigest"]:
        return ("replayed",)
    return _refuse("TASK_OPERATION_SETTLEMENT_REPLAY_MISMATCH", "the operation is already resolved with another outcome")


def _decide_unresolved(ops, u, event, at, generation):
    name = event["event"]
    phase = u["phase"]
    if not _binding_equal(event, u):
        return _refuse("TASK_OPERATION_CAS_MISMATCH", "the event's binding does not match the unresolved operation")
    if name == "dispatch" and phase == "dispatched":
        return ("replayed",)
    if name == "observe" and phase == "observed":
        if event["resultDigest"] == u["resultDigest"]:
            return ("replayed",)
        return _refuse("TASK_OPERATION_REPLAY_MISMATCH", "durable observed evidence is never replaced")
    if name == "mark-reconcile" and phase == "reconcile-required":
        return ("replayed",)
    if name in SAME_GENERATION and generation != u["writerGeneration"]:
        return _refuse("TASK_OPERATION_CAS_MISMATCH",
                       "an older generation prepared the operation; only mark-reconcile, reconcile or abort apply")
    r = {k: v for k, v in u.items() if k != "recordDigest"}
    if name == "dispatch" and phase == "prepared":
        r.update(phase="dispatched", effect="unknown", dispatchedAt=at)
        return ("apply", "operation-dispatch", seal_set(seal_record(r), ops["settledTotal"], ops["settled"]))
    if name == "observe" and phase == "dispatched":
        r.update(phase="observed", observedAt=at, resultDigest=event["resultDigest"])
        return ("apply", "operation-observe", seal_set(seal_record(r), ops["settledTotal"], ops["settled"]))
    if name == "mark-reconcile" and phase in ("dispatched", "observed"):
        r.update(phase="reconcile-required")
        return ("apply", "operation-mark-reconcile", seal_set(seal_record(r), ops["settledTotal"], ops["settled"]))
    if name == "reconcile" and phase != "reconcile-required":
        return _refuse("TASK_OPERATION_RECONCILE_CAS_MISMATCH", "reconcile needs phase reconcile-required")
    if name == "abort" and phase != "prepared":
        return _refuse("TASK_OPERATION_ABORT_INVALID", "a dispatched operation is never aborted; mark-reconcile it")
    if (name == "settle" and phase == "observed") or name == "reconcile":
        if event.get("effect") not in KNOWN or not is_hex64(event.get("evidenceDigest")):
            return _refuse("TASK_OPERATION_TRANSITION_INVALID", "a settlement needs a known effect and evidenceDigest")
        record = _settle(u, event, at, "settled")
        kind = "operation-settle" if name == "settle" else "operation-reconcile"
        return ("apply", kind, resolve(ops, record))
    if name == "abort":
        return ("apply", "operation-abort", resolve(ops, _settle(u, event, at, "aborted-zero-effect")))
    return _refuse("TASK_OPERATION_TRANSITION_INVALID", "the edge table has no %s from %s" % (name, phase))
