"""The `context.*` methods (docs/protocol.md#context-v1-capability-context): the plans a session
made and, per plan, its receipt and its observation ledger, in memory (D-GEN-62).

Malformed params are -32602 (their published schema, a `planId` that is not a string), checked
first; then the plan is looked up (CONTEXT_BINDING_PLAN_NOT_FOUND); then the engine judges the
request. Nothing is recorded by a refused request.
"""

from . import context_ledger, context_plan, context_receipt, context_reuse, jcs, protocol_schema
from .clock import format_ms
from .errors import InvalidParams, Refusal


class ContextState:
    def __init__(self):
        self.plans = {}  # planId -> {"plan": ContextReadPlanV2, "receipt": V2 receipt or None, "ledger": ledger or None}


def well_formed(params, schema, method):
    if "planId" in params and not isinstance(params["planId"], str):
        raise InvalidParams(method + ": planId must be a string")
    protocol_schema.require(schema, params, method)
    if jcs.has_lone_surrogate(params):
        raise InvalidParams(method + ": a string of the params has a lone surrogate (no digest)")


def lookup(state, plan_id):
    entry = state.plans.get(plan_id)
    if entry is None:
        raise Refusal("CONTEXT_BINDING_PLAN_NOT_FOUND", "this session made no plan " + plan_id, path="/planId")
    return entry


class ContextEngine:
    def __init__(self, clock):
        self.clock = clock
        self.state = ContextState()

    def plan(self, params):
        well_formed(params, "ContextPlanParams", "context.plan")
        doc = context_plan.plan(params, self.clock.now_ms())
        self.state.plans[doc["planId"]] = {"plan": doc, "receipt": None, "ledger": None}
        return doc

    def receipt(self, params):
        well_formed(params, "ContextReceiptParams", "context.receipt")
        entry = lookup(self.state, params["planId"])
        if "open" not in params:
            if entry["receipt"] is None:
                raise Refusal("CONTEXT_BINDING_REQUIRED", "the plan has no open receipt: open it first", path="/planId")
            return entry["receipt"]
        if entry["receipt"] is not None:
            raise Refusal("CONTEXT_RECEIPT_STATUS_TRANSITION_INVALID", "the plan's receipt is open already", path="/open")
        entry["receipt"] = context_receipt.open_receipt(entry["plan"], params["open"], format_ms(self.clock.now_ms()))
        return entry["receipt"]

    def observe(self, params):
        well_formed(params, "ContextObserveParams", "context.observe")
        entry = lookup(self.state, params["planId"])
        receipt, changed = context_receipt.observe(entry["plan"], entry["receipt"], params["event"], format_ms(self.clock.now_ms()))
        entry["receipt"] = receipt
        return {"receipt": receipt, "changed": changed}

    def reuse(self, params):
        return context_reuse.reuse(self.state, params, format_ms(self.clock.now_ms()))

    def ledger(self, params):
        return context_ledger.ledger(self.state, params, format_ms(self.clock.now_ms()))


def install(server):
    """Wire the context methods; `context` is declared in hello only once every method exists."""
    engine = ContextEngine(server.clock)
    server.add_area("context", {"context.plan": engine.plan, "context.receipt": engine.receipt, "context.observe": engine.observe,
                                   "context.reuse": engine.reuse, "context.ledger": engine.ledger})
    return engine
