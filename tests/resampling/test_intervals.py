"""Percentile, basic and BCa intervals, and the summary of a bootstrap distribution.

Expected values come from three places, named at each test: ``scipy.stats.bootstrap``
run on the same replicates (same quantile definition, so agreement to rounding), the
BCa formulas of Efron & Tibshirani (1993, ch. 14) evaluated here with
``scipy.stats.norm``, and hand counts.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

from assay.exceptions import DegenerateDataWarning, UndefinedMetricWarning
from assay.resampling._intervals import (
    acceleration,
    basic_interval,
    bca_interval,
    bca_levels,
    bias_correction,
    bootstrap_summary,
    percentile_interval,
)

# Same replicates and the same quantile definition as scipy: the results differ only by
# the order of floating-point operations (a few ulps), far below this.
SCIPY_AGREEMENT = 1e-12
# Sums of a few dozen terms of order 1, compared with a closed form.
ROUNDING = 1e-12

LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99)


def _scipy_bootstrap(sample: np.ndarray, statistic, method: str, confidence_level: float):
    """scipy's result on ``sample`` with a fixed generator (same seed for every method)."""
    return stats.bootstrap(
        (sample,),
        statistic,
        n_resamples=999,
        method=method,
        confidence_level=confidence_level,
        rng=np.random.default_rng(7),
    )


def _leave_one_out(sample: np.ndarray, statistic) -> np.ndarray:
    return np.array([statistic(np.delete(sample, i)) for i in range(sample.shape[0])])


@pytest.fixture(scope="module")
def skewed_sample() -> np.ndarray:
    # Exponential: skewed, so the BCa acceleration is clearly non-zero.
    return np.random.default_rng(20240501).exponential(size=25)


# --- Agreement with scipy.stats.bootstrap -----------------------------------------------


@pytest.mark.parametrize("confidence_level", LEVELS)
def test_percentile_interval_equals_scipy(skewed_sample, confidence_level) -> None:
    result = _scipy_bootstrap(skewed_sample, np.mean, "percentile", confidence_level)
    interval = percentile_interval(result.bootstrap_distribution, confidence_level)
    np.testing.assert_allclose(interval, result.confidence_interval, rtol=SCIPY_AGREEMENT)


@pytest.mark.parametrize("confidence_level", LEVELS)
def test_basic_interval_equals_scipy(skewed_sample, confidence_level) -> None:
    result = _scipy_bootstrap(skewed_sample, np.mean, "basic", confidence_level)
    interval = basic_interval(
        result.bootstrap_distribution, np.mean(skewed_sample), confidence_level
    )
    np.testing.assert_allclose(interval, result.confidence_interval, rtol=SCIPY_AGREEMENT)


@pytest.mark.parametrize("confidence_level", LEVELS)
def test_bca_interval_equals_scipy_for_the_mean(skewed_sample, confidence_level) -> None:
    # The mean has no ties at the estimate: both bias-correction rules coincide.
    result = _scipy_bootstrap(skewed_sample, np.mean, "BCa", confidence_level)
    distribution = result.bootstrap_distribution
    estimate = np.mean(skewed_sample)
    assert not np.any(distribution == estimate)
    jackknife = _leave_one_out(skewed_sample, np.mean)
    assert abs(acceleration(jackknife, np.ones_like(jackknife))) > 0.01  # BCa != BC
    interval = bca_interval(
        distribution, estimate, jackknife, np.ones_like(jackknife), confidence_level
    )
    np.testing.assert_allclose(interval, result.confidence_interval, rtol=SCIPY_AGREEMENT)


def test_bca_interval_with_grouped_jackknife_and_ties_equals_scipy() -> None:
    # The median of small integers: most replicates equal the estimate, and the n
    # leave-one-out medians take two distinct values.  scipy counts ties one half too
    # (percentileofscore's 'mean' rule), and it expands the jackknife to one value per
    # row; here the distinct values come with their multiplicities.
    sample = np.random.default_rng(11).integers(0, 6, size=15).astype(np.float64)
    result = _scipy_bootstrap(sample, np.median, "BCa", 0.95)
    distribution = result.bootstrap_distribution
    estimate = np.median(sample)
    assert np.count_nonzero(distribution == estimate) > 100
    values, counts = np.unique(_leave_one_out(sample, np.median), return_counts=True)
    assert values.shape[0] < sample.shape[0]
    interval = bca_interval(distribution, estimate, values, counts, 0.95)
    np.testing.assert_allclose(interval, result.confidence_interval, rtol=SCIPY_AGREEMENT)


