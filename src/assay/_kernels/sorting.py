"""Sort once: descending order of scores as an LSD radix sort of integer keys.

A float64 score ``x`` is mapped to a uint64 key whose *ascending* unsigned order is
the *descending* order of ``x`` (IEEE-754 order-preserving bit trick, then bitwise
complement).  ``-0.0`` is mapped to the key of ``+0.0`` so that the two zeros form
one tie group, as they compare equal.  NaN never reaches a kernel (the API rejects it).

The sort is a least-significant-digit radix sort (after one most-significant-digit
pass for large inputs, see :func:`sort_float_bits`).  Only the bits that vary between
keys are sorted on: bits above the highest differing bit (sign and top exponent bits
of probabilities) and below the lowest (the zero low mantissa bits of scores that
were float32) are skipped.  The varying span is cut into the fewest digits of at most
12 bits (at most 6 passes for a full 64-bit span, 5 for typical probabilities, 3 for
float32 scores), and a pass whose digit is constant over all keys is skipped too.
The sort is stable and O(n); it needs one scratch buffer of the same size.  A key is
stored at an unsigned position (``np.uint64(j)``): Numba tests a signed index for being
negative, and that test's register made the passes 5-10 % slower.

Several arrays are sorted into one new array (a bucket's pieces on Dask) by
:func:`radix_sort_joined`: the most-significant-digit pass reads the pieces and makes
their keys as it scatters them, so neither a joined copy nor a scratch array as large
as the result is made.

The same kernel sorts non-negative int64 values (DeLong's words, the packed words of
:mod:`assay._kernels.order`): their bits are those of non-negative float64 values,
whose keys keep the integers' order (:func:`assay._sort_choice.sort_in_place`).

With a payload (the weights of the weighted ranking sort), a large input is sorted by
most-significant digits instead: a first pass scatters it into buckets, and each bucket,
in cache, is split by a second digit of its own top varying bits (about two keys per
sub-bucket) straight into its final place, where the sub-buckets are finished by
insertion: main memory is read and written twice.  That path is a kernel of its own
(:func:`bucket_sort_with_payload`), chosen in Python by the size of the input
(:func:`assay._kernels.ranking.sort_with_weights`), so a small call does not compile it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._kernels._arrays import copy_into
from assay._kernels._jit import jit, jit_inline

_SIGN = np.uint64(0x8000000000000000)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_MAX_DIGIT_BITS = 12
_INSERTION_SORT_MAX = 32  # segments this short are sorted by insertion
MSD_THRESHOLD = 1 << 17  # below this size one cache-resident LSD sort is best
_MSD_BITS = 11
_BUCKET_MAX_BITS = 14  # widest digit of the second most-significant-digit pass


@jit_inline
def descending_key(bits: np.uint64) -> np.uint64:
    """Key of one float64 (given by its raw bits) such that larger floats sort first."""
    if bits == _SIGN:  # -0.0 is +0.0
        bits = np.uint64(0)
    if bits & _SIGN:
        ascending = bits ^ _ALL
    else:
        ascending = bits | _SIGN
    return ascending ^ _ALL


@jit_inline
def bit_span(varying):
    """``(low, high)``: the lowest and the highest set bit of ``varying`` (not 0)."""
    low = 0
    while (varying >> np.uint64(low)) & np.uint64(1) == 0:
        low += 1
    high = 63
    while (varying >> np.uint64(high)) & np.uint64(1) == 0:
        high -= 1
    return low, high


@jit_inline
def _digit_plan(keys):
    """(lowest varying bit, digit width, number of digits) for sorting ``keys``.

    ``keys`` are uint64 or uint32.  Digits are at most 12 bits wide, and narrower for
    short inputs, whose histograms would otherwise cost more to clear than the keys cost
    to move.
    """
    n = keys.shape[0]
    first = np.uint64(keys[0])
    varying = np.uint64(0)
    for i in range(n):
        varying |= np.uint64(keys[i]) ^ first
    if varying == 0:
        return 0, 1, 0  # all keys equal: nothing to sort
    low, high = bit_span(varying)
    span = high - low + 1
    max_bits = 4
    while max_bits < _MAX_DIGIT_BITS and (1 << (max_bits + 2)) < n:
        max_bits += 1
    n_digits = (span + max_bits - 1) // max_bits
    width = (span + n_digits - 1) // n_digits
    return low, width, n_digits


@jit_inline
def _digit_histograms(keys, low, width, n_digits):
    counts = np.zeros((n_digits, 1 << width), dtype=np.int64)
    mask = np.uint64((1 << width) - 1)
    for i in range(keys.shape[0]):
        k = np.uint64(keys[i]) >> np.uint64(low)
        for p in range(n_digits):
            counts[p, (k >> np.uint64(p * width)) & mask] += 1
    return counts


@jit_inline
def _insertion_sort(keys, start, end):
    """Insertion sort of ``keys[start:end]``."""
    for i in range(start + 1, end):
        key = keys[i]
        j = i - 1
        while j >= start and keys[j] > key:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = key


@jit
def _lsd(keys, scratch, start, end):
    """LSD radix sort of ``keys[start:end]`` (uint64 or uint32); the result ends in place.

    ``scratch`` has the dtype of ``keys`` and at least ``end`` entries; its
    ``[start:end]`` part is overwritten.
    """
    n = end - start
    if n < 2:
        return
    if n <= _INSERTION_SORT_MAX:
        _insertion_sort(keys, start, end)
        return
    low, width, n_digits = _digit_plan(keys[start:end])
    counts = _digit_histograms(keys[start:end], low, width, n_digits)
    mask = np.uint64((1 << width) - 1)
    offsets = np.empty(1 << width, dtype=np.int64)
    source = keys
    target = scratch
    first = np.uint64(keys[start])
    for p in range(n_digits):
        shift = np.uint64(low + p * width)
        if counts[p, (first >> shift) & mask] == n:
            continue  # this digit is constant over the segment
        total = start
        for b in range(1 << width):
            offsets[b] = total
            total += counts[p, b]
        for i in range(start, end):
            k = source[i]
            d = (np.uint64(k) >> shift) & mask
            j = offsets[d]
            target[np.uint64(j)] = k
            offsets[d] = j + 1
        source, target = target, source
    if source is not keys:
        copy_into(keys[start:end], source[start:end])


@jit_inline
def _varying_bits(keys):
    """The bits (as uint64) that differ between some two of ``keys``."""
    first = np.uint64(keys[0])
    varying = np.uint64(0)
    for i in range(keys.shape[0]):
        varying |= np.uint64(keys[i]) ^ first
    return varying


@jit_inline
def _top_digit(varying):
    """(shift, bits) of the most significant digit of the ``varying`` bits; ``bits`` is 0
    when no bit varies (all keys are equal)."""
    if varying == 0:
        return np.uint64(0), 0
    high = 63
    while (varying >> np.uint64(high)) & np.uint64(1) == 0:
        high -= 1
    top_bits = _MSD_BITS if high >= _MSD_BITS - 1 else high + 1
    return np.uint64(high + 1 - top_bits), top_bits


@jit_inline
def _scatter_by_top_digit(keys, scratch, shift, top_bits):
    """One most-significant-digit pass: ``keys`` into ``scratch`` grouped (stably) by
    their digit at ``shift``; returns where each bucket starts (and the end)."""
    n_buckets = 1 << top_bits
    mask = np.uint64(n_buckets - 1)
    starts = np.zeros(n_buckets + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        starts[((np.uint64(keys[i]) >> shift) & mask) + 1] += 1
    for b in range(n_buckets):
        starts[b + 1] += starts[b]
    offsets = starts[:n_buckets].copy()
    for i in range(keys.shape[0]):
        k = keys[i]
        d = (np.uint64(k) >> shift) & mask
        j = offsets[d]
        scratch[np.uint64(j)] = k
        offsets[d] = j + 1
    return starts


@jit_inline
def _insertion_sort_with_payload(keys, payload, start, end):
    """Stable insertion sort of ``keys[start:end]`` with its payload."""
    for i in range(start + 1, end):
        key = keys[i]
        value = payload[i]
        j = i - 1
        while j >= start and keys[j] > key:
            keys[j + 1] = keys[j]
            payload[j + 1] = payload[j]
            j -= 1
        keys[j + 1] = key
        payload[j + 1] = value


@jit
def _lsd_with_payload(keys, payload, scratch_keys, scratch_payload, start, end):
    """LSD radix sort of ``keys[start:end]`` with its payload; the result ends in place.

    ``scratch_*`` hold at least ``end`` entries; their ``[start:end]`` part is overwritten.
    """
    n = end - start
    if n < 2:
        return
    if n <= _INSERTION_SORT_MAX:
        _insertion_sort_with_payload(keys, payload, start, end)
        return
    low, width, n_digits = _digit_plan(keys[start:end])
    counts = _digit_histograms(keys[start:end], low, width, n_digits)
    mask = np.uint64((1 << width) - 1)
    offsets = np.empty(1 << width, dtype=np.int64)
    in_place = True  # where the current order lives: keys (True) or scratch (False)
    first = keys[start]
    for p in range(n_digits):
        shift = np.uint64(low + p * width)
        if counts[p, (first >> shift) & mask] == n:
            continue  # this digit is constant over the segment
        total = start
        for b in range(1 << width):
            offsets[b] = total
            total += counts[p, b]
        if in_place:
            for i in range(start, end):
                k = keys[i]
                d = (k >> shift) & mask
                j = offsets[d]
                scratch_keys[np.uint64(j)] = k
                scratch_payload[np.uint64(j)] = payload[i]
                offsets[d] = j + 1
        else:
            for i in range(start, end):
                k = scratch_keys[i]
                d = (k >> shift) & mask
                j = offsets[d]
                keys[np.uint64(j)] = k
                payload[np.uint64(j)] = scratch_payload[i]
                offsets[d] = j + 1
        in_place = not in_place
    if not in_place:
        copy_into(keys[start:end], scratch_keys[start:end])
        copy_into(payload[start:end], scratch_payload[start:end])


@jit_inline
def _bucket_digit_bits(n_keys, high):
    """Width of the digit that splits a bucket of ``n_keys`` whose highest varying bit
    is ``high``: about two keys per sub-bucket, at most ``_BUCKET_MAX_BITS`` bits."""
    bits = 1
    while bits < _BUCKET_MAX_BITS and (2 << bits) < n_keys:
        bits += 1
    return bits if bits <= high + 1 else high + 1


@jit_inline
def _buckets(keys, shift, n_buckets):
    """The counting pass of a bucket sort on the digit of ``n_buckets`` values at
    ``shift``: where each bucket starts (and the end), and each bucket's varying bits
    (the bits set in some of its keys and clear in another)."""
    mask = np.uint64(n_buckets - 1)
    starts = np.zeros(n_buckets + 1, dtype=np.int64)
    any_set = np.zeros(n_buckets, dtype=np.uint64)
    all_set = np.full(n_buckets, _ALL, dtype=np.uint64)
    for i in range(keys.shape[0]):
        k = np.uint64(keys[i])
        d = (k >> shift) & mask
        starts[d + 1] += 1
        any_set[d] |= k
        all_set[d] &= k
    for b in range(n_buckets):
        starts[b + 1] += starts[b]
    return starts, any_set ^ all_set


@jit_inline
def _sub_buckets(keys, counts, start, end, varying):
    """The second digit of the bucket ``keys[start:end]`` (``varying`` its varying bits,
    not 0): its top varying bits, about two keys per sub-bucket.  Fills ``counts[b]``
    with where sub-bucket ``b`` starts; returns ``(shift, mask, sub-buckets)``."""
    high = 63
    while (varying >> np.uint64(high)) & np.uint64(1) == 0:
        high -= 1
    bits = _bucket_digit_bits(end - start, high)
    shift = np.uint64(high + 1 - bits)
    n_bins = 1 << bits
    mask = np.uint64(n_bins - 1)
    for b in range(n_bins + 1):
        counts[b] = 0
    for i in range(start, end):
        counts[((np.uint64(keys[i]) >> shift) & mask) + 1] += 1
    counts[0] = start
    for b in range(n_bins):
        counts[b + 1] += counts[b]
    return shift, mask, n_bins


@jit
def _sort_bucket_with_payload(
    keys, payload, sorted_keys, sorted_payload, counts, start, end, varying
):
    """Stable sort of the bucket ``keys[start:end]`` (with its payload) into
    ``sorted_keys[start:end]`` (and ``sorted_payload``).

    ``varying`` holds the bits that differ between the bucket's keys.  A second digit
    (:func:`_sub_buckets`) puts every key into its sub-bucket at its final place; the
    sub-buckets are sorted there by insertion (or by LSD passes when a skewed one is
    long, with ``keys[start:end]`` as scratch).  ``counts``: ``2**_BUCKET_MAX_BITS + 1``
    entries or more.
    """
    if end - start <= _INSERTION_SORT_MAX or varying == 0:
        for i in range(start, end):
            sorted_keys[i] = keys[i]
            sorted_payload[i] = payload[i]
        if varying != 0:
            _insertion_sort_with_payload(sorted_keys, sorted_payload, start, end)
        return
    shift, mask, n_bins = _sub_buckets(keys, counts, start, end, varying)
    for i in range(start, end):
        k = keys[i]
        d = (k >> shift) & mask
        j = counts[d]
        sorted_keys[np.uint64(j)] = k
        sorted_payload[np.uint64(j)] = payload[i]
        counts[d] = j + 1
    # counts[b] is now the end of sub-bucket b (and the start of sub-bucket b + 1)
    low = start
    for b in range(n_bins):
        high_end = counts[b]
        if high_end - low > _INSERTION_SORT_MAX:
            _lsd_with_payload(sorted_keys, sorted_payload, keys, payload, low, high_end)
        elif high_end - low > 1:
            _insertion_sort_with_payload(sorted_keys, sorted_payload, low, high_end)
        low = high_end


@jit
def bucket_sort_with_payload(keys: np.ndarray, payload: np.ndarray) -> None:
    """Sort uint64 ``keys`` ascending in place, moving ``payload`` along (stable), for a
    large input: one most-significant-digit pass (on the top ``_MSD_BITS`` varying bits)
    scatters both into buckets across main memory; each bucket, small enough to stay in
    cache, is sorted back into place by :func:`_sort_bucket_with_payload`.  Any size
    gives the same result as :func:`_lsd_with_payload` (both are stable sorts of the
    same keys)."""
    n = keys.shape[0]
    if n < 2:
        return
    shift, top_bits = _top_digit(_varying_bits(keys))
    if top_bits == 0:
        return
    scratch_keys = np.empty(n, dtype=np.uint64)
    scratch_payload = np.empty_like(payload)
    n_buckets = 1 << top_bits
    starts, varying = _buckets(keys, shift, n_buckets)
    mask = np.uint64(n_buckets - 1)
    offsets = starts[:n_buckets].copy()
    for i in range(n):
        k = keys[i]
        d = (k >> shift) & mask
        j = offsets[d]
        scratch_keys[np.uint64(j)] = k
        scratch_payload[np.uint64(j)] = payload[i]
        offsets[d] = j + 1
    # the buckets now lie in scratch: sort each back into place
    counts = np.empty((1 << _BUCKET_MAX_BITS) + 1, dtype=np.int64)
    for b in range(n_buckets):
        _sort_bucket_with_payload(scratch_keys, scratch_payload, keys, payload, counts,
                                  starts[b], starts[b + 1], varying[b])  # fmt: skip


@jit_inline
def _float_key(bits, negative_zero, all_ones):
    """The order-preserving key of a float's raw bits (-0.0 has the key of +0.0)."""
    if bits == negative_zero:
        bits = np.uint64(0)
    return bits ^ all_ones if bits & negative_zero else bits | negative_zero


