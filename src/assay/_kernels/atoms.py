"""The one sorted layout: tie groups ("atoms") in descending score order.

An atom is one distinct score with the positive and the negative weight of its rows
(counts when unweighted).  Every ranking metric is a scan over the atoms
(:mod:`assay._kernels.pieces`), whatever produced them: the two classes' sorted scores
merged here, or the hashing pass that sums each distinct score's weight directly.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit


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
