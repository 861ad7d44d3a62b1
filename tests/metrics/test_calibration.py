"""Calibration curve, ECE, MCE and the Brier score decomposition: the reference twins,
scikit-learn, hand-worked values, the errors and the bootstrap."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sklearn.calibration
from hypothesis import given
from hypothesis import strategies as st

import assay
import assay.reference
from assay._results import BrierDecomposition
from tests.strategies import binary_forecasts

# Means of a few dozen float64 terms against exactly rounded means: a few ulps.
RTOL = 1e-12
# Gaps and within-bin terms that cancel to 0 leave rounding of about 1e-16 absolute.
ATOL = 1e-15

strategies = st.sampled_from(["uniform", "quantile"])
bin_counts = st.integers(1, 12)


def _same_curve(ours, theirs) -> None:
    assert len(ours[0]) == len(theirs[0])
    np.testing.assert_allclose(ours[0], theirs[0], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=RTOL, atol=ATOL)


@given(data=binary_forecasts(), strategy=strategies, n_bins=bin_counts)
def test_calibration_curve_is_the_reference(data, strategy, n_bins) -> None:
    y, p, w = data
    options = {"sample_weight": w, "n_bins": n_bins, "strategy": strategy}
    _same_curve(
        assay.calibration_curve(y, p, **options),
        assay.reference.calibration_curve(y, p, **options),
    )


@given(data=binary_forecasts(), strategy=strategies, n_bins=bin_counts)
def test_calibration_curve_agrees_with_scikit_learn(data, strategy, n_bins) -> None:
    y, p, _ = data
    ours = assay.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    _same_curve(
        ours, sklearn.calibration.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    )
    prob_true, prob_pred = ours  # unpacks like scikit-learn's tuple
    assert prob_true is ours.prob_true and prob_pred is ours.prob_pred


@given(data=binary_forecasts(), strategy=strategies, n_bins=bin_counts, seed=st.integers(0, 99))
def test_integer_weights_are_repeated_rows(data, strategy, n_bins, seed) -> None:
    # the quantile edges of weighted rows are those of the rows repeated
    y, p, _ = data
    repeats = np.random.default_rng(seed).integers(0, 4, y.shape[0])
    repeats[0] += 1
    weighted = assay.calibration_curve(
        y, p, sample_weight=repeats.astype(float), n_bins=n_bins, strategy=strategy
    )
    repeated = sklearn.calibration.calibration_curve(
        np.repeat(y, repeats), np.repeat(p, repeats), n_bins=n_bins, strategy=strategy
    )
    _same_curve(weighted, repeated)


@pytest.mark.parametrize(
    "name", ["expected_calibration_error", "maximum_calibration_error", "brier_decomposition"]
)
@given(data=binary_forecasts(), strategy=strategies, n_bins=bin_counts)
def test_binned_summaries_are_the_reference(name, data, strategy, n_bins) -> None:
    y, p, w = data
    options = {"sample_weight": w, "n_bins": n_bins, "strategy": strategy}
    ours = getattr(assay, name)(y, p, **options)
    theirs = getattr(assay.reference, name)(y, p, **options)
    if name == "brier_decomposition":
        assert set(theirs) <= set(ours.to_dict())
        for part, value in theirs.items():
            assert getattr(ours, part) == pytest.approx(value, rel=RTOL, abs=ATOL), part
        assert ours.brier_score == pytest.approx(
            assay.brier_score_loss(y, p, sample_weight=w), rel=RTOL, abs=ATOL
        )
    else:
        assert ours == pytest.approx(theirs, rel=RTOL, abs=ATOL)


@given(data=binary_forecasts(), n_bins=bin_counts)
def test_forecasts_equal_within_bins_decompose_exactly(data, n_bins) -> None:
    """Murphy's three terms alone when every bin holds one forecast value: forecasts
    issued at the bins' midpoints (the within-bin terms vanish: ``p_i = f_b``)."""
    y, p, w = data
    midpoints = (np.floor(p * n_bins).clip(0, n_bins - 1) + 0.5) / n_bins
    parts = assay.brier_decomposition(y, midpoints, sample_weight=w, n_bins=n_bins)
    assert parts.within_bin_variance == pytest.approx(0.0, abs=ATOL)
    assert parts.within_bin_covariance == pytest.approx(0.0, abs=ATOL)
    assert parts.murphy_total == pytest.approx(parts.brier_score, rel=1e-9, abs=1e-12)


