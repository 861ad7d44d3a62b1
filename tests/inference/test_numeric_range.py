"""Analytic intervals and tests at the edges of float64: counts near 1e300, integer
weights beyond 2**53, scores near 1e300, weights of 1e-310 and 1e300.

Expected values come from an independent high-precision evaluation (``decimal``, 60
digits) of the Wilson formula, from exact integer arithmetic, or from the exact scaling
of every intermediate by a power of two (the result on scores times 2**k is the result
on the scores, times 2**k, bit for bit).  The suite runs with ``-W error``: a bare
``RuntimeWarning`` fails a test.
"""

from __future__ import annotations

import decimal

import numpy as np
import pytest
from scipy.special import betainc, gammaincinv, ndtri

import assay
from assay.exceptions import DegenerateDataWarning

reference = pytest.importorskip("assay.reference")

# The float64 evaluation against the 60-digit one: a few roundings, far below 1e-12.
HIGH_PRECISION_RTOL = 1e-12


def _wilson_in_decimal(k: int, n: int, level: float) -> tuple[float, float]:
    """Wilson (1927) bounds ``(p + z²/2n -+ z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``."""
    with decimal.localcontext() as context:
        context.prec = 60
        z = decimal.Decimal(float(-ndtri((1.0 - level) / 2.0)))
        p = decimal.Decimal(k) / decimal.Decimal(n)
        trials = decimal.Decimal(n)
        centre = p + z * z / (2 * trials)
        spread = z * (p * (1 - p) / trials + z * z / (4 * trials * trials)).sqrt()
        denominator = 1 + z * z / trials
        return float((centre - spread) / denominator), float((centre + spread) / denominator)


@pytest.mark.parametrize(
    ("k", "n"),
    [
        (5 * 10**200, 10**201),  # once (0, 1): 4 k (n - k) overflowed
        (3 * 10**307, 10**308),  # 2 n overflows too
        (12345678901234567890, 98765432109876543210),
        (1, 10**300),
        (10**300 - 1, 10**300),
        (17, 40),  # ordinary counts: the same formula
    ],
    ids=["5e200 of 1e201", "3e307 of 1e308", "1e19 of 1e20", "1 of 1e300", "n-1", "17 of 40"],
)
def test_wilson_interval_of_huge_counts_matches_high_precision(k, n):
    result = assay.proportion_ci(k, n)
    low, high = _wilson_in_decimal(k, n, 0.95)
    assert result.confidence_interval.low == pytest.approx(low, rel=HIGH_PRECISION_RTOL)
    assert result.confidence_interval.high == pytest.approx(high, rel=HIGH_PRECISION_RTOL)
    assert result.estimate == k / n
    normal = assay.proportion_ci(k, n, method="normal").confidence_interval
    assert normal.low <= k / n <= normal.high


# Beta(k, n) with n >> k is Gamma(k) / n up to a relative O(k / n + 1 / n): below this
# for the counts used here (k / n <= 1e-6).
POISSON_LIMIT_RTOL = 1e-5


@pytest.mark.parametrize(
    ("k", "n"),
    [
        (1000, 10**9),  # the lower Clopper-Pearson bound was twice the truth (above k/n)
        (1000, 10**12),  # 16 times the truth
        (10, 10**10),
        (3, 10**15),
        (1, 10**300),  # the Jeffreys bound was NaN
        (2, 10**300),
    ],
    ids=["1e3 of 1e9", "1e3 of 1e12", "10 of 1e10", "3 of 1e15", "1 of 1e300", "2 of 1e300"],
)
@pytest.mark.parametrize("method", ["clopper_pearson", "jeffreys"])
def test_exact_intervals_of_rare_events_match_the_poisson_limit(k, n, method):
    # an independent computation: the lower bound is the alpha/2 quantile of
    # Beta(k + a, n - k + 1 - a) (a = 0.5 for Jeffreys), i.e. Gamma(k + a) / n here;
    # the upper one that of Beta(k + 1 - a, n - k + a)
    shift = 0.5 if method == "jeffreys" else 0.0
    interval = assay.proportion_ci(k, n, method=method).confidence_interval
    low = gammaincinv(k + shift, 0.025) / n
    high = gammaincinv(k + 1 - shift, 0.975) / n
    assert interval.low == pytest.approx(low, rel=POISSON_LIMIT_RTOL)
    assert interval.high == pytest.approx(high, rel=POISSON_LIMIT_RTOL)
    assert interval.low < k / n < interval.high


