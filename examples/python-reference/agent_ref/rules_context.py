"""ContextAcquisitionGate (docs/spec/context-acquisition-gate.md): IntentSeedV1 and the plans,
receipts, bindings, reuse decisions and ledgers of the gate."""


def check_seed(doc, out):
    """IntentSeedV1: its page states no validator rule beyond the schema (its invariants are
    runtime or checked on the plan)."""


CONTRACTS = {"IntentSeedV1": check_seed}
