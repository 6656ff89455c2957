"""The published contract schemas of this repository (schemas/contracts): which contracts exist.
Standard library only, so `hello` and the rule modules need no JSON Schema library."""

import os
import re

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "contracts")


def known(contract):
    return isinstance(contract, str) and re.fullmatch(r"[A-Za-z0-9]+", contract) is not None and os.path.isfile(
        os.path.join(SCHEMA_DIR, contract + ".schema.json")
    )


def contracts():
    return sorted(f[: -len(".schema.json")] for f in os.listdir(SCHEMA_DIR) if f.endswith(".schema.json"))
