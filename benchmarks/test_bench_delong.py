"""DeLong inference: ``assay.delong_test`` against its natural yardsticks, same data, same run.

Goals, judged by ``benchmarks/report.py`` (``delong_tables``):

* (a) DeLong at n = 1e6 costs at most 2x one ``assay.roc_auc_score`` (both are bound by
  sorting): measured for ``auc_ci`` (the DeLong interval of one AUC) and for the paired
  ``delong_test`` of two models (which sorts each model's rows with their positions,
  as packed integers, one model per thread from 1e5 rows);
* (b) at n = 1e4, the ratio of a straightforward O(n_pos * n_neg) numpy DeLong test
  (:func:`pairwise_delong_test`, vectorised by blocks of positives) to assay's
  O(n log n) one, reported without a goal.

Data: the binormal labels and scores of ``_data.binary`` (AUC 0.85, prevalence 0.2) as
model A, and model B = A plus independent normal noise (sd 0.5), so the two models are
correlated and their AUCs differ.  Case (a) runs at the sizes of ``ASSAY_BENCH_SIZES``;
case (b) always at n = 1e4 (the pairwise test is quadratic).

Protocol (``conftest.py``'s): one untimed call on the first 1,000 rows (compilation),
one untimed call on the full data, checked (assay's AUCs are ``roc_auc_score``'s to
1e-12; the pairwise test's z and p-value are assay's to 1e-9), then timed rounds.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.special import ndtr

import _data
import assay
from conftest import WARMUP_ROWS, format_size, time_checked_call

SUITE = "delong"
SORT_BOUND_GOAL = 2.0  # (a): delong_test at most this many times one roc_auc_score
SORT_BOUND_GOAL_SIZE = 1_000_000
PAIRWISE_SIZE = 10_000  # (b) is measured at this size only
PAIRWISE_BLOCK = 512  # positives per block of the pairwise test (block of 512 x n_neg)
NOISE_SEED = 20240613
NOISE_SCALE = 0.5
AUC_TOLERANCE = 1e-12
PAIRWISE_TOLERANCE = 1e-9


@functools.cache
def two_models(n_samples: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(y_true, score_a, score_b)``: the binormal data and a noisy copy of its scores."""
    y_true, score_a = _data.binary(n_samples)
    noise = np.random.default_rng(NOISE_SEED).normal(scale=NOISE_SCALE, size=n_samples)
    return y_true, score_a, score_a + noise


def _placements_by_blocks(positives: np.ndarray, negatives: np.ndarray):
    """V10 and V01 from all pairs, ``PAIRWISE_BLOCK`` positives at a time."""
    v10 = np.empty(positives.shape[0])
    v01 = np.zeros(negatives.shape[0])
    for start in range(0, positives.shape[0], PAIRWISE_BLOCK):
        block = positives[start : start + PAIRWISE_BLOCK, None]
        psi = (block > negatives[None, :]) + 0.5 * (block == negatives[None, :])
        v10[start : start + PAIRWISE_BLOCK] = psi.mean(axis=1)
        v01 += psi.sum(axis=0)
    return v10, v01 / positives.shape[0]


def pairwise_delong_test(y_true: np.ndarray, score_a: np.ndarray, score_b: np.ndarray):
    """The textbook DeLong test from all (positive, negative) pairs: ``(z, pvalue)``."""
    positive = y_true == 1
    v10a, v01a = _placements_by_blocks(score_a[positive], score_a[~positive])
    v10b, v01b = _placements_by_blocks(score_b[positive], score_b[~positive])
    difference = v10a.mean() - v10b.mean()
    variance = np.var(v10a - v10b, ddof=1) / v10a.shape[0]
    variance += np.var(v01a - v01b, ddof=1) / v01a.shape[0]
    z = difference / math.sqrt(variance)
    return z, 2.0 * float(ndtr(-abs(z)))


def _time(benchmark: Any, *, info: dict[str, Any], **protocol: Any) -> None:
    """conftest's protocol: warm-up on 1,000 rows, a checked untimed call, timed rounds."""
    time_checked_call(benchmark, info={"suite": SUITE, **info}, **protocol)


