"""The one sorted layout: tie groups ("atoms") in descending score order.

An atom is one distinct score with the positive and the negative weight of its rows
(counts when unweighted).  Every ranking metric is a scan over the atoms
(:mod:`assay._kernels.pieces`), whatever produced them: the two classes' sorted scores
merged here, or the hashing pass that sums each distinct score's weight directly.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit
from assay._kernels._rng import score_key

_SIGN = np.uint64(0x8000000000000000)
# the class tags of the Poisson keys (numpy scalars: a literal 1 or 0 would compile
# its own specialisation of the key function)
_POSITIVE_TAG = np.int64(1)
_NEGATIVE_TAG = np.int64(0)


@jit
def count_tie_groups(a, b):
    """Number of distinct values in two ascending arrays together."""
    i = 0
    j = 0
    groups = 0
    na = a.shape[0]
    nb = b.shape[0]
    while i < na or j < nb:
        u = np.uint64(i)  # unsigned positions: no test for a negative index
        v = np.uint64(j)
        value = a[u] if i < na and (j >= nb or a[u] <= b[v]) else b[v]
        while i < na and a[np.uint64(i)] == value:
            i += 1
        while j < nb and b[np.uint64(j)] == value:
            j += 1
        groups += 1
    return groups


@jit
def next_tie_group(a, b, wa, wb, use_weights, i, j):
    """The tie group starting at positions ``i``, ``j`` of two ascending arrays.

    Returns ``(value, p, q, i', j')``: its (negated) score, its positive and negative
    weight (1 per entry unless ``use_weights``) and where the next group starts.

    A kernel of its own, not inlined by Numba: every metric's scan specialises the walk
    that calls it, and an inlined body would be typed again in each (about 0.25 s of a
    cold first call per ranking metric); LLVM still inlines it into the machine code of
    its callers, which run as fast.  Pass ``i``, ``j`` as int64 variables, not literal
    ``0``: a literal argument compiles a signature of its own.
    """
    na = a.shape[0]
    nb = b.shape[0]
    # unsigned positions: Numba tests a signed index for being negative
    u = np.uint64(i)
    v = np.uint64(j)
    value = a[u] if i < na and (j >= nb or a[u] <= b[v]) else b[v]
    p = 0.0
    while i < na and a[np.uint64(i)] == value:
        p += wa[np.uint64(i)] if use_weights else 1.0
        i += 1
    q = 0.0
    while j < nb and b[np.uint64(j)] == value:
        q += wb[np.uint64(j)] if use_weights else 1.0
        j += 1
    return value, p, q, i, j


@jit
def tie_groups(a, b, wa, wb, use_weights):
    """Atoms of the two classes' sorted scores: ``(scores, positive, negative)``.

    ``a``, ``b``: the negated scores of the positive and of the negative rows (or tie
    cells), ascending; ``wa``, ``wb``: their weights (read when ``use_weights``, else
    every entry weighs 1).  Returns the distinct scores in descending order (-0.0 as
    0.0) with the positive and the negative weight of each.
    """
    n = a.shape[0] + b.shape[0]  # at most this many atoms: one pass, then trimmed
    scores = np.empty(n, dtype=np.float64)
    positive = np.empty(n, dtype=np.float64)
    negative = np.empty(n, dtype=np.float64)
    i = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    j = np.int64(0)
    m = 0
    while i < a.shape[0] or j < b.shape[0]:
        value, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        scores[m] = -value + 0.0  # the + 0.0 turns -0.0 into 0.0
        positive[m] = p
        negative[m] = q
        m += 1
    if m == n:
        return scores, positive, negative
    return scores[:m].copy(), positive[:m].copy(), negative[:m].copy()


def merge_atoms(a, b, wa, wb, use_weights):
    """Merge two classes' sorted atoms into one order of decreasing score.

    ``a``, ``b``: negated scores of the positive and negative atoms, ascending; ``wa``,
    ``wb``: their weights or cell sizes (read when ``use_weights``).  Returns
    ``(is_positive, continues, value)`` where ``continues[k]`` says that atom ``k + 1``
    has the same score (the tie group goes on).  Within a tie group the positives come
    first.  The Poisson bootstrap's keys of the atoms are :func:`merged_keys`.  The arrays
    are allocated here, by NumPy, so that the kernel compiles no allocation.
    """
    n = a.shape[0] + b.shape[0]
    is_positive = np.empty(n, dtype=np.bool_)
    continues = np.empty(n, dtype=np.bool_)
    value = np.empty(n if use_weights else 0, dtype=np.float64)
    _merge_into(a, b, wa, wb, use_weights, is_positive, continues, value)
    return is_positive, continues, value


@jit
def _merge_into(a, b, wa, wb, use_weights, is_positive, continues, value):
    """:func:`merge_atoms` into the arrays given."""
    na = a.shape[0]
    nb = b.shape[0]
    n = na + nb
    i = 0
    j = 0
    previous = 0.0
    for k in range(n):
        if i < na and (j >= nb or a[i] <= b[j]):
            is_positive[k] = True
            score = a[i]
            if use_weights:
                value[k] = wa[i]
            i += 1
        else:
            is_positive[k] = False
            score = b[j]
            if use_weights:
                value[k] = wb[j]
            j += 1
        if k > 0:
            continues[k - 1] = score == previous
        previous = score
    if n > 0:
        continues[n - 1] = False


@jit
def merged_keys(a, b, is_positive):
    """The key of every atom's (score, class) cell in the merged order of
    :func:`merge_atoms` (:func:`assay._kernels._rng.score_key` of the score's bits and
    the class), for the Poisson bootstrap: a kernel of its own, so that the other
    schemes never compile the keys."""
    a_bits = a.view(np.uint64)
    b_bits = b.view(np.uint64)
    key = np.empty(is_positive.shape[0], dtype=np.uint64)
    i = 0
    j = 0
    for k in range(is_positive.shape[0]):
        # the bits of the score itself: the negated score's, sign flipped
        if is_positive[k]:
            key[k] = score_key(a_bits[i] ^ _SIGN, _POSITIVE_TAG)
            i += 1
        else:
            key[k] = score_key(b_bits[j] ^ _SIGN, _NEGATIVE_TAG)
            j += 1
    return key


@jit
def row_keys(first, second, is_positive):
    """Keys of rows named by two scores and a class (the paired Poisson bootstrap):
    ``score_key(second, score_key(first, class))`` of each row."""
    first_bits = first.view(np.uint64)
    second_bits = second.view(np.uint64)
    key = np.empty(first.shape[0], dtype=np.uint64)
    for k in range(first.shape[0]):
        label = 1 if is_positive[k] else 0
        key[k] = score_key(second_bits[k], score_key(first_bits[k], label))
    return key


@jit
def count_groups(continues):
    """Number of tie groups of the merged order."""
    groups = 0
    for k in range(continues.shape[0]):
        if not continues[k]:
            groups += 1
    return groups
