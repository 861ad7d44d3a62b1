"""Resampling engine: ``assay.bootstrap`` against its peers, same data, same run.

Goals (issue 3), judged by ``benchmarks/report.py``:

* a 1000-replicate percentile interval of ROC AUC at n = 1e6 at least 100x faster than
  each peer (:mod:`_resampling_peers`: a loop of scikit-learn's ``roc_auc_score``,
  ``scipy.stats.bootstrap`` vectorized and batched, mlxtend's ``bootstrap``);
* the same interval at n = 1e7 in well under a minute;
* the BCa interval at n = 1e6 costs at most 1.5x the percentile interval;
* a 10,000-replicate interval of F1 (and of accuracy) at n = 1e7 costs at most 2x one
  evaluation of the metric.

Peak memory is measured by ``benchmarks/memory.py``.  Data: the binormal scores of
``_data.binary`` (distinct float64 scores, AUC 0.85, prevalence 0.2) and the prediction
``score >= 0.5``.  assay runs its kernels on all of Numba's threads (two here); every peer
runs on one thread, as it does by default.

Protocol.  assay follows ``conftest.py``: one untimed call on the first 1,000 rows
(compilation), one untimed call on the full data (checked: the estimate is
scikit-learn's value to 1e-9 and the interval contains it), then timed rounds; a call
that takes more than ``LONG_RUN_SECONDS`` is timed in one round.  A peer gets an untimed
call on the first 1,000 rows (imports), then a pilot of ``PILOT_REPLICATES`` replicates on
the full data, which predicts the cost of the whole call.  When the prediction is within
``PEER_FULL_RUN_SECONDS`` (environment variable ``ASSAY_BENCH_PEER_BUDGET``), the whole
call is timed; otherwise a partial call of ``k`` replicates (about
``EXTRAPOLATION_RUN_SECONDS`` long) is timed, and the report extrapolates its median
linearly to the whole call, labelled as extrapolated (see ``report.py``).  A peer that
ran all its replicates must agree with assay's interval within Monte-Carlo error; a
partial run is checked for the right estimate and plausible replicates.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import _data
import _resampling_peers as peers
import assay
from conftest import WARMUP_ROWS, format_size, rounds_for, time_checked_call

N_RESAMPLES = 1000
CONFUSION_RESAMPLES = 10_000
SEED = 20240611
PEER_FULL_RUN_SECONDS = float(os.environ.get("ASSAY_BENCH_PEER_BUDGET", "600"))
EXTRAPOLATION_RUN_SECONDS = 10.0
LONG_RUN_SECONDS = 10.0
PILOT_REPLICATES = 2  # at least 2: mlxtend's standard error divides by k - 1
# Agreement of two bootstrap intervals of the same data made from independent replicates:
# with 1000 replicates an end point of the 95% interval has a Monte-Carlo standard
# deviation of about 0.085 standard errors, so a difference of two has about 0.12.
INTERVAL_TOLERANCE_STANDARD_ERRORS = 0.5
STANDARD_ERROR_RELATIVE_TOLERANCE = 0.15  # Monte-Carlo deviation about 2% per side
REPLICATE_SPREAD_STANDARD_ERRORS = 6.0
RELATIVE_TOLERANCE = 1e-9

SUITE = "resampling"
PEER_NAMES = list(peers.PEERS)


@functools.cache
def _sklearn_auc(n_samples: int) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(*_data.binary(n_samples)))


def _rounds(seconds: float) -> int:
    return rounds_for(seconds, LONG_RUN_SECONDS)


def _assay_auc_bootstrap(
    y_true: np.ndarray, y_score: np.ndarray, method: str
) -> assay.BootstrapResult:
    return assay.bootstrap(
        assay.roc_auc_score, y_true, y_score, n_resamples=N_RESAMPLES, method=method, rng=SEED
    )


# assay's checked result per (method, n): what a peer's complete run must agree with
_assay_results: dict[tuple[str, int], Any] = {}


def _assay_result(method: str, n_samples: int) -> Any:
    key = (method, n_samples)
    if key not in _assay_results:  # assay's benchmark was deselected: compute it untimed
        _assay_results[key] = _assay_auc_bootstrap(*_data.binary(n_samples), method)
    return _assay_results[key]


def _check_estimate(value: float, expected: float, what: str) -> None:
    assert math.isclose(value, expected, rel_tol=RELATIVE_TOLERANCE), (
        f"{what}: {value!r} differs from scikit-learn's {expected!r}"
    )


def _info(n_samples: int, case: str, implementation: str, **extra: Any) -> dict[str, Any]:
    return {
        "suite": SUITE,
        "case": case,
        "implementation": implementation,
        "n_samples": n_samples,
        **extra,
    }


def _time_assay(benchmark: Any, **protocol: Any) -> None:
    """conftest's protocol: warm-up on 1,000 rows, a checked untimed call, timed rounds."""
    time_checked_call(benchmark, long_run_seconds=LONG_RUN_SECONDS, **protocol)


