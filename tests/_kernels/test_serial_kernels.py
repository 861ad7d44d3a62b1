"""A resampling call of a ranking metric runs one serial kernel: on the calling thread
alone for a small call, on several Python threads (each its share of the replicates) for a
large one, with the same values bit for bit.

Below :data:`assay._kernels._jit.PARALLEL_MIN_WORK` the streamed bootstrap, the paired
bootstrap and the permutations of ranking metrics start no thread at all.  Every thread
computes replicate ``r`` by the same function from the stream keyed by ``r``, so the
values on one thread must equal those on any number of threads.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import assay
from assay._kernels import _jit, paired, resample, streaming
from assay._kernels.scans.average_precision import AveragePrecision
from assay._kernels.scans.partial_roc_auc import PartialRocAuc
from assay._kernels.scans.pr_auc_interpolated import PrAucInterpolated
from assay._kernels.scans.roc_auc import RocAuc
from assay.datasets import binormal_scores
from assay.resampling import _plans
from tests._kernels._isolated import IN_FORKED_CHILD, last_json_line, run_python

# 6000 rows: one full block of 4096 atoms and a partial one; 13 replicates leave the
# threads unequal shares (and the lanes a last batch of five)
N_ROWS = 6000
N_REPLICATES = 13
THREAD_COUNTS = (2, 3)


def _scores(tied: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, strong = binormal_scores(N_ROWS, auc=0.8, rng=11)
    weak = strong + np.random.default_rng(12).normal(scale=0.5, size=N_ROWS)
    if tied:  # tie cells of several rows
        strong, weak = np.round(strong, 1), np.round(weak, 1)
    return y, strong, weak


def _bits(values: np.ndarray) -> list[str]:
    return [float(value).hex() for value in values]  # NaN compares equal as text


@pytest.mark.parametrize(
    ("options", "scheme", "tied", "clustered"),
    [
        (RocAuc(), resample.MULTINOMIAL, False, False),
        (RocAuc(), resample.STRATIFIED, True, False),
        (RocAuc(), resample.POISSON, True, False),
        (RocAuc(), resample.MULTINOMIAL, False, True),
        (PartialRocAuc(0.3), resample.MULTINOMIAL, True, False),  # records its groups
        (PrAucInterpolated(), resample.MULTINOMIAL, False, False),  # below pass, backward
    ],
)
def test_the_serial_bootstrap_kernel_gives_the_parallel_values(options, scheme, tied, clustered):
    y, scores, _ = _scores(tied)
    groups = np.random.default_rng(13).integers(0, 300, N_ROWS) if clustered else None
    plan = _plans.stream_plan(
        y, scores, pos_label=None, sample_weight=None,
        clusters=_plans.cluster_codes(groups, N_ROWS), keyed=scheme == resample.POISSON,
    )  # fmt: skip
    draw = resample.Draw(scheme, np.uint64(2024), 5)
    serial = np.empty(N_REPLICATES)
    streaming.bootstrap_ranking(plan.atoms, plan.clusters, options, draw, serial, 1)
    assert np.count_nonzero(np.isfinite(serial)) == N_REPLICATES
    for workers in THREAD_COUNTS:
        parallel = np.empty(N_REPLICATES)
        streaming.bootstrap_ranking(plan.atoms, plan.clusters, options, draw, parallel, workers)
        assert _bits(parallel) == _bits(serial), workers
    # and each is the replicate traced alone
    value, _ = streaming.traced_replicate(plan.atoms, plan.clusters, options, draw)
    assert float(value).hex() == float(serial[0]).hex()


@pytest.mark.parametrize(
    ("options", "scheme"),
    [
        (RocAuc(), resample.MULTINOMIAL),
        (RocAuc(), resample.STRATIFIED),
        (AveragePrecision(), resample.POISSON),
        (PartialRocAuc(0.3), resample.MULTINOMIAL),  # one by one: it records its groups
    ],
)
def test_the_serial_paired_kernels_give_the_parallel_values(options, scheme):
    y, a, b = _scores(tied=True)
    plan = _plans.paired_stream_plan(
        y, a, b, pos_label=None, sample_weight=None, clusters=None,
        keyed=scheme == resample.POISSON,
    )  # fmt: skip
    draw = resample.Draw(scheme, np.uint64(2025), 2)
    arguments = (plan.a, plan.b, plan.a_position_of_b, plan.clusters, options, draw)
    kernels = [streaming.paired_bootstrap_ranking]
    if not isinstance(options, PartialRocAuc):
        kernels.append(paired.paired_bootstrap_lanes)
    expected = None
    for kernel in kernels:
        for workers in (1, *THREAD_COUNTS):
            out_a, out_b = np.empty(N_REPLICATES), np.empty(N_REPLICATES)
            kernel(*arguments, out_a, out_b, workers)
            found = (_bits(out_a), _bits(out_b))
            expected = expected or found
            assert found == expected, (kernel.__name__, workers)


def _resampling_calls(y, scores, other) -> dict[str, np.ndarray]:
    """The replicates of the four ranking paths (one thread or several, by their size)."""
    keywords = {"n_resamples": 20, "rng": 3}
    return {
        "bootstrap": assay.bootstrap(
            assay.roc_auc_score, y, scores, **keywords
        ).bootstrap_distribution,
        "compare": assay.compare(
            assay.roc_auc_score, y, scores, other, **keywords
        ).resampled_differences,
        "compare permutation": assay.compare(
            assay.roc_auc_score, y, scores, other, method="permutation", **keywords
        ).resampled_differences,
        "permutation": assay.permutation_test(
            assay.roc_auc_score, y, scores, **keywords
        ).null_distribution,
    }


def test_a_small_call_runs_one_worker_and_a_large_one_several(monkeypatch):
    y, scores, other = _scores(tied=False)
    calls = []

    def spy(kernel, arguments, workers, *scratch):
        calls.append((kernel.__name__, workers))
        return _jit.run_workers(kernel, arguments, workers, *scratch)

    for module in (streaming, paired):
        monkeypatch.setattr(module, "run_workers", spy)
    assert N_ROWS * 20 * 3 < _jit.PARALLEL_MIN_WORK  # the largest work of the four calls
    expected = _resampling_calls(y, scores, other)
    assert len(calls) == 4
    assert {workers for _, workers in calls} == {1}  # the serial kernels alone
    calls.clear()
    monkeypatch.setattr(_jit, "PARALLEL_MIN_WORK", 1)
    monkeypatch.setattr(_jit, "n_workers", lambda: 2)
    found = _resampling_calls(y, scores, other)
    assert len(calls) >= 4  # (a call may run in several chunks)
    assert {workers for _, workers in calls} == {2}
    for name, values in expected.items():
        assert _bits(found[name]) == _bits(values), name


def test_small_resampling_calls_start_no_threads_in_a_new_process():
    # the threading layer is chosen and its threads started by the first parallel call
    process = run_python(
        """
        import json
        import threading
        import numba
        import assay
        from assay.datasets import binormal_scores

        y, s = binormal_scores(1000, rng=0)
        assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=200, rng=0)
        other = s[::-1].copy()
        assay.compare(assay.roc_auc_score, y, s, other, n_resamples=200, rng=0)
        assay.compare(
            assay.roc_auc_score, y, s, other, method="permutation", n_resamples=200, rng=0
        )
        assay.permutation_test(assay.roc_auc_score, y, s, n_resamples=200, rng=0)
        try:
            layer = numba.threading_layer()
        except ValueError:  # "Threading layer is not initialized."
            layer = None
        print(json.dumps({"layer": layer, "threads": threading.active_count()}))
        """
    )
    found = last_json_line(process)
    assert found["layer"] is None
    assert found["threads"] == 1


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_large_call_leaves_no_thread_running_and_a_forked_child_gets_its_values():
    # the threads of a large call are Python threads that have ended when it returns
    process = run_python(
        IN_FORKED_CHILD
        + """
