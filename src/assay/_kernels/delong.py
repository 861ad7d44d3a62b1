"""DeLong placements (structural components) with midranks, O(n log n) per model.

For one model, let the positives have scores ``x_i`` and weights ``u_i`` (total
``U``), the negatives scores ``y_j`` and weights ``w_j`` (total ``W``); unweighted rows
weigh 1.  With ``psi(x, y) = [x > y] + [x = y] / 2``, the placements are

    V10_i = sum_j w_j psi(x_i, y_j) / W    (per positive: share of negatives below it)
    V01_j = sum_i u_i psi(x_i, y_j) / U    (per negative: share of positives above it)

(DeLong, DeLong & Clarke-Pearson 1988, section 3; Sun & Xu 2014 compute them from
midranks).  Both depend on a row only through its tie group: walking the tie groups
from the highest score down with ``TP``/``FP`` the positive/negative weight above the
group and ``P_k``/``N_k`` the weight inside it,

    V10 = (W - FP - N_k / 2) / W,    V01 = (TP + P_k / 2) / U,

which is the midrank formula of Sun & Xu written with weights.  The scores of each
class are sorted once (the package's radix sort of order-preserving keys, carrying
each row's position within its class), the two sorted lists are merged group by group,
and the placements are written back to the rows' positions.  The same sweep yields the
AUC by the formula of :mod:`assay._kernels.scans.roc_auc` (bit for bit the same value
without weights; with weights the class totals are summed in another order).

Models are independent: :func:`placements` runs them in parallel (``prange``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from assay._kernels._jit import jit, jit_parallel
from assay._kernels.atoms import next_tie_group
from assay._kernels.pieces import class_weights, make_context, scan_merged
from assay._kernels.scans import scan_finish, scan_fold, scan_start
from assay._kernels.scans.roc_auc import RocAuc, group_placements
from assay._kernels.sorting import descending_key, radix_sort_with_payload


@jit
def _sorted_class_keys(scores, positive, m):
    """Sorted descending-order keys of each class, with each key's position in its class.

    One pass fills the positives' keys and the negatives' keys (``m`` positives); each is
    then sorted by the package's radix sort carrying the positions along.
    """
    n = scores.shape[0]
    bits = scores.view(np.uint64)
    pos_keys = np.empty(m, dtype=np.uint64)
    neg_keys = np.empty(n - m, dtype=np.uint64)
    a = 0
    b = 0
    for i in range(n):
        if positive[i]:
            pos_keys[a] = descending_key(bits[i])
            a += 1
        else:
            neg_keys[b] = descending_key(bits[i])
            b += 1
    pos_rows = np.arange(m)
    neg_rows = np.arange(n - m)
    radix_sort_with_payload(pos_keys, pos_rows)
    radix_sort_with_payload(neg_keys, neg_rows)
    return pos_keys, pos_rows, neg_keys, neg_rows


@jit
def _class_weights(positive, weights, want_positive, count):
    """The weights of one class's rows, in their order of appearance."""
    out = np.empty(count, dtype=np.float64)
    a = 0
    for i in range(positive.shape[0]):
        if positive[i] == want_positive:
            out[a] = weights[i]
            a += 1
    return out


