"""The pinned JSON Schema library: jsonschema 4.10.3, the version Debian 12 ships.

The schema layer of `validate` is jsonschema (the maintained Python implementation of JSON
Schema). A result may depend on the library's version, so this implementation runs with exactly
one: `impl.py` starts under the interpreter it was given when that one imports jsonschema 4.10.3,
otherwise under the first of `AGENT_REF_PYTHON` and Debian's `/usr/bin/python3` that does, and
otherwise refuses to start with what to install. Standard library only: it runs before the
library is known to be there.
"""

import os
import subprocess
import sys

PINNED = "4.10.3"
CANDIDATES = ("/usr/bin/python3",)
HOW = (
    "install it with `apt-get install python3-jsonschema` (Debian 12 ships 4.10.3, for /usr/bin/python3) "
    "or `pip install jsonschema==%s`" % PINNED
)


def installed_version():
    """The jsonschema version this interpreter imports, or None."""
    try:
        import jsonschema  # noqa: F401
        from importlib.metadata import version

        return version("jsonschema")
    except Exception:
        return None


def _version_of(python):
    probe = "import jsonschema; from importlib.metadata import version; print(version('jsonschema'))"
    try:
        r = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def find_python():
    """(interpreter to run, None) when one has the pinned version, else (None, refusal text)."""
    here = installed_version()
    if here == PINNED:
        return sys.executable, None
    seen = {os.path.realpath(sys.executable)}
    found = []
    for python in [os.environ.get("AGENT_REF_PYTHON")] + list(CANDIDATES):
        if not python or os.path.realpath(python) in seen or not os.access(python, os.X_OK):
            continue
        seen.add(os.path.realpath(python))
        v = _version_of(python)
        if v == PINNED:
            return python, None
        if v:
            found.append("%s in %s" % (v, python))
    if here:
        found.insert(0, "%s in %s" % (here, sys.executable))
    what = ("found jsonschema " + ", ".join(found)) if found else "no Python here imports jsonschema"
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
    if python == sys.executable:
        return
    os.execv(python, [python, script] + sys.argv[1:])