def test_hand_worked_decomposition() -> None:
    """Forecasts 1/4 (three rows, one positive) and 3/4 (two rows, both positive), five
    uniform bins: REL = (3 (1/4 - 1/3)^2 + 2 (1/4)^2) / 5 = 7/240, RES = (3 (1/3 - 3/5)^2
    + 2 (2/5)^2) / 5 = 8/75, UNC = 3/5 * 2/5 = 6/25, BS = 0.8125 / 5 = 13/80."""
    parts = assay.brier_decomposition([0, 0, 1, 1, 1], [0.25, 0.25, 0.25, 0.75, 0.75], n_bins=5)
    assert parts.reliability == pytest.approx(float(Fraction(7, 240)), rel=RTOL)
    assert parts.resolution == pytest.approx(float(Fraction(8, 75)), rel=RTOL)
    assert parts.uncertainty == pytest.approx(float(Fraction(6, 25)), rel=RTOL)
    assert parts.brier_score == pytest.approx(float(Fraction(13, 80)), rel=RTOL)
    assert float(Fraction(7, 240) - Fraction(8, 75) + Fraction(6, 25)) == pytest.approx(13 / 80)
    assert (parts.within_bin_variance, parts.within_bin_covariance) == (0.0, 0.0)
    assert str(parts) == (
        "Brier score 0.1625 = reliability 0.0292 - resolution 0.1067 + uncertainty 0.2400 "
        "+ within-bin 0.0000 (5 uniform bins)"
    )


def test_within_bin_terms_of_a_hand_worked_example() -> None:
    """One bin (n_bins=1) holding forecasts 0.25 (negative) and 0.75 (positive): the
    bin's mean forecast 1/2 equals its frequency, so REL = 0 and RES = 0; UNC = 1/4;
    WBV = 1/16; WBC = 2 (-1/4 * -1/2 + 1/4 * 1/2) / 2 = 1/4; BS = 1/16."""
    parts = assay.brier_decomposition([0, 1], [0.25, 0.75], n_bins=1)
    assert (parts.reliability, parts.resolution, parts.uncertainty) == (0.0, 0.0, 0.25)
    assert (parts.within_bin_variance, parts.within_bin_covariance) == (0.0625, 0.25)
    assert parts.brier_score == 0.0625


def test_hand_worked_calibration_errors() -> None:
    """Two bins: {0.2, 0.4} (frequency 0, mean forecast 0.3) and {0.6, 0.8} (frequency
    1, mean 0.7): gaps 0.3 and 0.3."""
    y, p = [0, 1, 1, 0], [0.2, 0.8, 0.6, 0.4]
    assert assay.expected_calibration_error(y, p, n_bins=2) == pytest.approx(0.3)
    assert assay.maximum_calibration_error(y, p, n_bins=2) == pytest.approx(0.3)
    # gap of bin 2 becomes |1 - 0.65| = 0.35 with weights 3 on 0.6 and 1 on 0.8 ...
    weights = [1.0, 1.0, 3.0, 1.0]
    assert assay.maximum_calibration_error(y, p, n_bins=2, sample_weight=weights) == (
        pytest.approx(0.35)
    )
    # ... and ECE = (2 * 0.3 + 4 * 0.35) / 6
    assert assay.expected_calibration_error(y, p, n_bins=2, sample_weight=weights) == (
        pytest.approx((2 * 0.3 + 4 * 0.35) / 6)
    )


