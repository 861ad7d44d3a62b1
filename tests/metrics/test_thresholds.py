"""posterior_fdr_threshold and optimal_threshold: hand-worked cases, the reference twins,
ties, constant scores, one class, weights, the bootstrap, and every error message."""

from __future__ import annotations

import functools
import json
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import assay
from assay import reference
from assay.exceptions import UndefinedMetricWarning
from tests.strategies import binary_ranking_data, exact_sample_weights

# FD(tau) is a float64 cumulative sum of up to a few hundred terms 1 - p_i, each rounded:
# it can differ from the exact fraction by a few hundred units in the last place, so an
# FDR closer than this to alpha may be decided either way.
FDR_DECISION_MARGIN = 1e-12
# Metric values: the sweep's cells are exact sums of the weights the strategies draw
# (integers or floats up to 10); the metric's one division or square root then differs
# from the reference's exact fractions by a few units in the last place.
VALUE_RTOL = 1e-12

probabilities = hnp.arrays(
    np.float64,
    st.integers(1, 60),
    elements=st.sampled_from([0.0, 0.05, 0.1, 0.5, 0.9, 0.95, 0.99, 1.0])
    | st.floats(0.0, 1.0, allow_subnormal=False),
)
alphas = st.sampled_from([0.0, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0]) | st.floats(0.0, 1.0)


# --- posterior_fdr_threshold -------------------------------------------------------------


def test_posterior_fdr_hand_worked():
    # sorted: 0.95 0.9 0.85 | 0.6 0.4 0.2; 1 - p: 0.05 0.1 0.15 | 0.4 0.6 0.8
    # top 3: FD = 0.3, FDR = 0.1; top 4: FD = 0.7, FDR = 0.175 > 0.12
    result = assay.posterior_fdr_threshold([0.95, 0.2, 0.9, 0.6, 0.85, 0.4], 0.12)
    assert result.threshold == 0.6
    assert result.n_discoveries == 3
    assert result.expected_false_discoveries == pytest.approx(0.3, abs=1e-15)
    assert result.fdr == pytest.approx(0.1, abs=1e-15)
    np.testing.assert_array_equal(result.n_discoveries_curve, [0, 1, 2, 3, 4, 5, 6])
    np.testing.assert_allclose(
        result.fdr_curve, [0, 0.05, 0.075, 0.1, 0.175, 1.3 / 5, 2.1 / 6], atol=1e-15
    )
    np.testing.assert_array_equal(result.thresholds, [0.95, 0.9, 0.85, 0.6, 0.4, 0.2, -np.inf])
    # alpha = 0.2: the top four (FDR 0.175), tau = the next probability, 0.4
    assert assay.posterior_fdr_threshold([0.95, 0.2, 0.9, 0.6, 0.85, 0.4], 0.2).threshold == 0.4


def test_posterior_fdr_ties_are_discovered_together():
    # 0.9 alone: FDR 0.1; with the two tied 0.7: (0.1 + 0.3 + 0.3) / 3 = 0.2333
    result = assay.posterior_fdr_threshold([0.7, 0.9, 0.7, 0.1], 0.2)
    assert (result.threshold, result.n_discoveries) == (0.7, 1)
    # the items equal to tau are not discoveries ({p > tau} is strict)
    result = assay.posterior_fdr_threshold([0.7, 0.9, 0.7, 0.1], 0.25)
    assert (result.threshold, result.n_discoveries) == (0.1, 3)


def test_posterior_fdr_everything_or_nothing():
    everything = assay.posterior_fdr_threshold([1.0] * 99 + [0.0], 0.05)  # FDR = 1/100
    assert everything.threshold == -np.inf
    assert everything.n_discoveries == 100
    nothing = assay.posterior_fdr_threshold([0.3, 0.2, 0.3], 0.05)
    assert (nothing.threshold, nothing.n_discoveries, nothing.fdr) == (0.3, 0, 0.0)
    constant = assay.posterior_fdr_threshold([0.96] * 5, 0.05)
    assert (constant.threshold, constant.n_discoveries) == (-np.inf, 5)


