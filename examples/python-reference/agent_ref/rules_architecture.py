"""AiAgentSystemArchitectureGate (docs/spec/ai-agent-system-architecture-gate.md):
AiAgentSystemArchitectureReportV1, CapabilitySurfaceEvidenceV1, AiAgentSystemArchitectureReportV2
and the bundles `architecture-report-with-matrix`, `architecture-report-with-references`,
`architecture-report-v2-with-references`."""

import json
import os

from . import rules_capability_domain
from .rulekit import check_digest, derived, digest, pick, resolve_ref, without

DIRECT = ("hook", "runtime", "replay", "tests")
FIELD_SECTIONS = ("intentRouting", "toolPermissionBoundary", "contextMemoryModel", "stateMachineHandoff", "observabilityReplay", "humanInLoopBoundary")
CONTRACT_BACKED = ("contextAcquisition", "contextReadReceipt", "turnLivenessContract", "taskContinuityWriteContract")
MANDATORY = FIELD_SECTIONS
V1_FIELDS = FIELD_SECTIONS[:3] + ("contextAcquisition", "contextReadReceipt") + FIELD_SECTIONS[3:5] + ("turnLivenessContract", "taskContinuityWriteContract", "humanInLoopBoundary", "capabilitySurfaceEvidence", "evidenceMatrix", "agentCapabilityDomainMatrix")
V2_FIELDS = V1_FIELDS + ("repairRoleBoundary",)
ACDM = "AgentCapabilityDomainMatrixV1"
# "Allowed gates of referenced contracts" (V1) and "Allowed references (V2)": (gates, contracts or None).
V1_ALLOWED = {
    "contextAcquisition": (("ContextAcquisitionGate",), None),
    "contextReadReceipt": (("ContextAcquisitionGate",), None),
    "turnLivenessContract": (("TurnLivenessRecoveryGate", "LocalTaskTraceGate"), None),
    "taskContinuityWriteContract": (("TaskContinuityWriteGate",), None),
    "agentCapabilityDomainMatrix": (("AgentCapabilityDomainCompletenessGate",), (ACDM,)),
}
V2_ALLOWED = {
    "intentRouting": (("AgentRoutingGate",), None),
    "toolPermissionBoundary": (("ToolPermissionBoundaryGate", "PermissionPolicyGate", "TaskContractGate"), None),
    "contextMemoryModel": (("ContextMemoryStateGate",), None),
    "contextAcquisition": (("ContextAcquisitionGate",), None),
    "contextReadReceipt": (("ContextAcquisitionGate",), None),
    "stateMachineHandoff": (("RunControlGate", "DelegationGate", "TaskContinuityWriteGate", "TurnLivenessRecoveryGate"), None),
    "observabilityReplay": (("ReplayObservabilityGate", "LocalTaskTraceGate", "AgentEvaluationGate"), None),
    "turnLivenessContract": (("TurnLivenessRecoveryGate", "LocalTaskTraceGate"), None),
    "taskContinuityWriteContract": (("TaskContinuityWriteGate",), None),
    "humanInLoopBoundary": (("ToolPermissionBoundaryGate",), ("HumanInLoopBoundaryV1",)),
    "capabilitySurfaceEvidence": (("AiAgentSystemArchitectureGate",), ("CapabilitySurfaceEvidenceV1",)),
    "evidenceMatrix": (("ReplayObservabilityGate",), ("EvidenceMatrixV1",)),
    "agentCapabilityDomainMatrix": (("AgentCapabilityDomainCompletenessGate",), (ACDM,)),
    "repairRoleBoundary": (("RepairCollaborationRoleBoundaryGate",), ("RepairRoleBoundaryV1",)),
}
V2_MANDATORY = MANDATORY + ("evidenceMatrix",)
ASPECTS = ("controllingParty", "read", "write", "execute", "authority", "taskNegotiation", "cancellation", "timeout", "idempotency", "audit")

_gates = None