# |I_x(a, b) - q| / q at the returned bound: one unit in the last place of the bound
# moves I_x by its density times that unit, up to 2e-9 relative for counts near 1e13
# (a standard deviation of 9e-8 spans only 1.6e9 floats); betainc itself is accurate
# to about 1e-13 there.
DEFINING_EQUATION_RTOL = 1e-8


@pytest.mark.parametrize(
    ("k", "n"),
    [(17, 40), (1000, 10**9), (10**4, 10**12), (5 * 10**7, 10**8), (10**13, 3 * 10**13)],
)
@pytest.mark.parametrize("method", ["clopper_pearson", "jeffreys"])
def test_exact_interval_bounds_solve_their_defining_equation(k, n, method):
    # Clopper and Pearson (1934): P(X >= k | p_low) = alpha/2 = P(X <= k | p_high),
    # i.e. I_low(k, n - k + 1) = 0.025 and I_high(k + 1, n - k) = 0.975 (Jeffreys:
    # the Beta(k + 1/2, n - k + 1/2) quantiles)
    interval = assay.proportion_ci(k, n, method=method).confidence_interval
    if method == "clopper_pearson":
        low_shape, high_shape = (k, n - k + 1), (k + 1, n - k)
    else:
        low_shape = high_shape = (k + 0.5, n - k + 0.5)
    assert betainc(*low_shape, interval.low) == pytest.approx(0.025, rel=DEFINING_EQUATION_RTOL)
    assert betainc(*high_shape, interval.high) == pytest.approx(0.975, rel=DEFINING_EQUATION_RTOL)


@pytest.mark.parametrize("method", ["clopper_pearson", "jeffreys"])
def test_exact_intervals_of_counts_beyond_2_to_the_106_enclose_the_proportion(method):
    # the interval is narrower than a unit in the last place of k/n
    for k, n in [(10**40, 10**60), (5 * 10**200, 10**201), (10**300 - 1, 10**300)]:
        interval = assay.proportion_ci(k, n, method=method).confidence_interval
        assert interval.low <= k / n <= interval.high
        assert interval.high - interval.low <= 2 * np.spacing(k / n)


def test_counts_beyond_float64_are_refused_by_name():
    message = r"^`n` has 402 digits, beyond the float64 range \(about 1\.8e308\)"
    with pytest.raises(ValueError, match=message):
        assay.proportion_ci(10**400, 10**401)


@pytest.mark.parametrize("weights", [[2**53, 1, 1, 1], [2.0**53, 1.0, 1.0, 1.0]])
def test_error_rate_interval_counts_integer_weights_exactly(weights):
    # one misclassified row of weight 1 among 2**53 + 3 examples: once counted as 2
    result = assay.error_rate_ci([0, 1, 0, 1], [0, 1, 1, 1], sample_weight=weights)
    assert result.details["n_errors"] == 1
    assert result.n == 2**53 + 3
    assert result.estimate == 1 / (2**53 + 3)
    expected = assay.proportion_ci(1, 2**53 + 3)
    assert result.confidence_interval == expected.confidence_interval
    errors_heavy = assay.error_rate_ci([0, 1, 0, 1], [1, 1, 0, 1], sample_weight=weights)
    assert errors_heavy.details["n_errors"] == 2**53  # once 2**53 + 1


