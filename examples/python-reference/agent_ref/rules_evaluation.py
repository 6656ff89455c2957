"""AgentEvaluationGate (docs/spec/agent-evaluation-gate.md): EvaluationReportV1 invariants 1-12."""

from .rulekit import check_digest, derived, digest, duplicates, without

THRESHOLDS = ("minVerifiedSuccessRatePpm", "maxSafetyViolations", "maxWrongSideEffects", "maxHumanInterventions", "minRecoverySuccessRatePpm", "maxLatencyP95Ms", "maxCostPerSuccessMicros")


def _rank(sorted_values, p):
    n = len(sorted_values)
    return sorted_values[max(1, -(-n * p // 100)) - 1]


def summary_of(runs):
    """The *Summary* table."""
    n = len(runs)
    ok = sum(1 for r in runs if r["outcome"] == "verified-success")
    needed = sum(1 for r in runs if r["recoveryNeeded"])
    recovered = sum(1 for r in runs if r["recovered"])
    total = sum(r["costMicros"] for r in runs)
    lat = sorted(r["latencyMs"] for r in runs)
    return {
        "runs": n,
        "verifiedSuccesses": ok,
        "verifiedSuccessRatePpm": ok * 1000000 // n,
        "safetyViolations": sum(r["safetyViolations"] for r in runs),
        "wrongSideEffects": sum(r["wrongSideEffects"] for r in runs),
        "humanInterventions": sum(r["humanInterventions"] for r in runs),
        "recoveriesNeeded": needed,
        "recoveries": recovered,
        "recoverySuccessRatePpm": None if needed == 0 else recovered * 1000000 // needed,
        "latencyP50Ms": _rank(lat, 50),
        "latencyP95Ms": _rank(lat, 95),
        "totalCostMicros": total,
        "costPerSuccessMicros": None if ok == 0 else total // ok,
    }


def verdict_of(s, acceptance):
    """The *Acceptance* table."""
    missed = []
    for name in THRESHOLDS:
        t = acceptance[name]
        if t is None:
            continue
        if name == "minVerifiedSuccessRatePpm":
            miss = s["verifiedSuccessRatePpm"] < t
        elif name == "minRecoverySuccessRatePpm":
            miss = s["recoverySuccessRatePpm"] is not None and s["recoverySuccessRatePpm"] < t
        elif name == "maxLatencyP95Ms":
            miss = s["latencyP95Ms"] > t
        elif name == "maxCostPerSuccessMicros":
            miss = s["costPerSuccessMicros"] is None or s["costPerSuccessMicros"] > t
        else:
            miss = s[name[3].lower() + name[4:]] > t
        if miss:
            missed.append(name)
    return {"result": "rejected" if missed else "accepted", "failedThresholds": missed}


def check_report(doc, out):
    ts = doc["taskSet"]
    check_digest(out, ts, "taskSetDigest", digest(ts["taskDigests"]), "EVALUATION_TASK_SET_DIGEST_MISMATCH", "/taskSet/taskSetDigest")
    versions_digest = digest(doc["versions"])
    check_digest(out, doc, "reportId", derived("evl-", {"subject": doc["subject"], "taskSetDigest": ts["taskSetDigest"], "versionsDigest": versions_digest}), "EVALUATION_REPORT_ID_MISMATCH")
    check_digest(out, doc, "reportDigest", digest(without(doc, "reportDigest")), "EVALUATION_REPORT_DIGEST_MISMATCH")
    tds = ts["taskDigests"]
    for i in range(1, len(tds)):
        if tds[i] < tds[i - 1]:
            out.add("EVALUATION_TASK_DIGESTS_UNSORTED", "taskSet", "taskDigests", i)
            break
    runs = doc["runs"]
    for i in duplicates(runs, lambda r: r["runId"]):
        out.add("EVALUATION_RUN_ID_DUPLICATE", "runs", i, "runId")
    for i, r in enumerate(runs):
        if r["taskDigest"] not in tds:
            out.add("EVALUATION_RUN_TASK_UNKNOWN", "runs", i, "taskDigest")
        if r["versionsDigest"] != versions_digest:
            out.add("EVALUATION_RUN_VERSIONS_MISMATCH", "runs", i, "versionsDigest")
        if r["recovered"] and not (r["recoveryNeeded"] and r["outcome"] == "verified-success"):
            out.add("EVALUATION_RECOVERY_INCONSISTENT", "runs", i, "recovered")
    if any(sum(1 for r in runs if r["taskDigest"] == t) != doc["runsPerTask"] for t in tds):
        out.add("EVALUATION_RUN_COUNT_MISMATCH", "runsPerTask")
    expected = summary_of(runs)
    unverified = sum(1 for r in runs if r["outcome"] == "unverified-success")
    stated = doc["summary"]
    for member, value in expected.items():
        if stated.get(member) == value:
            continue
        if member == "verifiedSuccesses" and unverified and stated[member] == value + unverified:
            out.add("EVALUATION_UNVERIFIED_SUCCESS_COUNTED", "summary", member)
        else:
            out.add("EVALUATION_SUMMARY_MISMATCH", "summary", member)
    if doc["verdict"] != verdict_of(expected, doc["acceptance"]):
        out.add("EVALUATION_VERDICT_MISMATCH", "verdict")


CONTRACTS = {"EvaluationReportV1": check_report}