# --- Bias correction: ties count one half -----------------------------------------------


def test_ties_at_the_estimate_count_one_half() -> None:
    # 3 below, 4 tied, 3 above: (3 + 4/2) / 10 = 0.5, so z0 = 0.  Efron & Tibshirani
    # (section 14.3) count only the 3 below: z0 = Phi^-1(0.3) = -0.524, a large shift
    # that the ties alone cause.
    distribution = np.array([1.0, 2.0, 3.0, 5.0, 5.0, 5.0, 5.0, 7.0, 8.0, 9.0])
    assert bias_correction(distribution, 5.0) == 0.0
    strictly_below_rule = stats.norm.ppf(np.mean(distribution < 5.0))
    assert strictly_below_rule == pytest.approx(-0.5244, abs=1e-4)


def test_ties_shift_the_bca_interval_as_the_formula_says() -> None:
    # 60 below, 30 tied, 10 above the estimate 0: proportion (60 + 15) / 100 = 0.75.
    # With a = 0 the levels are Phi(2 z0 + z_alpha) (Efron & Tibshirani 1993, section 14.3
    # with a = 0), evaluated here with scipy.stats.norm.
    distribution = np.concatenate(
        [-np.linspace(1.0, 60.0, 60), np.zeros(30), np.linspace(1.0, 10.0, 10)]
    )
    z0 = stats.norm.ppf(0.75)
    assert bias_correction(distribution, 0.0) == pytest.approx(z0, abs=ROUNDING)
    z = stats.norm.ppf([0.05, 0.95])
    expected = np.quantile(distribution, stats.norm.cdf(2 * z0 + z))
    symmetric_jackknife = np.array([-1.0, 0.0, 1.0])
    interval = bca_interval(distribution, 0.0, symmetric_jackknife, [1, 1, 1], 0.9)
    np.testing.assert_allclose(interval, expected, rtol=ROUNDING)


def test_replicates_equal_to_the_estimate_up_to_rounding_are_ties() -> None:
    # 0.1 + 0.2 != 0.3 in floating point; in exact arithmetic they are equal.
    assert 0.1 + 0.2 != 0.3
    assert bias_correction([0.1 + 0.2, 0.2, 0.4], 0.3) == 0.0  # (1 + 1/2) / 3 = 0.5


def test_bias_correction_is_infinite_when_the_estimate_is_outside() -> None:
    assert bias_correction([2.0, 3.0], 1.0) == -np.inf
    assert bias_correction([2.0, 3.0], 4.0) == np.inf


# --- Acceleration from grouped jackknife values -----------------------------------------


def _acceleration_per_row(values: np.ndarray) -> float:
    """Efron & Tibshirani (1993), section 14.3, one jackknife value per row."""
    deviations = values.mean() - values
    return np.sum(deviations**3) / (6.0 * np.sum(deviations**2) ** 1.5)


def test_grouped_jackknife_equals_one_value_per_row() -> None:
    rng = np.random.default_rng(3)
    values = rng.normal(size=6) ** 2
    counts = rng.integers(1, 9, size=6)
    expanded = np.repeat(values, counts)
    assert acceleration(values, counts) == pytest.approx(
        _acceleration_per_row(expanded), rel=ROUNDING
    )
    # Groups with count 0 are ignored, even if their value is not finite.
    with_empty = acceleration(np.append(values, np.nan), np.append(counts, 0))
    assert with_empty == pytest.approx(acceleration(values, counts), rel=ROUNDING)


def test_counts_are_multiplicities_not_relative_weights() -> None:
    # Doubling every count doubles the number of rows: a shrinks by sqrt(2).
    values = np.array([0.0, 1.0, 3.0])
    single = acceleration(values, [1.0, 2.0, 1.0])
    assert acceleration(values, [2.0, 4.0, 2.0]) == pytest.approx(
        single / np.sqrt(2.0), rel=ROUNDING
    )
    assert np.isfinite(acceleration(values, [0.5, 1.25, 0.75]))  # non-integer weights


