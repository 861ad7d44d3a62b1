"""Exact sums of non-negative float64 terms: a fixed-point accumulator of four words.

A ranking metric of integer counts that sums float terms (average precision, the
areas under the precision-recall curve) must give the same bits whether its tie groups
are folded in one piece or in many pieces combined afterwards (ARCHITECTURE, the scan
contract).  Float addition is not associative, so such a sum is kept exactly: every
term is added to a 256-bit fixed-point number whose lowest bit is worth ``2**-128``,
held in four unsigned 64-bit words, and rounded to float64 once, at the end.  The
result then depends only on the multiset of terms, never on their order or grouping.

Range: a term is kept exactly when its lowest significant bit is worth at least
``2**-128``, i.e. when it is at least ``2**-75``; the terms of the precision-recall
metrics of integer counts are at least ``2**-64`` (a precision ``TP / (TP + FP)`` with
``TP >= 1`` and fewer than ``2**63`` rows).  The largest total is ``2**128``.
"""

from __future__ import annotations

import math

import numpy as np

from assay._kernels._jit import jit

WORDS = 4
_LOWEST_BIT_EXPONENT = -128  # the value of bit 0 of word 0 is 2**-128
_MANTISSA_BITS = 53
_WORD_MASK = np.uint64(63)
_SIX = np.uint64(6)


@jit
def new_exact_sum() -> np.ndarray:
    """A zero accumulator (four uint64 words, least significant first)."""
    return np.zeros(WORDS, dtype=np.uint64)


@jit
def _add_word(words, index, value):
    """Add ``value`` to ``words[index]`` and carry into the words above."""
    total = words[index] + value
    carry = total < value
    words[index] = total
    index += 1
    while carry and index < WORDS:
        total = words[index] + np.uint64(1)
        carry = total == np.uint64(0)
        words[index] = total
        index += 1


@jit
def exact_add(words, term):
    """Add a non-negative float64 ``term`` exactly (bits below ``2**-128`` are dropped)."""
    if term <= 0.0:
        return
    fraction, exponent = math.frexp(term)  # term = fraction * 2**exponent, 0.5 <= f < 1
    mantissa = np.uint64(math.ldexp(fraction, _MANTISSA_BITS))  # exact: 53 bits
    position = exponent - _MANTISSA_BITS - _LOWEST_BIT_EXPONENT  # bit of the mantissa's 1
    if position < 0:
        mantissa = mantissa >> np.uint64(-position)
        position = 0
    index = position >> 6
    offset = np.uint64(position & 63)
    _add_word(words, index, mantissa << offset)
    if offset > np.uint64(64 - _MANTISSA_BITS):
        _add_word(words, index + 1, mantissa >> (np.uint64(64) - offset))


@jit
def exact_merge(words, other):
    """Add the accumulator ``other`` into ``words`` (exact)."""
    for index in range(WORDS):
        if other[index] != np.uint64(0):
            _add_word(words, index, other[index])


@jit
def exact_value(words):
    """The accumulated sum, rounded to float64 (a function of the exact sum only)."""
    total = 0.0
    for index in range(WORDS - 1, -1, -1):
        total += math.ldexp(float(words[index]), 64 * index + _LOWEST_BIT_EXPONENT)
    return total
