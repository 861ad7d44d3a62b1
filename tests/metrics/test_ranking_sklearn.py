"""Ranking metrics and curves agree with scikit-learn (the oracle users know).

scikit-learn integrates the curves with ``np.trapezoid`` after dropping collinear
points, and sums in a different order; results agree to rounding error only.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import assay
from tests.strategies import binary_ranking_data

# Relative tolerance against scikit-learn: both compute in float64 from the same
# cumulative sums, but scikit-learn's trapezoid rule sums differently-grouped terms.
SKLEARN_RTOL = 1e-12
SKLEARN_ATOL = 1e-12


def assert_curves_equal(ours: tuple, theirs: tuple) -> None:
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=SKLEARN_RTOL, atol=SKLEARN_ATOL)


def exact_sums(weights: np.ndarray | None) -> bool:
    """Whether cumulative sums of these weights are exact whatever their order.

    ``drop_intermediate`` keeps a point when a second difference of the cumulative
    weights is non-zero. With fractional weights that test depends on rounding, and
    rounding depends on the order of the rows inside a tie group, which differs between
    any two sorts; both curves are then correct but may keep different collinear points.
    """
    return weights is None or bool(np.all(weights == np.round(weights)))


@given(binary_ranking_data(both_classes=True), st.booleans())
def test_roc_curve_matches_sklearn(data, drop_intermediate) -> None:
    y, s, w = data
    if drop_intermediate and not exact_sums(w):
        fpr, tpr, _ = assay.roc_curve(y, s, sample_weight=w)
        sk_fpr, sk_tpr, _ = skm.roc_curve(y, s, sample_weight=w)
        assert np.trapezoid(tpr, fpr) == pytest.approx(
            np.trapezoid(sk_tpr, sk_fpr), rel=SKLEARN_RTOL, abs=SKLEARN_ATOL
        )
        return
    assert_curves_equal(
        assay.roc_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
        skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
    )


@given(binary_ranking_data(both_classes=True), st.booleans())
def test_precision_recall_curve_matches_sklearn(data, drop_intermediate) -> None:
    y, s, w = data
    drop_intermediate = drop_intermediate and exact_sums(w)
    assert_curves_equal(
        assay.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
        skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
    )


@given(binary_ranking_data(both_classes=True), st.booleans())
def test_det_curve_matches_sklearn(data, drop_intermediate) -> None:
    y, s, w = data
    drop_intermediate = drop_intermediate and exact_sums(w)
    assert_curves_equal(
        assay.det_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
        skm.det_curve(y, s, sample_weight=w, drop_intermediate=drop_intermediate),
    )


@given(binary_ranking_data())
def test_confusion_matrix_at_thresholds_matches_sklearn(data) -> None:
    y, s, w = data
    assert_curves_equal(
        assay.confusion_matrix_at_thresholds(y, s, sample_weight=w),
        skm.confusion_matrix_at_thresholds(y, s, sample_weight=w),
    )


@given(binary_ranking_data(both_classes=True), st.sampled_from([None, 0.05, 0.3, 0.5, 1.0]))
def test_roc_auc_score_matches_sklearn(data, max_fpr) -> None:
    y, s, w = data
    ours = assay.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    theirs = skm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
    assert ours == pytest.approx(theirs, rel=SKLEARN_RTOL, abs=SKLEARN_ATOL)


@given(binary_ranking_data(both_classes=True))
def test_average_precision_matches_sklearn(data) -> None:
    y, s, w = data
    ours = assay.average_precision_score(y, s, sample_weight=w)
    theirs = skm.average_precision_score(y, s, sample_weight=w)
    assert ours == pytest.approx(theirs, rel=SKLEARN_RTOL, abs=SKLEARN_ATOL)


def _multiclass_problem(seed: int, n: int, k: int, weighted: bool):
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])  # every class present
    # rounded probabilities create ties inside each column
    proba = np.round(rng.random((n, k)), 1) + 1e-3
    proba /= proba.sum(axis=1, keepdims=True)
    weights = rng.integers(0, 4, n).astype(float) if weighted else None
    if weights is not None:
        weights[:k] = 1.0  # keep each class weighted
    return y, proba, weights


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
@pytest.mark.parametrize("weighted", [False, True])
def test_multiclass_ovr_matches_sklearn(seed, average, weighted) -> None:
    y, proba, w = _multiclass_problem(seed, n=40 + 10 * seed, k=3 + seed % 3, weighted=weighted)
    np.testing.assert_allclose(
        assay.roc_auc_score(y, proba, multi_class="ovr", average=average, sample_weight=w),
        skm.roc_auc_score(y, proba, multi_class="ovr", average=average, sample_weight=w),
        rtol=SKLEARN_RTOL,
    )
    np.testing.assert_allclose(
        assay.average_precision_score(y, proba, average=average, sample_weight=w),
        skm.average_precision_score(y, proba, average=average, sample_weight=w),
        rtol=SKLEARN_RTOL,
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_multiclass_ovo_matches_sklearn(seed, average) -> None:
    # scikit-learn's one-vs-one refuses sample weights; compare unweighted only
    y, proba, _ = _multiclass_problem(seed, n=30 + 7 * seed, k=3 + seed % 4, weighted=False)
    assert assay.roc_auc_score(y, proba, multi_class="ovo", average=average) == pytest.approx(
        skm.roc_auc_score(y, proba, multi_class="ovo", average=average), rel=SKLEARN_RTOL
    )


def test_multiclass_labels_order_the_columns() -> None:
    y, proba, _ = _multiclass_problem(7, n=50, k=3, weighted=False)
    names = np.array(["ant", "bee", "cat"])
    # string labels and an explicit column order give the same per-class areas
    per_class = assay.roc_auc_score(y, proba, multi_class="ovr", average=None)
    reordered = assay.roc_auc_score(
        names[y],
        proba[:, [2, 0, 1]],
        multi_class="ovr",
        average=None,
        labels=["cat", "ant", "bee"],
    )
    np.testing.assert_allclose(reordered, per_class[[2, 0, 1]], rtol=SKLEARN_RTOL)
