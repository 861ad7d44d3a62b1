"""Millions of rows: the kernels agree with scikit-learn where float error accumulates.

Marked slow (a few seconds each, dominated by scikit-learn): ``nox -s slow`` runs them.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm
from scipy.stats import rankdata

import assay
from assay.datasets import binormal_scores

pytestmark = pytest.mark.slow

N_ROWS = 2_000_000
# Sums over two million float64 terms in different orders: relative error up to about
# n * eps in the worst case, far less in practice; 1e-9 still catches any real mistake.
LARGE_RTOL = 1e-9


@pytest.fixture(scope="module")
def data():
    y_true, y_score = binormal_scores(N_ROWS, rng=11)
    weights = np.random.default_rng(12).random(N_ROWS)
    return y_true, y_score, np.round(y_score, 2), weights


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_scores_match_sklearn(data, name, tied, weighted) -> None:
    y_true, distinct, rounded, weights = data
    scores = rounded if tied else distinct
    w = weights if weighted else None
    ours = getattr(assay, name)(y_true, scores, sample_weight=w)
    theirs = getattr(skm, name)(y_true, scores, sample_weight=w)
    assert ours == pytest.approx(theirs, rel=LARGE_RTOL)


@pytest.mark.parametrize("name", ["roc_curve", "precision_recall_curve"])
def test_curves_match_sklearn(data, name) -> None:
    y_true, distinct, _, _ = data
    for ours, theirs in zip(
        getattr(assay, name)(y_true, distinct), getattr(skm, name)(y_true, distinct), strict=True
    ):
        np.testing.assert_allclose(ours, theirs, rtol=LARGE_RTOL, atol=1e-12)


def test_unweighted_auc_is_exact_in_counts(data) -> None:
    # Unweighted, every partial sum of the AUC numerator is an integer below 2**53, so
    # the kernel's float64 result is the exactly rounded rational; compute that rational
    # independently from ranks (Mann-Whitney with midranks).
    y_true, _, rounded, _ = data
    ranks = rankdata(rounded)  # midranks: ties count one half
    n_positive = int(y_true.sum())
    n_negative = y_true.size - n_positive
    # midranks are multiples of 1/2 and their sum stays far below 2**52: exact in float64
    twice_u = round(2 * ranks[y_true == 1].sum()) - n_positive * (n_positive + 1)
    exact = Fraction(twice_u, 2 * n_positive * n_negative)
    assert assay.roc_auc_score(y_true, rounded) == float(exact)
