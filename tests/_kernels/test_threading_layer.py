"""Parallel kernels in any host process: after fork, in fork pools, from several threads.

Each scenario runs in a fresh interpreter (Numba picks its threading layer once per
process, and a failure here is a killed or hung process, which must not take pytest with
it). The values computed there must equal the same calls made plainly in this process:
bootstrap replicates (of a confusion-matrix metric, whose cells are drawn in a parallel
kernel) are bit-identical for any thread count and any threading layer.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata

import numpy as np
import pytest

import assay

from ._isolated import IN_FORKED_CHILD, WITHOUT_TBB, last_json_line, run_python

pytestmark = [
    pytest.mark.skipif(
        os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"),
        reason="no threading layer without compilation",
    ),
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork"),
]


def _tbb_installed() -> bool:
    try:
        metadata.distribution("tbb")
    except metadata.PackageNotFoundError:
        return False
    return True


needs_tbb = pytest.mark.skipif(not _tbb_installed(), reason="the tbb package is not installed")

# The layers a process can end up with: assay's own choice (tbb where installed),
# assay's fallback when no TBB library loads, and workqueue forced by the user.
LAYER_SETUPS = {
    "assay's choice": ("", {}),
    "no tbb available": (WITHOUT_TBB, {}),
    "workqueue forced": ("", {"NUMBA_THREADING_LAYER": "workqueue"}),
}

DATA = """
import json, os, sys, threading, warnings
import numpy as np

rng = np.random.default_rng(20240611)
y_true = rng.integers(0, 2, {n})
y_pred = (rng.random({n}) + 0.4 * y_true >= 0.7).astype(np.int64)

import numba
import assay

# the bootstrap of a confusion-matrix metric draws its cells in a parallel kernel at any
# size, which starts the threading layer (the resampling of ranking metrics runs its
# serial kernel on Python threads and starts no layer)


def replicates(seed):
    result = assay.bootstrap(
        assay.f1_score, y_true, y_pred, n_resamples={n_resamples}, rng=seed
    )
    return result.bootstrap_distribution.tolist()
"""


def data(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The data of ``DATA`` (same generator, same seed)."""
    rng = np.random.default_rng(20240611)
    y_true = rng.integers(0, 2, n)
    y_pred = (rng.random(n) + 0.4 * y_true >= 0.7).astype(np.int64)
    return y_true, y_pred


def plain_replicates(n: int, n_resamples: int, seed: int) -> list[float]:
    y_true, y_pred = data(n)
    result = assay.bootstrap(assay.f1_score, y_true, y_pred, n_resamples=n_resamples, rng=seed)
    return list(result.bootstrap_distribution.tolist())


def snippet(setup: str, body: str, *, n: int, n_resamples: int) -> str:
    return setup + DATA.format(n=n, n_resamples=n_resamples) + body


FORK_AFTER_KERNEL = (
    IN_FORKED_CHILD
    + """
warnings.simplefilter("ignore", assay.ThreadingLayerWarning)  # the fallback says so once
before = replicates(11)
exit_code, child = in_forked_child(lambda: replicates(11))  # the child calls assay again
print(json.dumps({
    "layer": numba.threading_layer(),
    "child_exit_code": exit_code,
    "before": before,
    "child": child,
}))
"""
)


@pytest.mark.parametrize("setup", LAYER_SETUPS, ids=list(LAYER_SETUPS))
def test_a_child_forked_after_a_parallel_kernel_computes_the_same_value(setup) -> None:
    code, environment = LAYER_SETUPS[setup]
    process = run_python(
        snippet(code, FORK_AFTER_KERNEL, n=3000, n_resamples=200), environment=environment
    )
    report = last_json_line(process)
    assert report["child_exit_code"] == 0, process.stderr
    expected = plain_replicates(3000, 200, 11)
    assert report["before"] == expected
    assert report["child"] == expected


FORK_POOL = """
import multiprocessing

warnings.simplefilter("ignore", assay.ThreadingLayerWarning)
first = replicates(21)  # a parallel kernel runs in the parent before the pool forks
with multiprocessing.get_context("fork").Pool(2) as pool:
    # a hung pool fails the test here, in seconds, instead of blocking it
    results = pool.map_async(replicates, [22, 23, 24]).get(timeout=180)
print(json.dumps({"layer": numba.threading_layer(), "first": first, "pool": results}))
"""


@pytest.mark.parametrize("setup", ["assay's choice", "no tbb available"])
def test_a_fork_pool_after_a_parallel_kernel_computes_the_same_values(setup) -> None:
    code, environment = LAYER_SETUPS[setup]
    report = last_json_line(
        run_python(snippet(code, FORK_POOL, n=3000, n_resamples=200), environment=environment)
    )
    assert report["first"] == plain_replicates(3000, 200, 21)
    assert report["pool"] == [plain_replicates(3000, 200, seed) for seed in (22, 23, 24)]


