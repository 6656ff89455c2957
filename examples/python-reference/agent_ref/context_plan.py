"""context.plan (capability `context`): the IntentSeedV1 formed from a seed input record and the
ContextReadPlanV2 derived from it and the declared source catalogue, at the session's clock.

docs/spec/context-acquisition-gate.md: "Producing a seed" (CAG-002..004), the plan's Derivations
and "Identity and digests", and "Planning through the protocol" (CAG-026: the catalogue order of
classification and the exact texts); docs/protocol.md#context-v1-capability-context (PROTO-008..010).
"""

import copy
import hashlib
import math
import re
import unicodedata

from . import jcs, validate
from .clock import format_ms, is_utc_timestamp, parse_instant_ns
from .errors import Refusal
from .rules_context_plan import (
    action_envelope,
    baseline_digest,
    full_read,
    identity_inputs,
    metadata_digest,
    missing_required,
)
from .rulekit import derived, utf16_sorted

INTENTS = ("dev", "fix", "analyze", "audit", "self-fix", "chat", "resume", "other")
RISKS = ("normal", "high", "critical")
SEED_KEYS = ("schemaVersion", "contextEpoch", "semantic", "intent", "targetHint", "continuationHint", "riskHint", "confidence", "createdAt")
PLANNER = "agent-contracts-planner@1"
BASELINE_TEXT = {
    "index": "The Profile index is delivered losslessly with the plan.",
    "config": "The effective non-local Profile configuration is part of the baseline.",
}
MEMORY_TEXT = {
    "status": "The compact task-continuity status is read for every planned acquisition.",
    "session": "A resumed session needs the observed session record.",
    "summary": "A resumed session may use the memory summary (context, never a source of truth).",
}
EPOCH = re.compile(r"^\S+$")
HINT = re.compile(r"^\S(.*\S)?$")
HOST = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}\Z")
PLANNER_NAME = re.compile(r"^[a-z0-9][a-z0-9._/-]*@[0-9]+\Z")
ARTIFACT = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\Z")
NONCE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{15,127}\Z")
# Triggers the planner derives; a caller may not supply them (the engine's DERIVED_TRIGGERS).
DERIVED_TRIGGERS = ("low-confidence", "explicit-full", "public-contract", "release", "security", "destructive", "profile-catalog-drift", "missing-reference")


def _refuse(code, message, path):
    raise Refusal(code, message, path=path)


def form_seed(record, now_ms):
    """The IntentSeedV1 of a seed input record (docs/spec/context-acquisition-gate.md#producing-a-seed)."""
    for key in record:
        if key not in SEED_KEYS:
            _refuse("CONTEXT_PLAN_INVALID", "a seed carries no " + key, "/seed/" + key)
    # What the record is comes first, then the intent (D-CTX-55).
    if "schemaVersion" in record and record["schemaVersion"] != "IntentSeedV1":
        _refuse("CONTEXT_PLAN_INVALID", "schemaVersion must be IntentSeedV1", "/seed/schemaVersion")
    semantic, alias = record.get("semantic"), record.get("intent")
    given = lambda v: v is not None and v != ""  # noqa: E731
    if given(semantic) and given(alias) and semantic != alias:
        _refuse("CONTEXT_INTENT_INVALID", "intent is an alias of semantic and differs from it", "/seed/intent")
    intent = semantic if given(semantic) else alias
    if not given(intent):
        _refuse("CONTEXT_INTENT_REQUIRED", "classify the message into one canonical intent", "/seed/semantic")
    if intent not in INTENTS:
        where = "/seed/semantic" if given(semantic) else "/seed/intent"
        _refuse("CONTEXT_INTENT_INVALID", "%s is not a canonical intent" % intent, where)
    # A key given as null is not given: its default applies (D-CTX-55).
    risk = record.get("riskHint")
    if risk is None:
        risk = "normal"
    if not isinstance(risk, str) or risk not in RISKS:
        _refuse("CONTEXT_PLAN_INVALID", "riskHint is normal, high or critical", "/seed/riskHint")
    confidence = record.get("confidence")
    if confidence is None:
        confidence = 1
    # A JSON number only: Python's bool is an int, and true is not a confidence (D-CTX-55).
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not (0 <= confidence <= 1):
        _refuse("CONTEXT_PLAN_INVALID", "confidence lies in [0, 1]", "/seed/confidence")
    hint = record.get("targetHint")
    if hint is not None and not isinstance(hint, str):
        _refuse("CONTEXT_PLAN_INVALID", "targetHint is a string or null", "/seed/targetHint")
    if isinstance(hint, str):
        hint = hint.strip() or None
    if hint is not None and (len(hint) > 256 or not HINT.match(hint)):
        _refuse("CONTEXT_PLAN_INVALID", "targetHint is at most 256 characters", "/seed/targetHint")
    created = record.get("createdAt")
    if created is None:
        created = format_ms(now_ms)
    elif not is_utc_timestamp(created):
        _refuse("CONTEXT_PLAN_INVALID", "createdAt is a UTC timestamp", "/seed/createdAt")
    seed = {
        "schemaVersion": "IntentSeedV1",
        "contextEpoch": None,
        "semantic": intent,
        "targetHint": hint,
        "continuationHint": record.get("continuationHint") is True,
        "riskHint": risk,
        "confidence": confidence,
        "createdAt": created,
    }
    epoch = record.get("contextEpoch")
    if epoch is None:
        epoch = "ctx-" + jcs.digest_of({"semantic": intent, "targetHint": hint, "createdAt": created})[:20]
    elif not isinstance(epoch, str) or len(epoch) > 256 or not EPOCH.match(epoch):
        _refuse("CONTEXT_PLAN_INVALID", "contextEpoch is 1-256 characters without whitespace", "/seed/contextEpoch")
    seed["contextEpoch"] = epoch
    return seed


