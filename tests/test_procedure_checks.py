"""The checks of the integer and positive numeric options of the procedures."""

from __future__ import annotations

import numpy as np
import pytest

from assay._procedure_checks import check_integer, check_positive


@pytest.mark.parametrize("value", [2, 7, np.int64(3)])
def test_integers_at_least_the_minimum_are_accepted(value) -> None:
    result = check_integer(value, "n_splits", 2)
    assert type(result) is int and result == value


@pytest.mark.parametrize(
    "value, shown",
    [(1, "1"), (np.int64(0), "0"), (5.0, "5.0"), (True, "True"), ("5", "'5'"), (None, "None")],
)
def test_other_values_are_refused_with_the_minimum(value, shown) -> None:
    with pytest.raises(ValueError, match=rf"^`n_splits` must be an integer >= 2; got {shown}\.$"):
        check_integer(value, "n_splits", 2)


@pytest.mark.parametrize("value", [0.5, 3, np.float64(1e-300), 1e300])
def test_positive_finite_numbers_are_accepted(value) -> None:
    result = check_positive(value, "alpha")
    assert type(result) is float and result == value


@pytest.mark.parametrize(
    "value, shown",
    [
        (0.0, "0.0"),
        (-1, "-1"),
        (np.float64(-2.5), "-2.5"),
        (np.inf, "inf"),
        (np.nan, "nan"),
        (True, "True"),
        ("1", "'1'"),
    ],
)
def test_other_numbers_are_refused(value, shown) -> None:
    with pytest.raises(
        ValueError, match=rf"^`alpha` must be a positive finite number; got {shown}\.$"
    ):
        check_positive(value, "alpha")
