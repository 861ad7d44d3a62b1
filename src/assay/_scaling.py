"""Power-of-two rescaling: huge and tiny inputs without overflow, underflow or lost bits.

Multiplying a float64 by a power of two changes only its exponent, so it is exact (as
long as the result is neither subnormal nor infinite), and it commutes with every
correctly rounded operation: ``(x / s) + (y / s) == (x + y) / s``, ``sqrt(x / s**2) ==
sqrt(x) / s``, ``(x / s) / (y / s) == x / y``.  A computation whose intermediates would
overflow (a product of four cells of 1e80, the square of a residual of 1e200) or
underflow (weights of 1e-310) is therefore run on values divided by a power of two ``s``
that takes the largest of them near 1; a scale-free result (a ratio, a correlation, a
t statistic) is then the exact same number, and a result in the units of the input is
multiplied back by ``s`` (it overflows only when the true value lies beyond the float64
range).

Values in the ordinary range are left alone (:func:`scale_if_extreme` returns 1), so
results there do not change by a single bit.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "EXTREME_EXPONENT",
    "mean_and_deviation",
    "power_of_two_scale",
    "rescaled_matrices",
    "scale_free_weights",
    "scale_if_extreme",
]

# Magnitudes within [2**-500, 2**500] are ordinary: squares, products of two and sums of
# up to 2**20 such terms stay far inside the float64 range (2**-1022 .. 2**1024).
EXTREME_EXPONENT = 500
_MAX_EXPONENT = 1023  # 2.0**1023 is the largest power of two of float64
_MIN_EXPONENT = -1074  # 2.0**-1074 the smallest (a subnormal)


def power_of_two_scale(largest: float) -> float:
    """The power of two ``s`` with ``largest * s`` in [0.5, 1) (1.0 for 0 or non-finite).

    The exponent is clamped to the powers of two float64 holds: for ``largest`` below
    2**-1023 the product stays below 0.5 (but far from underflow).
    """
    if largest == 0.0 or not math.isfinite(largest):
        return 1.0
    exponent = math.frexp(abs(largest))[1]
    return math.ldexp(1.0, min(max(-exponent, _MIN_EXPONENT), _MAX_EXPONENT))


def scale_if_extreme(largest: float) -> float:
    """:func:`power_of_two_scale` of ``largest`` if it lies outside [2**-500, 2**500],
    else 1.0 (the ordinary range is computed as it is)."""
    magnitude = abs(largest)
    if magnitude == 0.0 or math.ldexp(1.0, -EXTREME_EXPONENT) <= magnitude <= math.ldexp(
        1.0, EXTREME_EXPONENT
    ):
        return 1.0
    return power_of_two_scale(magnitude)


def scale_free_weights(weights: np.ndarray | None) -> np.ndarray | None:
    """Validated weights for a metric that does not depend on their scale (a ranking
    metric), divided by a power of two when they lie outside [2**-500, 2**500]: the
    kernels' products of class totals then neither underflow nor overflow, and the
    metric is unchanged.  Ordinary weights (and None) are returned as they are."""
    if weights is None:
        return None
    scale = scale_if_extreme(float(np.max(weights)))
    return weights if scale == 1.0 else weights * scale


def rescaled_matrices(matrix: np.ndarray) -> np.ndarray:
    """Float64 copy of a (..., k, k) stack, each matrix divided by the power of two that
    takes its largest cell into [0.5, 1).

    For functions of a confusion matrix that do not depend on its scale (ratios,
    correlations, kappa): their products of cells can then neither overflow nor
    underflow, and the result is bit for bit the one of the unscaled matrix.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.size == 0 or matrix.ndim < 2:
        return matrix
    largest = np.max(np.abs(matrix), axis=(-2, -1), keepdims=True)
    exponent = np.frexp(largest)[1]  # 0 for an empty (all-zero) matrix
    finite = np.isfinite(largest)
    return np.ldexp(matrix, np.where(finite, -exponent, 0))


def mean_and_deviation(values: np.ndarray, ddof: int = 1) -> tuple[float, float]:
    """Mean and standard deviation (``ddof``) of finite values, neither overflowing.

    The values are shifted by the first one (values within a factor of 2 of it subtract
    exactly, so nearly equal values keep their small deviations) and, when extreme,
    divided by a power of two: the sum of squares of values near 1e300 is computed as
    that of values near 1; the deviation is multiplied back.  Either result is infinite
    only when the true value exceeds the float64 range.
    """
    scale = scale_if_extreme(float(np.max(np.abs(values))))
    scaled = values * scale if scale != 1.0 else values
    shift = float(scaled[0])
    shifted = scaled - shift
    mean_shifted = float(np.mean(shifted))
    deviations = shifted - mean_shifted
    inner = scale_if_extreme(float(np.max(np.abs(deviations))))  # differences can be extreme
    if inner != 1.0:
        deviations = deviations * inner
    variance = float(np.dot(deviations, deviations)) / (values.shape[0] - ddof)
    deviation = math.sqrt(variance) / inner / scale
    return (shift + mean_shifted) / scale, deviation