def source_key(project, file, fragment=""):
    key = unicodedata.normalize("NFKC", "profile://%s/%s%s" % (project, file, fragment)).strip()
    return key.replace("\\", "/")


def content_identity(key, body):
    """ContentIdentityV1 of a delivered body: raw text as UTF-8 bytes, a value in its JCS form."""
    if "text" in body:
        data, version = body["text"].encode("utf-8"), body.get("contractVersion", "1")
    else:
        data, version = jcs.canonicalize(body["value"]).encode("utf-8"), body["contractVersion"]
    return {
        "schemaVersion": "ContentIdentityV1",
        "algorithm": "sha256",
        "sourceKey": key,
        "contractVersion": version,
        "digest": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
    }


def refs_of(refs):
    """The sourceRefs of a source: each with its metadataDigest, sorted by layer:path, unique; a
    modification time in whole milliseconds, truncated (D-RCP-56: a catalogue's refs, a
    PostToolUse's and a replay's liveRefs alike)."""
    out, seen = [], set()
    for r in refs:
        ref = {k: r[k] for k in ("path", "layer", "exists", "size", "mtimeMs")}
        if ref["mtimeMs"] is not None:
            ref["mtimeMs"] = math.trunc(ref["mtimeMs"])
        key = ref["layer"] + ":" + ref["path"]
        if key in seen:
            continue
        seen.add(key)
        ref["metadataDigest"] = metadata_digest(ref)
        out.append(ref)
    return utf16_sorted(out, key=lambda r: r["layer"] + ":" + r["path"])


def layers_of(refs):
    layers = []
    for r in refs:
        if r["layer"] not in layers:
            layers.append(r["layer"])
    return "+".join(layers)


def descriptor(source_id, refs, required, **fields):
    d = {"sourceId": source_id, "sourceLayer": layers_of(refs), "requiredToExist": required, "sourceRefs": refs}
    d.update(fields)
    return d


def memory_source(project, query, mandatory, code):
    refs = refs_of([{"path": "memory://%s/%s" % (project, query), "layer": "memory-query", "exists": True, "size": None, "mtimeMs": None}])
    return descriptor("memory:" + query, refs, False, kind="memory", mandatory=mandatory, authority="bounded-memory-query", reason=MEMORY_TEXT[query], reasonCode=code)


def full_read_reasons(final, seed, change_types, explicit, triggers):
    reasons = []
    if explicit:
        reasons.append("explicit-request")
    if final == "audit":
        reasons.append("audit-intent")
    if seed["confidence"] < 0.6:
        reasons.append("low-confidence")
    if "cross-service" in triggers:
        reasons.append("cross-service")
    reasons += [c for c in ("release", "security", "destructive") if c in change_types]
    return reasons