@given(proba=probabilities, alpha=alphas)
def test_posterior_fdr_matches_the_reference(proba, alpha):
    result = assay.posterior_fdr_threshold(proba, alpha)
    tau, n_discoveries, false = reference.posterior_fdr_threshold(proba, alpha)
    close_call = np.any(np.abs(result.fdr_curve - alpha) < FDR_DECISION_MARGIN)
    if not close_call:
        assert result.threshold == tau
        assert result.n_discoveries == n_discoveries
        assert result.expected_false_discoveries == pytest.approx(false, rel=1e-12, abs=1e-12)
    # the result never contradicts itself
    assert result.fdr <= alpha
    assert result.n_discoveries == np.count_nonzero(np.asarray(proba) > result.threshold)
    chosen = int(np.flatnonzero(result.thresholds == result.threshold)[0])
    assert result.fdr == result.fdr_curve[chosen]
    assert result.n_discoveries == result.n_discoveries_curve[chosen]
    assert np.all(np.diff(result.thresholds) < 0)
    assert np.all(np.diff(result.fdr_curve) >= -FDR_DECISION_MARGIN)  # monotone


def test_posterior_fdr_result_output():
    result = assay.posterior_fdr_threshold([0.95, 0.2, 0.9], 0.1)
    assert str(result).startswith("Posterior FDR threshold 0.2000: 2 of 3 discoveries")
    assert json.loads(result.to_json())["thresholds"][-1] is None  # -inf is not JSON
    with pytest.raises(ValueError, match="read-only"):
        result.fdr_curve[0] = 1.0


@pytest.mark.parametrize(
    ("proba", "alpha", "message"),
    [
        ([0.5, 1.5], 0.1, r"`proba` contains 1 values outside \[0, 1\]"),
        ([0.5, np.nan], 0.1, "`proba` contains 1 NaN values"),
        ([], 0.1, "`proba` is empty"),
        ([[0.1, 0.2, 0.3]], 0.1, "`proba` must be 1-D"),
        ([0.5], 1.5, r"`alpha` must be in \[0, 1\]; got 1.5"),
        ([0.5], np.nan, r"`alpha` must be in \[0, 1\]; got nan"),
        ([0.5], "0.1", r"`alpha` must be a number in \[0, 1\]; got '0.1'"),
        ([0.5], True, r"`alpha` must be a number in \[0, 1\]; got True"),
    ],
)
def test_posterior_fdr_errors(proba, alpha, message):
    with pytest.raises(ValueError, match=message):
        assay.posterior_fdr_threshold(proba, alpha)


# --- optimal_threshold ---------------------------------------------------------------------


def test_optimal_threshold_hand_worked_f1():
    # Scores in decreasing order with their classes: 0.9 (1), 0.75 (0), 0.7 (1), 0.6 (1),
    # 0.4 (0), 0.35 (1), 0.3 (0), 0.1 (0); P = 4.  F1 = 2 TP / (TP + FP + P) at each
    # threshold: inf 0, 0.9 2/5, 0.75 2/6, 0.7 4/7, 0.6 6/8, 0.4 6/9, 0.35 8/10,
    # 0.3 8/11, 0.1 8/12.
    y_true = [0, 0, 1, 0, 1, 1, 0, 1]
    y_score = [0.1, 0.3, 0.35, 0.4, 0.6, 0.7, 0.75, 0.9]
    result = assay.optimal_threshold(y_true, y_score, metric=assay.f1_score, n_resamples=0)
    expected = [0, 2 / 5, 2 / 6, 4 / 7, 6 / 8, 6 / 9, 8 / 10, 8 / 11, 8 / 12]
    np.testing.assert_allclose(result.values, expected, rtol=VALUE_RTOL)
    np.testing.assert_array_equal(
        result.thresholds, [np.inf, 0.9, 0.75, 0.7, 0.6, 0.4, 0.35, 0.3, 0.1]
    )
    assert (result.threshold, result.value) == (0.35, 0.8)
    assert result.greater_is_better
    assert math.isnan(result.threshold_interval.low)  # no resamples, no interval
    assert str(result) == "F1 0.8000 at score >= 0.3500"


