"""Wilcoxon's signed-rank test and the sign test (``assay.inference._sign_tests``).

Expected values come from: hand counts of sign patterns, the ranking example of Gama,
"Evaluation of classification and regression algorithms", the reference twins in
``assay.reference`` (the exact null by enumerating all ``2^n`` sign patterns with exact
fractions), ``scipy.stats.wilcoxon`` where its method is the same (no ties and no zeros
for its exact table; its permutation test for small n with ties; its normal
approximation for 'wilcox' and 'pratt'), and
``scipy.stats.binomtest``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import assay
from assay import reference
from assay.exceptions import DegenerateDataWarning
from assay.inference._sign_tests import signed_rank_distribution

# p-values: exact sums of at most 2^16 dyadic terms vs fractions, or the same normal
# tail in another order of operations.
P_TOLERANCE = 1e-12
ALTERNATIVES = ("two-sided", "greater", "less")
ZERO_METHODS = ("wilcox", "pratt", "zsplit")


# --- Hand-checked values ------------------------------------------------------------------


def test_distribution_of_five_untied_ranks_by_hand() -> None:
    # Ranks 1..5: 32 sign patterns, R+ from 0 to 15.  R+ = 0 only by all minus (1/32);
    # R+ = 3 by {3} or {1, 2} (2/32); the distribution is symmetric about 7.5.
    distribution = signed_rank_distribution(np.array([2, 4, 6, 8, 10]))  # doubled ranks
    probabilities = distribution[::2]  # even entries: 2 R+ = 0, 2, ..., 30
    assert distribution[1::2].sum() == 0.0
    assert probabilities[0] == 1 / 32
    assert probabilities[3] == 2 / 32
    assert probabilities.sum() == 1.0
    np.testing.assert_array_equal(probabilities, probabilities[::-1])


def test_tied_distribution_by_hand() -> None:
    # |d| = 1, 1, 2: midranks 1.5, 1.5, 3 (doubled 3, 3, 6).  The 8 sign patterns give
    # R+ = 0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6.
    distribution = signed_rank_distribution(np.array([3, 3, 6]))
    expected = np.zeros(13)
    for value, count in ((0, 1), (3, 2), (6, 2), (9, 2), (12, 1)):
        expected[value] = count / 8
    np.testing.assert_array_equal(distribution, expected)
    # observed a - b = (1, -1, 2): R+ = 4.5, P(R+ >= 4.5) = 3/8
    result = assay.wilcoxon_signed_rank([1, -1, 2], [0, 0, 0], alternative="greater")
    assert result.statistic == 4.5
    assert result.pvalue == 3 / 8


def test_critical_value_for_ten_pairs() -> None:
    # Standard tables (e.g. Wilcoxon, Katti & Wilcox 1963): n = 10, P(R+ <= 8) = 25/1024
    # = 0.0244 and P(R+ <= 10) = 43/1024 = 0.0420; counted here from the distribution.
    distribution = signed_rank_distribution(2 * np.arange(1, 11))
    assert distribution[: 2 * 8 + 1].sum() * 1024 == 25
    assert distribution[: 2 * 10 + 1].sum() * 1024 == 43
    d = np.array([-1, -2, 3, -4, -5, -6, -7, 8, -9, -10.0])  # R+ = 3 + 8 = 11
    result = assay.wilcoxon_signed_rank(d, np.zeros(10), alternative="less")
    assert result.statistic == 11.0
    assert result.pvalue == pytest.approx(distribution[: 2 * 11 + 1].sum(), abs=1e-15)


def test_gama_slide_ranks_zeros_with_the_others() -> None:
    # Gama, "Wilcoxon signed-rank tests": the first four data sets of Demsar's
    # table, with the differences B - A = 0, 0, +0.006, -0.008 ranked 1.5, 1.5, 3, 4
    # (zeros ranked and split).  So with zero_method='zsplit': R+ = 3 + 1.5 = 4.5 and
    # R- = 4 + 1.5 = 5.5; with 'pratt' the zeros' ranks count in neither: 3 and 4.
    a = [0.583, 0.583, 0.882, 0.599]
    b = [0.583, 0.583, 0.888, 0.591]
    zsplit = assay.wilcoxon_signed_rank(b, a, zero_method="zsplit")
    assert (zsplit.details["r_plus"], zsplit.details["r_minus"]) == (4.5, 5.5)
    pratt = assay.wilcoxon_signed_rank(b, a, zero_method="pratt")
    assert (pratt.details["r_plus"], pratt.details["r_minus"]) == (3.0, 4.0)
    wilcox = assay.wilcoxon_signed_rank(b, a)  # zeros dropped: ranks 1 and 2
    assert (wilcox.details["r_plus"], wilcox.details["r_minus"]) == (1.0, 2.0)
    assert wilcox.details["n_zero"] == 2 and wilcox.details["n_nonzero"] == 2


# --- Agreement with scipy and the reference ----------------------------------------------


@st.composite
def _differences(draw, max_size: int = 14):
    """Differences on a coarse grid: many ties and exact zeros."""
    n = draw(st.integers(2, max_size))
    values = st.sampled_from([-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0])
    return np.array(draw(st.lists(values, min_size=n, max_size=n)))


@given(
    _differences(),
    st.sampled_from(ZERO_METHODS),
    st.sampled_from(ALTERNATIVES),
    st.sampled_from(["exact", "asymptotic"]),
    st.booleans(),
)
def test_agrees_with_reference_enumeration(d, zero_method, alternative, method, correction):
    b = np.zeros_like(d)  # the differences are exactly d
    expected = reference.wilcoxon_signed_rank(
        d, b, zero_method=zero_method, alternative=alternative, method=method,
        correction=correction,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = assay.wilcoxon_signed_rank(
            d, b, zero_method=zero_method, alternative=alternative, method=method,
            correction=correction,
        )  # fmt: skip
    assert result.statistic == expected["statistic"]
    assert result.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)
    if method == "asymptotic" and "z" in expected:
        assert result.details["z"] == pytest.approx(expected["z"], abs=1e-12)
    assert result.details["r_plus"] + result.details["r_minus"] == pytest.approx(
        sum(range(1, result.details["n_nonzero"] + 1))
        if zero_method == "wilcox"
        else d.shape[0] * (d.shape[0] + 1) / 2
        - (0 if zero_method == "zsplit" else _zero_rank_sum(d))
    )


def _zero_rank_sum(d: np.ndarray) -> float:
    n_zero = int(np.count_nonzero(d == 0))
    return n_zero * (n_zero + 1) / 2


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=25, unique_by=abs))
def test_exact_agrees_with_scipy_without_ties_or_zeros(values) -> None:
    d = np.array([v for v in values if v != 0], dtype=float)
    if d.shape[0] < 2:
        return
    for alternative in ALTERNATIVES:
        result = assay.wilcoxon_signed_rank(d, np.zeros_like(d), alternative=alternative)
        theirs = stats.wilcoxon(d, alternative=alternative, method="exact")
        assert result.pvalue == pytest.approx(theirs.pvalue, abs=P_TOLERANCE)
        if alternative != "two-sided":
            assert result.statistic == theirs.statistic
        else:  # scipy reports min(R+, R-) for the two-sided test
            details = result.details
            assert min(details["r_plus"], details["r_minus"]) == theirs.statistic


@settings(max_examples=15)  # scipy's permutation test takes ~0.2 s per call
@given(
    _differences(max_size=10), st.sampled_from(ALTERNATIVES), st.sampled_from(["wilcox", "pratt"])
)
def test_exact_with_ties_agrees_with_scipys_permutation_test(d, alternative, zero_method):
    # For n <= 13 with ties or zeros, scipy's method='auto' enumerates all 2^n sign
    # flips: the same exact conditional distribution.
    assume(np.any(d != 0))
    assume(np.any(d == 0) or np.unique(np.abs(d)).shape[0] < d.shape[0])
    result = assay.wilcoxon_signed_rank(
        d, np.zeros_like(d), alternative=alternative, zero_method=zero_method
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about zeros / exactness
        theirs = stats.wilcoxon(d, alternative=alternative, zero_method=zero_method)
    assert result.pvalue == pytest.approx(theirs.pvalue, abs=1e-9)


@given(
    st.lists(st.integers(-6, 6), min_size=8, max_size=80),
    st.sampled_from(["wilcox", "pratt"]),
    st.sampled_from(ALTERNATIVES),
    st.booleans(),
)
def test_asymptotic_agrees_with_scipy(values, zero_method, alternative, correction) -> None:
    d = np.array(values, dtype=float)
    result_kwargs = dict(zero_method=zero_method, alternative=alternative, method="asymptotic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if np.count_nonzero(d) == 0:
            return
        result = assay.wilcoxon_signed_rank(
            d, np.zeros_like(d), correction=correction, **result_kwargs
        )
        deviation = result.details["r_plus"] - 0.5 * (
            result.details["r_plus"] + result.details["r_minus"]
        )
        if correction and abs(deviation) < 0.5:
            return  # scipy's corrected z flips sign there; assay stops at 0 (documented)
        theirs = stats.wilcoxon(d, correction=correction, **result_kwargs)
    assert result.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-14)


def test_zsplit_without_zeros_is_wilcox() -> None:
    d = np.array([1.0, -2.0, 3.0, 3.0, 5.0, -0.5])
    zsplit = assay.wilcoxon_signed_rank(d, np.zeros(6), zero_method="zsplit")
    wilcox = assay.wilcoxon_signed_rank(d, np.zeros(6))
    assert (zsplit.statistic, zsplit.pvalue) == (wilcox.statistic, wilcox.pvalue)


def test_scipy_exact_is_conservative_with_ties_and_assay_is_exact() -> None:
    # The docstring example: one zero and tied differences.  assay's exact p = 0.0625
    # equals the enumeration; scipy's method='exact' rounds to its untied table (0.078).
    a = [0.86, 0.78, 0.91, 0.70, 0.82, 0.88, 0.75, 0.93]
    b = [0.84, 0.78, 0.88, 0.72, 0.77, 0.85, 0.74, 0.89]
    result = assay.wilcoxon_signed_rank(a, b)
    expected = reference.wilcoxon_signed_rank(a, b, method="exact")
    assert result.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)
    assert result.pvalue == 0.0625
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scipy_exact = stats.wilcoxon(a, b, method="exact").pvalue
    assert scipy_exact > result.pvalue


def test_auto_switches_to_the_normal_approximation_above_fifty() -> None:
    rng = np.random.default_rng(3)
    d = rng.normal(0.1, 1.0, 60)
    result = assay.wilcoxon_signed_rank(d, np.zeros(60))
    assert result.method == "Wilcoxon signed-rank, asymptotic"
    assert "z" in result.details
    small = assay.wilcoxon_signed_rank(d[:50], np.zeros(50))
    assert small.method == "Wilcoxon signed-rank, exact"
    # the exact distribution is still available (and close to the approximation) at 60
    exact = assay.wilcoxon_signed_rank(d, np.zeros(60), method="exact")
    assert exact.pvalue == pytest.approx(result.pvalue, abs=0.01)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("method", ["exact", "asymptotic"])
def test_all_zero_differences_give_p_one(alternative, method) -> None:
    with pytest.warns(DegenerateDataWarning, match="every difference is zero") as record:
        result = assay.wilcoxon_signed_rank(
            [0.5, 0.6, 0.7], [0.5, 0.6, 0.7], alternative=alternative, method=method
        )
    assert record[0].filename == __file__
    assert result.pvalue == 1.0
    assert result.statistic == 0.0


# --- Sign test -----------------------------------------------------------------------------


def test_sign_test_by_hand() -> None:
    # Differences 1, 1, 0, 1, 2, -1, 1, 1: 6 wins, 1 loss, 1 tie dropped; X ~ Bin(7, 1/2):
    # two-sided 2 P(X <= 1) = 2 * 8/128 = 0.125; greater P(X >= 6) = 8/128.
    a, b = [3, 5, 4, 6, 7, 5, 8, 6], [2, 4, 4, 5, 5, 6, 7, 5]
    result = assay.sign_test(a, b)
    assert result.statistic == 6.0 and result.pvalue == pytest.approx(0.125, abs=1e-15)
    assert dict(result.details) == {"n_positive": 6, "n_negative": 1, "n_zero": 1}
    assert assay.sign_test(a, b, alternative="greater").pvalue == pytest.approx(8 / 128)
    assert assay.sign_test(a, b, alternative="less").pvalue == pytest.approx(127 / 128)


@given(_differences(max_size=40), st.sampled_from(ALTERNATIVES))
def test_sign_test_agrees_with_reference_and_binomtest(d, alternative) -> None:
    b = np.zeros_like(d)
    expected = reference.sign_test(d, b, alternative=alternative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        result = assay.sign_test(d, b, alternative=alternative)
    assert result.statistic == expected["statistic"]
    assert result.pvalue == pytest.approx(expected["pvalue"], abs=P_TOLERANCE)
    wins, losses = int(np.sum(d > 0)), int(np.sum(d < 0))
    if wins + losses:
        theirs = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
        assert result.pvalue == pytest.approx(theirs.pvalue, abs=1e-12)


def test_sign_test_all_ties_gives_p_one() -> None:
    with pytest.warns(DegenerateDataWarning, match="every difference is zero") as record:
        result = assay.sign_test([1, 2, 3], [1, 2, 3], alternative="greater")
    assert record[0].filename == __file__
    assert result.pvalue == 1.0 and result.statistic == 0.0


# --- Input errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "function, args, kwargs, message",
    [
        (
            assay.wilcoxon_signed_rank,
            ([1, 2, 3], [1, 2]),
            {},
            r"^`a` and `b` have different lengths: 3 and 2\.$",
        ),
        (
            assay.wilcoxon_signed_rank,
            ([1], [2]),
            {},
            r"^`a` and `b` hold 1 paired value; at least 2 are needed\.$",
        ),
        (
            assay.sign_test,
            ([1, np.nan], [1, 2]),
            {},
            r"^`a` contains 1 NaN values; scores must be finite\.$",
        ),
        (
            assay.sign_test,
            ([1], [0]),
            {},
            r"^`a` and `b` hold 1 paired value; at least 2 are needed\.$",
        ),
        (
            assay.wilcoxon_signed_rank,
            ([1, 2], [2, 1]),
            {"zero_method": "drop"},
            r"^`zero_method` must be one of \['wilcox', 'pratt', 'zsplit'\]; got 'drop'\.$",
        ),
        (
            assay.wilcoxon_signed_rank,
            ([1, 2], [2, 1]),
            {"method": "permutation"},
            r"^`method` must be one of \['auto', 'exact', 'asymptotic'\]; got 'permutation'\.$",
        ),
        (
            assay.sign_test,
            ([1, 2], [2, 1]),
            {"alternative": "bigger"},
            r"^`alternative` must be one of \['two-sided', 'less', 'greater'\]; got 'bigger'\.$",
        ),
    ],
)
def test_input_errors(function, args, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        function(*args, **kwargs)


# --- Type-I error under the null (slow) -------------------------------------------------

ALPHA = 0.05
N_SIMULATIONS = 5000
# Three Monte-Carlo standard errors of a rejection rate of 0.05.
MONTE_CARLO = 3 * math.sqrt(ALPHA * (1 - ALPHA) / N_SIMULATIONS)


@pytest.mark.slow
@pytest.mark.parametrize("rounding", [None, 1])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_wilcoxon_type_one_error(rounding, alternative) -> None:
    # Symmetric (Laplace) differences about 0, n = 15; with rounding=1 they are rounded
    # to one decimal, which makes ties and zeros common.  The exact test is discrete, so
    # its rate is at most alpha (up to Monte-Carlo error) and not far below it.
    rng = np.random.default_rng(15)
    rejections = 0
    for _ in range(N_SIMULATIONS):
        d = rng.laplace(0.0, 0.2, 15)
        if rounding is not None:
            d = np.round(d, rounding)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            result = assay.wilcoxon_signed_rank(d, np.zeros(15), alternative=alternative)
        rejections += result.pvalue <= ALPHA
    rate = rejections / N_SIMULATIONS
    assert rate <= ALPHA + MONTE_CARLO
    assert rate >= 0.03


@pytest.mark.slow
def test_sign_test_type_one_error() -> None:
    # Discrete and conservative: at most alpha; n = 20 gives a largest attainable level
    # of 2 P(X <= 5) = 0.041 for X ~ Bin(20, 1/2).
    rng = np.random.default_rng(16)
    rejections = 0
    for _ in range(N_SIMULATIONS):
        d = rng.normal(0.0, 1.0, 20)
        rejections += assay.sign_test(d, np.zeros(20)).pvalue <= ALPHA
    rate = rejections / N_SIMULATIONS
    assert rate <= ALPHA + MONTE_CARLO
    assert abs(rate - 2 * stats.binom.cdf(5, 20, 0.5)) <= MONTE_CARLO