@jit_inline
def _float_bits(key, negative_zero, all_ones):
    """Inverse of :func:`_float_key` (giving +0.0 for both zeros)."""
    return key ^ negative_zero if key & negative_zero else key ^ all_ones


@jit
def sort_float_bits(bits, sign, scratch):
    """Sort floats ascending in place, given as their raw bits (-0.0 becomes 0.0).

    ``bits`` is the uint64 view of float64 values or the uint32 view of float32 values,
    ``sign`` their sign bit (of the same dtype), ``scratch`` an array like ``bits``
    (overwritten).  Each value's bits become its
    order-preserving key in place (no key array: a float32 needs only 32-bit keys),
    the keys are radix sorted (one most-significant-digit pass, then LSD passes over
    each bucket), and turned back into the
    values: the first pass makes the keys, and each bucket of the most-significant-digit
    pass is turned back while it is in cache.  The result equals ``np.sort`` of the
    values, except that every -0.0 comes back as +0.0 (the two compare equal, so they
    form one tie group either way).
    """
    n = bits.shape[0]
    negative_zero = np.uint64(sign)
    all_ones = negative_zero | (negative_zero - np.uint64(1))
    if n == 0:
        return
    first = _float_key(np.uint64(bits[0]), negative_zero, all_ones)
    varying = np.uint64(0)
    for i in range(n):
        key = _float_key(np.uint64(bits[i]), negative_zero, all_ones)
        bits[i] = key
        varying |= key ^ first
    shift, top_bits = _top_digit(varying)
    if n < MSD_THRESHOLD or top_bits == 0:
        _lsd(bits, scratch, np.int64(0), n)
        for i in range(n):
            bits[i] = _float_bits(np.uint64(bits[i]), negative_zero, all_ones)
        return
    starts = _scatter_by_top_digit(bits, scratch, shift, top_bits)
    for b in range(starts.shape[0] - 1):
        start = starts[b]
        end = starts[b + 1]
        _lsd(scratch, bits, start, end)  # sorted in scratch, bits as scratch
        for i in range(start, end):
            bits[i] = _float_bits(np.uint64(scratch[i]), negative_zero, all_ones)


