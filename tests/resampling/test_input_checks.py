"""Error messages of the resampling input checks and of the interval/p-value functions."""

from __future__ import annotations

import numpy as np
import pytest

from assay import _procedure_checks as v
from assay.resampling._interval_pvalues import bootstrap_pvalue
from assay.resampling._intervals import (
    acceleration,
    basic_interval,
    bca_interval,
    bootstrap_summary,
    drop_undefined,
    percentile_interval,
    permutation_pvalue,
)


@pytest.mark.parametrize("value", [0.5, 0.95, np.float64(0.99), 1e-9, 1 - 1e-9])
def test_confidence_level_accepted(value) -> None:
    result = v.check_confidence_level(value)
    assert type(result) is float and result == value


@pytest.mark.parametrize(
    "value, shown",
    [
        (1.5, "1.5"),
        (0, "0"),
        (1.0, "1.0"),
        (-0.1, "-0.1"),
        (np.nan, "nan"),
        (np.float64(95.0), "95.0"),
        (True, "True"),
        ("0.95", "'0.95'"),
        (None, "None"),
    ],
)
def test_confidence_level_rejected(value, shown) -> None:
    message = rf"^`confidence_level` must be in \(0, 1\); got {shown}\.$"
    with pytest.raises(ValueError, match=message):
        v.check_confidence_level(value)


@pytest.mark.parametrize("value", [1, 2000, np.int64(999)])
def test_n_resamples_accepted(value) -> None:
    result = v.check_n_resamples(value)
    assert type(result) is int and result == value


@pytest.mark.parametrize(
    "value, shown",
    [(0, "0"), (-5, "-5"), (1000.0, "1000.0"), (np.inf, "inf"), (True, "True"), ("9", "'9'")],
)
def test_n_resamples_rejected(value, shown) -> None:
    with pytest.raises(
        ValueError, match=rf"^`n_resamples` must be an integer >= 1; got {shown}\.$"
    ):
        v.check_n_resamples(value)


@pytest.mark.parametrize("value", ["two-sided", "less", "greater"])
def test_alternative_accepted(value) -> None:
    assert v.check_alternative(value) == value


@pytest.mark.parametrize("value, shown", [("both", "'both'"), ("Less", "'Less'"), (None, "None")])
def test_alternative_rejected(value, shown) -> None:
    message = rf"^`alternative` must be one of \['two-sided', 'less', 'greater'\]; got {shown}\.$"
    with pytest.raises(ValueError, match=message):
        v.check_alternative(value)


# --- The interval and p-value functions -------------------------------------------------

GOOD = np.array([0.1, 0.2, 0.3, 0.4])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: percentile_interval(GOOD, 1.5), r"`confidence_level` must be in \(0, 1\)"),
        (lambda: percentile_interval([], 0.9), r"`distribution` is empty; at least one value"),
        (lambda: percentile_interval(np.ones((2, 2)), 0.9), r"`distribution` must be 1-D, got"),
        (
            lambda: percentile_interval([0.1, np.nan, np.nan], 0.9),
            r"`distribution` contains 2 NaN values; drop the undefined replicates first",
        ),
        (
            lambda: percentile_interval([0.1, np.inf], 0.9),
            r"`distribution` contains 1 infinite values; replicate values must be finite",
        ),
        (lambda: drop_undefined([np.nan, -np.inf]), r"`distribution` contains 1 infinite"),
        (lambda: basic_interval(GOOD, np.nan, 0.9), r"`estimate` must be finite; got nan\."),
        (lambda: bca_interval(GOOD, np.inf, [0, 1], [1, 1], 0.9), r"`estimate` must be finite"),
        (
            lambda: acceleration([0.1, 0.2], [1, 1, 1]),
            r"`jackknife_values` and `jackknife_counts` have different lengths: 2 and 3\.",
        ),
        (
            lambda: acceleration([0.1, 0.2], [1, -2]),
            r"`jackknife_counts` contains 1 negative values; counts must be non-negative\.",
        ),
        (lambda: acceleration([0.1, 0.2], [0, 0]), r"`jackknife_counts` sums to zero"),
        (lambda: acceleration([0.1, 0.2], [1, np.nan]), r"`jackknife_counts` must be finite\."),
        (lambda: acceleration([], []), r"`jackknife_values` is empty"),
        (
            lambda: bootstrap_summary(GOOD, 0.2, method="bootstrap-t"),
            r"`method` must be one of \['percentile', 'basic', 'bca'\]; got 'bootstrap-t'\.",
        ),
        (
            lambda: bootstrap_summary(GOOD, 0.2, method="bca"),
            r"`method`='bca' needs `jackknife_values` and `jackknife_counts`\.",
        ),
        (
            lambda: bootstrap_summary(GOOD, 0.2, confidence_level=0.0),
            r"`confidence_level` must be in \(0, 1\); got 0\.0\.",
        ),
        (
            lambda: permutation_pvalue(GOOD, 0.2, "both"),
            r"`alternative` must be one of \['two-sided', 'less', 'greater'\]; got 'both'\.",
        ),
        (
            lambda: permutation_pvalue([0.1, np.nan], 0.2, "less"),
            r"`null_distribution` contains 1 NaN values",
        ),
        (lambda: permutation_pvalue(GOOD, np.inf, "less"), r"`observed` must be finite or NaN"),
        (
            lambda: bootstrap_pvalue(GOOD, -np.inf, "less", interval="basic"),
            r"`difference` must be finite or NaN",
        ),
        (
            lambda: bootstrap_pvalue(GOOD, 0.2, "less", interval="bca"),
            r"`method`='bca' needs `jackknife_values` and `jackknife_counts`",
        ),
        (
            lambda: bootstrap_pvalue(GOOD, 0.2, "less", interval="studentized"),
            r"`interval` must be one of \['percentile', 'basic', 'bca'\]; got 'studentized'",
        ),
    ],
)
def test_error_messages(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