def _check_aucs(result: Any, y_true: np.ndarray, score_a: np.ndarray, score_b: np.ndarray):
    from sklearn.metrics import roc_auc_score

    for key, score in (("auc_a", score_a), ("auc_b", score_b)):
        expected = float(roc_auc_score(y_true, score))
        assert math.isclose(result.details[key], expected, rel_tol=AUC_TOLERANCE), key
    # at n >= 1e5 the difference of the two AUCs is so clear that p underflows to 0
    assert 0.0 <= result.pvalue < 1.0 and result.standard_error > 0.0


def _check_interval(result: Any, y_true: np.ndarray, score_a: np.ndarray) -> None:
    from sklearn.metrics import roc_auc_score

    expected = float(roc_auc_score(y_true, score_a))
    assert math.isclose(result.estimate, expected, rel_tol=AUC_TOLERANCE)
    low, high = result.confidence_interval
    assert low < result.estimate < high and result.standard_error > 0.0


@pytest.mark.parametrize("implementation", ["one roc_auc_score", "assay"])
@pytest.mark.parametrize("function", ["delong_test", "auc_ci"])
def test_delong_against_one_auc(benchmark, n_samples, function, implementation):
    """(a) ``delong_test`` (two models) or ``auc_ci`` (one) against one ``roc_auc_score``."""
    y_true, score_a, score_b = two_models(n_samples)
    head = slice(0, WARMUP_ROWS)
    info = {
        "case": f"{function}-vs-roc_auc_score",
        "function": function,
        "implementation": implementation,
        "n_samples": n_samples,
        "goal": SORT_BOUND_GOAL,
        "goal_size": SORT_BOUND_GOAL_SIZE,
    }
    group = f"{function} vs one roc_auc_score [n={format_size(n_samples)}]"
    if implementation == "assay" and function == "delong_test":
        call = functools.partial(assay.delong_test, y_true, score_a, score_b)
        warmup = functools.partial(assay.delong_test, y_true[head], score_a[head], score_b[head])

        def check(result: Any) -> None:
            _check_aucs(result, y_true, score_a, score_b)

    elif implementation == "assay":
        call = functools.partial(assay.auc_ci, y_true, score_a)
        warmup = functools.partial(assay.auc_ci, y_true[head], score_a[head])

        def check(result: Any) -> None:
            _check_interval(result, y_true, score_a)

    else:
        call = functools.partial(assay.roc_auc_score, y_true, score_a)
        warmup = functools.partial(assay.roc_auc_score, y_true[head], score_a[head])

        def check(result: Any) -> None:
            from sklearn.metrics import roc_auc_score

            expected = float(roc_auc_score(y_true, score_a))
            assert math.isclose(result, expected, rel_tol=AUC_TOLERANCE)

    _time(benchmark, group=group, info=info, call=call, warmup=warmup, check=check)


@pytest.mark.parametrize("implementation", ["numpy pairwise", "assay"])
def test_delong_test_against_pairwise_numpy(benchmark, implementation):
    """(b) ``delong_test`` against the O(n_pos * n_neg) numpy test at n = 1e4."""
    n_samples = PAIRWISE_SIZE
    y_true, score_a, score_b = two_models(n_samples)
    head = slice(0, WARMUP_ROWS)
    info = {
        "case": "delong_test-vs-pairwise",
        "implementation": implementation,
        "n_samples": n_samples,
        "block": PAIRWISE_BLOCK,
    }
    group = f"delong_test vs pairwise numpy [n={format_size(n_samples)}]"
    expected = assay.delong_test(y_true, score_a, score_b)

    def check_pair(statistic: float, pvalue: float) -> None:
        assert math.isclose(statistic, expected.statistic, rel_tol=PAIRWISE_TOLERANCE)
        assert math.isclose(pvalue, expected.pvalue, rel_tol=PAIRWISE_TOLERANCE)

    if implementation == "assay":
        function: Callable[..., Any] = assay.delong_test

        def check(result: Any) -> None:
            check_pair(result.statistic, result.pvalue)
            _check_aucs(result, y_true, score_a, score_b)

    else:
        function = pairwise_delong_test

        def check(result: Any) -> None:
            check_pair(*result)

    _time(
        benchmark,
        group=group,
        info=info,
        call=functools.partial(function, y_true, score_a, score_b),
        warmup=functools.partial(function, y_true[head], score_a[head], score_b[head]),
        check=check,
    )
