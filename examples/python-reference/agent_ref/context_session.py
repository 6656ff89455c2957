"""The `context.*` methods (docs/protocol.md#context-v1-capability-context): the plans a session
made and, per plan, its receipt and its observation ledger, in memory (D-GEN-62).

Malformed params are -32602 (their published schema, a `planId` that is not a string), checked
first; then the plan is looked up (CONTEXT_BINDING_PLAN_NOT_FOUND); then the engine judges the
request. Nothing is recorded by a refused request.
"""

from . import context_plan, jcs, protocol_schema
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


def install(server):
    """Wire the context methods; `context` is declared in hello only once every method exists."""
    engine = ContextEngine(server.clock)
    server.add_area("context", {"context.plan": engine.plan})
    return engine
