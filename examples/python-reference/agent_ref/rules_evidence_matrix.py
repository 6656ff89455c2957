"""ReplayObservabilityGate (docs/spec/replay-observability-gate.md): EvidenceMatrixV1 and the
bundle `evidence-matrix-with-documents`."""

from . import catalogue
from .rulekit import check_digest, derived, digest, duplicates, pick, resolve_ref, without

DIRECT = ("hook", "runtime", "replay", "tests")


def check_matrix(doc, out):
    check_digest(out, doc, "matrixId", derived("evmx-", pick(doc, "subject", "generatedAt")), "EVIDENCE_MATRIX_ID_MISMATCH")
    check_digest(out, doc, "matrixDigest", digest(without(doc, "matrixDigest")), "EVIDENCE_MATRIX_DIGEST_MISMATCH")
    claims = doc["claims"]
    for i in duplicates(claims, lambda c: c["claimId"]):
        out.add("EVIDENCE_MATRIX_CLAIM_DUPLICATE", "claims", i, "claimId")
    for i, c in enumerate(claims):
        ev = c["evidence"]
        for j, e in enumerate(ev):
            d = e["document"]
            if d is not None:
                if e["digest"] != d["documentDigest"]:
                    out.add("EVIDENCE_MATRIX_DOCUMENT_DIGEST_MISMATCH", "claims", i, "evidence", j, "digest")
                if not catalogue.known(d["contract"]):
                    out.add("EVIDENCE_MATRIX_DOCUMENT_CONTRACT_UNKNOWN", "claims", i, "evidence", j, "document", "contract")
        behaviour = c["claimClass"] == "behaviour"
        if c["behaviourChange"] and not behaviour:
            out.add("EVIDENCE_MATRIX_CHANGE_CLASS_INCONSISTENT", "claims", i, "behaviourChange")
        if c["status"] == "verified":
            usable = [e for e in ev if e["kind"] in DIRECT] if behaviour else ev
            if behaviour and not usable:
                out.add("EVIDENCE_MATRIX_BEHAVIOUR_PROSE_ONLY", "claims", i, "evidence")
            elif usable and not any(e["digest"] is not None for e in usable):
                out.add("EVIDENCE_MATRIX_EVIDENCE_UNPINNED", "claims", i, "status")
            elif c["behaviourChange"] and any(e["kind"] in DIRECT and e["digest"] is not None for e in ev):
                if not any(e["kind"] in ("replay", "tests") and e["digest"] is not None for e in ev):
                    out.add("EVIDENCE_MATRIX_BEHAVIOUR_CHANGE_WITHOUT_REPLAY", "claims", i, "evidence")
    if len(out) == 0:
        # Gate outcome: judged on a matrix valid under invariants 1-9.
        for i, c in enumerate(claims):
            if c["claimClass"] == "behaviour" and c["status"] == "unverified":
                out.add("EVIDENCE_MATRIX_BEHAVIOUR_UNVERIFIED", "claims", i, "status")


def check_bundle(documents, out, judge):
    if not isinstance(documents[0], dict) or documents[0].get("schemaVersion") != "EvidenceMatrixV1":
        out.add("EVIDENCE_MATRIX_BUNDLE_SHAPE_INVALID", "/documents/0/schemaVersion")
        return
    if not all([judge(i) for i in range(len(documents))]):
        return
    others = documents[1:]
    for i, c in enumerate(documents[0]["claims"]):
        for j, e in enumerate(c["evidence"]):
            if e["document"] is not None and resolve_ref(e["document"], others) is None:
                out.add("EVIDENCE_MATRIX_DOCUMENT_UNRESOLVED", "/documents/0/claims/%d/evidence/%d/document" % (i, j))


CONTRACTS = {"EvidenceMatrixV1": check_matrix}
BUNDLES = {"evidence-matrix-with-documents": check_bundle}
# An entry may name a document of any contract of the catalogue.
BUNDLE_NEEDS = {"evidence-matrix-with-documents": "*"}
