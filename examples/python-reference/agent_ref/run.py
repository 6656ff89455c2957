"""run.step (capability `run`): docs/protocol.md#runstep-v1-capability-run.

Stateless: the harness passes the state the previous step returned. The event's shape is the
published params schema's (schemas/protocol/RunStepParams.schema.json); a malformed event is
-32602, a state with any issue `validate` reports (agent_ref/rules_run_control.py) RUN_STATE_INVALID, then the controller judges the event.
"""

from . import protocol_schema, validate
from .errors import InvalidParams
from .run_control import refuse, step

MAX_ISSUES = 64  # RunRefusalData.issues


def run_step(clock):
    def method(params):
        if "state" not in params or "event" not in params or set(params) - {"state", "event"}:
            raise InvalidParams("run.step: params are { state, event }")
        event = params["event"]
        protocol_schema.require("RunStepParams", event, "run.step",
                                protocol_schema.load("RunStepParams")["properties"]["event"])
        state = params["state"]
        if state is not None:
            found = validate.judge(state, "RunStateV1")[:MAX_ISSUES]
            if found:
                r = refuse("RUN_STATE_INVALID", "the state is not a valid RunStateV1")
                r.data["issues"] = found
                raise r
        return step(state, event, clock.now_ms())

    return method


def install(server):
    server.add_area("run", {"run.step": run_step(server.clock)})
