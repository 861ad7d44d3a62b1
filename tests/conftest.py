"""Test configuration shared by the whole suite."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles: "default" for the everyday run (derandomized, so a CI run is
# reproducible), "thorough" for `nox -s slow` (random, ten times more examples).
settings.register_profile(
    "default",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("ASSAY_HYPOTHESIS_PROFILE", "default"))


# With NUMBA_DISABLE_JIT=1 the kernels run as plain Python, where wrapping uint64 arithmetic
# on NumPy scalars (the random streams' SplitMix64 steps and hashes) emits "overflow
# encountered in scalar add/multiply/..." RuntimeWarnings that compiled code never raises.
# The ini's `error` filter would turn them into failures, so every test ignores exactly
# these warnings in that mode (a mark takes precedence over the ini filters), also when
# a caller re-raises them with a prefix (the report names the model: "model 'a': ...").
_JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
if _JIT_DISABLED:
    # The Python processes a test starts (the command line, a child of the isolation
    # helpers) inherit NUMBA_DISABLE_JIT: they get the same NumPy error state as the tests
    # here (see `_compiled_float_semantics`) from a `sitecustomize` module that Python
    # imports at start-up from a directory put first on their PYTHONPATH.
    _CHILD_SETUP = Path(tempfile.mkdtemp(prefix="assay-nojit-"))
    atexit.register(shutil.rmtree, _CHILD_SETUP, ignore_errors=True)
    (_CHILD_SETUP / "sitecustomize.py").write_text(
        "import numpy\nnumpy.seterr(over='ignore', divide='ignore', invalid='ignore')\n"
    )
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(_CHILD_SETUP), *filter(None, [os.environ.get("PYTHONPATH")])]
    )


@pytest.fixture(autouse=True)
def _compiled_float_semantics() -> Iterator[None]:
    """With the JIT off, NumPy's scalar arithmetic as the compiled kernels do it: no
    warning for wrapping integers or for a float division by zero (compiled with
    ``error_model="numpy"`` they give the IEEE result silently), so that a test recording
    warnings sees only assay's own.  A no-op when the kernels are compiled.  (NumPy's
    error state is a context variable: the worker threads of a resampling call run in a
    copy of the caller's context, see ``assay._kernels._jit.run_workers``.)"""
    if not _JIT_DISABLED:
        yield
        return
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _JIT_DISABLED:
        return
    ignore_wrapping = pytest.mark.filterwarnings(
        "ignore:.*overflow encountered in scalar:RuntimeWarning"
    )
    for item in items:
        item.add_marker(ignore_wrapping)