def _time_peer(
    benchmark: Any,
    *,
    group: str,
    info: dict[str, Any],
    name: str,
    whole: Callable[[], peers.PeerResult],
    partial: Callable[[int], peers.PeerResult],
    extra_evaluations: int,
    reference: Any,
) -> None:
    """Time the whole peer call, or ``k`` replicates of it to be extrapolated.

    ``whole()`` is the peer's complete call (``N_RESAMPLES`` replicates, and a jackknife
    of ``extra_evaluations`` evaluations of the statistic for BCa); ``partial(k)``
    draws ``k`` replicates only.  A run of ``k`` replicates costs about ``k + fixed``
    evaluations of the statistic on the full data (``peers.FIXED_EVALUATIONS``).
    """
    y_true, y_score = _data.binary(info["n_samples"])
    function = peers.PEERS[name][0]
    function(y_true[:WARMUP_ROWS], y_score[:WARMUP_ROWS], PILOT_REPLICATES, SEED)
    fixed = peers.FIXED_EVALUATIONS[name]
    start = time.perf_counter()
    partial(PILOT_REPLICATES)
    pilot_seconds = time.perf_counter() - start
    per_evaluation = pilot_seconds / (PILOT_REPLICATES + fixed)
    predicted = per_evaluation * (N_RESAMPLES + fixed + extra_evaluations)
    complete = predicted <= PEER_FULL_RUN_SECONDS
    if complete:
        replicates = N_RESAMPLES
        target: Callable[[], peers.PeerResult] = whole
        expected_seconds = predicted
    else:
        wanted = round(EXTRAPOLATION_RUN_SECONDS / per_evaluation) - fixed
        replicates = int(min(N_RESAMPLES, max(PILOT_REPLICATES, wanted)))
        target = functools.partial(partial, replicates)
        expected_seconds = per_evaluation * (replicates + fixed)
    benchmark.group = group
    benchmark.extra_info.update(
        {
            **info,
            "peer_version": peers.peer_version(name),
            **peers.describe_peer_call(name, info["n_samples"]),
            "n_resamples": N_RESAMPLES,
            "replicates_timed": replicates,
            "fixed_evaluations": fixed,
            # evaluations of the whole call that the timed call did not make
            "extra_evaluations": 0 if complete else extra_evaluations,
            "extrapolated": not complete,
            "pilot_seconds": pilot_seconds,
            "predicted_whole_call_seconds": predicted,
        }
    )
    result = benchmark.pedantic(
        target, rounds=_rounds(expected_seconds), iterations=1, warmup_rounds=0
    )
    _check_peer(result, reference, complete, info["n_samples"], name)


def _check_peer(result: peers.PeerResult, reference: Any, complete: bool, n: int, name: str):
    expected = _sklearn_auc(n)
    if result.estimate is not None:
        _check_estimate(result.estimate, expected, f"{name} estimate")
    if name == "scipy":
        y_true, y_score = _data.binary(n)
        _check_estimate(float(peers.auc_statistic(y_true, y_score)), expected, "scipy statistic")
    standard_error = reference.standard_error
    if complete:
        low, high = reference.confidence_interval
        tolerance = INTERVAL_TOLERANCE_STANDARD_ERRORS * standard_error
        assert abs(result.low - low) <= tolerance, (name, result, reference)
        assert abs(result.high - high) <= tolerance, (name, result, reference)
        assert math.isclose(
            result.standard_error, standard_error, rel_tol=STANDARD_ERROR_RELATIVE_TOLERANCE
        ), (name, result.standard_error, standard_error)
    elif result.replicates is not None:
        spread = REPLICATE_SPREAD_STANDARD_ERRORS * standard_error
        assert np.all(np.abs(result.replicates - expected) <= spread), (name, result)


def _check_assay_auc(result: Any, n_samples: int, method: str) -> None:
    _check_estimate(result.estimate, _sklearn_auc(n_samples), "assay.bootstrap estimate")
    assert result.method == method
    assert result.n_undefined == 0
    assert result.bootstrap_distribution.shape == (N_RESAMPLES,)
    low, high = result.confidence_interval
    assert low < result.estimate < high
    _assay_results[(method, n_samples)] = result