def classify(doc, final, change_types, full_reason, local, selectors):
    """Bucket, reasonCode and text of one catalogue document by the first row of CAG-026."""
    types_plus = "+".join(change_types) or "none"
    types_comma = ", ".join(change_types) or "none"
    named = doc["file"] in selectors
    if not doc["catalogued"]:
        if doc["readable"] and named:
            return "selected", "explicit-selector", "Selected explicitly although the catalogue does not list it."
        if not doc["readable"]:
            return "excluded", "excluded-metadata-only", "Found in the inventory as metadata only; it has no readable body."
        return "unclassified", "unclassified-uncatalogued", None
    if doc["kind"] == "profile-local" and not local:
        return "excluded", "excluded-local-policy", "Machine-local source; local sources were not requested."
    if not doc["readable"]:
        return "excluded", "excluded-metadata-only", "The catalogue lists it as metadata only; it has no readable body."
    if named:
        return "selected", "explicit-selector", "Selected explicitly by the user or project."
    if full_reason is not None:
        return "selected", "full-read", "Full read (%s): every readable catalogued document is selected." % full_reason
    if final != "chat" and any(t in change_types for t in doc["serves"]):
        return "selected", "intent-change-type", "Serves %s/%s." % (final, types_plus)
    if final == "chat":
        return "excluded", "excluded-no-match", "A chat message without a full read reads no Profile document."
    return "excluded", "excluded-no-match", "Serves none of the requested change types (%s)." % types_comma


def check_read_trace(trace, seed, baseline_ids):
    """PROTO-009: only the two baseline bodies may be read while planning, none before the seed."""
    created = parse_instant_ns(seed["createdAt"])
    for i, read in enumerate(trace):  # read by read, in trace order
        at = parse_instant_ns(read["readAt"])
        if at is None:
            _refuse("CONTEXT_PLAN_INVALID", "readAt is a timestamp", "/readTrace/%d/readAt" % i)
        if at < created:
            _refuse("CONTEXT_SEED_AFTER_CONTEXT_READ", "a context body was read before the seed existed", "/readTrace/%d" % i)
        if read["sourceId"] not in baseline_ids:
            _refuse("CONTEXT_HIDDEN_FULL_READ", "only the two baseline bodies are read while planning", "/readTrace/%d" % i)


