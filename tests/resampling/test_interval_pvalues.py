"""Bootstrap p-values that invert bootstrap intervals.

The defining property is tested over random replicate sets: for every interval method,
alternative and confidence level ``c`` of a grid, ``p < 1 - c`` exactly when the reported
interval at ``c`` excludes 0 (no tolerance: the p-value inverts the computed interval).
Expected values elsewhere are hand counts of the type-7 quantile, stated at each test, or
come from scipy.stats.norm.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.resampling import _interval_pvalues
from assay.resampling._interval_pvalues import (
    bootstrap_pvalue,
    interval_family,
    inverted_interval,
    tail_thresholds,
)
from assay.resampling._intervals import (
    acceleration,
    basic_interval,
    bca_interval,
    bca_level,
    bias_correction,
    percentile_interval,
)
from tests.strategies import bootstrap_replicates, jackknife_values

# Hand-computed p-values are ratios of small integers; the computed ones are settled
# against the floating-point interval, which moves them by a few units in the last place.
ROUNDING = 1e-13

# Confidence levels of the duality checks: the usual ones, levels whose tails fall on the
# grid j / (B - 1) of the sizes 21, 41, 101 and 201, and dyadic levels (exact tails).
LEVELS = (0.5, 0.75, 0.8, 0.875, 0.9, 0.95, 0.96, 0.975, 0.98, 0.99, 0.995, 0.999)
METHODS = ("percentile", "basic", "bca")
ALTERNATIVES = ("two-sided", "greater", "less")


def _excludes_zero(interval) -> bool:
    low, high = interval
    return bool(low > 0.0 or high < 0.0)


def _family(method, values, estimate, jackknife):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # BCa may fall back
        return interval_family(values, estimate, method, *jackknife)


# --- The defining property --------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(
    bootstrap_replicates(),
    st.floats(-1.0, 1.0, allow_subnormal=False) | st.sampled_from([0.0, 0.0625, -0.125]),
    jackknife_values(),
    st.sampled_from(METHODS),
    st.floats(0.01, 0.999),
)
def test_pvalue_is_below_alpha_exactly_when_the_interval_excludes_zero(
    values, estimate, jackknife, method, extra_level
) -> None:
    family = _family(method, values, estimate, jackknife)
    for alternative in ALTERNATIVES:
        pvalues = set()
        for level in (*LEVELS, extra_level):
            interval, pvalue = inverted_interval(family, level, alternative, (-3.0, 3.0))
            assert 0.0 <= pvalue <= 1.0
            assert (pvalue < 1.0 - level) == _excludes_zero(interval), (alternative, level)
            pvalues.add(pvalue)
        assert len(pvalues) == 1  # one p-value, whatever level the interval is shown at


@settings(max_examples=60, deadline=None)
@given(
    bootstrap_replicates(),
    st.floats(-1.0, 1.0, allow_subnormal=False),
    jackknife_values(),
    st.sampled_from(LEVELS),
)
def test_the_two_sided_interval_is_the_interval_of_the_intervals_module(
    values, estimate, jackknife, level
) -> None:
    # Bit for bit: the p-value inverts the interval that percentile_interval,
    # basic_interval and bca_interval return.
    wide = (-np.inf, np.inf)
    percentile = inverted_interval(_family("percentile", values, estimate, jackknife), level,
                                   "two-sided", wide)[0]  # fmt: skip
    assert percentile == percentile_interval(values, level)
    basic = inverted_interval(_family("basic", values, estimate, jackknife), level,
                              "two-sided", wide)[0]  # fmt: skip
    assert basic == basic_interval(values, estimate, level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        expected = bca_interval(values, estimate, *jackknife, level)
    bca = inverted_interval(_family("bca", values, estimate, jackknife), level, "two-sided",
                            wide)[0]  # fmt: skip
    assert bca == expected


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("tail", [1 / 4, 1 / 8, 1 / 16, 1 / 32])
def test_a_one_sided_bound_is_the_two_sided_bound_with_twice_the_tail(method, tail) -> None:
    # With dyadic tails 1 - (1 - 2 t) == 2 t exactly, so the one-sided interval at 1 - t
    # must share its finite bound with the two-sided interval at 1 - 2 t.
    rng = np.random.default_rng(41)
    values = rng.gamma(2.0, 0.01, size=999) - 0.01
    jackknife = (rng.normal(size=40) ** 2, np.ones(40))
    family = _family(method, values, 0.012, jackknife)
    two_sided = inverted_interval(family, 1.0 - 2.0 * tail, "two-sided")[0]
    greater = inverted_interval(family, 1.0 - tail, "greater", (-1.0, 1.0))[0]
    less = inverted_interval(family, 1.0 - tail, "less", (-1.0, 1.0))[0]
    assert greater == (two_sided.low, 1.0)
    assert less == (-1.0, two_sided.high)


# --- Hand-worked values -----------------------------------------------------------------

# -2.5, -1.5, ..., 6.5 (B = 10): q(u) = -2.5 + 9 u, which is 0 at u = 5 / 18.
SHIFTED = np.arange(10.0) - 2.5


@pytest.mark.parametrize(
    "alternative, expected",
    [("greater", 5 / 18), ("less", 13 / 18), ("two-sided", 10 / 18)],
)
def test_percentile_pvalue_by_hand(alternative, expected) -> None:
    assert bootstrap_pvalue(SHIFTED, 2.0, alternative) == pytest.approx(expected, rel=ROUNDING)


@pytest.mark.parametrize(
    "difference, alternative, expected",
    [
        # replicates 1..10, q(u) = 1 + 9 u; d = 3: q = 2 d = 6 at u = 5 / 9.  The lower
        # bound 6 - q(1 - t) is above 0 when 1 - t < 5 / 9: T = 4 / 9; the upper bound
        # 6 - q(t) is below 0 when t > 5 / 9.
        (3.0, "greater", 4 / 9),
        (3.0, "less", 5 / 9),
        (3.0, "two-sided", 8 / 9),
        # d = 6: 2 d = 12 is above every replicate, every lower bound is above 0.
        (6.0, "greater", 0.0),
        (6.0, "two-sided", 0.0),
        (6.0, "less", 1.0),
    ],
)
def test_basic_pvalue_by_hand(difference, alternative, expected) -> None:
    pvalue = bootstrap_pvalue(np.arange(1.0, 11.0), difference, alternative, interval="basic")
    assert pvalue == pytest.approx(expected, rel=ROUNDING, abs=ROUNDING)


def test_bca_without_bias_or_skewness_is_the_percentile_pvalue() -> None:
    # SHIFTED has 5 replicates below its median 2.0 (z0 = 0); symmetric jackknife: a = 0.
    assert bias_correction(SHIFTED, 2.0) == 0.0
    assert acceleration([-1.0, 0.0, 1.0], [1, 1, 1]) == 0.0
    pvalue = bootstrap_pvalue(
        SHIFTED, 2.0, "greater", interval="bca", jackknife_values=[-1.0, 0.0, 1.0],
        jackknife_counts=[1, 1, 1],
    )  # fmt: skip
    assert pvalue == pytest.approx(5 / 18, rel=ROUNDING)


def test_bca_pvalue_follows_efrons_levels() -> None:
    # The BCa lower bound q(Phi(z0 + w / (1 - a w))), w = z0 + Phi^-1(t), reaches 0 where
    # its level is u = 5 / 18 (q(u) = 0): solve with scipy.stats.norm and brentq.
    k = 3  # jackknife -1 once, 0 three times: a by hand (test_intervals.py)
    a = ((k**3 - k) / (k + 1) ** 3) / (6.0 * (k / (k + 1)) ** 1.5)
    z0 = stats.norm.ppf(0.6)  # 6 of 10 replicates below 2.5 (none tied)
    assert bias_correction(SHIFTED, 2.6) == pytest.approx(z0, rel=ROUNDING)

    def level_minus_crossing(t):
        w = z0 + stats.norm.ppf(t)
        return stats.norm.cdf(z0 + w / (1.0 - a * w)) - 5 / 18

    from scipy.optimize import brentq

    expected = brentq(level_minus_crossing, 1e-12, 0.5, xtol=1e-15)
    pvalue = bootstrap_pvalue(
        SHIFTED, 2.6, "greater", interval="bca", jackknife_values=[-1.0, 0.0],
        jackknife_counts=[1, k],
    )  # fmt: skip
    assert pvalue == pytest.approx(expected, rel=1e-9)  # brentq's and ndtri's accuracy


@settings(max_examples=100, deadline=None)
@given(bootstrap_replicates(), st.floats(-1.0, 1.0, allow_subnormal=False))
def test_interpolated_pvalues_are_within_one_grid_step_of_the_counts(values, estimate) -> None:
    # The percentile p-value is the interpolated share of replicates at or below 0 and
    # the basic one the interpolated centred test #{d* >= 2 d} / B (Hall & Wilson 1991):
    # they differ from the plain shares by less than one level step 1 / (B - 1).
    b = values.shape[0]
    if b < 2:
        return
    step = 1.0 / (b - 1) + ROUNDING
    lower, upper = tail_thresholds(interval_family(values, estimate, "percentile"))
    assert lower == pytest.approx(np.mean(values <= 0.0), abs=step)
    assert upper == pytest.approx(np.mean(values >= 0.0), abs=step)
    lower, upper = tail_thresholds(interval_family(values, estimate, "basic"))
    # d* - d >= d, that is d* >= 2 d
    assert lower == pytest.approx(np.mean(values >= 2.0 * estimate), abs=step)
    assert upper == pytest.approx(np.mean(values <= 2.0 * estimate), abs=step)


@settings(max_examples=100, deadline=None)
@given(
    bootstrap_replicates(),
    st.floats(-1.0, 1.0, allow_subnormal=False),
    jackknife_values(),
    st.sampled_from(METHODS),
)
def test_the_analytic_inversion_needs_only_the_last_bits_settled(
    values, estimate, jackknife, method
) -> None:
    family = _family(method, values, estimate, jackknife)
    analytic = np.clip(_interval_pvalues._analytic_thresholds(family), 0.0, 1.0)
    np.testing.assert_allclose(tail_thresholds(family), analytic, rtol=1e-9, atol=1e-12)


# --- Edges ------------------------------------------------------------------------------


def test_replicates_on_one_side_give_zero() -> None:
    # 0 is outside even the widest interval [min, max]: it is excluded at every level.
    values = np.linspace(0.01, 0.05, 200)
    assert bootstrap_pvalue(values, 0.03, "greater") == 0.0
    assert bootstrap_pvalue(values, 0.03, "two-sided") == 0.0
    assert bootstrap_pvalue(values, 0.03, "less") == 1.0


def test_replicates_all_zero_give_one() -> None:
    assert bootstrap_pvalue(np.zeros(50), 0.0, "two-sided") == 1.0
    assert bootstrap_pvalue(np.zeros(1), 0.0, "greater") == 1.0


def test_degenerate_bca_inverts_the_percentile_interval() -> None:
    values = np.full(30, 0.02)
    with pytest.warns(DegenerateDataWarning, match=r"the percentile interval and the p-value"):
        family = interval_family(values, 0.02, "bca", [0.1, 0.2], [1, 1])
    assert family.method == "percentile"
    with pytest.warns(DegenerateDataWarning, match=r"all 30 bootstrap replicates are equal"):
        pvalue = bootstrap_pvalue(
            values, 0.02, "two-sided", interval="bca", jackknife_values=[0.1, 0.2],
            jackknife_counts=[1, 1],
        )  # fmt: skip
    assert pvalue == bootstrap_pvalue(values, 0.02, "two-sided") == 0.0


def test_an_undefined_difference_leaves_only_the_percentile_pvalue() -> None:
    with pytest.warns(UndefinedMetricWarning, match=r"`difference` is NaN") as record:
        assert np.isnan(bootstrap_pvalue(SHIFTED, np.nan, "two-sided", interval="basic"))
    assert record[0].filename == __file__
    assert bootstrap_pvalue(SHIFTED, np.nan, "greater") == pytest.approx(5 / 18, rel=ROUNDING)


def test_bounds_are_kept_in_the_range() -> None:
    # basic: 2 d - q(alpha / 2) = 1.8 - 0.7 = 1.1 leaves the range (-1, 1) of an AUC
    # difference; clipping keeps it at 1 and does not move the bound across 0.
    values = np.linspace(0.7, 1.0, 101)
    family = interval_family(values, 0.9, "basic")
    assert basic_interval(values, 0.9, 0.9).high > 1.0
    (low, high), pvalue = inverted_interval(family, 0.9, "two-sided", (-1.0, 1.0))
    assert high == 1.0 and low == basic_interval(values, 0.9, 0.9).low > 0.0
    assert pvalue < 0.1


def test_bca_levels_at_infinite_quantiles_are_the_limits() -> None:
    # Phi(z0 + w / (1 - a w)) as w -> +-inf: past the pole the limit 0 or 1; before it,
    # the asymptote Phi(z0 - 1 / a).  A tail level of 0 or 1 gives such a quantile.
    assert bca_level(0.2, 0.1, np.inf) == 1.0
    assert bca_level(0.2, -0.1, -np.inf) == 0.0
    assert bca_level(0.2, 0.1, -np.inf) == pytest.approx(stats.norm.cdf(0.2 - 10.0), rel=ROUNDING)
    assert bca_level(0.2, -0.1, np.inf) == pytest.approx(stats.norm.cdf(0.2 + 10.0), rel=ROUNDING)
    assert bca_level(0.2, 0.0, np.inf) == 1.0 and bca_level(0.2, 0.0, -np.inf) == 0.0


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_bca_pvalue_of_replicates_on_one_side_with_either_acceleration(sign) -> None:
    # every replicate above 0; the search for the upper threshold evaluates the interval
    # at tail levels next to 0, where Phi^-1(1 - t) is infinite
    values = np.linspace(0.01, 0.05, 200)
    jackknife = (sign * np.array([0.0, 0.0, 0.0, 1.0]), np.ones(4))
    family = interval_family(values, 0.03, "bca", *jackknife)
    assert np.sign(family.acceleration) == -sign
    assert tail_thresholds(family) == (0.0, 1.0)
