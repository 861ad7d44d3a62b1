"""Properties of the intervals and p-values that hold for any replicate values."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay.resampling._interval_pvalues import bootstrap_pvalue
from assay.resampling._intervals import (
    basic_interval,
    percentile_interval,
    permutation_pvalue,
)

# Replicate values of a metric: finite, moderate, with ties likely (few distinct values).
replicates = hnp.arrays(
    np.float64,
    st.integers(1, 60),
    elements=st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.6, 0.75, 0.8, 1.0]) | st.floats(-2, 2),
)
levels = st.floats(0.01, 0.99)
alternatives = st.sampled_from(["two-sided", "less", "greater"])


@given(replicates, levels, levels)
def test_percentile_interval_is_ordered_nested_and_inside_the_range(values, level, other) -> None:
    low, high = percentile_interval(values, level)
    assert values.min() <= low <= high <= values.max()
    wider_low, wider_high = percentile_interval(values, max(level, other))
    assert wider_low <= low and high <= wider_high


@given(replicates, st.floats(-2, 2), levels)
def test_basic_interval_reflects_the_percentile_interval(values, estimate, level) -> None:
    low, high = percentile_interval(values, level)
    assert basic_interval(values, estimate, level) == (2 * estimate - high, 2 * estimate - low)


@given(replicates, st.floats(-3, 3), alternatives)
def test_randomized_pvalues_are_in_the_unit_interval_and_never_zero(
    values, observed, side
) -> None:
    pvalue = permutation_pvalue(values, observed, side)
    assert 1.0 / (values.shape[0] + 1) <= pvalue <= 1.0
    # a bootstrap p-value inverts an interval: 0 when even the widest one excludes 0
    assert 0.0 <= bootstrap_pvalue(values, observed, side, interval="basic") <= 1.0


@given(replicates, st.floats(-3, 3))
def test_one_sided_pvalues_cover_every_null_value(values, observed) -> None:
    # Every null value is >= or <= the observed value: the two counts sum to at least B.
    greater = permutation_pvalue(values, observed, "greater")
    less = permutation_pvalue(values, observed, "less")
    assert greater + less >= (values.shape[0] + 2) / (values.shape[0] + 1) - 1e-12
    two_sided = permutation_pvalue(values, observed, "two-sided")
    assert two_sided == min(1.0, 2 * min(greater, less))
