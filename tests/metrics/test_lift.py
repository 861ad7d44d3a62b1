"""lift_score and cumulative_gain_curve: against the exact reference (ties, constant scores,
one class, zero weights), their properties, examples by hand, and bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
import assay.reference as reference
from assay import UndefinedMetricWarning
from tests.strategies import binary_ranking_data, population_fractions

# Against the exact reference: the kernel rounds the cut f (P + N) and a handful of sums
# and quotients, each to a relative 2**-53; 1e-12 leaves a wide margin.
REFERENCE_RTOL = 1e-12
# Reading the gain off the curve (np.interp) rounds the interpolation once more.
CURVE_RTOL = 1e-12
# A point of the curve is a ratio of float sums of up to 60 fractional weights, each sum
# off by up to 60 roundings: 1e-12 again bounds it with margin.
CURVE_POINT_RTOL = 1e-12

# Wu, "Evaluation", exercise 5, Table 3 (class 1 positive, class 2 written as 0).
TABLE3_LABELS = np.array([1, 0, 1, 1, 0, 1, 0, 0, 1, 0])
TABLE3_SCORES = np.array([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])


def quietly(function, *args, **kwargs):
    """Call ``function``; return its value and the UndefinedMetricWarnings it emitted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return value, [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]


@given(data=binary_ranking_data(max_n=60), fraction=population_fractions())
def test_lift_is_the_reference_value(data, fraction) -> None:
    y, s, w = data
    expected = reference.lift_score(y, s, fraction, sample_weight=w)
    value, caught = quietly(assay.lift_score, y, s, fraction, sample_weight=w)
    positive_weight = np.sum(y == 1) if w is None else np.sum(w[y == 1])
    assert len(caught) == (positive_weight == 0)  # warned exactly when undefined
    if math.isnan(expected):
        assert math.isnan(value)
    else:
        assert value == pytest.approx(expected, rel=REFERENCE_RTOL)


@given(data=binary_ranking_data(max_n=60))
def test_cumulative_gain_curve_is_the_reference_curve(data) -> None:
    y, s, w = data
    expected = reference.cumulative_gain_curve(y, s, sample_weight=w)
    curve, caught = quietly(assay.cumulative_gain_curve, y, s, sample_weight=w)
    assert len(caught) == bool(np.all(np.isnan(expected[1])))
    for ours, theirs in zip(curve, expected, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=CURVE_POINT_RTOL, atol=0.0, equal_nan=True)
    assert curve.fraction[0] == 0.0 and curve.fraction[-1] == 1.0
    assert curve.thresholds[0] == np.inf


@given(data=binary_ranking_data(max_n=60, both_classes=True), fraction=population_fractions())
def test_lift_is_the_gain_curve_read_at_the_fraction(data, fraction) -> None:
    # straight lines between the points of the curve are the proportional rule for ties
    y, s, w = data
    fractions, gains, _ = assay.cumulative_gain_curve(y, s, sample_weight=w)
    gain = np.interp(fraction, fractions, gains)
    assert assay.lift_score(y, s, fraction, sample_weight=w) * fraction == pytest.approx(
        gain, rel=CURVE_RTOL, abs=1e-300
    )


@given(data=binary_ranking_data(max_n=60, both_classes=True), fraction=population_fractions())
def test_a_constant_score_has_lift_one(data, fraction) -> None:
    # one tie group straddling every cut: the top share f holds the share f of positives
    y, _, w = data
    lift = assay.lift_score(y, np.zeros(y.shape[0]), fraction, sample_weight=w)
    assert lift == pytest.approx(1.0, rel=REFERENCE_RTOL)


@given(data=binary_ranking_data(max_n=60, both_classes=True), fraction=population_fractions())
def test_a_perfect_ranking_has_the_largest_lift(data, fraction) -> None:
    # every positive first: gain min(1, f T / P), so lift min(1 / f, T / P)
    y, _, w = data
    weights = np.ones(y.shape[0]) if w is None else w
    total, positive = weights.sum(), weights[y == 1].sum()
    best = assay.lift_score(y, y.astype(float), fraction, sample_weight=w)
    assert best == pytest.approx(min(1.0 / fraction, total / positive), rel=REFERENCE_RTOL)


@given(
    data=binary_ranking_data(max_n=60, both_classes=True),
    fraction=population_fractions(),
    exponent=st.integers(-60, 60),
)
def test_increasing_transforms_and_power_of_two_weights_change_no_bit(data, fraction, exponent):
    y, s, w = data
    weights = np.ones(y.shape[0]) if w is None else w
    weights = np.where(weights > 0, np.maximum(weights, 1e-3), 0.0)  # scaled stay normal
    lift = assay.lift_score(y, s, fraction, sample_weight=weights)
    ranks = np.unique(s, return_inverse=True)[1] * 3.0 - 7.0  # keeps ties exactly
    assert assay.lift_score(y, ranks, fraction, sample_weight=weights) == lift
    assert assay.lift_score(y, s, fraction, sample_weight=np.ldexp(weights, exponent)) == lift


