"""The count unit of a weight vector, against exact rational arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.metrics._sorted import _count_unit

EXACT_BITS = 53
LOWEST_UNIT_EXPONENT = -1074 + 53


def exact_count_unit(weights: np.ndarray) -> float | None:
    """The largest power of two dividing every positive weight, by fractions; None when
    the weights total 2**53 units or more, the unit is below 2**-1021, or none is positive."""
    positive = [Fraction(float(w)) for w in weights if w > 0]
    if not positive:
        return None
    exponents = []
    for value in positive:
        numerator, denominator = value.numerator, value.denominator  # denominator: 2**d
        trailing = (numerator & -numerator).bit_length() - 1
        exponents.append(trailing - (denominator.bit_length() - 1))
    unit = min(exponents)
    if unit < LOWEST_UNIT_EXPONENT:
        return None
    if sum(positive) / Fraction(2) ** unit >= 2**EXACT_BITS:
        return None
    return math.ldexp(1.0, unit)


def weight_vectors() -> st.SearchStrategy[np.ndarray]:
    scaled_integers = st.tuples(
        st.lists(st.integers(0, 2**20), min_size=1, max_size=30), st.integers(-60, 60)
    ).map(lambda pair: np.ldexp(np.asarray(pair[0], dtype=np.float64), pair[1]))
    floats = st.lists(
        st.floats(0.0, 1e300, allow_nan=False, allow_infinity=False, allow_subnormal=True),
        min_size=1,
        max_size=30,
    ).map(lambda values: np.asarray(values, dtype=np.float64))
    return st.one_of(scaled_integers, floats)


@given(weight_vectors())
def test_count_unit_equals_exact_arithmetic(weights):
    assert _count_unit(weights) == exact_count_unit(weights)


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        ([1.0, 2.0, 3.0], 1.0),
        ([0.5, 0.25, 3.0], 0.25),
        ([0.0, -0.0, 6.0], 2.0),  # zeros of either sign are skipped
        ([0.0, 0.0], None),
        ([2.0**52, 2.0**52 - 1.0], 1.0),  # 2**53 - 1 units: exact
        ([2.0**52, 2.0**52], 2.0**52),  # the unit grows with the weights: 2 units
        ([2.0**52, 2.0**52 + 2.0, 1.0], None),  # 2**53 + 3 units of 1
        ([0.1], math.ldexp(1.0, -55)),  # 0.1 is 3602879701896397 * 2**-55
        ([0.1, 1.0], None),  # 1.0 is 2**55 units of 2**-55
        ([5e-324], None),  # the smallest subnormal: unit 2**-1074, below 2**-1021
        ([math.ldexp(1.0, -1021)], math.ldexp(1.0, -1021)),
        ([math.ldexp(1.0, -1022)], None),
    ],
)
def test_count_unit_edges(weights, expected):
    weights = np.asarray(weights, dtype=np.float64)
    assert _count_unit(weights) == expected == exact_count_unit(weights)


def test_count_unit_of_a_strided_view():
    weights = np.arange(20, dtype=np.float64)[::2] * 0.5  # 0, 1, 2, ...: unit 1
    assert _count_unit(weights) == 1.0