_SIGN_32 = np.uint32(0x80000000)


@jit
def keys_varying(bits, sign, first):
    """The bits that differ between ``first`` and the order-preserving key
    (:func:`_float_key`) of some value of ``bits`` (raw float bits, as in
    :func:`sort_float_bits`)."""
    negative_zero = np.uint64(sign)
    all_ones = negative_zero | (negative_zero - np.uint64(1))
    varying = np.uint64(0)
    for i in range(bits.shape[0]):
        varying |= _float_key(np.uint64(bits[i]), negative_zero, all_ones) ^ first
    return varying


@jit
def count_top_digits(bits, sign, shift, mask, starts):
    """Add the keys of ``bits`` whose top digit (at ``shift``, ``mask`` wide) is ``d`` to
    ``starts[d + 1]``."""
    negative_zero = np.uint64(sign)
    all_ones = negative_zero | (negative_zero - np.uint64(1))
    for i in range(bits.shape[0]):
        key = _float_key(np.uint64(bits[i]), negative_zero, all_ones)
        starts[((key >> shift) & mask) + np.uint64(1)] += 1


@jit
def scatter_top_digits(bits, sign, shift, mask, offsets, keys):
    """The keys of ``bits`` into ``keys``, each at the next free place of its top digit's
    bucket (``offsets``, advanced): a stable most-significant-digit pass."""
    negative_zero = np.uint64(sign)
    all_ones = negative_zero | (negative_zero - np.uint64(1))
    for i in range(bits.shape[0]):
        key = _float_key(np.uint64(bits[i]), negative_zero, all_ones)
        d = (key >> shift) & mask
        j = offsets[d]
        keys[np.uint64(j)] = key
        offsets[d] = j + 1