@jit
def model_placements(scores, positive, positive_weights, negative_weights, use_weights, v10, v01):
    """Placements of one model into ``v10`` (per positive) and ``v01`` (per negative).

    ``positive_weights`` / ``negative_weights`` hold the weights of the positive and the
    negative rows in their order of appearance (ignored unless ``use_weights``).
    Returns the AUC, ``sum_k N_k (2 TP_k + P_k) / (2 U W)`` (NaN when a class has no
    weight); the placements are then NaN too.
    """
    m = v10.shape[0]
    n = v01.shape[0]
    pos_keys, pos_rows, neg_keys, neg_rows = _sorted_class_keys(scores, positive, m)
    total_positive = 0.0
    total_negative = 0.0
    if use_weights:
        for i in range(m):
            total_positive += positive_weights[i]
        for j in range(n):
            total_negative += negative_weights[j]
    else:
        total_positive = float(m)
        total_negative = float(n)
    if total_positive == 0.0 or total_negative == 0.0:
        v10[:] = np.nan
        v01[:] = np.nan
        return np.nan
    options = RocAuc(1.0)
    context = make_context(total_positive, total_negative, not use_weights)
    state = scan_start(options, context, 0.0)
    i = 0
    j = 0
    tp = 0.0  # positive weight strictly above the current group
    fp = 0.0  # negative weight strictly above the current group
    while i < m or j < n:
        if i < m and (j >= n or pos_keys[i] <= neg_keys[j]):
            key = pos_keys[i]
        else:
            key = neg_keys[j]
        i_end = i
        p = 0.0
        while i_end < m and pos_keys[i_end] == key:
            p += positive_weights[pos_rows[i_end]] if use_weights else 1.0
            i_end += 1
        j_end = j
        q = 0.0
        while j_end < n and neg_keys[j_end] == key:
            q += negative_weights[neg_rows[j_end]] if use_weights else 1.0
            j_end += 1
        group_v10, group_v01 = group_placements(total_positive, total_negative, tp, fp, p, q)
        for r in range(i, i_end):
            v10[pos_rows[r]] = group_v10
        for r in range(j, j_end):
            v01[neg_rows[r]] = group_v01
        state = scan_fold(options, context, state, tp, fp, p, q)
        tp += p
        fp += q
        i = i_end
        j = j_end
    return scan_finish(options, context, state)


@jit
def _class_split(positive, weights, use_weights):
    """Number of positives and the weights of each class, in order of appearance."""
    n = positive.shape[0]
    m = 0
    for i in range(n):
        if positive[i]:
            m += 1
    if use_weights:
        return (
            m,
            # not literals: each literal argument would compile its own specialisation
            _class_weights(positive, weights, np.bool_(True), np.int64(m)),
            _class_weights(positive, weights, np.bool_(False), np.int64(n - m)),
        )
    empty = np.empty(0, dtype=np.float64)
    return m, empty, empty


@jit_parallel
def placements(scores, positive, weights, use_weights):
    """Placements and AUC of every model (row of ``scores``) on one test set.

    ``scores`` is a C-contiguous float64 array of shape (k, n), ``positive`` a bool
    array of length n, ``weights`` float64 of length n (empty when not ``use_weights``).
    Returns ``(aucs, v10, v01)`` of shapes (k,), (k, n_positive), (k, n_negative); the
    columns of ``v10`` / ``v01`` are the positive / negative rows in order of appearance.
    The models run in parallel; :func:`placements_serial` is the same on one thread.
    """
    k = scores.shape[0]
    n = positive.shape[0]
    m, positive_weights, negative_weights = _class_split(positive, weights, use_weights)
    aucs = np.empty(k, dtype=np.float64)
    v10 = np.empty((k, m), dtype=np.float64)
    v01 = np.empty((k, n - m), dtype=np.float64)
    for r in prange(k):
        aucs[r] = model_placements(
            scores[r], positive, positive_weights, negative_weights, use_weights, v10[r], v01[r]
        )
    return aucs, v10, v01


@jit
def placements_serial(scores, positive, weights, use_weights):
    """:func:`placements` on the calling thread (for small inputs: no thread start-up)."""
    k = scores.shape[0]
    n = positive.shape[0]
    m, positive_weights, negative_weights = _class_split(positive, weights, use_weights)
    aucs = np.empty(k, dtype=np.float64)
    v10 = np.empty((k, m), dtype=np.float64)
    v01 = np.empty((k, n - m), dtype=np.float64)
    for r in range(k):
        aucs[r] = model_placements(
            scores[r], positive, positive_weights, negative_weights, use_weights, v10[r], v01[r]
        )
    return aucs, v10, v01