def test_a_partial_of_a_metric_is_unwrapped():
    y_true, y_score = [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.7, 0.75, 0.9]
    bound = assay.optimal_threshold(
        y_true, y_score, metric=functools.partial(assay.fbeta_score, beta=2.0), n_resamples=0
    )
    keyword = assay.optimal_threshold(
        y_true, y_score, metric="fbeta_score", beta=2.0, n_resamples=0
    )
    np.testing.assert_array_equal(bound.values, keyword.values)


def test_optimal_threshold_ties_take_the_largest_threshold():
    # accuracy: inf 2/4, 0.8 3/4, 0.6 2/4, 0.4 3/4, 0.2 2/4: equal best at 0.8 and 0.4
    result = assay.optimal_threshold(
        [1, 0, 1, 0], [0.8, 0.6, 0.4, 0.2], metric="accuracy_score", n_resamples=0
    )
    assert (result.threshold, result.value) == (0.8, 0.75)


def test_youden_j_and_cost():
    y_true = [0, 0, 1, 0, 1, 1, 0, 1]
    y_score = [0.1, 0.3, 0.35, 0.4, 0.6, 0.7, 0.75, 0.9]
    # Youden's J = TPR - FPR: 0.6 gives 3/4 - 1/4 = 0.5, 0.35 gives 1 - 2/4 = 0.5, 0.7
    # gives 2/4 - 1/4; ties: the largest threshold, 0.6
    youden = assay.optimal_threshold(
        y_true, y_score, metric="balanced_accuracy_score", adjusted=True, n_resamples=0
    )
    assert (youden.threshold, youden.value) == (0.6, 0.5)
    # a missed positive costs 5, a false alarm 1: every positive found at 0.35 (2 false
    # alarms, mean cost 2/8) beats 0.6 (1 miss and 1 false alarm: 6/8)
    cost = assay.optimal_threshold(y_true, y_score, cost_matrix=[[0, 1], [5, 0]], n_resamples=0)
    assert (cost.threshold, cost.value, cost.greater_is_better) == (0.35, 0.25, False)
    # predicting nothing positive is a candidate: the negative scored highest and a false
    # alarm costing 100, a miss 1: inf costs 1/2, 0.9 costs 101/2, 0.1 costs 100/2
    nothing = assay.optimal_threshold(
        [0, 1], [0.9, 0.1], cost_matrix=[[0, 100], [1, 0]], n_resamples=0
    )
    assert (nothing.threshold, nothing.value) == (np.inf, 0.5)


METRICS = {
    "f1_score": ({}, True),
    "matthews_corrcoef": ({}, True),
    "balanced_accuracy_score": ({"adjusted": True}, True),
    "precision_score": ({}, True),
    "accuracy_score": ({}, True),
    "fbeta_score": ({"beta": 2.0}, True),
    "error_rate": ({}, False),
    "cohen_kappa_score": ({}, True),
}


