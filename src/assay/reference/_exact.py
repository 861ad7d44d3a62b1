"""Exact arithmetic and minimal input handling shared by the reference implementations.

Weights are represented exactly as Python integers over one common denominator:
every finite float is an integer times a power of two, so ``Fraction(w)`` is exact
and the least common multiple of the denominators turns a weight vector into integer
numerators. Sums of weights are then exact integer sums; a ratio of two sums is an
exact :class:`fractions.Fraction`; an absolute quantity (a weighted count, a total
cost) is divided by the common denominator at the very end. Conversion to float
happens only when a result is returned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

# An exact value, or a float that is NaN (an undefined value).
Exact = int | Fraction | float

NAN = float("nan")

# Label sets for which the positive class is inferred as 1 (scikit-learn's rule).
_INFERABLE_LABEL_SETS = ({0, 1}, {-1, 1})

# sqrt of a fraction is computed to about 2**-_SQRT_BITS relative precision.
_SQRT_BITS = 128


def values_of(values: Any) -> list[Any]:
    """A 1-D array-like as a list of Python scalars (numpy scalars unwrapped)."""
    return np.asarray(values).ravel().tolist()


def exact_weights(sample_weight: Any, n: int) -> tuple[list[int], int]:
    """Weights as integer numerators over one common denominator.

    Parameters
    ----------
    sample_weight : array-like of shape (n,) or None
        Non-negative weights; None means unit weights.
    n : int
        Number of samples.

    Returns
    -------
    numerators : list of int
        ``numerators[i] / denominator`` equals ``sample_weight[i]`` exactly.
    denominator : int
        The least common multiple of the weights' denominators (1 for integer weights).
    """
    if sample_weight is None:
        return [1] * n, 1
    weights = [Fraction(w) for w in values_of(sample_weight)]
    if len(weights) != n:
        raise ValueError(f"sample_weight has length {len(weights)}, expected {n}.")
    denominator = math.lcm(*(w.denominator for w in weights)) if weights else 1
    numerators = [int(w * denominator) for w in weights]
    return numerators, denominator


def is_nan(value: Exact) -> bool:
    """True for a float NaN; exact values are never NaN."""
    return isinstance(value, float) and math.isnan(value)


def ratio(numerator: Exact, denominator: Exact, undefined: Exact = NAN) -> Exact:
    """``numerator / denominator`` exactly, or ``undefined`` when the denominator is 0."""
    if denominator == 0:
        return undefined
    return Fraction(numerator) / Fraction(denominator)


def to_float(value: Exact) -> float:
    """An exact value rounded once to the nearest float (NaN stays NaN)."""
    return float(value)


def to_float_array(values: Sequence[Exact]) -> np.ndarray:
    """A list of exact values as a float64 array, each rounded once."""
    return np.array([float(v) for v in values], dtype=np.float64)


def sqrt_fraction(value: Exact) -> Exact:
    """Square root of a non-negative exact value to about 128 bits of precision."""
    if is_nan(value):
        return NAN
    fraction = Fraction(value)
    if fraction < 0:
        raise ValueError("sqrt of a negative value")
    scale = 1 << _SQRT_BITS
    numerator = math.isqrt(fraction.numerator * fraction.denominator * scale * scale)
    return Fraction(numerator, fraction.denominator * scale)


def mean_ignoring_nan(values: Sequence[Exact], weights: Sequence[Exact] | None = None) -> Exact:
    """Weighted mean of the values that are not NaN (scikit-learn's ``_nanaverage``).

    All NaN gives NaN. If the weights of the remaining values sum to zero, the plain
    mean of the remaining values is returned.
    """
    if weights is None:
        weights = [1] * len(values)
    kept = [(v, w) for v, w in zip(values, weights, strict=True) if not is_nan(v)]
    if not kept:
        return NAN
    total_weight = sum(Fraction(w) for _, w in kept)
    if total_weight == 0:
        return sum(Fraction(v) for v, _ in kept) / len(kept)
    return sum(Fraction(v) * Fraction(w) for v, w in kept) / total_weight


def plain_mean(values: Sequence[Exact]) -> Exact:
    """Mean of the values; NaN if any value is NaN or there are none."""
    if not values or any(is_nan(v) for v in values):
        return NAN
    return sum(Fraction(v) for v in values) / len(values)


def zero_division_value(zero_division: Any) -> Exact:
    """The value returned for 0/0: "warn" means 0 (the reference never warns)."""
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return Fraction(0)
        raise ValueError(f"zero_division must be 'warn', 0, 1 or nan; got {zero_division!r}.")
    if math.isnan(zero_division):
        return NAN
    if zero_division in (0, 1):
        return Fraction(int(zero_division))
    raise ValueError(f"zero_division must be 'warn', 0, 1 or nan; got {zero_division!r}.")


def infer_pos_label(labels: Sequence[Any], pos_label: Any, is_boolean: bool) -> Any:
    """The positive label: given, or 1 (True) for labels within {0, 1}, {-1, 1}, booleans."""
    if pos_label is not None:
        return pos_label
    if is_boolean:
        return True
    present = set(labels)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present)
    if numeric and any(present <= allowed for allowed in _INFERABLE_LABEL_SETS):
        return 1
    raise ValueError(
        f"y_true holds labels {sorted(present, key=repr)}; pass pos_label "
        "(it is inferred only for {0, 1}, {-1, 1} or booleans)."
    )


def binary_target(y_true: Any, pos_label: Any) -> list[bool]:
    """Whether each row belongs to the positive class (at most two labels allowed)."""
    array = np.asarray(y_true).ravel()
    labels = array.tolist()
    if len(set(labels)) > 2:
        raise ValueError("y_true holds more than two classes; binary targets are needed.")
    positive_label = infer_pos_label(labels, pos_label, array.dtype.kind == "b")
    if len(set(labels)) == 2 and positive_label not in set(labels):
        raise ValueError(f"pos_label={positive_label!r} is not one of the two labels.")
    return [label == positive_label for label in labels]
