"""float32 scores are ranked as float32: the same results as their float64 values.

Every float32 is exactly a float64, so converting the scores changes no order and no
tie; the ranking functions therefore sort float32 scores as they are (half the bytes)
and must return exactly what they return for the same scores given as float64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import assay
from assay.metrics._sorted import sort_binary

SCALARS: dict[str, Callable[..., Any]] = {
    "roc_auc": assay.roc_auc_score,
    "roc_auc_max_fpr": lambda y, s, **kw: assay.roc_auc_score(y, s, max_fpr=0.3, **kw),
    "average_precision": assay.average_precision_score,
    "pr_auc_trapezoid": assay.pr_auc_score,
    "pr_auc_interpolated": lambda y, s, **kw: assay.pr_auc_score(
        y, s, method="interpolated", **kw
    ),
    "pr_auc_11_point": lambda y, s, **kw: assay.pr_auc_score(y, s, method="11-point", **kw),
    "equal_error_rate": assay.equal_error_rate,
    "equal_error_rate_nearest": lambda y, s, **kw: assay.equal_error_rate(
        y, s, method="nearest", **kw
    ),
}
CURVES: dict[str, Callable[..., Any]] = {
    "roc_curve": assay.roc_curve,
    "precision_recall_curve": assay.precision_recall_curve,
    "det_curve": assay.det_curve,
}
# 500 rows are sorted row by row; 5000 rows with 300 distinct scores take the hashing
# path (few distinct values); 5000 spread rows are sorted row by row
CASES = {"small": (500, None), "grouped": (5000, 300), "spread": (5000, None)}


def _problem(n: int, distinct: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    generator = np.random.default_rng(20260611)
    labels = (generator.random(n) < 0.3).astype(np.uint8)
    scores = (generator.normal(size=n) + labels).astype(np.float32)
    if distinct is not None:
        levels = generator.normal(size=distinct).astype(np.float32)
        scores = levels[generator.integers(0, distinct, n)]
    scores[:4] = [0.0, -0.0, 0.0, -0.0]  # signed zeros tie
    weights = generator.integers(0, 4, n).astype(np.float64)
    return labels, scores, weights


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", SCALARS)
def test_float32_scores_give_the_float64_result(name: str, case: str, weighted: bool) -> None:
    labels, scores, weights = _problem(*CASES[case])
    keywords = {"sample_weight": weights} if weighted else {}
    metric = SCALARS[name]
    expected = metric(labels, scores.astype(np.float64), **keywords)
    assert metric(labels, scores, **keywords) == expected  # bit for bit


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", CURVES)
def test_float32_curves_give_the_float64_curves(name: str, case: str) -> None:
    labels, scores, _ = _problem(*CASES[case])
    expected = CURVES[name](labels, scores.astype(np.float64))
    for got, want in zip(CURVES[name](labels, scores), expected, strict=True):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_float32_scores_are_sorted_as_float32() -> None:
    labels, scores, _ = _problem(*CASES["spread"])
    data = sort_binary(labels, scores)
    assert data.positive_scores.dtype == np.float32
    assert data.negative_scores.dtype == np.float32


def test_contiguous_float64_scores_are_not_copied() -> None:
    from assay._validation import as_scores

    scores = np.linspace(0.0, 1.0, 100)
    assert as_scores(scores) is scores
    assert as_scores(scores.astype(np.float32), keep_float32=True).dtype == np.float32
