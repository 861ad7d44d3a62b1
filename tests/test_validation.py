"""The shared input checks of assay._validation and their messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay import _validation as v


@given(hnp.arrays(st.sampled_from([np.int8, np.int64, np.uint16, np.bool_]), st.integers(0, 50)))
def test_distinct_values_equals_numpy_unique(values: np.ndarray) -> None:
    result = v.distinct_values(values)
    np.testing.assert_array_equal(result, np.unique(values))
    assert result.dtype == values.dtype


def test_distinct_values_of_a_wide_integer_range_falls_back_to_unique() -> None:
    values = np.array([0, 2**40, -(2**40), 0], dtype=np.int64)
    np.testing.assert_array_equal(v.distinct_values(values), [-(2**40), 0, 2**40])


@pytest.mark.parametrize(
    "y, pos_label, expected_mask, expected_label",
    [
        ([0, 1, 1], None, [False, True, True], 1),
        ([-1, 1, -1], None, [False, True, False], 1),
        ([True, False], None, [True, False], True),
        ([0.0, 1.0], None, [False, True], 1),
        ([0, 0], None, [False, False], 1),  # a single class is accepted here
        (["no", "yes"], "yes", [False, True], "yes"),
        (["no", "no"], "yes", [False, False], "yes"),  # absent but only one class present
        ([1, 2, 2], 2, [False, True, True], 2),
    ],
)
def test_binary_target(y, pos_label, expected_mask, expected_label) -> None:
    mask, label = v.binary_target(y, pos_label)
    np.testing.assert_array_equal(mask, expected_mask)
    assert label == expected_label


@pytest.mark.parametrize(
    "y, pos_label, message",
    [
        ([0.5, 1.0], None, r"`y_true` holds continuous values \(e\.g\. 0\.5\); this metric nee"),
        ([0, 1, 2], None, r"`y_true` holds 3 classes \[0, 1, 2\]; this metric needs binary"),
        ([1, 2], None, r"`y_true` holds labels \[1, 2\]; pass `pos_label` to name the positi"),
        ([0, 1], 2, r"`pos_label`=2 is not one of the labels in `y_true` \[0, 1\]"),
        ([0.0, np.nan], None, r"`y_true` contains 1 NaN values; labels must be finite"),
        ([], None, r"`y_true` is empty"),
    ],
)
def test_binary_target_errors(y, pos_label, message) -> None:
    with pytest.raises(ValueError, match=message):
        v.binary_target(y, pos_label)


def test_format_values_shortens_long_lists() -> None:
    assert v.format_values(np.arange(3)) == "[0, 1, 2]"
    assert v.format_values(range(20), limit=2) == "[0, 1, ... (20 in all)]"


@pytest.mark.parametrize("value", ["warn", 0, 1, 0.0, 1.0, np.nan])
def test_zero_division_choices(value) -> None:
    result = v.check_zero_division(value)
    assert result == value or (np.isnan(result) and np.isnan(value))


@pytest.mark.parametrize("value", ["nan", 0.5, None, "ignore", 2])
def test_zero_division_rejects_other_values(value) -> None:
    with pytest.raises(ValueError, match=r"`zero_division` must be 'warn', 0, 1 or numpy.nan"):
        v.check_zero_division(value)


def test_check_option_message() -> None:
    assert v.check_option(None, "average", ("macro", None)) is None
    with pytest.raises(ValueError, match=r"`average` must be one of \['macro', None\]; got 'x'"):
        v.check_option("x", "average", ("macro", None))


def test_probabilities_two_dimensional() -> None:
    proba = v.as_probabilities([[0.2, 0.8]], "proba", ndim=2)
    assert proba.dtype == np.float64 and proba.flags.c_contiguous
    with pytest.raises(ValueError, match=r"`proba` must be 2-D \(n_samples, n_classes\)"):
        v.as_probabilities([0.2, 0.8], "proba", ndim=2)
    with pytest.raises(ValueError, match=r"`proba` is empty"):
        v.as_probabilities(np.zeros((0, 2)), "proba", ndim=2)
    with pytest.raises(ValueError, match=r"`proba` contains 1 values outside \[0, 1\]"):
        v.as_probabilities([[0.5, 0.5], [1.5, 0.0]], "proba", ndim=2)


def test_scores_are_contiguous_float64() -> None:
    scores = v.as_scores(np.arange(10)[::2])
    assert scores.dtype == np.float64 and scores.flags.c_contiguous
    np.testing.assert_array_equal(scores, [0, 2, 4, 6, 8])


def test_same_length_skips_missing_arrays() -> None:
    assert v.check_same_length(a=np.zeros(3), b=None, c=np.ones(3)) == 3


@given(
    hnp.arrays(
        st.sampled_from([np.int64, np.int8, np.float64]),
        st.integers(0, 60),
        elements=st.integers(-2, 2),
    ),
    st.integers(1, 4),
    st.booleans(),
)
def test_few_distinct_values(values: np.ndarray, limit: int, as_bool: bool) -> None:
    if as_bool:
        values = values > 0
    expected = np.unique(values)
    result = v.few_distinct_values(values, limit)
    if expected.shape[0] > limit:
        assert result is None
    else:
        assert result is not None
        np.testing.assert_array_equal(result, expected)


def test_few_distinct_values_of_strings() -> None:
    np.testing.assert_array_equal(v.few_distinct_values(np.array(["b", "a", "b"]), 2), ["a", "b"])
    assert v.few_distinct_values(np.array(["b", "a", "c"]), 2) is None