@pytest.mark.parametrize("implementation", ["assay", *PEER_NAMES])
def test_bootstrap_roc_auc_percentile(benchmark, n_samples, implementation):
    y_true, y_score = _data.binary(n_samples)
    group = f"bootstrap of roc_auc_score, percentile [n={format_size(n_samples)}]"
    info = _info(n_samples, "roc_auc-percentile", implementation)
    if implementation == "assay":
        _time_assay(
            benchmark,
            group=group,
            info={**info, "n_resamples": N_RESAMPLES},
            call=functools.partial(_assay_auc_bootstrap, y_true, y_score, "percentile"),
            warmup=functools.partial(
                _assay_auc_bootstrap, y_true[:WARMUP_ROWS], y_score[:WARMUP_ROWS], "percentile"
            ),
            check=functools.partial(_check_assay_auc, n_samples=n_samples, method="percentile"),
        )
        return
    function = peers.PEERS[implementation][0]
    _time_peer(
        benchmark,
        group=group,
        info=info,
        name=implementation,
        whole=functools.partial(function, y_true, y_score, N_RESAMPLES, SEED),
        partial=lambda k: function(y_true, y_score, k, SEED),
        extra_evaluations=0,
        reference=_assay_result("percentile", n_samples),
    )


@pytest.mark.parametrize("implementation", ["assay", "scipy"])
def test_bootstrap_roc_auc_bca(benchmark, n_samples, implementation):
    """BCa: assay's jackknife is closed-form (O(n)); scipy's evaluates the statistic n times.

    scipy is given ``batch`` (:func:`_resampling_peers.scipy_batch`), which bounds the
    memory of its jackknife too; without it, the jackknife would allocate
    :func:`_resampling_peers.scipy_unbatched_jackknife_bytes` at once (recorded, not run).
    """
    y_true, y_score = _data.binary(n_samples)
    group = f"bootstrap of roc_auc_score, BCa [n={format_size(n_samples)}]"
    info = _info(n_samples, "roc_auc-bca", implementation)
    if implementation == "assay":
        _time_assay(
            benchmark,
            group=group,
            info={**info, "n_resamples": N_RESAMPLES},
            call=functools.partial(_assay_auc_bootstrap, y_true, y_score, "bca"),
            warmup=functools.partial(
                _assay_auc_bootstrap, y_true[:WARMUP_ROWS], y_score[:WARMUP_ROWS], "bca"
            ),
            check=functools.partial(_check_assay_auc, n_samples=n_samples, method="bca"),
        )
        return
    info["unbatched_jackknife_bytes"] = peers.scipy_unbatched_jackknife_bytes(n_samples)
    _time_peer(
        benchmark,
        group=group,
        info=info,
        name="scipy",
        whole=functools.partial(
            peers.scipy_bootstrap, y_true, y_score, N_RESAMPLES, SEED, method="BCa"
        ),
        partial=lambda k: peers.scipy_bootstrap(y_true, y_score, k, SEED),
        extra_evaluations=n_samples,  # the jackknife: one evaluation per left-out row
        reference=_assay_result("bca", n_samples),
    )


@pytest.mark.parametrize("implementation", ["one evaluation", "assay"])
@pytest.mark.parametrize("metric", ["f1_score", "accuracy_score"])
def test_bootstrap_confusion_metric(benchmark, labels, n_samples, metric, implementation):
    """10,000 replicates of a confusion metric against one evaluation of the metric."""
    import sklearn.metrics

    y_true, y_pred = labels(n_samples, 2)
    function = getattr(assay, metric)
    expected = float(getattr(sklearn.metrics, metric)(y_true, y_pred))
    group = f"bootstrap of {metric}, {CONFUSION_RESAMPLES} replicates [n={format_size(n_samples)}]"
    info = _info(n_samples, f"{metric}-bootstrap", implementation, function=metric)

    def bootstrap(y_true: np.ndarray, y_pred: np.ndarray) -> Any:
        return assay.bootstrap(function, y_true, y_pred, n_resamples=CONFUSION_RESAMPLES, rng=SEED)

    def check_bootstrap(result: Any) -> None:
        _check_estimate(result.estimate, expected, f"assay.bootstrap({metric}) estimate")
        low, high = result.confidence_interval
        assert low < result.estimate < high
        assert result.n_undefined == 0

    def check_metric(result: Any) -> None:
        _check_estimate(float(result), expected, f"assay.{metric}")

    if implementation == "assay":
        call, warmup, check = bootstrap, bootstrap, check_bootstrap
        info["n_resamples"] = CONFUSION_RESAMPLES
    else:
        call, warmup, check = function, function, check_metric
    _time_assay(
        benchmark,
        group=group,
        info=info,
        call=functools.partial(call, y_true, y_pred),
        warmup=functools.partial(warmup, y_true[:WARMUP_ROWS], y_pred[:WARMUP_ROWS]),
        check=check,
    )