def gate_of(contract):
    """The gate of a contract in the published catalogue (schemas/index.json)."""
    global _gates
    if _gates is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "index.json")
        with open(path, encoding="utf-8") as f:
            _gates = {s["name"]: s["gate"] for s in json.load(f)["schemas"]}
    return _gates.get(contract)


def _direct(evidence):
    return any(e["kind"] in DIRECT for e in evidence)


def _ids(doc, out, v2):
    check_digest(out, doc, "reportId", derived("arch-", pick(doc, "subject", "generatedAt")), "ARCH_REPORT_ID_MISMATCH")
    check_digest(out, doc, "reportDigest", digest(without(doc, "reportDigest")), "ARCH_REPORT_DIGEST_MISMATCH")


def _contract_refs(doc, out, f, allowed):
    refs = doc[f].get("contracts", [])
    gates, names = allowed.get(f, ((), ()))
    seen = set()
    for i, ref in enumerate(refs):
        gate = gate_of(ref["contract"])
        if gate is None or gate not in gates or (names is not None and ref["contract"] not in names):
            out.add("ARCH_CONTRACT_REF_GATE_MISMATCH", f, "contracts", i, "contract")
        key = (ref["contract"], ref["documentDigest"])
        if key in seen:
            out.add("ARCH_CONTRACT_REF_DUPLICATE", f, "contracts", i)
        seen.add(key)


def check_report_v1(doc, out):
    _ids(doc, out, False)
    for f in V1_FIELDS:
        s = doc[f]
        if f == "evidenceMatrix":
            continue
        if f in MANDATORY and s["status"] == "not-applicable":
            out.add("ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN", f, "status")
        if (s["skipReason"] is not None) != (s["status"] == "not-applicable"):
            out.add("ARCH_FIELD_SKIP_REASON_INCONSISTENT", f, "skipReason")
        if f in FIELD_SECTIONS and s["status"] == "evidenced" and not _direct(s["evidence"]):
            out.add("ARCH_FIELD_EVIDENCE_MISSING", f, "evidence")
        if f in CONTRACT_BACKED or f == "agentCapabilityDomainMatrix":
            n = len(s["contracts"])
            if s["status"] == "evidenced" and (n != 1 if f == "agentCapabilityDomainMatrix" else n < 1):
                out.add("ARCH_FIELD_EVIDENCE_MISSING", f, "contracts")
            if s["status"] == "not-applicable" and (n or (f == "agentCapabilityDomainMatrix" and s["claimedObject"] is not None)):
                out.add("ARCH_FIELD_STATUS_INCONSISTENT", f, "status")
            _contract_refs(doc, out, f, V1_ALLOWED)
    cse = doc["capabilitySurfaceEvidence"]
    entries = cse["entries"]
    expected = "not-applicable" if not entries else ("evidenced" if all(e["evidenceStatus"] == "verified" for e in entries) else "unverified")
    if cse["status"] != expected:
        out.add("ARCH_FIELD_STATUS_INCONSISTENT", "capabilitySurfaceEvidence", "status")
    seen = set()
    for i, e in enumerate(entries):
        if e["evidenceStatus"] == "verified" and not _direct(e["evidence"]):
            out.add("ARCH_CAPABILITY_EVIDENCE_NOT_DIRECT", "capabilitySurfaceEvidence", "entries", i, "evidenceStatus")
        key = (e["decisionRef"], e["surface"])
        if key in seen:
            out.add("ARCH_CAPABILITY_SURFACE_DUPLICATE", "capabilitySurfaceEvidence", "entries", i)
        seen.add(key)
    rows = doc["evidenceMatrix"]["rows"]
    claims = set()
    for i, r in enumerate(rows):
        if r["status"] == "verified" and not _direct(r["evidence"]):
            out.add("ARCH_EVIDENCE_ROW_NOT_DIRECT", "evidenceMatrix", "rows", i, "status")
        if r["claim"] in claims:
            out.add("ARCH_EVIDENCE_ROW_DUPLICATE", "evidenceMatrix", "rows", i)
        claims.add(r["claim"])
    _claim_needs_matrix(doc, out)
    if len(out) == 0:
        for f in MANDATORY:
            if doc[f]["status"] == "unverified":
                out.add("ARCH_MANDATORY_FIELD_UNVERIFIED", f, "status")
        if not any(r["status"] == "verified" for r in rows):
            out.add("ARCH_EVIDENCE_MATRIX_UNVERIFIED", "evidenceMatrix", "rows")


