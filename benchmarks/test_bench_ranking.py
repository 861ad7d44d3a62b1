"""Ranking metrics and curves: assay against scikit-learn (the peer), same data, same run.

Goals at n = 1e7 (from the project's foundation issue): ``roc_auc_score`` and
``average_precision_score`` at least 6x faster than scikit-learn, ``roc_curve`` and
``precision_recall_curve`` at least 4x faster.  Scores come from the binormal model
(:func:`assay.datasets.binormal_scores`); ``ties`` rounds them to 2 decimals; ``weighted``
adds random float weights.
"""

from __future__ import annotations

import pytest

SCORE_GOAL = 6.0
CURVE_GOAL = 4.0

# The peer runs first, then assay: the two sides of a pair are timed back to back.
implementations = pytest.mark.parametrize("implementation", ["sklearn", "assay"])
ties_or_not = pytest.mark.parametrize("ties", [False, True], ids=["distinct", "ties"])
weighted_or_not = pytest.mark.parametrize(
    "weighted", [False, True], ids=["unweighted", "weighted"]
)


@implementations
@weighted_or_not
@ties_or_not
@pytest.mark.parametrize("function", ["roc_auc_score", "average_precision_score"])
def test_ranking_score(
    benchmark_pair, binary_scores, function, ties, weighted, n_samples, implementation
):
    y_true, y_score, sample_weight = binary_scores(n_samples, ties, weighted)
    benchmark_pair(function, (y_true, y_score), {"sample_weight": sample_weight}, goal=SCORE_GOAL)


@implementations
@ties_or_not
@pytest.mark.parametrize("function", ["roc_curve", "precision_recall_curve"])
def test_curve(benchmark_pair, binary_scores, function, ties, n_samples, implementation):
    y_true, y_score, _ = binary_scores(n_samples, ties)
    benchmark_pair(function, (y_true, y_score), goal=CURVE_GOAL)
