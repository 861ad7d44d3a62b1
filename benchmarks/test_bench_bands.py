"""Confidence bands of curves: ``assay.roc_band`` against the naive way, and both curves
of the report from one pass against the two separate calls.

The naive way (what a user writes without ``roc_band``): one ``assay.bootstrap`` of a
Python callable per grid point, the callable recomputing the curve of the resampled
rows with NumPy and reading the true positive rate at that one false positive rate.
It is timed at a small n (``SMALL_ROWS`` rows, ``SMALL_RESAMPLES`` replicates,
``SMALL_GRID`` points), where it finishes; ``roc_band`` is timed at the same size and at
the goal's size: 1000 replicates of a 101-point band at n = 1e6 in a few seconds.

The report draws a model's ROC and precision-recall bands together
(:func:`assay.resampling._bands.curve_bands`: one pass per replicate reads both curves);
its peer is the two public calls with the same arguments, which give the same values.

Run: ``PYTHONPATH=src python -m pytest benchmarks/test_bench_bands.py
--benchmark-only``.  One untimed call first (compilation), then timed rounds.
"""

from __future__ import annotations

import numpy as np
import pytest

import _data
import assay
from assay.resampling._bands import curve_bands

SMALL_ROWS = 2_000
SMALL_RESAMPLES = 200
SMALL_GRID = np.linspace(0.0, 1.0, 21)
GOAL_ROWS = 1_000_000
GOAL_RESAMPLES = 1000
GOAL_SECONDS = 5.0  # "a few seconds" on the 2-core machine of docs/performance.md
SEED = 20240611


def tpr_at(y_true: np.ndarray, y_score: np.ndarray, fpr: float) -> float:
    """True positive rate at one false positive rate (the naive callable)."""
    order = np.argsort(-y_score, kind="stable")
    positive = y_true[order] == 1
    tpr = np.concatenate([[0.0], np.cumsum(positive) / positive.sum()])
    fpr_curve = np.concatenate([[0.0], np.cumsum(~positive) / (~positive).sum()])
    return float(np.interp(fpr, fpr_curve, tpr))


def naive_band(y_true: np.ndarray, y_score: np.ndarray) -> list[tuple[float, float]]:
    return [
        tuple(
            assay.bootstrap(
                lambda y, s, f=f: tpr_at(y, s, f),
                y_true,
                y_score,
                n_resamples=SMALL_RESAMPLES,
                stratify=True,
                rng=SEED,
            ).confidence_interval
        )
        for f in SMALL_GRID
    ]


@pytest.mark.parametrize("implementation", ["naive", "assay"])
def test_small_band(benchmark, implementation: str) -> None:
    y_true, y_score = _data.binary(SMALL_ROWS)
    benchmark.group = f"ROC band, {SMALL_RESAMPLES} resamples, 21 points [n={SMALL_ROWS}]"
    benchmark.extra_info.update({"implementation": implementation, "peer": "naive"})
    if implementation == "naive":
        function = naive_band
    else:

        def function(y: np.ndarray, s: np.ndarray) -> object:
            return assay.roc_band(y, s, grid=SMALL_GRID, n_resamples=SMALL_RESAMPLES, rng=SEED)

    function(y_true, y_score)  # compile / import
    benchmark.pedantic(function, args=(y_true, y_score), rounds=3, iterations=1)


def test_goal_band(benchmark) -> None:
    y_true, y_score = _data.binary(GOAL_ROWS)
    assay.roc_band(y_true[:1000], y_score[:1000], n_resamples=10, rng=SEED)  # compile
    benchmark.group = f"ROC band, {GOAL_RESAMPLES} resamples, 101 points [n=1e6]"
    benchmark.extra_info.update({"implementation": "assay", "goal_seconds": GOAL_SECONDS})
    band = benchmark.pedantic(
        assay.roc_band,
        args=(y_true, y_score),
        kwargs={"n_resamples": GOAL_RESAMPLES, "kind": "simultaneous", "rng": SEED},
        rounds=3,
        iterations=1,
    )
    assert np.all((band.lower <= band.estimate) & (band.estimate <= band.upper))


def two_calls(y_true: np.ndarray, y_score: np.ndarray) -> tuple:
    common = {"n_resamples": GOAL_RESAMPLES, "kind": "simultaneous", "rng": SEED}
    return (
        assay.roc_band(y_true, y_score, **common),
        assay.precision_recall_band(y_true, y_score, **common),
    )


def one_pass(y_true: np.ndarray, y_score: np.ndarray) -> tuple:
    return curve_bands(y_true, y_score, n_resamples=GOAL_RESAMPLES, kind="simultaneous", rng=SEED)


@pytest.mark.parametrize("implementation", ["two calls", "one pass"])
def test_both_curves(benchmark, implementation: str) -> None:
    y_true, y_score = _data.binary(GOAL_ROWS)
    function = two_calls if implementation == "two calls" else one_pass
    function(y_true[:1000], y_score[:1000])  # compile
    benchmark.group = f"ROC and precision-recall bands, {GOAL_RESAMPLES} resamples [n=1e6]"
    benchmark.extra_info.update({"implementation": implementation, "peer": "two calls"})
    bands = benchmark.pedantic(function, args=(y_true, y_score), rounds=3, iterations=1)
    assert all(np.all(band.lower <= band.upper) for band in bands)
