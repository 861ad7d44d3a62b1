"""Metrics at the edges of float64: weights of 1e-310 and 1e300, targets near 1e200.

The reference (:mod:`assay.reference`) computes from the same float inputs in exact
rational arithmetic, so it is right at any magnitude; our float64 evaluation agrees to
REFERENCE_RTOL.  Where a result must scale exactly with the input (a power of two
multiplies every intermediate exactly), the comparison is bit for bit.  The suite runs
with ``-W error``: a bare ``RuntimeWarning`` (overflow, invalid value) fails a test.
"""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

import assay
from assay.metrics._registry import variants_of

reference = pytest.importorskip("assay.reference")

# A few float64 roundings separate our value from the correctly rounded exact one; 1e-12
# relative is far above them and far below any real discrepancy.
REFERENCE_RTOL = 1e-12

# Magnitudes of weights: subnormal (1e-310: the old power-of-two rescale overflowed),
# tiny, and so large that products of two, or four, class totals overflow.
WEIGHT_MAGNITUDES = [1e-310, 1e-300, 1e80, 1e160, 1e300]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(20240611)
    y_true = rng.integers(0, 2, 60)
    y_score = rng.random(60).round(1)  # ties
    y_pred = (y_score > 0.5).astype(np.int64)
    multi_true = rng.integers(0, 3, 60)
    multi_pred = np.where(rng.random(60) < 0.6, multi_true, rng.integers(0, 3, 60))
    weights = rng.random(60) + 0.01
    return y_true, y_score, y_pred, multi_true, multi_pred, weights


def test_the_reported_tiny_weight_case():
    # every positive scores above every negative: AUC 1 whatever the (equal) weights
    auc = assay.roc_auc_score([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8], sample_weight=[1e-310] * 4)
    assert auc == reference.roc_auc_score([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8]) == 1.0


@pytest.mark.parametrize("magnitude", WEIGHT_MAGNITUDES)
@pytest.mark.parametrize(("name", "options"), variants_of("ranking"))
def test_ranking_metrics_of_extreme_weights_match_the_reference(data, name, options, magnitude):
    # (the 11-point PR AUC once missed recall 1.0 here at 1e-300: the running sum of the
    # positives' weights rounded below their total, summed in another order)
    y_true, y_score, _, _, _, weights = data
    weights = weights * magnitude
    ours = getattr(assay, name)(y_true, y_score, sample_weight=weights, **options)
    exact = getattr(reference, name)(y_true, y_score, sample_weight=weights, **options)
    assert ours == pytest.approx(exact, rel=REFERENCE_RTOL)


@pytest.mark.parametrize("name", ["roc_curve", "precision_recall_curve", "det_curve"])
def test_curves_of_subnormal_weights_equal_those_of_the_same_weights_scaled_up(data, name):
    # Weights k * 2**-1060 (k < 2**20) are exact subnormals; the curves are rates, free
    # of the weights' scale: they must equal the curves of k * 2**-37 to the last bit.
    y_true, y_score, *_ = data
    counts = np.random.default_rng(5).integers(1, 2**20, y_true.shape[0]).astype(np.float64)
    subnormal = getattr(assay, name)(y_true, y_score, sample_weight=counts * 2.0**-1060)
    ordinary = getattr(assay, name)(y_true, y_score, sample_weight=counts * 2.0**-37)
    for ours, theirs in zip(subnormal, ordinary, strict=True):
        np.testing.assert_array_equal(ours, theirs)
    for ours, exact in zip(
        subnormal, getattr(reference, name)(y_true, y_score, sample_weight=counts), strict=True
    ):
        np.testing.assert_allclose(ours, exact, rtol=REFERENCE_RTOL)


BINARY_METRICS = [
    "matthews_corrcoef",
    "cohen_kappa_score",
    "f1_score",
    "precision_score",
    "recall_score",
    "specificity_score",
    "balanced_accuracy_score",
    "accuracy_score",
]


