"""Exact sums of non-negative float64 terms: a 192-bit fixed-point number in three words.

A ranking metric of integer counts that sums float terms (average precision, the areas
under the precision-recall curve) must give the same bits whether its tie groups are
folded in one piece or in many pieces combined afterwards (ARCHITECTURE, the scan
contract).  Float addition is not associative, so such a sum is kept exactly: every
term is added to a fixed-point number whose lowest bit is worth ``2**-128``, held in
three unsigned 64-bit words ``(low, middle, high)`` that live in registers (a tuple, not
an array), and rounded to float64 once, at the end.  The result depends only on the
multiset of terms, never on their order or grouping.

Range: a term is kept exactly when its lowest significant bit is worth at least
``2**-128``, i.e. when it is at least ``2**-75`` (smaller terms lose their lowest bits,
deterministically); the terms of the precision-recall metrics of integer counts are at
least ``2**-64`` (a precision ``TP / (TP + FP)`` with ``TP >= 1`` and fewer than
``2**63`` rows).  Totals must stay below ``2**64``.
"""

from __future__ import annotations

import math

import numpy as np

from assay._kernels._jit import jit

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_EXPONENT_MASK = np.uint64(0x7FF)
_FRACTION_MASK = np.uint64(0xFFFFFFFFFFFFF)
_HIDDEN_BIT = np.uint64(0x10000000000000)
_FIFTY_TWO = np.uint64(52)
# a float's mantissa (an integer) is worth 2**(exponent field - 1075); bit 0 is 2**-128
_POSITION_OFFSET = 1075 - 128
_LOWEST_BIT_EXPONENT = -128

EXACT_ZERO = (_ZERO, _ZERO, _ZERO)


@jit
def _word(mantissa, shift):
    """Word k of ``mantissa * 2**position``, given ``shift = position - 64 k``."""
    if shift >= 64 or shift <= -64:
        return _ZERO
    if shift >= 0:
        return mantissa << np.uint64(shift)
    return mantissa >> np.uint64(-shift)


@jit
def exact_add(words, term):
    """``words`` plus a non-negative float64 ``term``, exactly (a new triple)."""
    if not term > 0.0:
        return words
    bits = np.float64(term).view(np.uint64)
    exponent = np.int64((bits >> _FIFTY_TWO) & _EXPONENT_MASK)
    mantissa = bits & _FRACTION_MASK
    if exponent > 0:
        mantissa |= _HIDDEN_BIT
    else:
        exponent = 1  # subnormal
    position = exponent - _POSITION_OFFSET
    low, middle, high = words
    add_low = _word(mantissa, position)
    add_middle = _word(mantissa, position - 64)
    add_high = _word(mantissa, position - 128)
    low += add_low
    carry = _ONE if low < add_low else _ZERO
    add_middle += carry  # cannot wrap: a shifted 53-bit mantissa is never all ones
    middle += add_middle
    carry = _ONE if middle < add_middle else _ZERO
    high += add_high + carry
    return (low, middle, high)


@jit
def exact_merge(words, other):
    """The sum of two accumulators (exact)."""
    low = words[0] + other[0]
    carry = _ONE if low < other[0] else _ZERO
    middle_addend = other[1] + carry
    middle = words[1] + middle_addend
    carry_middle = _ONE if middle < middle_addend or middle_addend < carry else _ZERO
    return (low, middle, words[2] + other[2] + carry_middle)


@jit
def exact_value(words):
    """The accumulated sum rounded to float64 (a function of the exact sum only)."""
    low, middle, high = words
    return (
        math.ldexp(float(high), 128 + _LOWEST_BIT_EXPONENT)
        + math.ldexp(float(middle), 64 + _LOWEST_BIT_EXPONENT)
        + math.ldexp(float(low), _LOWEST_BIT_EXPONENT)
    )


@jit
def add_term(exact, words, total, term):
    """Add ``term`` to the exact words (``exact``) or to the float ``total``.

    The state of a sum that a scan keeps both ways: exact for integer counts, a float
    sum for fractional weights.  Returns the new ``(words, total)``.
    """
    if exact:
        return exact_add(words, term), total
    return words, total + term


@jit
def sum_value(exact, words, total):
    """The value of a sum kept by :func:`add_term`."""
    return exact_value(words) if exact else total