@given(data=binary_ranking_data(max_n=60), fraction=population_fractions())
def test_unit_weights_are_no_weights_bit_for_bit(data, fraction) -> None:
    y, s, _ = data
    value, _ = quietly(assay.lift_score, y, s, fraction)
    weighted, _ = quietly(assay.lift_score, y, s, fraction, sample_weight=np.ones(y.shape[0]))
    assert value == weighted or (math.isnan(value) and math.isnan(weighted))


def test_table_3_of_wu_by_hand() -> None:
    # ranked: + - + + - + - - + -, five positives of ten rows
    lift = [assay.lift_score(TABLE3_LABELS, TABLE3_SCORES, f) for f in (0.1, 0.2, 0.25, 0.5)]
    # top 1 row: 1/5 of the positives in 1/10 of the rows, lift 2; top 2 rows: 1/5 in
    # 1/5, lift 1; top 2.5 rows (half of the third, a positive): 1.5/5 in 1/4, lift 6/5;
    # top 5 rows: 3/5 in 1/2, lift 6/5
    assert lift == pytest.approx([2.0, 1.0, 1.2, 1.2], rel=1e-15)
    fraction, gain, thresholds = assay.cumulative_gain_curve(TABLE3_LABELS, TABLE3_SCORES)
    np.testing.assert_allclose(fraction, np.arange(11) / 10, rtol=1e-15)
    np.testing.assert_allclose(gain, np.array([0, 1, 1, 2, 3, 3, 4, 4, 4, 5, 5]) / 5, rtol=1e-15)
    np.testing.assert_array_equal(thresholds, np.concatenate([[np.inf], TABLE3_SCORES]))


def test_a_tie_at_the_cut_counts_in_proportion_whatever_the_row_order() -> None:
    # groups 0.9 = {+}, 0.5 = {-, +, +}; the top 3 of 6 rows take the first row and 2 of
    # the 3 tied rows, which hold 2/3 positives: gain (1 + 4/3) / 3 = 7/9, lift 14/9
    y = np.array([1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.5, 0.5, 0.5, 0.2, 0.1])
    assert assay.lift_score(y, s, 0.5) == pytest.approx(14 / 9, rel=1e-15)
    for order in ([0, 2, 3, 1, 4, 5], [5, 3, 1, 4, 2, 0]):  # tied rows in other orders
        assert assay.lift_score(y[order], s[order], 0.5) == assay.lift_score(y, s, 0.5)


def test_weights_measure_the_population() -> None:
    # + (3), - (1), + (4), - (2): the top 60% of the weight is 6 units, rows 1-2 and half
    # of row 3: gain (3 + 2) / 7, lift (5/7) / (3/5) = 25/21
    value = assay.lift_score([1, 0, 1, 0], [4, 3, 2, 1], 0.6, sample_weight=[3, 1, 4, 2])
    assert value == pytest.approx(25 / 21, rel=1e-15)


def test_one_class() -> None:
    with pytest.warns(UndefinedMetricWarning, match=r"^No positive samples in `y_true`; the lift"):
        assert math.isnan(assay.lift_score([0, 0, 0], [0.3, 0.2, 0.1], 0.5))
    with pytest.warns(UndefinedMetricWarning, match=r"^No positive samples in `y_true`; the gain"):
        _, gain, _ = assay.cumulative_gain_curve([0, 0, 0], [0.3, 0.2, 0.1])
    assert np.all(np.isnan(gain))
    # only positives: any selection is as good as random
    assert assay.lift_score([1, 1, 1, 1], [4, 3, 2, 1], 0.5) == 1.0


def test_zero_weight_rows_are_absent_rows() -> None:
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
    w = np.array([1.0, 0.0, 2.0, 1.0, 0.0, 3.0])
    keep = w > 0
    assert assay.lift_score(y, s, 0.4, sample_weight=w) == assay.lift_score(
        y[keep], s[keep], 0.4, sample_weight=w[keep]
    )
    with_zeros = assay.cumulative_gain_curve(y, s, sample_weight=w)
    without = assay.cumulative_gain_curve(y[keep], s[keep], sample_weight=w[keep])
    for a, b in zip(with_zeros, without, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("fraction", "shown"),
    [
        (0, "0"),
        (0.0, "0.0"),
        (-0.1, "-0.1"),
        (1.5, "1.5"),
        (float("nan"), "nan"),
        (float("inf"), "inf"),
        (np.float64(2.0), "2.0"),
        (True, "True"),
        ("0.1", "'0.1'"),
        (None, "None"),
    ],
)
def test_a_fraction_outside_the_unit_interval_is_refused(fraction, shown) -> None:
    message = (
        r"^`fraction` must be a number in \(0, 1\], the top share of the population "
        rf"\(0\.1 for the top decile\); got {shown}\.$"
    )
    with pytest.raises(ValueError, match=message):
        assay.lift_score([0, 1], [0.1, 0.2], fraction)


def test_other_bad_input_is_refused_with_the_shared_messages() -> None:
    with pytest.raises(ValueError, match=r"`y_score` contains 1 NaN value"):
        assay.lift_score([0, 1], [0.1, np.nan], 0.5)
    with pytest.raises(ValueError, match=r"pass `pos_label`"):
        assay.cumulative_gain_curve(["a", "b"], [0.1, 0.2])
    assert assay.lift_score(["a", "b"], [0.1, 0.2], 0.5, pos_label="b") == 2.0