def _claim_needs_matrix(doc, out):
    m = doc["agentCapabilityDomainMatrix"]
    if m["claimedObject"] is not None and m["status"] != "evidenced":
        out.add("ARCH_COMPLETENESS_CLAIM_WITHOUT_MATRIX", "agentCapabilityDomainMatrix", "claimedObject")


def check_report_v2(doc, out):
    _ids(doc, out, True)
    for f in V2_FIELDS:
        s = doc[f]
        if f in V2_MANDATORY and s["status"] == "not-applicable":
            out.add("ARCH_FIELD_NOT_APPLICABLE_FORBIDDEN", f, "status")
        if (s["skipReason"] is not None) != (s["status"] == "not-applicable"):
            out.add("ARCH_FIELD_SKIP_REASON_INCONSISTENT", f, "skipReason")
        n = len(s["contracts"])
        if s["status"] == "evidenced" and (n != 1 if f in ("agentCapabilityDomainMatrix", "evidenceMatrix") else n < 1):
            out.add("ARCH_MANDATORY_FIELD_PROMPT_ONLY" if f in V2_MANDATORY else "ARCH_FIELD_EVIDENCE_MISSING", f, "contracts")
        if s["status"] == "not-applicable" and (n or (f == "agentCapabilityDomainMatrix" and s["claimedObject"] is not None)):
            out.add("ARCH_FIELD_STATUS_INCONSISTENT", f, "status")
        _contract_refs(doc, out, f, V2_ALLOWED)
    _claim_needs_matrix(doc, out)
    if len(out) == 0:
        for f in V2_MANDATORY:
            if doc[f]["status"] == "unverified":
                out.add("ARCH_MANDATORY_FIELD_UNVERIFIED", f, "status")


def check_surface_evidence(doc, out):
    check_digest(out, doc, "evidenceId", derived("cse-", pick(doc, "subject", "decisionRef", "surface", "observedAt")), "CAPABILITY_SURFACE_EVIDENCE_ID_MISMATCH")
    for a in ASPECTS:
        x = doc[a]
        if x["status"] == "verified":
            if not _direct(x["evidence"]):
                out.add("CAPABILITY_SURFACE_NOT_DIRECT", a, "status")
            if x["basis"] != "direct-observation":
                out.add("CAPABILITY_SURFACE_INFERRED", a, "basis")
        if (x["basis"] == "none") != (x["value"] is None):
            out.add("CAPABILITY_SURFACE_BASIS_INCONSISTENT", a, "basis")
    t = doc["timeout"]
    if (t["limitMs"] is not None) != (t["value"] == "bounded"):
        out.add("CAPABILITY_SURFACE_TIMEOUT_INCONSISTENT", "timeout", "limitMs")
    if (doc["evidenceStatus"] == "verified") != all(doc[a]["status"] == "verified" for a in ASPECTS):
        out.add("CAPABILITY_SURFACE_STATUS_INCONSISTENT", "evidenceStatus")


def _matrix_rules(report, matrix, out):
    """Invariants 15 and 16 for a resolved matrix reference."""
    section = report["agentCapabilityDomainMatrix"]
    claimed = section["claimedObject"]
    subject_ok = matrix["subject"]["system"] == report["subject"]["system"] and (
        claimed is None or matrix["subject"]["revision"] == report["subject"]["revision"]
    )
    if not subject_ok:
        out.add("ARCH_COMPLETENESS_SUBJECT_MISMATCH", "/documents/0/agentCapabilityDomainMatrix/contracts/0")
    if claimed is not None:
        path = "/documents/0/agentCapabilityDomainMatrix/claimedObject"
        if matrix["verdict"]["result"] != "complete-for-declared-object":
            out.add("ARCH_COMPLETENESS_CLAIM_UNSUPPORTED", path)
        elif not rules_capability_domain.satisfies(matrix, claimed):
            out.add("CAPABILITY_OBJECT_NARROWER_THAN_REQUIRED", path)


