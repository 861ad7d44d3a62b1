"""risk_bound, risk_bound_sample_size and the Hoeffding interval of a proportion.

Independent checks: the bound solves ``2 |H| exp(-2 n eps^2) = delta`` (put back into the
inequality of "Estimation of the hypothesis real risk", Theorem 6.5.1), the sample size
is the smallest ``n`` meeting it, and the interval is the reference's formula.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import assay
from assay import reference

# One logarithm, one division and one square root away from the defining equation.
BOUND_RTOL = 1e-13


@given(
    n=st.integers(1, 10**9),
    n_hypotheses=st.integers(1, 10**30),
    delta=st.floats(1e-12, 1.0, exclude_max=True),
)
def test_risk_bound_solves_the_inequality(n, n_hypotheses, delta):
    epsilon = assay.risk_bound(n, n_hypotheses=n_hypotheses, delta=delta)
    log_probability = math.log(2 * n_hypotheses) - 2 * n * epsilon**2
    assert log_probability == pytest.approx(math.log(delta), rel=BOUND_RTOL, abs=1e-12)


@given(
    epsilon=st.floats(1e-4, 2.0),
    n_hypotheses=st.integers(1, 10**6),
    delta=st.floats(1e-9, 0.5),
)
def test_sample_size_is_the_smallest_meeting_the_bound(epsilon, n_hypotheses, delta):
    n = assay.risk_bound_sample_size(epsilon, n_hypotheses=n_hypotheses, delta=delta)
    assert assay.risk_bound(n, n_hypotheses=n_hypotheses, delta=delta) <= epsilon
    if n > 1:
        assert assay.risk_bound(n - 1, n_hypotheses=n_hypotheses, delta=delta) > epsilon


def test_bounds_by_hand():
    # eps = sqrt(log(2 / 0.05) / 2000) = sqrt(3.68888 / 2000)
    assert assay.risk_bound(1000) == pytest.approx(math.sqrt(math.log(40) / 2000), rel=1e-15)
    assert assay.risk_bound(1000) == pytest.approx(0.042947, abs=1e-6)
    # n = log(40) / (2 * 0.01^2) = 18444.397... -> 18445
    assert assay.risk_bound_sample_size(0.01) == 18445
    # |H| = 1000: log(40000) / 2e-4 = 52983.17 -> 52984
    assert assay.risk_bound_sample_size(0.01, n_hypotheses=1000) == 52984
    assert assay.risk_bound_sample_size(5.0) == 1  # any one example meets a wide bound


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: assay.risk_bound(0), "`n` must be an integer >= 1; got 0"),
        (lambda: assay.risk_bound(10.0), "`n` must be an integer >= 1; got 10.0"),
        (lambda: assay.risk_bound(10, n_hypotheses=0), "`n_hypotheses` must be an integer >= 1"),
        (lambda: assay.risk_bound(10, delta=1.0), r"`delta` must be in \(0, 1\); got 1.0"),
        (lambda: assay.risk_bound(10, delta=0), r"`delta` must be in \(0, 1\); got 0"),
        (
            lambda: assay.risk_bound_sample_size(0.0),
            "`epsilon` must be a positive finite number; got 0.0",
        ),
        (
            lambda: assay.risk_bound_sample_size(math.inf),
            "`epsilon` must be a positive finite number; got inf",
        ),
        (
            lambda: assay.risk_bound_sample_size("0.1"),
            "`epsilon` must be a positive finite number; got '0.1'",
        ),
        (
            lambda: assay.risk_bound_sample_size(0.1, delta=2),
            r"`delta` must be in \(0, 1\); got 2",
        ),
    ],
)
def test_bound_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --- proportion_ci(method="hoeffding") -----------------------------------------------------


@given(
    n=st.integers(1, 10**7),
    share=st.floats(0.0, 1.0),
    confidence_level=st.floats(0.5, 0.999),
)
def test_hoeffding_interval_matches_the_reference_and_the_bound(n, share, confidence_level):
    k = round(share * n)
    result = assay.proportion_ci(k, n, confidence_level=confidence_level, method="hoeffding")
    _, low, high = reference.proportion_ci(
        k, n, confidence_level=confidence_level, method="hoeffding"
    )
    assert result.confidence_interval.low == pytest.approx(low, rel=1e-12, abs=1e-15)
    assert result.confidence_interval.high == pytest.approx(high, rel=1e-12, abs=1e-15)
    epsilon = assay.risk_bound(n, delta=1.0 - confidence_level)
    assert high <= k / n + epsilon * (1 + 1e-12) and low >= k / n - epsilon * (1 + 1e-12)
    assert result.method == "hoeffding" and "Hoeffding interval" in str(result)


def test_hoeffding_by_hand_and_through_error_rate_ci():
    # 10 errors of 100 at 95 %: eps = sqrt(log(40) / 200) = 0.135810
    result = assay.proportion_ci(10, 100, method="hoeffding")
    low, high = result.confidence_interval
    assert (low, high) == (0.0, pytest.approx(0.1 + math.sqrt(math.log(40) / 200), rel=1e-15))
    errors = assay.error_rate_ci([0] * 90 + [1] * 10, [0] * 100, method="hoeffding")
    assert errors.confidence_interval == result.confidence_interval


@pytest.mark.parametrize("n", [100, 1_000, 100_000])
def test_hoeffding_is_wider_than_wilson(n):
    # the table of the guide: at p = 0.1 Hoeffding's half-width sqrt(log(40) / 2n) is
    # about 2.3 times Wilson's (about z sqrt(p (1 - p) / n) for large n)
    k = n // 10
    hoeffding = assay.proportion_ci(k, n, method="hoeffding").confidence_interval
    wilson = assay.proportion_ci(k, n).confidence_interval
    ratio = (hoeffding.high - hoeffding.low) / (wilson.high - wilson.low)
    assert 1.8 < ratio < 2.6
    assert np.isclose(hoeffding.high - hoeffding.low, 2 * math.sqrt(math.log(40) / (2 * n))) or (
        hoeffding.low == 0.0
    )


@pytest.mark.parametrize("n", [1, 5, 20, 100, 1000])
def test_hoeffding_coverage_is_at_least_nominal_exactly(n):
    # the coverage at a true proportion p, computed exactly: the binomial probability of
    # the counts k whose interval holds p.  Hoeffding's bound promises >= 95 % for every
    # n and p; a few p in [0, 1], the ends included
    counts = np.arange(n + 1)
    bounds = np.array(
        [assay.proportion_ci(int(k), n, method="hoeffding").confidence_interval for k in counts]
    )
    for p in (0.0, 0.001, 0.05, 0.1, 0.3, 0.5, 0.77, 0.999, 1.0):
        holds = (bounds[:, 0] <= p) & (p <= bounds[:, 1])
        coverage = float(np.sum(stats.binom.pmf(counts, n, p)[holds]))
        assert coverage >= 0.95 - 1e-12, (n, p, coverage)
