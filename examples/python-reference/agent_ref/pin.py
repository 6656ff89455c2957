"""The pinned JSON Schema library: jsonschema 4.10.3, the version Debian 12 ships.

The schema layer of `validate` is jsonschema (the maintained Python implementation of JSON
Schema). A result may depend on the library's version, so this implementation runs with exactly
one: `impl.py` runs under the interpreter it was given when that one has jsonschema 4.10.3,
otherwise re-executes itself under the next of `AGENT_REF_PYTHON` and Debian's `/usr/bin/python3`,
and when none has it refuses to start with the versions it found and what to install. The check
reads the installed package's metadata (jsonschema itself is imported by the first `validate`),
and no interpreter is started just to ask. Standard library only: it runs before the library is
known to be there.
"""

import os
import sys

PINNED = "4.10.3"
CANDIDATES = ("/usr/bin/python3",)
HOW = (
    "install it with `apt-get install python3-jsonschema` (Debian 12 ships 4.10.3, for /usr/bin/python3) "
    "or `pip install jsonschema==%s`" % PINNED
)
SEEN = "AGENT_REF_PIN_SEEN"  # interpreters tried so far, "path=version;..." (set across exec)


def installed_version():
    """The jsonschema version this interpreter would import, or None."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:
        return None
    try:
        return version("jsonschema")
    except PackageNotFoundError:
        return None


def _seen():
    out = []
    for item in filter(None, os.environ.get(SEEN, "").split(";")):
        path, _, v = item.partition("=")
        out.append((path, v or None))
    return out


def find_python():
    """(None, None) to run here, (interpreter, None) to re-execute under, or (None, refusal text)."""
    here = installed_version()
    if here == PINNED:
        return None, None
    seen = _seen() + [(sys.executable, here)]
    tried = {os.path.realpath(p) for p, _ in seen}
    for python in [os.environ.get("AGENT_REF_PYTHON")] + list(CANDIDATES):
        if python and os.access(python, os.X_OK) and os.path.realpath(python) not in tried:
            os.environ[SEEN] = ";".join("%s=%s" % (p, v or "") for p, v in seen)
            return python, None
    found = ["%s in %s" % (v, p) for p, v in seen if v]
    what = ("found jsonschema " + ", ".join(found)) if found else "no Python here has jsonschema"
    return None, (
        "python-reference: JSON_SCHEMA_LIBRARY_MISSING: the schema layer needs jsonschema %s (%s); %s, "
        "or name a Python that has it in AGENT_REF_PYTHON." % (PINNED, what, HOW)
    )


def launch(script):
    """Re-execute `script` under a Python with the pinned jsonschema, or exit 3 with the reason."""
    python, refusal = find_python()
    if refusal:
        sys.stderr.write(refusal + "\n")
        sys.stderr.flush()
        sys.exit(3)
    if python is None:
        os.environ.pop(SEEN, None)
        return
    os.execv(python, [python, script] + sys.argv[1:])