@jit
def finish_top_buckets(keys, starts, sign, scratch):
    """Sort each bucket ``keys[starts[b]:starts[b + 1]]`` by LSD (``scratch``: at least
    the largest bucket's size) and turn its keys back into float bits, in cache."""
    negative_zero = np.uint64(sign)
    all_ones = negative_zero | (negative_zero - np.uint64(1))
    for b in range(starts.shape[0] - 1):
        start = starts[b]
        end = starts[b + 1]
        _lsd(keys[start:end], scratch, np.int64(0), end - start)
        for i in range(start, end):
            keys[i] = _float_bits(np.uint64(keys[i]), negative_zero, all_ones)


@jit
def _fresh_like(like, n):
    """``n`` uninitialised values of ``like``'s dtype, from Numba's allocator."""
    return np.empty(n, dtype=like.dtype)


def _key_of(value: Any, sign: int) -> np.uint64:
    """The order-preserving key (:func:`_float_key`) of one raw float bit pattern."""
    bits = int(value)
    if bits == sign:
        bits = 0
    return np.uint64(bits ^ (sign | (sign - 1)) if bits & sign else bits | sign)


def radix_sort_joined(pieces: list[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
    """The values of several float64 or float32 arrays (one dtype, at least one value)
    in one new array, sorted ascending as :func:`radix_sort_floats` sorts (-0.0 becomes
    0.0); the pieces are not changed.  ``out``: the array to fill and return (as many
    values as the pieces hold, of their dtype); by default a new one from Numba's
    allocator.

    The keys are made as the pieces are read, and the most-significant-digit pass
    scatters them straight from the pieces into the result: no joined copy and no
    scratch as large as the result (each bucket is then sorted by LSD in a scratch as
    large as the largest bucket).  Two read passes over the pieces find the varying top
    bits and count the buckets.
    """
    dtype = pieces[0].dtype
    unsigned, sign = (np.uint32, _SIGN_32) if dtype == np.float32 else (np.uint64, _SIGN)
    views = [piece.view(unsigned) for piece in pieces]
    first = _key_of(views[0][0], int(sign))
    varying = 0
    for bits in views:
        varying |= int(keys_varying(bits, sign, first))
    n = sum(piece.shape[0] for piece in pieces)
    if out is None:
        # from Numba's allocator, not NumPy's: NumPy advises the kernel to back arrays of
        # 4 MiB or more with huge pages, and on a virtual machine that hands free memory
        # back to its host a fresh huge page is often one the host must supply again,
        # which Dask workers (their freed memory returned at once) paid on every bucket:
        # 0.9 to 1.1 s of their CPU per call at 1e8 rows (docs/scale-out.md, "Fresh
        # memory")
        out = _fresh_like(pieces[0], n)
    if out.shape != (n,) or out.dtype != dtype:
        raise ValueError(f"`out` must hold {n} values of {dtype}.")
    if varying == 0:  # one value (+ 0.0: -0.0 is 0.0)
        out[:] = pieces[0][0] + dtype.type(0.0)
        return out
    top_bits = min(_MSD_BITS, varying.bit_length())
    shift = np.uint64(varying.bit_length() - top_bits)
    mask = np.uint64((1 << top_bits) - 1)
    starts = np.zeros((1 << top_bits) + 1, dtype=np.int64)
    for bits in views:
        count_top_digits(bits, sign, shift, mask, starts)
    np.cumsum(starts, out=starts)
    offsets = starts[:-1].copy()
    keys = out.view(unsigned)
    for bits in views:
        scatter_top_digits(bits, sign, shift, mask, offsets, keys)
    scratch = np.empty(int(np.diff(starts).max()), dtype=unsigned)
    finish_top_buckets(keys, starts, sign, scratch)
    return out


def radix_sort_floats(values: np.ndarray) -> np.ndarray:
    """Sort float64 or float32 ``values`` ascending in place by :func:`sort_float_bits`.

    Returns ``values``; float32 values are sorted on 32-bit keys (half the passes and
    half the bytes of float64).  The scratch array is NumPy's, not the kernel's: NumPy
    asks the kernel for huge pages on large arrays, which a process whose allocator
    returns freed memory at once (a Dask worker) then faults in 512 times less often.
    """
    if values.dtype == np.float32:
        bits = values.view(np.uint32)
        sort_float_bits(bits, _SIGN_32, np.empty_like(bits))
    else:
        bits = values.view(np.uint64)
        sort_float_bits(bits, _SIGN, np.empty_like(bits))
    return values