THREADS = """
warnings.simplefilter("ignore", assay.ThreadingLayerWarning)
replicates(0)  # compile or load the kernels once, before the threads race
start = threading.Barrier(4)
results = {}

def work(seed):
    start.wait()
    for _ in range(3):  # several rounds, so that the calls overlap
        results[seed] = replicates(seed)

threads = [threading.Thread(target=work, args=(seed,)) for seed in (31, 32, 33, 34)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({"layer": numba.threading_layer(), "results": results}))
"""


@pytest.mark.parametrize("setup", LAYER_SETUPS, ids=list(LAYER_SETUPS))
def test_four_threads_calling_bootstrap_at_once_get_the_plain_values(setup) -> None:
    code, environment = LAYER_SETUPS[setup]
    report = last_json_line(
        run_python(snippet(code, THREADS, n=20_000, n_resamples=300), environment=environment)
    )
    if setup != "assay's choice":
        assert report["layer"] == "workqueue"  # the layer that cannot run two at once
    expected = {str(seed): plain_replicates(20_000, 300, seed) for seed in (31, 32, 33, 34)}
    assert report["results"] == expected


LAYER_AND_WARNINGS = """
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    replicates(41)  # the first parallel call: the layer starts here
    replicates(42)
print(json.dumps({
    "layer": numba.threading_layer(),
    "warnings": [
        [w.category.__name__, str(w.message), os.path.basename(w.filename)] for w in caught
    ],
}))
"""


def layer_report(code: str, environment: dict[str, str]) -> dict:
    return dict(
        last_json_line(
            run_python(
                snippet(code, LAYER_AND_WARNINGS, n=500, n_resamples=50),
                environment=environment,
            )
        )
    )


@needs_tbb
def test_assay_chooses_tbb_when_the_tbb_package_is_installed() -> None:
    report = layer_report("", {})
    assert report["layer"] == "tbb"
    assert report["warnings"] == []


def test_without_tbb_the_fallback_is_workqueue_with_one_warning_at_the_user_line() -> None:
    report = layer_report(WITHOUT_TBB, {})
    assert report["layer"] == "workqueue"
    assert len(report["warnings"]) == 1
    category, message, filename = report["warnings"][0]
    assert category == "ThreadingLayerWarning"
    assert "tbb library is not available" in message and "take turns" in message
    assert filename == "<string>"  # the snippet's own line, not a line inside assay


@pytest.mark.parametrize(
    "environment", [{"NUMBA_THREADING_LAYER": "workqueue"}, {"NUMBA_THREADING_LAYER": "WorkQueue"}]
)
def test_a_forced_workqueue_layer_is_respected_without_a_warning(environment) -> None:
    report = layer_report("", environment)
    assert report["layer"] == "workqueue"
    assert report["warnings"] == []


def test_a_layer_set_in_numba_config_before_import_is_respected() -> None:
    setup = "import numba\nnumba.config.THREADING_LAYER = 'workqueue'\n"
    report = layer_report(setup, {})
    assert report["layer"] == "workqueue"
    assert report["warnings"] == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="GNU OpenMP is Linux's")
def test_a_forced_gnu_openmp_layer_is_respected_with_a_fork_warning() -> None:
    report = layer_report("", {"NUMBA_THREADING_LAYER": "omp"})
    assert report["layer"] == "omp"
    assert [w[0] for w in report["warnings"]] == ["ThreadingLayerWarning"]
    assert "kills a child process that forks" in report["warnings"][0][1]


STARTED_BEFORE_IMPORT = """
import numba

numba.config.THREADING_LAYER = "workqueue"


@numba.njit(parallel=True)
def user_kernel(n):
    total = 0
    for i in numba.prange(n):
        total += i
    return total


user_kernel(10)  # the host's own parallel code starts the layer before assay is imported
numba.config.THREADING_LAYER = "default"  # too late to change anything
"""


def test_a_layer_started_before_import_is_kept_and_serialised_with_a_warning() -> None:
    body = THREADS.replace(
        'warnings.simplefilter("ignore", assay.ThreadingLayerWarning)',
        'warnings.simplefilter("always", assay.ThreadingLayerWarning)',
    )
    process = run_python(
        snippet(STARTED_BEFORE_IMPORT, body, n=20_000, n_resamples=300),
        warnings_as_errors=False,
    )
    report = last_json_line(process)
    assert report["layer"] == "workqueue"
    expected = {str(seed): plain_replicates(20_000, 300, seed) for seed in (31, 32, 33, 34)}
    assert report["results"] == expected
    assert process.stderr.count("ThreadingLayerWarning") == 1