@pytest.mark.parametrize("magnitude", WEIGHT_MAGNITUDES)
@pytest.mark.parametrize("name", BINARY_METRICS)
def test_confusion_metrics_of_extreme_weights_match_the_reference(data, name, magnitude):
    y_true, _, y_pred, multi_true, multi_pred, weights = data
    weights = weights * magnitude
    for truth, prediction in ((y_true, y_pred), (multi_true, multi_pred)):
        options = {"average": "macro"} if truth is multi_true and "_score" in name else {}
        if name in ("cohen_kappa_score", "balanced_accuracy_score", "accuracy_score"):
            options = {}
        ours = getattr(assay, name)(truth, prediction, sample_weight=weights, **options)
        exact = getattr(reference, name)(truth, prediction, sample_weight=weights, **options)
        assert ours == pytest.approx(exact, rel=REFERENCE_RTOL), (truth is multi_true, ours)


def test_matthews_and_kappa_of_huge_weights_equal_the_unweighted_values(data):
    # equal weights are a common factor: 1e80 once made MCC 0.0, 1e160 made kappa NaN
    y_true, _, y_pred, multi_true, multi_pred, _ = data
    for truth, prediction in ((y_true, y_pred), (multi_true, multi_pred)):
        for magnitude in (1e80, 1e160, 1e300):
            weights = np.full(truth.shape[0], magnitude)
            for name in ("matthews_corrcoef", "cohen_kappa_score"):
                ours = getattr(assay, name)(truth, prediction, sample_weight=weights)
                exact = getattr(reference, name)(truth, prediction)
                assert ours == pytest.approx(exact, rel=REFERENCE_RTOL)
    quadratic = assay.cohen_kappa_score(
        multi_true, multi_pred, weights="quadratic", sample_weight=np.full(60, 1e200)
    )
    exact = reference.cohen_kappa_score(multi_true, multi_pred, weights="quadratic")
    assert quadratic == pytest.approx(exact, rel=REFERENCE_RTOL)


def test_weights_summing_beyond_float64_are_refused_by_name(data):
    y_true, y_score, y_pred, *_ = data
    weights = np.full(y_true.shape[0], 1e308)
    message = r"^`sample_weight` sums to more than the largest float64 \(about 1\.8e308\)"
    with pytest.raises(ValueError, match=message):
        assay.roc_auc_score(y_true, y_score, sample_weight=weights)
    with pytest.raises(ValueError, match=message):
        assay.f1_score(y_true, y_pred, sample_weight=weights)


# --- regression targets near the ends of the float64 range -------------------------------


@pytest.mark.parametrize("power", [600, -600, 1000, -1000])
@pytest.mark.parametrize("name", ["root_mean_squared_error", "mean_absolute_error", "r2_score"])
def test_regression_metrics_scale_exactly_with_the_targets(data, name, power):
    # Multiplying targets by 2**power multiplies every exact intermediate by a power of
    # two: the loss must be the ordinary loss times 2**power, R^2 the same, bit for bit
    # (once RMSE of targets near 1e200 was inf and R^2 NaN).
    _, y_score, *_ = data
    truth = y_score * 3.0 - 1.0
    prediction = truth + np.random.default_rng(9).normal(scale=0.2, size=truth.shape[0])
    factor = 2.0**power
    scaled = getattr(assay, name)(truth * factor, prediction * factor)
    ordinary = getattr(assay, name)(truth, prediction)
    assert scaled == (ordinary if name == "r2_score" else ordinary * factor)


def test_mean_squared_error_is_exact_up_to_the_float64_range(data):
    _, y_score, *_ = data
    truth = y_score * 3.0 - 1.0
    prediction = truth + np.random.default_rng(9).normal(scale=0.2, size=truth.shape[0])
    ordinary = assay.mean_squared_error(truth, prediction)
    factor = 2.0**510  # targets beyond 2**500 are rescaled; their MSE still fits float64
    assert assay.mean_squared_error(truth * factor, prediction * factor) == (
        ordinary * factor * factor
    )
    # an MSE of about 1e600 is beyond float64: inf, as the correctly rounded value
    assert assay.mean_squared_error(truth * 2.0**1000, prediction * 2.0**1000) == np.inf


