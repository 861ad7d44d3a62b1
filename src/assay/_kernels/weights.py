"""Weights that are exact counts: the power of two every weight is a whole multiple of."""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit

_MANTISSA = np.uint64((1 << 52) - 1)
_IMPLICIT_BIT = np.uint64(1 << 52)
_EXPONENT_MASK = np.uint64(0x7FF)
# IEEE float64: a normal number is (implicit bit | mantissa) * 2**(biased exponent - 1075)
_EXPONENT_BIAS = 1075


@jit
def count_unit_exponent(weights, lowest_exponent, unit_bits):
    """``(True, k)`` if every positive weight is a whole multiple of ``2**k`` and the
    weights total less than ``2**unit_bits`` of that unit; ``(False, 0)`` otherwise.

    ``k`` is the largest such exponent: the least over the positive weights of their
    lowest set bit's place value.  A unit below ``2**lowest_exponent`` (near the
    subnormals) gives False.  The total is checked exactly: in the unit every weight is
    an integer, and float64 sums of integers are exact while they stay below
    ``2**unit_bits`` = ``2**53``.  Zero weights are skipped; weights must be finite and
    non-negative (the callers validate them).  Two passes, no temporary arrays.
    """
    bits = weights.view(np.uint64)
    power = np.empty(1, dtype=np.float64)
    power_bits = power.view(np.uint64)
    unit = np.int64(1 << 30)  # above every float64 exponent: "no positive weight yet"
    for i in range(bits.shape[0]):
        b = bits[i]
        if (b << np.uint64(1)) == 0:
            continue  # +0.0 or -0.0
        biased = np.int64((b >> np.uint64(52)) & _EXPONENT_MASK)
        mantissa = b & _MANTISSA
        if biased == 0:
            exponent = np.int64(1 - _EXPONENT_BIAS)  # subnormal: mantissa * 2**-1074
        else:
            mantissa |= _IMPLICIT_BIT
            exponent = biased - _EXPONENT_BIAS
        # the lowest set bit, as a float64 power of two (exact): its exponent field
        lowest = mantissa & (~mantissa + np.uint64(1))
        power[0] = np.float64(lowest)
        trailing = np.int64(power_bits[0] >> np.uint64(52)) - 1023
        if exponent + trailing < unit:
            unit = exponent + trailing
    if unit == np.int64(1 << 30) or unit < lowest_exponent:
        return False, np.int64(0)
    scale = np.ldexp(1.0, -unit)
    limit = np.ldexp(1.0, unit_bits)
    total = 0.0
    for i in range(weights.shape[0]):
        total += weights[i] * scale  # an integer, exact while the total is below 2**53
        if total >= limit:
            return False, np.int64(0)
    return True, unit
