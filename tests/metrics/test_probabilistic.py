"""Log loss and Brier score: the reference twins, scikit-learn, the errors, the bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sklearn.metrics
from hypothesis import given
from hypothesis import strategies as st

import assay
import assay.reference
from tests.strategies import binary_forecasts, class_probabilities

# A mean of a few dozen float64 terms against the exactly rounded mean: a few ulps.
RTOL = 1e-12
# Terms that cancel to 0 (a perfect forecast) leave rounding of about 1e-16 absolute.
ATOL = 1e-15

# -log of the clip applied to a probability 0 of the true class: -log(2**-52).
CERTAIN_MISS = 52 * math.log(2)


@given(data=binary_forecasts(), normalize=st.booleans())
def test_binary_log_loss_is_the_reference(data, normalize) -> None:
    y, p, w = data
    ours = assay.log_loss(y, p, sample_weight=w, labels=[0, 1], normalize=normalize)
    theirs = assay.reference.log_loss(y, p, sample_weight=w, labels=[0, 1], normalize=normalize)
    assert ours == pytest.approx(theirs, rel=RTOL, abs=ATOL)


@given(data=class_probabilities(), normalize=st.booleans())
def test_multiclass_log_loss_is_the_reference(data, normalize) -> None:
    y, proba, w = data
    labels = np.arange(proba.shape[1])
    ours = assay.log_loss(y, proba, sample_weight=w, labels=labels, normalize=normalize)
    theirs = assay.reference.log_loss(
        y, proba, sample_weight=w, labels=labels, normalize=normalize
    )
    assert ours == pytest.approx(theirs, rel=RTOL, abs=ATOL)


@given(data=binary_forecasts(), scale=st.sampled_from(["auto", True, False]))
def test_binary_brier_score_is_the_reference(data, scale) -> None:
    y, p, w = data
    ours = assay.brier_score_loss(y, p, sample_weight=w, scale_by_half=scale)
    theirs = assay.reference.brier_score_loss(y, p, sample_weight=w, scale_by_half=scale)
    assert ours == pytest.approx(theirs, rel=RTOL, abs=ATOL)


@given(data=class_probabilities(), scale=st.sampled_from(["auto", True, False]))
def test_multiclass_brier_score_is_the_reference(data, scale) -> None:
    y, proba, w = data
    labels = np.arange(proba.shape[1])
    ours = assay.brier_score_loss(y, proba, sample_weight=w, labels=labels, scale_by_half=scale)
    theirs = assay.reference.brier_score_loss(
        y, proba, sample_weight=w, labels=labels, scale_by_half=scale
    )
    assert ours == pytest.approx(theirs, rel=RTOL, abs=ATOL)


@given(data=binary_forecasts(min_n=2))
def test_binary_scores_agree_with_scikit_learn(data) -> None:
    y, p, w = data
    y[:2] = (0, 1)  # scikit-learn's log loss needs both classes without `labels`
    assert assay.log_loss(y, p, sample_weight=w) == pytest.approx(
        sklearn.metrics.log_loss(y, p, sample_weight=w), rel=RTOL, abs=ATOL
    )
    assert assay.brier_score_loss(y, p, sample_weight=w) == pytest.approx(
        sklearn.metrics.brier_score_loss(y, p, sample_weight=w), rel=RTOL, abs=ATOL
    )


@given(data=class_probabilities())
def test_multiclass_scores_agree_with_scikit_learn(data) -> None:
    y, proba, w = data
    labels = np.arange(proba.shape[1])
    for ours, theirs in (
        (assay.log_loss, sklearn.metrics.log_loss),
        (assay.brier_score_loss, sklearn.metrics.brier_score_loss),
    ):
        assert ours(y, proba, sample_weight=w, labels=labels) == pytest.approx(
            theirs(y, proba, sample_weight=w, labels=labels), rel=RTOL, abs=ATOL
        )


def test_scikit_learn_documented_values() -> None:
    # the examples of scikit-learn's documentation (version 1.9)
    y = ["spam", "ham", "ham", "spam"]
    assert assay.log_loss(y, [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]) == (
        pytest.approx(0.21616, abs=5e-6)
    )
    y_prob = np.array([0.1, 0.9, 0.8, 0.3])
    assert assay.brier_score_loss([0, 1, 1, 0], y_prob) == pytest.approx(0.0375)
    assert assay.brier_score_loss([0, 1, 1, 0], 1 - y_prob, pos_label=0) == pytest.approx(0.0375)
    assert assay.brier_score_loss(y, y_prob, pos_label="ham") == pytest.approx(0.0375)
    assert assay.brier_score_loss([0, 1, 1, 0], y_prob, scale_by_half=False) == (
        pytest.approx(0.075)
    )
    three = [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.2, 0.2, 0.6]]
    # printed as 0.146 in those documents (to three decimals)
    assert assay.brier_score_loss(["eggs", "ham", "spam"], three) == pytest.approx(0.44 / 3)


def test_certain_misses_are_clipped_like_scikit_learn() -> None:
    # a probability 0 of the true class costs -log(eps) (scikit-learn >= 1.5), not inf
    y, p = [1, 0], [0.0, 1.0]
    assert assay.log_loss(y, p) == pytest.approx(CERTAIN_MISS, rel=RTOL)
    assert assay.log_loss(y, p) == pytest.approx(sklearn.metrics.log_loss(y, p), rel=RTOL)
    assert assay.log_loss([0, 1], [0.0, 1.0], normalize=False) == pytest.approx(
        -2 * math.log(1 - 2**-52), rel=1e-9
    )


def test_one_column_is_the_positive_class_like_scikit_learn() -> None:
    y, p = [0, 1, 1], np.array([[0.2], [0.7], [0.4]])
    assert assay.log_loss(y, p) == pytest.approx(sklearn.metrics.log_loss(y, p), rel=RTOL)


def test_the_positive_class_follows_scikit_learn() -> None:
    # the larger of two numeric labels; a single label 5 is positive, a single 0 negative
    p = np.array([0.1, 0.8])
    for y in ([2, 3], [5, 5], [0, 0], [-1, 1], [True, False]):
        assert assay.brier_score_loss(y, p) == pytest.approx(
            sklearn.metrics.brier_score_loss(y, p), rel=RTOL
        )
    assert assay.log_loss([2, 3, 3], [0.1, 0.8, 0.7]) == pytest.approx(
        sklearn.metrics.log_loss([2, 3, 3], [0.1, 0.8, 0.7]), rel=RTOL
    )


@pytest.mark.parametrize(
    ("function", "arguments", "keywords", "message"),
    [
        (
            assay.log_loss,
            ([0, 1], [0.5, 1.5]),
            {},
            r"`y_proba` contains 1 values outside \[0, 1\]",
        ),
        (
            assay.log_loss,
            ([0, 1], [[0.5, 0.6], [0.1, 0.9]]),
            {},
            r"`y_proba` has 1 rows that do not sum to 1 \(e.g. row 0 sums to 1.1\)",
        ),
        (
            assay.log_loss,
            ([1, 1, 1], [0.9, 0.8, 0.7]),
            {},
            r"`y_true` has 1 classes \[1\] but `y_proba` has 2 columns .*pass every class "
            "with `labels`",
        ),
        (
            assay.log_loss,
            ([0, 1, 2], [[0.5, 0.5]] * 3),
            {"labels": [0, 1]},
            r"`y_true` holds labels \[2\] that are not in `labels` \[0, 1\]",
        ),
        (
            assay.log_loss,
            ([0, 1, 2], [[0.5, 0.5]] * 3),
            {},
            r"`y_true` has 3 classes \[0, 1, 2\] but `y_proba` has 2 columns",
        ),
        (
            assay.log_loss,
            ([0, 1], [0.5, 0.5, 0.5]),
            {},
            "different lengths|has length|lengths",
        ),
        (
            assay.log_loss,
            ([0, 1], [0.5, np.nan]),
            {},
            "`y_proba` contains 1 NaN",
        ),
        (
            assay.brier_score_loss,
            (["a", "b"], [0.1, 0.8]),
            {},
            r"`y_true` holds labels \['a', 'b'\]; pass `pos_label`",
        ),
        (
            assay.brier_score_loss,
            ([0, 1], [0.1, 0.8]),
            {"pos_label": 7},
            r"`pos_label`=7 is not one of the labels in `y_true` \[0, 1\]",
        ),
        (
            assay.brier_score_loss,
            ([0, 1, 2], [0.1, 0.8, 0.3]),
            {},
            r"`y_true` holds 3 classes \[0, 1, 2\]; a 1-D `y_proba` is the probability",
        ),
        (
            assay.brier_score_loss,
            ([0, 1], [0.1, 0.8]),
            {"scale_by_half": "half"},
            r"`scale_by_half` must be one of \['auto', True, False\]; got 'half'",
        ),
        (
            assay.brier_score_loss,
            ([0, 1], [0.1, 0.8]),
            {"sample_weight": [0.0, 0.0]},
            "`sample_weight` sums to zero",
        ),
    ],
)
def test_errors_name_the_argument_and_the_rule(function, arguments, keywords, message) -> None:
    with pytest.raises(ValueError, match=message):
        function(*arguments, **keywords)


def test_bootstrap_of_the_brier_score_has_the_standard_error_of_a_mean() -> None:
    # the Brier score is a mean of per-row squares: its bootstrap standard error is
    # their standard deviation / sqrt(n), up to the Monte Carlo error of B = 400
    # replicates (a relative error of about 1 / sqrt(2 B) = 3.5%; 15% is ~4 sigma)
    rng = np.random.default_rng(20261126)
    n = 2000
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)
    result = assay.bootstrap(assay.brier_score_loss, y, p, n_resamples=400, rng=3)
    squares = (y - p) ** 2
    assert result.estimate == assay.brier_score_loss(y, p)
    assert result.standard_error == pytest.approx(np.std(squares) / np.sqrt(n), rel=0.15)
    low, high = result.confidence_interval
    assert 0.0 <= low < result.estimate < high <= 1.0


def test_bootstrap_of_the_multiclass_log_loss_resamples_rows() -> None:
    rng = np.random.default_rng(7)
    proba = rng.dirichlet(np.ones(3), size=300)
    y = np.array([rng.choice(3, p=row) for row in proba])
    result = assay.bootstrap(assay.log_loss, y, proba, n_resamples=200, rng=1, labels=[0, 1, 2])
    assert result.estimate == pytest.approx(sklearn.metrics.log_loss(y, proba), rel=RTOL)
    low, high = result.confidence_interval
    assert 0.0 <= low < result.estimate < high
    # the replicates are the metric of resampled rows, all defined
    assert result.n_undefined == 0 and result.bootstrap_distribution.shape == (200,)


def test_the_protocols_refuse_probability_metrics_with_a_message() -> None:
    # they pass labels (or ranking scores): a log loss of 0/1 labels would be wrong
    from assay.protocols._scoring import scorers

    with pytest.raises(ValueError, match=r"`metrics`: 'log_loss' scores class probabilities"):
        scorers(["log_loss"], classification=True, classes=np.array([0, 1]))


def test_baseline_score_refuses_probability_metrics() -> None:
    with pytest.raises(ValueError, match=r"`metric` must be a classification metric .* 'brier"):
        assay.baseline_score("brier_score_loss", [0, 1, 1])


def test_compare_two_forecasters_by_their_brier_score() -> None:
    # calibrated forecasts q against over-confident ones (q pushed towards 0 and 1) of the
    # same events: the paired difference (a - b) of the Brier scores is negative
    rng = np.random.default_rng(5)
    q = rng.random(1500)
    y = (rng.random(1500) < q).astype(int)
    over = np.clip(0.5 + 2.0 * (q - 0.5), 0.0, 1.0)
    result = assay.compare(assay.brier_score_loss, y, q, over, n_resamples=300, rng=4)
    assert result.estimate_a == assay.brier_score_loss(y, q)
    assert result.estimate_b == assay.brier_score_loss(y, over)
    assert result.difference == pytest.approx(result.estimate_a - result.estimate_b, rel=RTOL)
    low, high = result.confidence_interval
    assert low < result.difference < high < 0.0
    assert result.pvalue < 0.05


# --- `labels` gives the columns' order (any order, as roc_auc_score takes it). ---


@pytest.mark.parametrize("function", [assay.log_loss, assay.brier_score_loss])
def test_labels_in_any_order_name_the_columns(function):
    # scikit-learn sorts the labels and warns; assay reads the columns in the given order,
    # so a permutation of the labels and of the columns together changes nothing
    y = np.array(["spam", "eggs", "ham", "spam"])
    proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.5, 0.25, 0.25]])
    given = function(y, proba, labels=["spam", "eggs", "ham"])
    sorted_columns = function(y, proba[:, [1, 2, 0]], labels=["eggs", "ham", "spam"])
    assert given == pytest.approx(sorted_columns, rel=1e-15)
    twin = getattr(assay.reference, function.__name__)
    assert given == pytest.approx(twin(y, proba, labels=["spam", "eggs", "ham"]), rel=1e-12)
    # the sorted reading would have scored the first row's 0.2 (eggs' column) as spam
    assert given < function(y, proba, labels=["eggs", "ham", "spam"])


@pytest.mark.parametrize("function", [assay.log_loss, assay.brier_score_loss])
def test_labels_naming_a_class_twice_are_refused(function):
    proba = np.full((2, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"^`labels` \[0, 1, 0\] names a class twice"):
        function([0, 1], proba, labels=[0, 1, 0])