@jit
def weighted_cross_products(values, means, weights, use_weights):
    """Centred weighted cross products of the rows of ``values``, and of their difference.

    ``values`` has shape (k, m) and ``means`` holds the row means ``a_r``; with
    ``c_i = weights[i]`` (1 when not ``use_weights``) and ``x_ri - a_r`` the centred
    values, returns the (k, k) matrix ``sum_i c_i (x_ri - a_r)(x_si - a_s)`` and, when
    k >= 2, ``sum_i c_i ((x_0i - a_0) - (x_1i - a_1))^2`` computed from the differences
    themselves (never negative by cancellation; 0.0 when k < 2).  One pass over the
    columns, no temporary of the size of ``values``.

    A row whose values are all equal (over the columns of non-zero weight) has a mean
    equal to that value, so its centred values are exactly 0; the rounding of ``a_r``
    would leave ~1e-16 instead, and a variance of ~1e-33 where it is 0.  Such rows (and
    a constant difference) therefore contribute exactly 0.
    """
    k = values.shape[0]
    m = values.shape[1]
    out = np.zeros((k, k), dtype=np.float64)
    difference = 0.0
    centered = np.empty(k, dtype=np.float64)
    first = np.empty(k, dtype=np.float64)
    constant = np.ones(k, dtype=np.bool_)
    first_difference = 0.0
    constant_difference = True
    seen = False
    for i in range(m):
        c = weights[i] if use_weights else 1.0
        if c == 0.0:
            continue
        if not seen:
            for r in range(k):
                first[r] = values[r, i]
            if k >= 2:
                first_difference = values[0, i] - values[1, i]
            seen = True
        for r in range(k):
            centered[r] = values[r, i] - means[r]
            if values[r, i] != first[r]:
                constant[r] = False
        for r in range(k):
            x = c * centered[r]
            for s in range(r, k):
                out[r, s] += x * centered[s]
        if k >= 2:
            if values[0, i] - values[1, i] != first_difference:
                constant_difference = False
            d = centered[0] - centered[1]
            difference += c * d * d
    for r in range(k):
        for s in range(r, k):
            if constant[r] or constant[s]:
                out[r, s] = 0.0
    for r in range(k):
        for s in range(r):
            out[r, s] = out[s, r]
    if constant_difference:
        difference = 0.0
    return out, difference


@jit
def sorted_sums_of_squares(a, b, wa, wb, use_weights, integer_counts):
    """One model from sorted data (:mod:`assay._kernels.ranking` layout): no row order.

    With ``k = 1`` only the spread of the placements matters, not which row holds
    which, and a placement is constant over a tie group; so two sweeps over the tie
    groups of the already sorted scores give the AUC and
    ``sum_i u_i (V10_i - AUC)^2`` and ``sum_j w_j (V01_j - AUC)^2``.
    Returns ``(auc, total_positive, total_negative, squares_10, squares_01)``, in the
    (possibly scaled) weight units of the input; NaN AUC when a class has no weight.
    """
    total_positive, total_negative = class_weights(a, b, wa, wb, use_weights)
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan, total_positive, total_negative, np.nan, np.nan
    auc = scan_merged(RocAuc(1.0), a, b, wa, wb, use_weights, integer_counts)
    squares_10 = 0.0
    squares_01 = 0.0
    first_10 = np.nan  # placements seen so far: all equal to the first? (see below)
    first_01 = np.nan
    constant_10 = True
    constant_01 = True
    tp = 0.0
    fp = 0.0
    i = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    j = np.int64(0)
    while i < a.shape[0] or j < b.shape[0]:
        _, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        v10, v01 = group_placements(total_positive, total_negative, tp, fp, p, q)
        if p > 0.0:
            if np.isnan(first_10):
                first_10 = v10
            elif v10 != first_10:
                constant_10 = False
            squares_10 += p * (v10 - auc) * (v10 - auc)
        if q > 0.0:
            if np.isnan(first_01):
                first_01 = v01
            elif v01 != first_01:
                constant_01 = False
            squares_01 += q * (v01 - auc) * (v01 - auc)
        tp += p
        fp += q
    # equal placements have their mean (the AUC) as value: exactly 0, not the ~1e-33
    # that the rounding of the AUC would leave (see weighted_cross_products)
    if constant_10:
        squares_10 = 0.0
    if constant_01:
        squares_01 = 0.0
    return auc, total_positive, total_negative, squares_10, squares_01
