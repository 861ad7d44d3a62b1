"""Tests of the synthetic data generators and the exact Bayes error rate."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from assay import reference as ref
from assay.protocols import (
    bayes_error_rate,
    polynomial_regression_data,
    polynomial_truth,
    two_gaussians,
)

# The Simpson-rule reference is accurate to about 1e-9 (kinks of the minimum).
SIMPSON_ATOL = 1e-8


def test_polynomial_truth_is_eq4():
    # Wu, "Evaluation", eq. 4: F(x) = 3 (x - 0.2)^2 - 7 (x - 0.2) + 4.2.
    x = np.array([0.2, 1.2, -0.8, 0.2 + 7 / 6])
    expected = [4.2, 3 - 7 + 4.2, 3 + 7 + 4.2, 4.2 - 49 / 12]
    np.testing.assert_allclose(polynomial_truth(x), expected, rtol=1e-15, atol=1e-15)


def test_polynomial_data_shapes_range_and_noise():
    x, y, truth = polynomial_regression_data(50_000, rng=3, x_range=(-1.0, 2.0))
    assert x.shape == y.shape == truth.shape == (50_000,)
    assert x.min() >= -1.0 and x.max() < 2.0
    np.testing.assert_array_equal(truth, polynomial_truth(x))
    noise = y - truth
    # e ~ N(0, 1) (eq. 5): mean within 5 standard errors, variance within 5 SE (2/n)^0.5.
    assert abs(noise.mean()) < 5 / math.sqrt(50_000)
    assert abs(noise.var() - 1.0) < 5 * math.sqrt(2 / 50_000)
    assert stats.kstest(noise, "norm").pvalue > 1e-4
    assert stats.kstest(x, "uniform", args=(-1.0, 3.0)).pvalue > 1e-4


def test_polynomial_data_is_reproducible_and_noise_free_at_zero_sd():
    first = polynomial_regression_data(20, rng=11)
    second = polynomial_regression_data(20, rng=11)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    generator = np.random.default_rng(11)
    _, y, truth = polynomial_regression_data(20, rng=generator, noise_sd=0.0)
    np.testing.assert_array_equal(y, truth)
    x, _, _ = polynomial_regression_data(5, rng=1)
    assert x.min() >= -3.0 and x.max() < 3.0  # default range


def test_two_gaussians_exercise7_moments_and_bayes_labels():
    # Exercise 7 of Wu, "Evaluation": N(-1, 0.25) vs N(1, 0.25), 0.25 the variance.
    x, y, bayes = two_gaussians(40_000, rng=5, labels=(1, 2))
    assert set(np.unique(y)) <= {1, 2}
    first, second = x[y == 1], x[y == 2]
    assert abs(first.mean() + 1.0) < 5 * 0.5 / math.sqrt(first.size)
    assert abs(second.var() - 0.25) < 5 * 0.25 * math.sqrt(2 / second.size)
    assert abs((y == 2).mean() - 0.5) < 5 * 0.5 / math.sqrt(y.size)
    # Equal priors and variances: the Bayes rule is the midpoint threshold 0.
    np.testing.assert_array_equal(bayes, np.where(x > 0, 2, 1))
    # Its error rate estimates Phi(-2).
    error = (bayes != y).mean()
    expected = stats.norm.cdf(-2.0)
    assert abs(error - expected) < 5 * math.sqrt(expected * (1 - expected) / y.size)


def test_two_gaussians_unequal_priors_shift_the_threshold():
    # Threshold (m1 + m2)/2 + v ln(p1/p2)/(m2 - m1) = 0.25 ln(0.8/0.2)/2 for these.
    x, _, bayes = two_gaussians(2000, rng=0, priors=(0.8, 0.2))
    threshold = 0.25 * math.log(4.0) / 2.0
    np.testing.assert_array_equal(bayes, (x > threshold).astype(int))


def test_bayes_error_rate_exercise7():
    # Equal priors, equal variances: Phi(-|m1 - m2| / (2 sigma)) = Phi(-2) (sigma = 0.5).
    assert bayes_error_rate() == pytest.approx(stats.norm.cdf(-2.0), rel=1e-14)
    assert bayes_error_rate() == pytest.approx(0.022750131948179, rel=1e-12)
    assert ref.bayes_error_rate() == pytest.approx(bayes_error_rate(), abs=SIMPSON_ATOL)


@pytest.mark.parametrize(
    ("means", "variances", "priors"),
    [
        ((-1.0, 1.0), 0.25, (0.5, 0.5)),
        ((0.0, 3.0), (1.0, 4.0), (0.3, 0.7)),
        ((0.0, 0.0), (1.0, 2.0), (0.5, 0.5)),
        ((0.0, 0.5), (1.0, 0.1), (0.9, 0.1)),
        ((2.0, -1.0), 1.0, (0.6, 0.4)),
        ((0.0, 0.0), 1.0, (0.3, 0.7)),
        ((0.0, 40.0), 1.0, (0.5, 0.5)),
    ],
)
def test_bayes_error_rate_matches_numerical_integration(means, variances, priors):
    exact = bayes_error_rate(means=means, variances=variances, priors=priors)
    integral = ref.bayes_error_rate(means=means, variances=variances, priors=priors)
    assert exact == pytest.approx(integral, abs=SIMPSON_ATOL)
    assert 0.0 <= exact <= min(priors)


def test_bayes_error_rate_far_apart_keeps_relative_precision():
    # Phi(-20) ~ 2.75e-89: computed from the tail, not as 1 - Phi(20) (which is 0).
    value = bayes_error_rate(means=(0.0, 40.0), variances=1.0)
    assert value == pytest.approx(stats.norm.sf(20.0), rel=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: polynomial_regression_data(0), "`n` must be a positive integer"),
        (lambda: polynomial_regression_data(2.5), "`n` must be a positive integer"),
        (lambda: polynomial_regression_data(3, noise_sd=-1.0), "`noise_sd` must be"),
        (lambda: polynomial_regression_data(3, noise_sd="1"), "`noise_sd` must be"),
        (lambda: polynomial_regression_data(3, x_range=(1.0, 1.0)), "low < high"),
        (lambda: polynomial_regression_data(3, x_range=(0.0,)), "`x_range` must be a pair"),
        (lambda: polynomial_regression_data(3, rng=-1), "`rng` must be None"),
        (lambda: two_gaussians(3, variances=(1.0, 0.0)), "`variances` must be positive"),
        (lambda: two_gaussians(3, priors=(0.5, 0.6)), "`priors` must be two positive"),
        (lambda: two_gaussians(3, labels=(1, 1)), "`labels` must be two distinct"),
        (lambda: bayes_error_rate(means=(0.0, np.inf)), "`means` must be a pair of finite"),
        (lambda: bayes_error_rate(priors=(0.0, 1.0)), "`priors` must be two positive"),
    ],
)
def test_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()