def test_regression_metrics_of_huge_values_match_the_reference():
    truth = np.array([1e200, 2e200, 3e200, 4e200])
    prediction = np.array([1.1e200, 2e200, 2.9e200, 4.2e200])
    for name in ("root_mean_squared_error", "mean_absolute_error", "r2_score"):
        ours = getattr(assay, name)(truth, prediction)
        assert ours == pytest.approx(getattr(reference, name)(truth, prediction), rel=1e-12)
    weighted = assay.r2_score(truth, prediction, sample_weight=[1e300, 3e300, 1.0, 2e300])
    exact = reference.r2_score(truth, prediction, sample_weight=[1e300, 3e300, 1.0, 2e300])
    assert weighted == pytest.approx(exact, rel=1e-12)


def test_variance_weighted_r2_of_outputs_of_very_different_scales():
    truth = np.array([[1.0, 1e-200], [2.0, 3e-200], [3.0, 2e-200], [5.0, 7e-200]])
    prediction = truth * np.array([[1.1, 0.9], [1.0, 1.2], [0.8, 1.0], [1.0, 1.0]])
    per_output = assay.r2_score(truth, prediction, multioutput="raw_values")
    exact = [reference.r2_score(truth[:, j], prediction[:, j]) for j in range(2)]
    np.testing.assert_allclose(per_output, exact, rtol=REFERENCE_RTOL)
    # the second output's variance is 1e-400 times the first's: it carries no weight
    combined = assay.r2_score(truth, prediction, multioutput="variance_weighted")
    assert combined == pytest.approx(exact[0], rel=REFERENCE_RTOL)


# --- integer weights beyond 2**53 ---------------------------------------------------------


def test_integer_weights_give_exact_int64_cells_as_scikit_learn():
    y_true = np.array([0, 1, 0, 1, 2, 2])
    y_pred = np.array([1, 1, 0, 1, 2, 0])
    weights = np.array([2**53, 1, 1, 1, 2**60, 3])  # 2**53 + 1 is no float64
    ours = assay.confusion_matrix(y_true, y_pred, sample_weight=weights)
    theirs = skm.confusion_matrix(y_true, y_pred, sample_weight=weights)
    assert ours.dtype == theirs.dtype == np.int64
    np.testing.assert_array_equal(ours, theirs)
    by_hand = np.zeros((3, 3), dtype=object)  # Python integers: exact
    for t, p, w in zip(y_true, y_pred, weights.tolist(), strict=True):
        by_hand[t, p] += w
    assert ours.tolist() == by_hand.tolist()
    # labels of every kind, big-endian and boolean weights: int64 too
    strings = assay.confusion_matrix(
        np.array(["a", "b"])[y_true % 2], np.array(["a", "b"])[y_pred % 2],
        sample_weight=weights.astype(">i8"),
    )  # fmt: skip
    assert strings.dtype == np.int64 and int(strings.sum()) == sum(weights.tolist())
    boolean = assay.confusion_matrix(y_true, y_pred, sample_weight=weights > 1)
    assert boolean.dtype == np.int64
    np.testing.assert_array_equal(
        boolean, skm.confusion_matrix(y_true, y_pred, sample_weight=weights > 1)
    )


def test_fractional_weights_still_give_float64_cells():
    ours = assay.confusion_matrix([0, 1, 1], [0, 1, 0], sample_weight=[0.5, 2.0, 1.0])
    assert ours.dtype == np.float64
    np.testing.assert_array_equal(ours, [[0.5, 0.0], [1.0, 2.0]])


@pytest.mark.parametrize("normalize", ["all", "true"])
@pytest.mark.parametrize(("weight", "cost"), [(1e300, 1e10), (1e80, 1e300), (1e-310, 5.0)])
def test_expected_cost_of_extreme_weights_and_costs_matches_the_reference(
    data, normalize, weight, cost
):
    # a mean cost is free of the weights' scale: cells of 1e300 times costs of 1e10
    # once overflowed (a bare RuntimeWarning and inf) although the mean is 1e10 or less
    _, _, _, multi_true, multi_pred, weights = data
    costs = cost * (1.0 - np.eye(3)) * np.array([[1.0], [0.5], [0.25]])
    options = {"cost_matrix": costs, "normalize": normalize}
    ours = assay.expected_cost(multi_true, multi_pred, sample_weight=weights * weight, **options)
    exact = reference.expected_cost(
        multi_true, multi_pred, sample_weight=weights * weight, **options
    )
    assert np.isfinite(ours)
    assert ours == pytest.approx(exact, rel=REFERENCE_RTOL)
