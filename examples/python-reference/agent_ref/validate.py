"""`validate` and `validateBundle` (docs/protocol.md#validate-v1, docs/rules.md).

A document is judged in layers (docs/spec/index.md#schema-failures, rule 4): the document codes,
then its contract's published schema (agent_ref/validate_schema.py); a schema-valid document
then meets the digest and semantic rules of its gate page, one module per page (RULE_MODULES).
`hello` declares exactly the contracts and bundle kinds those modules implement.
"""

from . import rules_architecture, rules_capability_domain, rules_context, rules_context_memory, rules_context_chain, rules_context_plan, rules_delegation, rules_evaluation, rules_evidence_matrix, rules_repair, rules_routing, rules_permission, rules_run_control, rules_task_continuity, rules_task_contract, rules_tool_permission, rules_trace, rules_turn_liveness
from .catalogue import contracts as catalogue_contracts
from .catalogue import known
from .errors import InvalidParams
from .rulekit import Issues

# One module per gate page; each has CONTRACTS {name: check(doc, out)} and BUNDLES
# {kind: check(documents, out, judge)}.
RULE_MODULES = (rules_task_contract, rules_run_control, rules_permission, rules_delegation, rules_tool_permission, rules_evaluation, rules_evidence_matrix, rules_repair, rules_routing, rules_context, rules_context_plan, rules_context_chain, rules_context_memory, rules_capability_domain, rules_architecture, rules_task_continuity, rules_turn_liveness, rules_trace)


def _registry():
    """Contracts and bundle kinds; a kind is offered only when every contract its documents may
    be (BUNDLE_NEEDS, default: those of its own module; "*": any contract) has its rules."""
    contracts, bundles, needs = {}, {}, {}
    for module in RULE_MODULES:
        contracts.update(getattr(module, "CONTRACTS", {}))
        for kind, check in getattr(module, "BUNDLES", {}).items():
            bundles[kind] = check
            needs[kind] = getattr(module, "BUNDLE_NEEDS", {}).get(kind, tuple(getattr(module, "CONTRACTS", {})))
    every = catalogue_contracts()
    ready = {k: c for k, c in bundles.items() if all(n in contracts for n in (every if needs[k] == "*" else needs[k]))}
    return contracts, ready


CHECKS, BUNDLE_CHECKS = _registry()


def judge(document, contract=None, base=""):
    """The issues of one document, paths under `base`."""
    out = Issues(base)
    try:
        _judge(document, contract, out)
    except RecursionError:
        out.add("DOCUMENT_TOO_DEEP", "")
    return out.items


def _judge(document, contract, out):
    if contract is None:
        if not isinstance(document, dict):
            out.add("DOCUMENT_NOT_OBJECT", "")
            return
        if "schemaVersion" not in document:
            out.add("SCHEMA_VERSION_MISSING", "")
            return
        contract = document["schemaVersion"]
        if not known(contract):
            out.add("SCHEMA_VERSION_UNKNOWN", "/schemaVersion")
            return
    if contract not in CHECKS:
        out.add("CONTRACT_NOT_SUPPORTED", "/schemaVersion" if isinstance(document, dict) else "")
        return
    from . import validate_schema  # jsonschema is loaded by the first document judged, not by hello

    schema_issues = validate_schema.issues(contract, document, out.base)
    if schema_issues:
        out.extend(schema_issues)
        return
    try:
        CHECKS[contract](document, out)
    except RecursionError:
        raise
    except Exception as e:  # a bug of ours judged as one, never as a verdict on the document
        import sys
        import traceback

        print("RULE_FAILED in %s: %r" % (contract, e), file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        out.add("RULE_FAILED", "")


def _result(issues):
    return {"ok": not issues, "issues": issues}


def validate(params):
    contract = params.get("contract")
    if contract is not None and not isinstance(contract, str):
        raise InvalidParams("validate: params.contract must be a contract name")
    if "document" not in params:
        raise InvalidParams("validate: params.document is required")
    if contract is not None and not known(contract):
        return _result([{"code": "SCHEMA_VERSION_UNKNOWN", "path": "/schemaVersion"}])
    return _result(judge(params["document"], contract))


def validate_bundle(params):
    kind, documents = params.get("kind"), params.get("documents")
    if not isinstance(kind, str) or not isinstance(documents, list) or not documents:
        return _result([{"code": "BUNDLE_INVALID", "path": ""}])
    check = BUNDLE_CHECKS.get(kind)
    if check is None:
        return _result([{"code": "BUNDLE_KIND_UNKNOWN", "path": "/kind"}])
    out = Issues()

    def judge_one(i, contract=None):
        """Judge documents[i] on its own (paths /documents/i/...); True when it is valid."""
        issues = judge(documents[i], contract, "/documents/%d" % i)
        out.extend(issues)
        return not issues

    try:
        check(documents, out, judge_one)
    except RecursionError:
        out.add("DOCUMENT_TOO_DEEP", "")
    return _result(out.items)


def install(server):
    server.methods.update({"validate": validate, "validateBundle": validate_bundle})
    server.contracts = sorted(CHECKS)
    server.bundles = sorted(BUNDLE_CHECKS)
