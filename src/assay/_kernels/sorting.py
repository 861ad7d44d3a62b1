"""Sort once: descending order of scores as an LSD radix sort of integer keys.

A float64 score ``x`` is mapped to a uint64 key whose *ascending* unsigned order is
the *descending* order of ``x`` (IEEE-754 order-preserving bit trick, then bitwise
complement).  ``-0.0`` is mapped to the key of ``+0.0`` so that the two zeros form
one tie group, as they compare equal.  NaN never reaches a kernel (the API rejects it).

The sort is a least-significant-digit radix sort with 11-bit digits (6 passes at
most); a pass whose digit is the same for every key is skipped, which removes the
top pass for scores of one sign and a narrow exponent range (probabilities).  The
sort is stable and O(n); it needs one scratch buffer of the same size.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit

_SIGN = np.uint64(0x8000000000000000)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_RADIX_BITS = 11
_N_BUCKETS = 1 << _RADIX_BITS
_MASK = np.uint64(_N_BUCKETS - 1)
_N_PASSES = 6  # ceil(64 / 11)


@jit
def descending_key(bits: np.uint64) -> np.uint64:
    """Key of one float64 (given by its raw bits) such that larger floats sort first."""
    if bits == _SIGN:  # -0.0 is +0.0
        bits = np.uint64(0)
    if bits & _SIGN:
        ascending = bits ^ _ALL
    else:
        ascending = bits | _SIGN
    return ascending ^ _ALL


@jit
def key_to_score(key: np.uint64) -> float:
    """Inverse of :func:`descending_key` (returns the float64 value)."""
    ascending = key ^ _ALL
    if ascending & _SIGN:
        bits = ascending ^ _SIGN
    else:
        bits = ascending ^ _ALL
    out = np.empty(1, dtype=np.uint64)
    out[0] = bits
    return out.view(np.float64)[0]


@jit
def keys_to_scores(keys: np.ndarray) -> np.ndarray:
    """Vector form of :func:`key_to_score`."""
    bits = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        ascending = keys[i] ^ _ALL
        if ascending & _SIGN:
            bits[i] = ascending ^ _SIGN
        else:
            bits[i] = ascending ^ _ALL
    return bits.view(np.float64)


@jit
def _digit_histograms(keys: np.ndarray) -> np.ndarray:
    counts = np.zeros((_N_PASSES, _N_BUCKETS), dtype=np.int64)
    for i in range(keys.shape[0]):
        k = keys[i]
        for p in range(_N_PASSES):
            counts[p, (k >> np.uint64(p * _RADIX_BITS)) & _MASK] += 1
    return counts


@jit
def radix_sort(keys: np.ndarray) -> np.ndarray:
    """Sort uint64 ``keys`` ascending in place (stable, LSD radix); returns ``keys``."""
    n = keys.shape[0]
    if n < 2:
        return keys
    counts = _digit_histograms(keys)
    source = keys
    target = np.empty(n, dtype=np.uint64)
    offsets = np.empty(_N_BUCKETS, dtype=np.int64)
    for p in range(_N_PASSES):
        # skip a pass whose digit is constant over all keys
        digit0 = (keys[0] >> np.uint64(p * _RADIX_BITS)) & _MASK
        if counts[p, digit0] == n:
            continue
        total = 0
        for b in range(_N_BUCKETS):
            offsets[b] = total
            total += counts[p, b]
        shift = np.uint64(p * _RADIX_BITS)
        for i in range(n):
            k = source[i]
            d = (k >> shift) & _MASK
            target[offsets[d]] = k
            offsets[d] += 1
        source, target = target, source
    if source is not keys:
        keys[:] = source
    return keys


@jit
def radix_sort_with_payload(keys: np.ndarray, payload: np.ndarray) -> None:
    """Sort uint64 ``keys`` ascending in place, moving ``payload`` along (stable)."""
    n = keys.shape[0]
    if n < 2:
        return
    counts = _digit_histograms(keys)
    source = keys
    target = np.empty(n, dtype=np.uint64)
    source_payload = payload
    target_payload = np.empty_like(payload)
    offsets = np.empty(_N_BUCKETS, dtype=np.int64)
    for p in range(_N_PASSES):
        digit0 = (keys[0] >> np.uint64(p * _RADIX_BITS)) & _MASK
        if counts[p, digit0] == n:
            continue
        total = 0
        for b in range(_N_BUCKETS):
            offsets[b] = total
            total += counts[p, b]
        shift = np.uint64(p * _RADIX_BITS)
        for i in range(n):
            k = source[i]
            d = (k >> shift) & _MASK
            j = offsets[d]
            target[j] = k
            target_payload[j] = source_payload[i]
            offsets[d] = j + 1
        source, target = target, source
        source_payload, target_payload = target_payload, source_payload
    if source is not keys:
        keys[:] = source
        payload[:] = source_payload


@jit
def descending_keys(scores: np.ndarray) -> np.ndarray:
    """The uint64 keys of ``scores`` (unsorted)."""
    bits = scores.view(np.uint64)
    keys = np.empty(scores.shape[0], dtype=np.uint64)
    for i in range(scores.shape[0]):
        keys[i] = descending_key(bits[i])
    return keys


@jit
def descending_order(scores: np.ndarray) -> np.ndarray:
    """Stable permutation putting ``scores`` in descending order (int64 indices)."""
    keys = descending_keys(scores)
    order = np.arange(scores.shape[0])
    radix_sort_with_payload(keys, order)
    return order


@jit
def split_sorted_keys(scores, positive, weights, use_weights):
    """Sorted keys of the positive and of the negative rows, with their weights.

    Rows with zero weight are dropped (they do not change any ranking quantity).
    Returns ``(positive_keys, negative_keys, positive_weights, negative_weights)``;
    the weight arrays are empty when ``use_weights`` is False.
    """
    n = scores.shape[0]
    bits = scores.view(np.uint64)
    n_positive = 0
    n_negative = 0
    for i in range(n):
        if use_weights and weights[i] == 0.0:
            continue
        if positive[i]:
            n_positive += 1
        else:
            n_negative += 1
    positive_keys = np.empty(n_positive, dtype=np.uint64)
    negative_keys = np.empty(n_negative, dtype=np.uint64)
    m = n_positive if use_weights else 0
    positive_weights = np.empty(m, dtype=np.float64)
    negative_weights = np.empty(n_negative if use_weights else 0, dtype=np.float64)
    a = 0
    b = 0
    for i in range(n):
        if use_weights and weights[i] == 0.0:
            continue
        k = descending_key(bits[i])
        if positive[i]:
            positive_keys[a] = k
            if use_weights:
                positive_weights[a] = weights[i]
            a += 1
        else:
            negative_keys[b] = k
            if use_weights:
                negative_weights[b] = weights[i]
            b += 1
    if use_weights:
        radix_sort_with_payload(positive_keys, positive_weights)
        radix_sort_with_payload(negative_keys, negative_weights)
    else:
        radix_sort(positive_keys)
        radix_sort(negative_keys)
    return positive_keys, negative_keys, positive_weights, negative_weights
