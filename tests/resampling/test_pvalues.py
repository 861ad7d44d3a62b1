"""p-values of permutation tests (the bootstrap p-values: test_interval_pvalues.py).

Expected values are hand counts (stated at each test) or ``scipy.stats.permutation_test``
run on the same null distribution.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from assay.exceptions import UndefinedMetricWarning
from assay.resampling._intervals import permutation_pvalue

# p-values are ratios of small integers: exact up to the last bit.
ROUNDING = 1e-15

NULL = np.arange(1.0, 11.0)  # 1, 2, ..., 10: B = 10


@pytest.mark.parametrize(
    "observed, alternative, expected",
    [
        # >= 8: {8, 9, 10} = 3 -> (3 + 1) / 11; <= 8: 8 values -> 9 / 11.
        (8.0, "greater", 4 / 11),
        (8.0, "less", 9 / 11),
        (8.0, "two-sided", 8 / 11),  # twice the smaller one-sided p-value
        # More extreme than every null value: the smallest possible p-value, 1 / (B + 1).
        (100.0, "greater", 1 / 11),
        (100.0, "less", 1.0),
        (100.0, "two-sided", 2 / 11),
        (-5.0, "less", 1 / 11),
        (-5.0, "greater", 1.0),
        # In the middle: twice the smaller one-sided p-value exceeds 1 and is capped.
        (5.5, "two-sided", 1.0),
    ],
)
def test_randomized_permutation_pvalue(observed, alternative, expected) -> None:
    pvalue = permutation_pvalue(NULL, observed, alternative)
    assert pvalue == pytest.approx(expected, rel=ROUNDING)


@pytest.mark.parametrize(
    "observed, alternative, expected",
    [
        (8.0, "greater", 3 / 10),  # count / B, no + 1
        (8.0, "less", 8 / 10),
        (8.0, "two-sided", 6 / 10),
        (10.0, "greater", 1 / 10),  # the observed arrangement is one of the B
        (100.0, "greater", 0.0),
    ],
)
def test_exact_permutation_pvalue(observed, alternative, expected) -> None:
    pvalue = permutation_pvalue(NULL, observed, alternative, exact=True)
    assert pvalue == pytest.approx(expected, rel=ROUNDING)


def _difference_of_means(x, y, axis=-1):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("n_resamples", [999, np.inf])  # randomized, exact enumeration
def test_permutation_pvalue_equals_scipy(alternative, n_resamples) -> None:
    rng = np.random.default_rng(2010)
    x, y = rng.normal(0.4, 1.0, size=8), rng.normal(0.0, 1.0, size=7)
    result = stats.permutation_test(
        (x, y),
        _difference_of_means,
        n_resamples=n_resamples,
        alternative=alternative,
        vectorized=True,
        rng=np.random.default_rng(5),
    )
    exact = n_resamples == np.inf
    # 999 random permutations, or all C(15, 7) = 6435 distinct partitions.
    assert result.null_distribution.shape[0] == (6435 if exact else 999)
    pvalue = permutation_pvalue(
        result.null_distribution, result.statistic, alternative, exact=exact
    )
    assert pvalue == pytest.approx(result.pvalue, rel=ROUNDING)


def test_null_values_equal_to_the_observed_up_to_rounding_count_as_ties() -> None:
    null = np.array([0.1 + 0.2, 0.5, 0.2])  # 0.1 + 0.2 is 0.30000000000000004
    assert permutation_pvalue(null, 0.3, "greater") == pytest.approx(3 / 4)
    assert permutation_pvalue(null, 0.3, "less") == pytest.approx(3 / 4)


def test_undefined_observed_statistic_gives_a_nan_pvalue() -> None:
    with pytest.warns(UndefinedMetricWarning, match=r"`observed` is NaN") as record:
        assert np.isnan(permutation_pvalue(NULL, np.nan, "greater"))
    assert record[0].filename == __file__
