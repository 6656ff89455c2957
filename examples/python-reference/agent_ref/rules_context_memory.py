"""ContextMemoryStateGate (docs/spec/context-memory-state-gate.md): ContextMemoryModelV1 invariants 1-12."""

from .rulekit import check_digest, derived, digest, duplicates, without

LAYERS = ("state", "context", "memory", "artefact")


def check_model(doc, out):
    check_digest(out, doc, "modelId", derived("cmm-", {"subject": {"system": doc["subject"]["system"]}}), "MEMORY_MODEL_ID_MISMATCH")
    check_digest(out, doc, "modelDigest", digest(without(doc, "modelDigest")), "MEMORY_MODEL_DIGEST_MISMATCH")
    kinds = doc["factKinds"]
    for i in duplicates(kinds, lambda k: k["factKind"]):
        out.add("MEMORY_MODEL_FACT_KIND_DUPLICATE", "factKinds", i)
    for layer in LAYERS:
        if not any(k["layer"] == layer for k in kinds):
            out.add("MEMORY_MODEL_LAYER_MISSING", "factKinds")
    for i, k in enumerate(kinds):
        src = k["sourceOfTruth"]
        if src is None:
            out.add("MEMORY_MODEL_SOURCE_OF_TRUTH_MISSING", "factKinds", i, "sourceOfTruth")
        elif src["kind"] == "summary":
            out.add("MEMORY_MODEL_SUMMARY_AS_SOURCE_OF_TRUTH", "factKinds", i, "sourceOfTruth", "kind")
        elif src["kind"] == "memory" and k["layer"] != "memory":
            out.add("MEMORY_MODEL_MEMORY_AS_SOURCE_OF_TRUTH", "factKinds", i, "sourceOfTruth", "kind")
        if k["mutable"] and k["freshness"] is None:
            out.add("MEMORY_MODEL_FRESHNESS_MISSING", "factKinds", i, "freshness")
        if k["onConflict"] != "source-of-truth":
            out.add("MEMORY_MODEL_SUMMARY_OVERRIDES_SOURCE", "factKinds", i, "onConflict")
    by_kind = {}
    for k in kinds:
        by_kind.setdefault(k["factKind"], k)
    items = doc["handoff"]["items"]
    for i, item in enumerate(items):
        known = by_kind.get(item["factKind"])
        if known is None:
            out.add("MEMORY_MODEL_HANDOFF_FACT_KIND_UNKNOWN", "handoff", "items", i, "factKind")
        if item["carries"] == "summary" and not any(o["carries"] == "source-ref" and o["factKind"] == item["factKind"] for o in items):
            out.add("MEMORY_MODEL_HANDOFF_SUMMARY_WITHOUT_SOURCE", "handoff", "items", i)
        if item["carries"] in ("source-ref", "snapshot") and known is not None and known["mutable"] and not item["pinned"]:
            out.add("MEMORY_MODEL_HANDOFF_UNPINNED", "handoff", "items", i, "pinned")


CONTRACTS = {"ContextMemoryModelV1": check_model}
