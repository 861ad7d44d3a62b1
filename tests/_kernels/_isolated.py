"""Run a Python snippet in a fresh interpreter, so that a crash or a hang cannot take pytest
down with it, and a process-wide choice (Numba's threading layer, its cache folder) is made
anew."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import assay

# The folder that holds the `assay` package under test (src/ of the checkout, or
# site-packages): put first on the child's path so that it imports the same code.
PACKAGE_PARENT = Path(assay.__file__).resolve().parent.parent

# A cold process compiles the kernels it calls; on a loaded two-core machine that can take
# a few minutes. A process that hangs is killed after this long and its test fails.
PROCESS_TIMEOUT_SECONDS = 900

# Numba decides its threading layer from these; a test chooses them explicitly.
_LAYER_VARIABLES = ("NUMBA_THREADING_LAYER", "NUMBA_THREADING_LAYER_PRIORITY")

# Makes Numba see no usable TBB library, as on a platform without tbb wheels (Linux on
# ARM, macOS on ARM): the same check Numba runs before it loads its tbb layer fails.
WITHOUT_TBB = """
from numba.np.ufunc import parallel as _numba_parallel

def _no_tbb():
    raise ImportError("no TBB on this platform (simulated by the test)")

_numba_parallel._check_tbb_version_compatible = _no_tbb
"""

# Defines ``compiled`` in a snippet, and ``record_compilations()``, after which the
# qualified name of every function Numba compiles is appended to ``compiled``.
RECORD_COMPILATIONS = """
from numba.core import event as _event

compiled = []


class _Listener(_event.Listener):
    def on_start(self, happened):
        pass

    def on_end(self, happened):
        dispatcher = (happened.data or {}).get("dispatcher")
        compiled.append(getattr(getattr(dispatcher, "py_func", None), "__qualname__", "?"))


def record_compilations():
    _event.register("numba:compile", _Listener())
"""

# Defines ``in_forked_child(call)`` in a snippet: ``call()`` in a child forked from the
# snippet's process, which reports its JSON result through a pipe and leaves without
# cleanup; returns the child's exit code and its result (None if it reported nothing).
IN_FORKED_CHILD = """
import json as _json, os as _os

def in_forked_child(call):
    read_end, write_end = _os.pipe()
    pid = _os.fork()
    if pid == 0:
        _os.close(read_end)
        with _os.fdopen(write_end, "w") as pipe:
            pipe.write(_json.dumps(call()))
        _os._exit(0)
    _os.close(write_end)
    with _os.fdopen(read_end) as pipe:
        from_child = pipe.read()
    _, status = _os.waitpid(pid, 0)
    return _os.waitstatus_to_exitcode(status), _json.loads(from_child) if from_child else None
"""


def run_python(
    code: str,
    *,
    environment: dict[str, str] | None = None,
    package_parent: Path = PACKAGE_PARENT,
    warnings_as_errors: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` (dedented) in a new interpreter; returns the completed process."""
    env = {key: value for key, value in os.environ.items() if key not in _LAYER_VARIABLES}
    env.update(environment or {})
    env["PYTHONPATH"] = os.pathsep.join(
        [str(package_parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    options = ["-W", "error"] if warnings_as_errors else []
    return subprocess.run(
        [sys.executable, *options, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=PROCESS_TIMEOUT_SECONDS,
        check=False,
    )


def last_json_line(process: subprocess.CompletedProcess[str]) -> Any:
    """The JSON document the snippet printed last, after checking it exited cleanly."""
    assert process.returncode == 0, (
        f"exit status {process.returncode}\nstdout:\n{process.stdout}\nstderr:\n{process.stderr}"
    )
    return json.loads(process.stdout.strip().splitlines()[-1])