@pytest.mark.parametrize("power", [900, -900])
def test_fold_tests_scale_exactly_with_the_scores(power):
    # once (-inf, inf) near 1e300: the sum of squared deviations overflowed
    rng = np.random.default_rng(77)
    a = 1.0 + rng.normal(scale=0.1, size=10)
    b = 0.9 + rng.normal(scale=0.1, size=10)
    factor = 2.0**power
    for test in (assay.paired_ttest, assay.welch_ttest):
        ordinary, scaled = test(a, b), test(a * factor, b * factor)
        assert scaled.statistic == ordinary.statistic
        assert scaled.pvalue == ordinary.pvalue
        assert scaled.df == ordinary.df
        assert scaled.estimate == ordinary.estimate * factor
        assert scaled.standard_error == ordinary.standard_error * factor
        assert scaled.confidence_interval.low == ordinary.confidence_interval.low * factor
        assert scaled.confidence_interval.high == ordinary.confidence_interval.high * factor
    corrected = assay.corrected_resampled_ttest(a * factor, b * factor, n_train=90, n_test=10)
    expected = assay.corrected_resampled_ttest(a, b, n_train=90, n_test=10)
    assert (corrected.statistic, corrected.estimate) == (
        expected.statistic,
        expected.estimate * factor,
    )
    for test in (assay.ttest_5x2cv, assay.ftest_5x2cv):
        ordinary = test(a.reshape(5, 2), b.reshape(5, 2))
        scaled = test(a.reshape(5, 2) * factor, b.reshape(5, 2) * factor)
        assert (scaled.statistic, scaled.pvalue) == (ordinary.statistic, ordinary.pvalue)
        assert scaled.estimate == ordinary.estimate * factor
        with np.errstate(over="ignore"):  # s_i^2 near 1e540 are beyond float64: inf
            expected_variances = ordinary.details["variances"] * factor * factor
        np.testing.assert_array_equal(scaled.details["variances"], expected_variances)
    interval = assay.mean_ci(a * factor).confidence_interval
    ordinary_interval = assay.mean_ci(a).confidence_interval
    assert (interval.low, interval.high) == (
        ordinary_interval.low * factor,
        ordinary_interval.high * factor,
    )


def test_the_reported_fold_score_cases_are_finite():
    a = np.array([1e300, 1.2e300, 0.9e300, 1.1e300, 1.3e300])
    for result in (assay.paired_ttest(a, a * 0.9), assay.mean_ci(a)):
        assert np.isfinite(result.confidence_interval.low)
        assert np.isfinite(result.confidence_interval.high)
        assert result.confidence_interval.low < result.estimate < result.confidence_interval.high


def test_auc_interval_of_tiny_weights_names_the_total_weight_not_one_class():
    y_true, y_score = [0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8]
    # both classes are present; their total weight (2e-310 each) is below 1, which
    # DeLong's (U - 1)(W - 1) frequency variance cannot use
    with pytest.warns(DegenerateDataWarning, match=r"needs more than one of each"):
        result = assay.auc_ci(y_true, y_score, sample_weight=[1e-310] * 4)
    assert result.estimate == assay.roc_auc_score(y_true, y_score) == 1.0


def test_delong_test_of_huge_weights_equals_that_of_large_ones():
    # with weights of 2**1000 the products U (U - 1) overflowed into NaN; at 2**100 the
    # "- 1" is already invisible, so the two tests must agree to float precision
    rng = np.random.default_rng(8)
    y_true = rng.integers(0, 2, 80)
    score_a = y_true + rng.normal(size=80)
    score_b = y_true + rng.normal(scale=2.0, size=80)
    counts = rng.integers(1, 5, 80).astype(np.float64)
    huge = assay.delong_test(y_true, score_a, score_b, sample_weight=counts * 2.0**1000)
    large = assay.delong_test(y_true, score_a, score_b, sample_weight=counts * 2.0**100)
    assert np.isfinite(huge.statistic)
    assert huge.statistic == pytest.approx(large.statistic * 2.0**450, rel=1e-12)


@pytest.mark.parametrize("test", ["sign_test", "wilcoxon_signed_rank"])
def test_sign_tests_of_scores_whose_differences_overflow(test):
    # scores of 1.7e308 and -1.5e308 differ by more than the largest float64: a bare
    # "overflow encountered in subtract" and ties among infinite differences; only the
    # signs and the order of the differences count, which halving keeps
    a = np.array([1.7e308, -1.6e308, 1.5e308, -1.2e308, 1.0e308, 0.5e308, -0.2e308])
    b = np.array([-1.5e308, 1.4e308, -1.6e308, 0.1e308, 0.2e308, -1.6e308, 0.3e308])
    ours = getattr(assay, test)(a, b)
    exact = getattr(reference, test)(a / 4, b / 4)  # the same signs and order
    assert (ours.statistic, ours.pvalue) == pytest.approx(
        (exact["statistic"], exact["pvalue"]), rel=HIGH_PRECISION_RTOL
    )