def test_acceleration_of_a_one_sided_outlier() -> None:
    # One leave-one-out value at -1 and k at 0: sum c d^3 = (k^3 - k) / (k + 1)^3 and
    # sum c d^2 = k / (k + 1), worked by hand from the definition.
    k = 3
    expected = ((k**3 - k) / (k + 1) ** 3) / (6.0 * (k / (k + 1)) ** 1.5)
    assert acceleration([-1.0, 0.0], [1, k]) == pytest.approx(expected, rel=ROUNDING)
    assert acceleration([-1.0, 0.0], [1, k]) > 0.0


def test_acceleration_is_nan_without_jackknife_variance() -> None:
    assert np.isnan(acceleration([0.25, 0.25], [3, 4]))
    assert np.isnan(acceleration([0.7], [10]))
    # Leave-one-out values equal in exact arithmetic but not in floating point.
    assert np.isnan(acceleration([0.3, 0.1 + 0.2], [1, 1]))
    assert np.isnan(acceleration([0.5, np.nan], [1, 1]))


# --- Adjusted levels --------------------------------------------------------------------


@pytest.mark.parametrize(
    "z0, a, confidence_level",
    [(0.0, 0.0, 0.95), (0.2, 0.0, 0.9), (0.0, 0.05, 0.95), (-0.3, 0.1, 0.8), (0.1, -0.08, 0.99)],
)
def test_bca_levels_follow_the_formula(z0, a, confidence_level) -> None:
    # Efron & Tibshirani (1993), section 14.3, evaluated with scipy.stats.norm.
    alpha = 1.0 - confidence_level
    z = stats.norm.ppf([alpha / 2, 1.0 - alpha / 2])
    expected = stats.norm.cdf(z0 + (z0 + z) / (1.0 - a * (z0 + z)))
    np.testing.assert_allclose(bca_levels(z0, a, confidence_level), expected, rtol=ROUNDING)


def test_bca_interval_with_known_z0_and_acceleration() -> None:
    # 600 of 1000 replicates below the estimate: z0 = Phi^-1(0.6); jackknife values
    # (-1 once, 0 three times): a by hand as in test_acceleration_of_a_one_sided_outlier.
    distribution = np.arange(1000.0)
    estimate = 599.5
    k = 3
    a = ((k**3 - k) / (k + 1) ** 3) / (6.0 * (k / (k + 1)) ** 1.5)
    z0 = stats.norm.ppf(0.6)
    z = stats.norm.ppf([0.025, 0.975])
    expected = np.quantile(distribution, stats.norm.cdf(z0 + (z0 + z) / (1.0 - a * (z0 + z))))
    interval = bca_interval(distribution, estimate, [-1.0, 0.0], [1, k], 0.95)
    np.testing.assert_allclose(interval, expected, rtol=ROUNDING)


def test_symmetric_case_reproduces_the_percentile_interval() -> None:
    # Replicates symmetric about the estimate (z0 = 0) and symmetric jackknife values
    # (a = 0): the BCa levels are alpha/2 and 1 - alpha/2.
    half = np.random.default_rng(5).normal(size=500)
    distribution = np.concatenate([half, -half]) + 2.0
    jackknife = np.array([-0.3, -0.1, 0.1, 0.3])
    assert bias_correction(distribution, 2.0) == 0.0
    assert acceleration(jackknife, [1, 2, 2, 1]) == 0.0
    for level in LEVELS:
        np.testing.assert_allclose(
            bca_interval(distribution, 2.0, jackknife, [1, 2, 2, 1], level),
            percentile_interval(distribution, level),
            rtol=ROUNDING,
        )


def test_degenerate_levels_are_nan() -> None:
    assert np.isnan(bca_levels(np.inf, 0.0, 0.95)).all()
    assert np.isnan(bca_levels(0.0, np.nan, 0.95)).all()


