#!/usr/bin/env python3
"""Entry point: `python3 examples/python-reference/impl.py` speaks protocol v1 on stdin/stdout.

It first makes sure it runs under a Python that imports the pinned jsonschema (agent_ref/pin.py):
the interpreter it was started with, or Debian's /usr/bin/python3, or it refuses with what to
install.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

from agent_ref import pin  # noqa: E402

if __name__ == "__main__":
    pin.launch(os.path.abspath(__file__))
    from agent_ref.main import main

    main()
