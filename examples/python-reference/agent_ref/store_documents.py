"""The documents of TaskContinuityWriteGate and their digests, innermost first.

docs/spec/task-continuity-write-gate.md "Identity and digests" of each contract.
"""

import copy

from .jcs import digest_of

ZERO_FENCE = {"schemaVersion": "TaskRecoveryCommitFenceV1", "stateSequence": 0, "writerGeneration": 0}
SETTLED_WINDOW = 64
LINEAGE_WINDOW = 64


def without(doc, key):
    return {k: v for k, v in doc.items() if k != key}


def sealed(doc, key):
    """doc with `key` set to digestOf(doc without key)."""
    out = without(doc, key)
    out[key] = digest_of(out)
    return out


def fence(sequence, writer_generation):
    return {"schemaVersion": "TaskRecoveryCommitFenceV1", "stateSequence": sequence,
            "writerGeneration": writer_generation}


def fence_of(envelope):
    return ZERO_FENCE if envelope is None else fence(envelope["sequence"], envelope["writerGeneration"])


def owner_ref(envelope):
    if envelope is None:
        return {"mode": "absent"}
    lease = envelope["owner"]
    return {"ownerGeneration": lease["ownerGeneration"], "ownerNonce": lease["ownerNonce"],
            "leaseRevision": lease["leaseRevision"], "leaseDigest": lease["leaseDigest"]}


def seal_lease(lease):
    lease = copy.deepcopy(lease)
    for ref in ("handoffRef", "takeoverRef"):
        if lease[ref] is not None:
            lease[ref] = sealed(lease[ref], "refDigest")
    lease["transitionRef"] = sealed(lease["transitionRef"], "refDigest")
    return sealed(lease, "leaseDigest")


def seal_record(record):
    record = dict(record)
    record["targetSetDigest"] = digest_of(record["exactTargets"])
    return sealed(record, "recordDigest")


def seal_set(unresolved, settled_total, settled):
    return {
        "schemaVersion": "TaskOperationSetV1",
        "unresolved": unresolved,
        "settledTotal": settled_total,
        "settled": settled,
        "settledSetDigest": digest_of({"schemaVersion": "TaskOperationSetV1", "settledTotal": settled_total,
                                       "settled": settled}),
    }


def empty_set():
    return seal_set(None, 0, [])


def settled_ref(record):
    return {k: record[k] for k in ("operationId", "idempotencyKey", "writerGeneration", "phase", "effect",
                                   "recordDigest", "settledAt")}


def resolve(operations, record):
    """The set after `record` (now resolved) leaves `unresolved`."""
    settled = (operations["settled"] + [settled_ref(record)])[-SETTLED_WINDOW:]
    return seal_set(None, operations["settledTotal"] + 1, settled)


def seal_envelope(envelope):
    envelope = dict(envelope)
    envelope["stateDigest"] = digest_of(envelope["state"])
    return sealed(envelope, "envelopeDigest")


def write_context(envelope, runtime_generation, read_at):
    owner = envelope["owner"]
    ctx = {
        "schemaVersion": "CanonicalTaskWriteContextV1",
        "taskId": envelope["taskId"],
        "projectRootIdentity": envelope["projectRootIdentity"],
        "lifecycleRevision": envelope["lifecycleRevision"],
        "stateSequence": envelope["sequence"],
        "writerGeneration": envelope["writerGeneration"],
        "holderSession": owner["sessionDigest"],
        "contextEpoch": owner["contextEpoch"],
        "routeRevision": owner["routeRevision"],
        "ownerLeaseDigest": owner["leaseDigest"],
        "ownerStatus": owner["status"],
        "operationSetDigest": digest_of(envelope["operations"]),
        "settledSetDigest": envelope["operations"]["settledSetDigest"],
        "runtimeGeneration": runtime_generation,
        "envelopeDigest": envelope["envelopeDigest"],
    }
    ctx["contextDigest"] = digest_of(ctx)
    ctx["readAt"] = read_at
    return ctx


def digests_recompute(envelope):
    """The envelope's own digests and its lease's (a cheap integrity check of a stored envelope)."""
    try:
        if envelope["stateDigest"] != digest_of(envelope["state"]):
            return False
        if envelope["envelopeDigest"] != digest_of(without(envelope, "envelopeDigest")):
            return False
        return envelope["owner"]["leaseDigest"] == digest_of(without(envelope["owner"], "leaseDigest"))
    except Exception:
        return False