def test_levels_past_the_pole_keep_its_limit() -> None:
    # a = 0.9, z0 = 0: the upper w = 1.96 is past the pole 1 / a = 1.11, where
    # Phi(w / (1 - a w)) reaches 1; the lower w = -1.96 is not (formula of Efron &
    # Tibshirani 1993, section 14.3, with scipy.stats.norm).
    z = stats.norm.ppf(0.025)
    expected_low = stats.norm.cdf(z / (1.0 - 0.9 * z))
    low, high = bca_levels(0.0, 0.9, 0.95)
    assert low == pytest.approx(expected_low, rel=ROUNDING) and high == 1.0
    # a < 0 mirrors it: the lower level past the pole is 0
    assert bca_levels(0.0, -0.9, 0.95) == pytest.approx((0.0, 1.0 - expected_low), rel=ROUNDING)
    assert bca_levels(6.0, 0.0, 0.95) == (1.0, 1.0)  # Phi(13.96) == 1.0 in float64


def test_a_bca_bound_past_the_pole_is_the_extreme_replicate() -> None:
    # 99 below and 1 tied: z0 = Phi^-1(0.995); jackknife -1 once, 0 thirty times gives
    # a = 0.158 (by hand as in test_acceleration_of_a_one_sided_outlier), pole at
    # w = 1 / a = 6.31.  At 95 % the upper w = 4.54 is before it (its level rounds to 1);
    # at 99.99 % the upper w = 6.47 is past it: the level keeps the limit 1 (no fallback).
    distribution = np.arange(100.0)
    k = 30
    a = ((k**3 - k) / (k + 1) ** 3) / (6.0 * (k / (k + 1)) ** 1.5)
    z0 = stats.norm.ppf(0.995)
    for level, past_the_pole in [(0.95, False), (0.9999, True)]:
        alpha = 1.0 - level
        w = z0 + stats.norm.ppf([alpha / 2, 1.0 - alpha / 2])
        assert (1.0 - a * w[1] < 0.0) == past_the_pole and 1.0 - a * w[0] > 0.0
        expected_low = np.quantile(distribution, stats.norm.cdf(z0 + w[0] / (1.0 - a * w[0])))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no fallback, no warning
            low, high = bca_interval(distribution, 99.0, [-1.0, 0.0], [1, k], level)
        assert low == pytest.approx(expected_low, rel=ROUNDING)
        assert high == distribution.max()


# --- Degenerate BCa falls back to the percentile interval -------------------------------

_SKEWED = np.linspace(0.0, 1.0, 101) ** 2


@pytest.mark.parametrize(
    "distribution, estimate, jackknife_values, jackknife_counts, reason",
    [
        (np.full(50, 0.8), 0.8, [0.7, 0.9], [1, 1], r"all 50 bootstrap replicates are equal"),
        (_SKEWED, -1.0, [0.7, 0.9], [1, 1], r"every bootstrap replicate lies above the est"),
        (_SKEWED, 2.0, [0.7, 0.9], [1, 1], r"every bootstrap replicate lies below the est"),
        (_SKEWED, 0.25, [0.5, 0.5], [4, 6], r"the acceleration is undefined"),
        (_SKEWED, 0.25, [0.5, np.nan], [4, 6], r"the acceleration is undefined"),
    ],
)
def test_degenerate_bca_warns_and_returns_the_percentile_interval(
    distribution, estimate, jackknife_values, jackknife_counts, reason
) -> None:
    with pytest.warns(DegenerateDataWarning, match=r"The BCa interval is undefined: " + reason):
        interval = bca_interval(distribution, estimate, jackknife_values, jackknife_counts, 0.95)
    assert interval == percentile_interval(distribution, 0.95)
    assert np.all(np.isfinite(interval))


def test_degenerate_warning_points_at_the_requested_frame() -> None:
    def api_function():  # stands for a public function calling bca_interval
        return bca_interval(np.ones(5), 1.0, [0.0, 1.0], [1, 1], 0.95, stacklevel=3)

    with pytest.warns(DegenerateDataWarning) as record:
        api_function()
    assert record[0].filename == __file__
    assert record[0].lineno == api_function.__code__.co_firstlineno + 4  # this test's call


# --- bootstrap_summary ------------------------------------------------------------------