import json
import threading
import assay
import assay._kernels._jit as _jit
from assay.datasets import binormal_scores

_jit.PARALLEL_MIN_WORK = 0
y, s = binormal_scores(3000, rng=0)


def replicates():
    result = assay.bootstrap(assay.roc_auc_score, y, s, n_resamples=50, rng=0)
    return result.bootstrap_distribution.tolist()


before = replicates()
threads = threading.active_count()
exit_code, child = in_forked_child(replicates)
print(json.dumps({"threads": threads, "exit": exit_code, "same": child == before}))
"""
    )
    found = last_json_line(process)
    assert found == {"threads": 1, "exit": 0, "same": True}


def test_run_workers_gives_every_worker_its_share_and_raises_a_workers_error():
    import threading

    seen = []

    def share(label, worker, workers):
        seen.append(
            (label, worker, workers, threading.current_thread() is threading.main_thread())
        )

    _jit.run_workers(share, ("call",), 3)
    assert sorted(seen) == [("call", 0, 3, True), ("call", 1, 3, False), ("call", 2, 3, False)]

    def failing(worker, workers):
        if worker == 1:
            raise ZeroDivisionError(f"worker {worker} of {workers}")

    before = threading.active_count()
    with pytest.raises(ZeroDivisionError, match="worker 1 of 2"):
        _jit.run_workers(failing, (), 2)
    assert threading.active_count() == before  # its helper thread has ended


def test_run_workers_applies_the_callers_numpy_error_state_on_every_thread():
    # NumPy keeps np.errstate in a context variable; a helper thread of its own would
    # start from the default state ("warn") and ignore the caller's choice
    def divide(worker, workers):
        if worker == 1:
            np.float64(1.0) / np.float64(0.0)

    with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide by zero"):
        _jit.run_workers(divide, (), 2)
    with np.errstate(divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        _jit.run_workers(divide, (), 2)