@pytest.mark.parametrize("name", sorted(METRICS))
@given(data=st.data())
def test_optimal_threshold_matches_the_reference(name, data):
    y_true, y_score, _ = data.draw(binary_ranking_data(max_n=30))
    # exact weights (integers, multiples of 1/8): a product of four cells of widely
    # different float weights (MCC's denominator) can underflow, which the exact
    # reference never does
    weight = data.draw(exact_sample_weights(y_true.shape[0]))
    options, greater = METRICS[name]
    with warnings.catch_warnings():  # undefined at every threshold: tested below
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = assay.optimal_threshold(
            y_true, y_score, metric=name, sample_weight=weight, n_resamples=0, **options
        )
    reference_options = dict(options)
    if name in ("f1_score", "precision_score", "fbeta_score", "matthews_corrcoef"):
        reference_options["zero_division"] = np.nan  # undefined thresholds are skipped
    if name in ("matthews_corrcoef", "cohen_kappa_score"):
        reference_options["labels"] = [0, 1]
    threshold, value = reference.optimal_threshold(
        y_true,
        y_score,
        metric=getattr(reference, name),
        greater_is_better=greater,
        sample_weight=weight,
        **reference_options,
    )
    if math.isnan(value):
        assert math.isnan(result.value) and math.isnan(result.threshold)
        return
    assert result.value == pytest.approx(value, rel=VALUE_RTOL, abs=1e-15)
    # the threshold: equal unless another candidate's value is within rounding of it
    # (a value 0 in exact arithmetic may come out as +-1e-17 at another threshold)
    reached = np.abs(result.values - value) <= VALUE_RTOL * max(abs(value), 1.0)
    if np.count_nonzero(reached) == 1:
        assert result.threshold == threshold
    # the value is the metric's own at the chosen threshold
    metric = getattr(assay, name)
    predicted = (np.asarray(y_score) >= result.threshold).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        direct = metric(y_true, predicted, sample_weight=weight, **options)
    assert direct == pytest.approx(result.value, rel=VALUE_RTOL, abs=1e-15)


def test_optimal_threshold_constant_scores_and_one_class():
    # constant scores: two candidates, inf (nothing positive) and the score (all positive)
    result = assay.optimal_threshold([0, 1, 1], [0.5, 0.5, 0.5], metric="f1_score", rng=0)
    np.testing.assert_array_equal(result.thresholds, [np.inf, 0.5])
    assert (result.threshold, result.value) == (0.5, 0.8)
    # no positive at all: recall TP / P is 0/0 at every threshold
    with pytest.warns(UndefinedMetricWarning, match="recall_score is undefined at every"):
        undefined = assay.optimal_threshold([0, 0], [0.2, 0.5], metric="recall_score")
    assert math.isnan(undefined.threshold) and math.isnan(undefined.value)
    assert str(undefined) == "recall undefined at every threshold"


def test_bootstrap_is_reproducible_and_consistent():
    rng = np.random.default_rng(20260101)
    y_true = rng.integers(0, 2, 300)
    y_score = y_true + rng.normal(0.0, 1.2, 300)
    first = assay.optimal_threshold(y_true, y_score, metric="f1_score", n_resamples=200, rng=5)
    again = assay.optimal_threshold(y_true, y_score, metric="f1_score", n_resamples=200, rng=5)
    np.testing.assert_array_equal(first.bootstrap_thresholds, again.bootstrap_thresholds)
    assert first.rng_seed == 5 and first.n_resamples == 200
    low, high = first.threshold_interval
    assert low <= high and set(first.bootstrap_thresholds) <= set(first.thresholds)
    assert first.value_interval.low <= first.value_interval.high <= 1.0
    assert "percentile bootstrap, 200 resamples" in str(first)
    # every replicate's best value is the best of its own sweep: at least the value of any
    # fixed threshold on that replicate, so on average at least the full data's value at
    # its chosen threshold minus the sampling noise; here simply: defined and in [0, 1]
    assert np.all((first.bootstrap_values >= 0) & (first.bootstrap_values <= 1))
    json.loads(first.to_json())


def test_weighted_bootstrap_with_unit_weights_matches_the_cells_path_in_law():
    # unit weights draw rows, no weights draw cells: different random streams, the same
    # distribution; both choose thresholds among the candidates
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 2, 80)
    y_score = np.round(y_true + rng.normal(0.0, 1.0, 80), 1)
    weighted = assay.optimal_threshold(
        y_true, y_score, metric="f1_score", sample_weight=np.ones(80), n_resamples=50, rng=1
    )
    plain = assay.optimal_threshold(y_true, y_score, metric="f1_score", n_resamples=50, rng=1)
    assert weighted.threshold == plain.threshold and weighted.value == plain.value
    assert set(weighted.bootstrap_thresholds) <= set(weighted.thresholds)