def test_summary_drops_and_counts_nan_replicates() -> None:
    defined = np.array([0.61, 0.7, 0.74, 0.8, 0.66, 0.72, 0.69])
    distribution = np.insert(defined, [0, 3, 3], np.nan)
    with pytest.warns(UndefinedMetricWarning, match=r"undefined in 3 of 10 bootstrap replicates"):
        summary = bootstrap_summary(distribution, 0.7, method="basic", confidence_level=0.8)
    assert summary.n_undefined == 3
    np.testing.assert_array_equal(summary.bootstrap_distribution, defined)
    assert summary.standard_error == np.std(defined, ddof=1)
    assert summary.bias == pytest.approx(np.mean(defined) - 0.7, abs=ROUNDING)
    assert summary.confidence_interval == basic_interval(defined, 0.7, 0.8)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_summary_dispatches_to_the_interval_of_the_method(skewed_sample, method) -> None:
    result = _scipy_bootstrap(skewed_sample, np.mean, method, 0.9)
    jackknife = _leave_one_out(skewed_sample, np.mean)
    summary = bootstrap_summary(
        result.bootstrap_distribution,
        np.mean(skewed_sample),
        method=method,
        confidence_level=0.9,
        jackknife_values=jackknife,
        jackknife_counts=np.ones_like(jackknife),
    )
    assert summary.n_undefined == 0 and summary.method == method
    np.testing.assert_allclose(
        summary.confidence_interval, result.confidence_interval, rtol=SCIPY_AGREEMENT
    )
    np.testing.assert_allclose(summary.standard_error, result.standard_error, rtol=ROUNDING)


def test_summary_of_all_nan_replicates_is_nan() -> None:
    with pytest.warns(UndefinedMetricWarning, match=r"undefined in all 4 bootstrap replicates"):
        summary = bootstrap_summary(
            np.full(4, np.nan), 0.5, method="bca", jackknife_values=[1.0], jackknife_counts=[1.0]
        )
    assert np.isnan(summary.confidence_interval).all()
    assert np.isnan(summary.standard_error) and np.isnan(summary.bias)
    assert summary.n_undefined == 4 and summary.bootstrap_distribution.shape == (0,)


def test_summary_of_a_single_defined_replicate_has_no_standard_error() -> None:
    with pytest.warns(UndefinedMetricWarning) as record:
        summary = bootstrap_summary([np.nan, 0.4], 0.5)
    messages = [str(w.message) for w in record]
    assert any(
        "needs at least two defined bootstrap replicates; there is 1" in m for m in messages
    )
    assert np.isnan(summary.standard_error)
    assert summary.confidence_interval == (0.4, 0.4)
    assert summary.bias == pytest.approx(-0.1)


@pytest.mark.parametrize("method", ["basic", "bca"])
def test_summary_with_an_undefined_estimate(method) -> None:
    with pytest.warns(UndefinedMetricWarning, match=rf"the bias and the {method} interval is NaN"):
        summary = bootstrap_summary(
            [0.1, 0.2, 0.3],
            np.nan,
            method=method,
            jackknife_values=[0.0, 1.0],
            jackknife_counts=[1, 1],
        )
    assert np.isnan(summary.confidence_interval).all() and np.isnan(summary.bias)
    assert np.isfinite(summary.standard_error)


def test_summary_percentile_interval_needs_no_estimate() -> None:
    with pytest.warns(UndefinedMetricWarning, match=r"The estimate is nan; the bias is NaN"):
        summary = bootstrap_summary([0.1, 0.2, 0.3], np.nan)
    assert summary.confidence_interval == percentile_interval([0.1, 0.2, 0.3], 0.95)


def test_summary_bca_fallback_warns_at_the_callers_frame() -> None:
    with pytest.warns(DegenerateDataWarning) as record:
        summary = bootstrap_summary(
            np.full(8, 0.5),
            0.5,
            method="bca",
            jackknife_values=[0.4, 0.6],
            jackknife_counts=[1, 1],
        )
    assert record[0].filename == __file__
    assert summary.confidence_interval == (0.5, 0.5)
    assert summary.method == "percentile"  # the method used, not the one asked for
