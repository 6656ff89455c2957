"""The optional capabilities `run`, `policy`, `delegation` and `context` (docs/protocol.md, PROTO-600)."""

from . import context_session, delegation, policy, run


def install(server):
    run.install(server)
    policy.install(server)
    delegation.install(server)
    context_session.install(server)