def plan(params, now_ms):
    """The ContextReadPlanV2 of a context.plan request (raises Refusal)."""
    # D-CTX-57: the seed first, then the contract; any contract but V2 is a write never made.
    seed = form_seed(params["seed"], now_ms)
    if params.get("contract", "ContextReadPlanV2") != "ContextReadPlanV2":
        _refuse("CONTEXT_PLAN_V1_WRITE_FORBIDDEN", "only ContextReadPlanV2 is written", "/contract")
    # D-CTX-57: the request's own members before anything the seed or the catalogue says.
    if not HOST.match(params["host"]):
        _refuse("CONTEXT_PLAN_INVALID", "host must match ^[a-z0-9][a-z0-9._-]{0,63}$", "/host")
    planner = params.get("planner", PLANNER)
    if not PLANNER_NAME.match(planner) or len(planner) > 128:
        _refuse("CONTEXT_PLAN_INVALID", "planner must be <name>@<major>", "/planner")
    if not NONCE.match(params["invocationNonce"]):
        _refuse("CONTEXT_PLAN_INVALID", "invocationNonce must be 16-128 characters [A-Za-z0-9._:-]", "/invocationNonce")
    cat = params["catalogue"]
    project, root = cat["project"], cat["activeRoot"]
    # D-CTX-56: the seed's time, then its target hint, before the read trace and the change types.
    if now_ms < parse_instant_ns(seed["createdAt"]) // 1_000_000:
        _refuse("CONTEXT_PLAN_CHRONOLOGY_INVALID", "the seed was created after the planning time; form the seed first", "/seed/createdAt")
    if seed["targetHint"] is not None and seed["targetHint"] != project:
        _refuse("CONTEXT_ACTIVE_TARGET_MISMATCH", "the seed names another project than the catalogue; resolve the target, then plan", "/seed/targetHint")
    index, config = cat["index"], cat["config"]
    baseline_ids = ("profile:" + index["file"], "profile:" + config["file"])
    check_read_trace(params.get("readTrace", []), seed, baseline_ids)
    for t in sorted(set(params.get("triggers", []))):
        if t in DERIVED_TRIGGERS:
            _refuse("CONTEXT_ESCALATIONS_MISMATCH", "%s is derived by the planner; leave it out" % t, "/triggers")
    note = params.get("fullReadRequest")
    if note is not None and not 1 <= len(note.encode("utf-16-le")) // 2 <= 512:  # UTF-16 code units
        _refuse("CONTEXT_PLAN_INVALID", "the full-read request text must be 1-512 characters", "/fullReadRequest")
    artifacts_given = params.get("cacheArtifacts", [])
    for i, name in enumerate(artifacts_given):  # D-RCP-55, before the change types (D-CTX-57)
        if not isinstance(name, str) or len(name) > 64 or not ARTIFACT.match(name):
            _refuse("CONTEXT_PLAN_INVALID", "a cache artifact is named by 1-64 characters matching ^[a-z0-9]+(-[a-z0-9]+)*$", "/cacheArtifacts/%d" % i)
    if len(set(artifacts_given)) > 32:
        _refuse("CONTEXT_PLAN_INVALID", "a plan holds at most 32 distinct cache artifacts", "/cacheArtifacts")
    final = seed["semantic"]
    change_types = utf16_sorted(set(params.get("changeTypes", [])))
    triggers = set(params.get("triggers", []))
    note = params.get("fullReadRequest")
    local = params.get("localSourcesRequested") is True
    selectors = set(params.get("explicitSelectors", []))
    reasons = full_read_reasons(final, seed, change_types, note is not None, triggers)
    full_reason = reasons[0] if reasons else None
    if not change_types and final not in ("chat", "resume") and full_reason is None:
        _refuse("CONTEXT_CHANGE_TYPES_REQUIRED", "a %s plan that is not a full read needs change types" % final, "/changeTypes")
    files = set(d["file"] for d in cat["documents"])
    for i, f in enumerate(dict.fromkeys(params.get("explicitSelectors", []))):  # first occurrences, in order
        if f not in files:
            _refuse("CONTEXT_SOURCE_DESCRIPTOR_INVALID", "%s is not a document of the catalogue or the inventory" % f, "/explicitSelectors/%d" % i)

    baseline = []
    for part, code, authority, fragment in (("index", "baseline-readme", "lossless-plan-baseline", ""), ("config", "baseline-config", "effective-non-local-config", "#effective")):
        src = cat[part]
        refs = refs_of(src["refs"])
        frag = fragment if "value" in src["body"] else ""
        baseline.append(descriptor(
            "profile:" + src["file"], refs, True, kind="profile-baseline", mandatory=True, authority=authority,
            reason=BASELINE_TEXT[part], reasonCode=code, contentIdentity=content_identity(source_key(project, src["file"], frag), src["body"]),
        ))
    selected = [memory_source(project, "status", True, "memory-status")]
    if final == "resume":
        selected.append(memory_source(project, "session", True, "memory-session"))
        selected.append(memory_source(project, "summary", False, "memory-session"))
    excluded, unclassified = [], []
    catalogued, inventory = set(baseline_ids), set(baseline_ids)
    for doc in cat["documents"]:
        sid = "profile:" + doc["file"]
        if doc["catalogued"]:
            catalogued.add(sid)
        if doc["inventoried"]:
            inventory.add(sid)
        bucket, code, text = classify(doc, final, change_types, full_reason, local, selectors)
        refs = refs_of(doc["refs"])
        kind = doc["kind"] if doc["catalogued"] else "profile"
        authority = "profile-catalog" if doc["catalogued"] else "profile-inventory"
        if bucket == "selected":
            selected.append(descriptor(sid, refs, doc["requiredToExist"], kind=kind, mandatory=True, authority=authority, reason=text, reasonCode=code))
        elif bucket == "excluded":
            excluded.append(descriptor(sid, refs, doc["requiredToExist"], kind=kind, authority=authority, skipReason=text, reasonCode=code))
        else:
            unclassified.append(descriptor(sid, refs, doc["requiredToExist"], kind="profile", authority="profile-inventory", reasonCode=code))
    by_id = lambda s: s["sourceId"]  # noqa: E731
    doc = {
        "schemaVersion": "ContextReadPlanV2",
        "planId": None,
        "planContentId": None,
        "contextBinding": None,
        "identity": {
            "contextEpoch": seed["contextEpoch"],
            "activeRoot": root,
            "project": project,
            "host": params["host"],
            "planner": params.get("planner", PLANNER),
            "intentSeed": seed,
            "finalIntent": final,
            "invocationNonce": params["invocationNonce"],
        },
        "plannedAt": format_ms(now_ms),
        "changeTypes": change_types,
        "actionEnvelope": action_envelope(final, change_types, seed["riskHint"]),
        "baselineDigest": None,
        "candidateCoverage": {"cataloguedIds": utf16_sorted(catalogued), "inventoryIds": utf16_sorted(inventory)},
        "baselineSources": utf16_sorted(baseline, key=by_id),
        "selectedSources": utf16_sorted(selected, key=by_id),
        "mandatorySourceIds": None,
        "excludedSources": utf16_sorted(excluded, key=by_id),
        "unclassifiedSources": utf16_sorted(unclassified, key=by_id),
        "localSourcesRequested": local,
        "triggeredEscalations": None,
        "fullRead": full_reason is not None,
        "fullReadReason": full_reason,
        "fullReadNote": note,
        "exitCondition": None,
        "budget": copy.deepcopy(params.get("budget", {"bytes": None, "chars": None, "tokens": None, "latencyMs": None, "enforcement": "advisory"})),
        "planningTelemetry": None,
        "cacheDecision": None,
        "identityInputs": None,
    }
    doc["mandatorySourceIds"] = utf16_sorted(s["sourceId"] for s in doc["baselineSources"] + doc["selectedSources"] if s["mandatory"])
    derived_triggers = set()
    if seed["confidence"] < 0.6:
        derived_triggers.add("low-confidence")
    if note is not None or final == "audit":
        derived_triggers.add("explicit-full")
    derived_triggers |= {c for c in ("public-contract", "release", "security", "destructive") if c in change_types}
    if unclassified:
        derived_triggers.add("profile-catalog-drift")
    blocked_missing = missing_required(doc)
    if blocked_missing:
        derived_triggers.add("missing-reference")
    doc["triggeredEscalations"] = utf16_sorted(derived_triggers | triggers)
    fr, frr, _ = full_read(doc)
    doc["exitCondition"] = "blocked" if (unclassified or blocked_missing) else ("escalated-full" if fr else "relevant-complete")
    doc["baselineDigest"] = baseline_digest(doc)
    doc["identityInputs"] = identity_inputs(doc)
    doc["planContentId"] = "plan-content-" + jcs.digest_of(doc["identityInputs"])
    doc["planId"] = derived("plan-", {"planContentId": doc["planContentId"], "contextEpoch": seed["contextEpoch"], "invocationNonce": params["invocationNonce"]})
    doc["contextBinding"] = {
        "schemaVersion": "ContextReadBindingV1",
        "contextEpoch": seed["contextEpoch"],
        "planId": doc["planId"],
        "planContentId": doc["planContentId"],
        "activeRoot": root,
        "project": project,
    }
    artifacts = utf16_sorted(set(params.get("cacheArtifacts", [])))
    doc["cacheDecision"] = {
        "status": "hit" if artifacts else "disabled",
        "cacheKey": doc["planContentId"],
        "reasonCode": "content-identity-match" if artifacts else "no-cache-adapter",
        "reusedArtifacts": artifacts,
        "bodyDeliverySkipped": False,
    }
    canonical = jcs.canonicalize(params)
    doc["planningTelemetry"] = {"inputBytes": len(canonical.encode("utf-8")), "inputChars": len(canonical), "latencyMs": None, "inputTokens": None}
    issues = validate.judge(doc, "ContextReadPlanV2")
    if issues:
        # a broken invariant by its own code; a shape the schema refuses is CONTEXT_PLAN_INVALID
        first = next((i for i in issues if i["code"].startswith("CONTEXT_")), issues[0])
        code = first["code"] if first["code"].startswith("CONTEXT_") else "CONTEXT_PLAN_INVALID"
        _refuse(code, "the request gives no valid plan (%s at %s)" % (first["code"], first["path"]), first["path"])
    return doc
