#!/usr/bin/env python3
"""Entry point: `python3 examples/python-reference/impl.py` speaks protocol v1 on stdin/stdout."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True

from agent_ref.main import main  # noqa: E402

if __name__ == "__main__":
    main()
