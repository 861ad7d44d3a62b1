"""Stable orders of float64 scores as packed integer words (no sort with a payload).

A row's word holds, from the top, as many of the varying bits of its score's
order-preserving key as fit, then its row number::

    word = prefix << b | row        (b bits hold every row number; the word stays below 2**63)

so a plain sort of the words (NumPy's, or the float radix sort of
:mod:`assay._kernels.sorting`, which the scores' own sort compiles anyway) orders the rows
by score and carries their numbers along, ties in row order.  When every
varying bit of the keys fits in the prefix (``exact``: float32 scores, or few rows), equal
prefixes are equal scores.  Otherwise rows whose scores differ only below the prefix share
it; each such run is put in the order of the full keys by :func:`order_words_by_keys`
(insertion, or a merge sort for a long run), stably, so the result is the exact stable
order.  DeLong's placements (:mod:`assay._kernels.delong`) order their runs the same way.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit, jit_inline
from assay._kernels.sorting import (
    _INSERTION_SORT_MAX,
    _insertion_sort_with_payload,
    bit_span,
    descending_key,
)

WORD_BITS = 63  # packed words stay non-negative int64 (a word sorts as a number)


@jit_inline
def key_span(bits):
    """OR of ``key ^ first key`` over the keys of the float64 values whose raw bits are
    ``bits`` (at least one): the key bits that vary between them."""
    first = descending_key(bits[0])
    varying = np.uint64(0)
    for i in range(bits.shape[0]):
        varying |= descending_key(bits[i]) ^ first
    return varying


@jit_inline
def kept_key_bits(varying, prefix_bits):
    """``(shift, exact)``: the key bits ``key >> shift`` kept in a prefix of
    ``prefix_bits`` bits, and whether they are all the bits that vary."""
    if varying == 0:
        return 0, True
    low, high = bit_span(varying)
    if high - low + 1 > prefix_bits:
        return high + 1 - prefix_bits, False
    return low, True


@jit_inline
def index_bits_of(n):
    """Bits that hold every index below ``n``."""
    bits = 0
    while (1 << bits) < n:
        bits += 1
    return bits


@jit
def row_words(scores):
    """One word per row of the float64 ``scores`` (at least one; see the module), whose
    ascending order is the descending order of the scores, ties in row order.

    Returns ``(words, index_bits, exact)``: int64 words and the bits of their row numbers.
    """
    n = scores.shape[0]
    bits = scores.view(np.uint64)
    index_bits = index_bits_of(n)
    shift, exact = kept_key_bits(key_span(bits), WORD_BITS - index_bits)
    prefix_mask = np.uint64((1 << (WORD_BITS - index_bits)) - 1)
    key_shift = np.uint64(shift)
    row_shift = np.uint64(index_bits)
    words = np.empty(n, dtype=np.int64)
    for i in range(n):
        prefix = (descending_key(bits[i]) >> key_shift) & prefix_mask
        words[i] = np.int64((prefix << row_shift) | np.uint64(i))
    return words, index_bits, exact


@jit
def order_words_by_keys(keys, words):
    """Sort uint64 ``keys`` ascending in place, stably, moving the int64 ``words`` along:
    insertion up to ``_INSERTION_SORT_MAX`` entries, else a merge sort (stretches of
    that many sorted by insertion, then merged pairwise).

    For the runs of words of one prefix, which are short in any real data; a merge sort
    compiles in a fraction of a radix sort with a payload and stays O(r log r) on a long
    run."""
    n = keys.shape[0]
    for start in range(0, n, _INSERTION_SORT_MAX):
        _insertion_sort_with_payload(keys, words, start, min(start + _INSERTION_SORT_MAX, n))
    if n <= _INSERTION_SORT_MAX:
        return
    source_keys = keys
    source_words = words
    target_keys = np.empty(n, dtype=np.uint64)
    target_words = np.empty(n, dtype=np.int64)
    width = _INSERTION_SORT_MAX
    while width < n:
        for low in range(0, n, 2 * width):
            middle = min(low + width, n)
            high = min(low + 2 * width, n)
            i = low
            j = middle
            for k in range(low, high):
                # the left entry on equal keys: stable
                if j >= high or (i < middle and source_keys[i] <= source_keys[j]):
                    target_keys[k] = source_keys[i]
                    target_words[k] = source_words[i]
                    i += 1
                else:
                    target_keys[k] = source_keys[j]
                    target_words[k] = source_words[j]
                    j += 1
        source_keys, target_keys = target_keys, source_keys
        source_words, target_words = target_words, source_words
        width *= 2
    if source_keys is not keys:
        for k in range(n):
            keys[k] = source_keys[k]
            words[k] = source_words[k]


@jit_inline
def _run_in_key_order(words, bits, start, end, row_mask):
    """Whether the rows of ``words[start:end]`` are in the order of their scores' keys."""
    previous = descending_key(bits[words[start] & row_mask])
    for r in range(start + 1, end):
        key = descending_key(bits[words[r] & row_mask])
        if key < previous:
            return False
        previous = key
    return True


@jit
def rows_of_sorted_words(words, scores, index_bits, exact):
    """The rows of sorted :func:`row_words` of ``scores``: their stable descending order
    (int64); ``words`` becomes it (and is returned).

    When the words are not ``exact``, every run of one prefix whose rows' full keys are
    out of order is ordered by them first (:func:`order_words_by_keys`; its words are
    already in row order, so equal keys keep it).
    """
    n = words.shape[0]
    row_mask = np.int64((1 << index_bits) - 1)
    bits = scores.view(np.uint64)
    start = 0
    while not exact and start < n:
        prefix = words[start] >> index_bits
        end = start + 1
        while end < n and words[end] >> index_bits == prefix:
            end += 1
        if end - start > 1 and not _run_in_key_order(words, bits, start, end, row_mask):
            keys = np.empty(end - start, dtype=np.uint64)
            for r in range(start, end):
                keys[r - start] = descending_key(bits[words[r] & row_mask])
            order_words_by_keys(keys, words[start:end])
        start = end
    for r in range(n):
        words[r] &= row_mask
    return words