def test_forecasts_on_an_edge_go_to_the_lower_bin() -> None:
    # 0.5 is the inner edge of two uniform bins: it joins 0.2 (scikit-learn's rule)
    prob_true, prob_pred = assay.calibration_curve([0, 1, 1], [0.2, 0.5, 0.9], n_bins=2)
    np.testing.assert_allclose(prob_pred, [0.35, 0.9])
    np.testing.assert_allclose(prob_true, [0.5, 1.0])


def test_a_decomposition_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match=r"must add up to the score: .* brier_score = 0\.5"):
        BrierDecomposition(
            brier_score=0.5,
            reliability=0.1,
            resolution=0.0,
            uncertainty=0.25,
            within_bin_variance=0.0,
            within_bin_covariance=0.0,
            n_bins=10,
            strategy="uniform",
        )


def test_the_decomposition_is_a_frozen_result() -> None:
    parts = assay.brier_decomposition([0, 1, 1], [0.2, 0.6, 0.9])
    with pytest.raises(AttributeError):
        parts.reliability = 0.0  # type: ignore[misc]
    assert parts.to_dict()["n_bins"] == 10 and "reliability=" in repr(parts)


@pytest.mark.parametrize(
    "function",
    [
        assay.calibration_curve,
        assay.expected_calibration_error,
        assay.maximum_calibration_error,
        assay.brier_decomposition,
    ],
)
@pytest.mark.parametrize(
    ("arguments", "keywords", "message"),
    [
        (([0, 1], [0.2, 0.8]), {"n_bins": 0}, r"`n_bins` must be an integer >= 1; got 0"),
        (([0, 1], [0.2, 0.8]), {"n_bins": 2.5}, r"`n_bins` must be an integer >= 1; got 2.5"),
        (
            ([0, 1], [0.2, 0.8]),
            {"strategy": "equal"},
            r"`strategy` must be one of \['uniform', 'quantile'\]; got 'equal'",
        ),
        (([0, 1], [0.2, 1.8]), {}, r"`y_prob` contains 1 values outside \[0, 1\]"),
        (
            ([0, 1, 2], [0.2, 0.8, 0.5]),
            {},
            r"`y_true` holds 3 classes \[0, 1, 2\]",
        ),
        ((["a", "b"], [0.2, 0.8]), {}, r"`y_true` holds labels \['a', 'b'\]; pass `pos_label`"),
        (([0, 1], [0.2, 0.8]), {"sample_weight": [1.0, -1.0]}, "`sample_weight` contains 1 neg"),
    ],
)
def test_errors_name_the_argument_and_the_rule(function, arguments, keywords, message) -> None:
    with pytest.raises(ValueError, match=message):
        function(*arguments, **keywords)


@pytest.mark.parametrize("name", ["expected_calibration_error", "maximum_calibration_error"])
def test_bootstrap_of_the_calibration_errors(name) -> None:
    # a miscalibrated model (forecasts p, true probability p^2): the interval lies in
    # [0, 1] and away from 0, the estimate is the metric's value
    rng = np.random.default_rng(11)
    p = rng.random(1000)
    y = (rng.random(1000) < p**2).astype(int)
    metric = getattr(assay, name)
    result = assay.bootstrap(metric, y, p, n_resamples=200, rng=5, n_bins=5)
    assert result.estimate == metric(y, p, n_bins=5)
    low, high = result.confidence_interval
    assert 0.0 < low < result.estimate < high <= 1.0


def test_bootstrap_of_a_part_of_the_decomposition() -> None:
    # any part through a callable (the generic path): the reliability of forecasts 0.9
    # for events of frequency about 0.5 is about 0.16
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 400)
    p = np.full(400, 0.9)

    def reliability(y_true, y_prob, sample_weight=None):
        return assay.brier_decomposition(y_true, y_prob, sample_weight=sample_weight).reliability

    result = assay.bootstrap(reliability, y, p, n_resamples=200, rng=2)
    low, high = result.confidence_interval
    assert low < 0.16 < high
    assert result.estimate == pytest.approx((0.9 - y.mean()) ** 2, rel=RTOL)