def _references(report, fields, documents, out, v2):
    others = documents[1:]
    for f in fields:
        for i, ref in enumerate(report[f].get("contracts", [])):
            target = resolve_ref(ref, others)
            path = "/documents/0/%s/contracts/%d" % (f, i)
            if target is None:
                out.add("ARCH_CONTRACT_REF_UNRESOLVED", path)
                continue
            if f == "agentCapabilityDomainMatrix":
                _matrix_rules(report, target, out)
            elif v2:
                s = target.get("subject")
                if isinstance(s, dict) and set(s) == {"system", "revision"} and s != report["subject"]:
                    out.add("ARCH_REFERENCE_SUBJECT_MISMATCH", path)


def _report_first(documents, contract, out):
    if not isinstance(documents[0], dict) or documents[0].get("schemaVersion") != contract:
        out.add("ARCH_BUNDLE_SHAPE_INVALID", "/documents/0/schemaVersion")
        return False
    return True


def check_with_matrix(documents, out, judge):
    if len(documents) != 2:
        out.add("ARCH_BUNDLE_SHAPE_INVALID", "/documents")
        return
    if not _report_first(documents, "AiAgentSystemArchitectureReportV1", out):
        return
    if not isinstance(documents[1], dict) or documents[1].get("schemaVersion") != ACDM:
        out.add("ARCH_BUNDLE_SHAPE_INVALID", "/documents/1/schemaVersion")
        return
    if not documents[0]["agentCapabilityDomainMatrix"].get("contracts") if isinstance(documents[0].get("agentCapabilityDomainMatrix"), dict) else True:
        out.add("ARCH_BUNDLE_SHAPE_INVALID", "/documents/0/agentCapabilityDomainMatrix/contracts")
        return
    if not all([judge(0), judge(1)]):
        return
    _references(documents[0], ("agentCapabilityDomainMatrix",), documents, out, False)


def check_with_references(documents, out, judge):
    if not _report_first(documents, "AiAgentSystemArchitectureReportV1", out):
        return
    if not all([judge(i) for i in range(len(documents))]):
        return
    _references(documents[0], CONTRACT_BACKED + ("agentCapabilityDomainMatrix",), documents, out, False)


def check_v2_with_references(documents, out, judge):
    if not _report_first(documents, "AiAgentSystemArchitectureReportV2", out):
        return
    if not all([judge(i) for i in range(len(documents))]):
        return
    report = documents[0]
    _references(report, V2_FIELDS, documents, out, True)
    cse = report["capabilitySurfaceEvidence"]
    surfaces = [resolve_ref(r, documents[1:]) for r in cse["contracts"] if r["contract"] == "CapabilitySurfaceEvidenceV1"]
    surfaces = [s for s in surfaces if s is not None]
    if surfaces and cse["status"] != "not-applicable":
        all_verified = all(s["evidenceStatus"] == "verified" for s in surfaces)
        if (cse["status"] == "evidenced") != all_verified:
            out.add("ARCH_CAPABILITY_SURFACE_STATUS_MISMATCH", "/documents/0/capabilitySurfaceEvidence/status")


CONTRACTS = {
    "AiAgentSystemArchitectureReportV1": check_report_v1,
    "AiAgentSystemArchitectureReportV2": check_report_v2,
    "CapabilitySurfaceEvidenceV1": check_surface_evidence,
}
BUNDLES = {
    "architecture-report-with-matrix": check_with_matrix,
    "architecture-report-with-references": check_with_references,
    "architecture-report-v2-with-references": check_v2_with_references,
}
# The report's contract-backed fields may reference any contract of their gates; V2's fields
# those of nearly every gate.
BUNDLE_NEEDS = {
    "architecture-report-with-matrix": ("AiAgentSystemArchitectureReportV1", ACDM),
    "architecture-report-with-references": "*",
    "architecture-report-v2-with-references": "*",
}
