"""The optional capabilities `run`, `policy` and `delegation` (docs/protocol.md, PROTO-600)."""

from . import delegation, policy, run


def install(server):
    run.install(server)
    policy.install(server)
    delegation.install(server)