def test_zero_weight_rows_create_no_candidate():
    result = assay.optimal_threshold(
        [0, 1, 1, 0],
        [0.1, 0.9, 0.5, 0.7],
        metric="f1_score",
        sample_weight=[1, 1, 1, 0],
        n_resamples=20,
        rng=0,
    )
    assert 0.7 not in result.thresholds
    assert 0.7 not in result.bootstrap_thresholds


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "give exactly one of `metric`"),
        ({"metric": "f1_score", "cost_matrix": [[0, 1], [1, 0]]}, "give exactly one of"),
        ({"metric": "roc_auc_score"}, "`metric` must be a confusion-matrix metric of assay"),
        ({"metric": "expected_cost"}, "for a cost pass `cost_matrix`"),
        ({"metric": "f1_score", "labels": [0, 1]}, "`labels` cannot be passed to the metric"),
        ({"metric": "f1_score", "average": None}, "one number per threshold"),
        ({"metric": "f1_score", "n_resamples": -1}, "`n_resamples` must be an integer >= 0"),
        ({"metric": "f1_score", "confidence_level": 1.0}, r"`confidence_level` must be in"),
        ({"metric": "f1_score", "rng": "seed"}, "`rng` must be None, an integer"),
        ({"cost_matrix": [[0, 1, 2]]}, "`cost_matrix` must be a square 2-D array"),
    ],
)
def test_optimal_threshold_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        assay.optimal_threshold([0, 1, 1, 0], [0.1, 0.9, 0.5, 0.7], **kwargs)


def test_optimal_threshold_input_errors_are_the_curves():
    with pytest.raises(ValueError, match="`y_true` and `y_score` have different lengths"):
        assay.optimal_threshold([0, 1], [0.1], metric="f1_score")
    with pytest.raises(ValueError, match="`y_score` contains 1 NaN values"):
        assay.optimal_threshold([0, 1], [0.1, np.nan], metric="f1_score")


# --- Large n: independent checks (the reference is quadratic) -----------------------------


def test_posterior_fdr_at_large_n_against_exact_sums():
    rng = np.random.default_rng(11)
    proba = np.round(rng.beta(0.5, 0.5, 200_000), 3)  # heavy ties
    alpha = 0.05
    result = assay.posterior_fdr_threshold(proba, alpha)
    discovered = proba[proba > result.threshold]
    assert result.n_discoveries == discovered.shape[0]
    false = math.fsum(1.0 - discovered)  # correctly rounded sum
    assert result.expected_false_discoveries == pytest.approx(false, rel=1e-9)
    assert false / discovered.shape[0] <= alpha + FDR_DECISION_MARGIN
    # one more tie group, the next probability below tau, would exceed alpha
    with_next = proba[proba >= result.threshold]
    assert math.fsum(1.0 - with_next) / with_next.shape[0] > alpha - FDR_DECISION_MARGIN


def test_optimal_threshold_at_large_n_against_every_threshold():
    rng = np.random.default_rng(12)
    y_true = rng.integers(0, 2, 100_000)
    y_score = np.round(y_true + rng.normal(0.0, 1.5, 100_000), 2)
    result = assay.optimal_threshold(y_true, y_score, metric="f1_score", n_resamples=20, rng=3)
    positive = y_true == 1
    best_value, best_threshold = -1.0, None
    for threshold in np.unique(y_score)[::-1]:  # decreasing: ties keep the larger one
        predicted = y_score >= threshold
        tp = np.count_nonzero(predicted & positive)
        value = 2 * tp / (np.count_nonzero(predicted) + np.count_nonzero(positive))
        if value > best_value:
            best_value, best_threshold = value, threshold
    assert result.threshold == best_threshold
    assert result.value == pytest.approx(best_value, rel=VALUE_RTOL)
    assert result.bootstrap_thresholds.shape == (20,)
