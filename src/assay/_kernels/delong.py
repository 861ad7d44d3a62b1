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

which is the midrank formula of Sun & Xu written with weights.  Each model's rows are
sorted once, all classes together, as packed integer words (:func:`packed_words`: the
leading varying bits of the score's order-preserving key, the class, the position within
the class) by NumPy's vectorised ``np.sort``, called between the kernels; a walk over the
sorted words (:func:`placements_from_words`) visits the tie groups and writes each row's
placement to its position.  Rows whose scores share the prefix but differ below it must be
in the order of their full keys; when the walk finds them out of order it stops, the caller
orders them (:func:`order_runs`) and walks again, so the order is exact.  The same walk yields
the AUC by the formula of :mod:`assay._kernels.scans.roc_auc` (bit for bit the value of
``roc_auc_score`` without weights; with weights the class totals are summed in another
order).

Models are independent: the caller may run them on separate threads (the kernels and
``np.sort`` release the GIL).
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit, jit_inline
from assay._kernels.atoms import next_tie_group
from assay._kernels.order import (
    WORD_BITS,
    index_bits_of,
    kept_key_bits,
    key_span,
    order_words_by_keys,
)
from assay._kernels.pieces import class_weights, make_context, scan_merged_forward
from assay._kernels.scans import scan_finish, scan_fold, scan_start
from assay._kernels.scans.roc_auc import RocAuc, group_placements
from assay._kernels.sorting import descending_key


@jit
def packed_words(scores, positive, m):
    """One int64 word per row, whose ascending order is the descending order of ``scores``.

    A word holds, from the top, as many of the key bits that vary between the scores as
    fit, the row's class (1 for a positive) and the row's position within its class::

        word = prefix << (index_bits + 1) | class << index_bits | position

    so that ``np.sort`` of the words (a vectorised sort of plain integers) orders the rows
    by score and carries their positions along.  When every varying bit fits in the
    prefix (``exact``), equal prefixes are equal scores; otherwise rows of different
    scores may share a prefix, and the full keys of each class (positives at ``[0, m)``,
    negatives at ``[m, n)``, in order of appearance) are returned to tell them apart.
    Returns ``(words, class_keys, index_bits, exact)``; ``class_keys`` is empty when exact.
    """
    n = scores.shape[0]
    index_bits = index_bits_of(max(m, n - m))
    prefix_bits = WORD_BITS - index_bits - 1
    bits = scores.view(np.uint64)
    shift, exact = kept_key_bits(key_span(bits), prefix_bits)
    prefix_mask = np.uint64((1 << prefix_bits) - 1)
    key_shift = np.uint64(shift)
    prefix_shift = np.uint64(index_bits + 1)
    class_bit = np.uint64(1) << np.uint64(index_bits)
    words = np.empty(n, dtype=np.int64)
    class_keys = np.empty(0 if exact else n, dtype=np.uint64)
    a = 0
    b = 0
    for i in range(n):
        key = descending_key(bits[i])
        prefix = ((key >> key_shift) & prefix_mask) << prefix_shift
        if positive[i]:
            words[i] = np.int64(prefix | class_bit | np.uint64(a))
            if not exact:
                class_keys[a] = key
            a += 1
        else:
            words[i] = np.int64(prefix | np.uint64(b))
            if not exact:
                class_keys[m + b] = key
            b += 1
    return words, class_keys, index_bits, exact


@jit
def class_split(positive, weights, use_weights):
    """``(m, weights, total_positive, total_negative)`` of one test set.

    ``m`` is the number of positives; ``weights`` holds the positives' weights then
    the negatives' (each in order of appearance; empty when not ``use_weights``); the
    totals are summed in that order (the counts when not ``use_weights``).
    """
    n = positive.shape[0]
    m = 0
    for i in range(n):
        if positive[i]:
            m += 1
    if not use_weights:
        return m, np.empty(0, dtype=np.float64), float(m), float(n - m)
    split_weights = np.empty(n, dtype=np.float64)
    total_positive = 0.0
    total_negative = 0.0
    a = 0
    b = m
    for i in range(n):
        if positive[i]:
            split_weights[a] = weights[i]
            total_positive += weights[i]
            a += 1
        else:
            split_weights[b] = weights[i]
            total_negative += weights[i]
            b += 1
    return m, split_weights, total_positive, total_negative


@jit_inline
def _full_key(word, class_keys, m, class_bit, position_mask):
    """The full key of the row of ``word`` (see :func:`packed_words`)."""
    position = word & position_mask
    return class_keys[position] if word & class_bit else class_keys[m + position]


@jit_inline
def _sort_by_full_keys(words, start, end, class_keys, m, class_bit, position_mask):
    """Sort ``words[start:end]`` stably by their rows' full keys (such a run holds rows
    whose scores agree on every bit of the prefix: short in any real data)."""
    keys = np.empty(end - start, dtype=np.uint64)
    for r in range(start, end):
        keys[r - start] = _full_key(words[r], class_keys, m, class_bit, position_mask)
    order_words_by_keys(keys, words[start:end])


@jit_inline
def _run_is_ordered(words, start, end, class_keys, m, class_bit, position_mask):
    """Whether the rows of ``words[start:end]`` are in the order of their full keys."""
    previous = _full_key(words[start], class_keys, m, class_bit, position_mask)
    for r in range(start + 1, end):
        key = _full_key(words[r], class_keys, m, class_bit, position_mask)
        if key < previous:
            return False
        previous = key
    return True


@jit_inline
def _run_end(words, start, prefix_shift):
    """The end of the run of words of the prefix of ``words[start]``."""
    prefix = words[start] >> prefix_shift
    end = start + 1
    while end < words.shape[0] and words[end] >> prefix_shift == prefix:
        end += 1
    return end


@jit
def order_runs(words, class_keys, index_bits, m, start):
    """Order the rows of every run of one prefix from ``words[start]`` on by their full
    keys (stably), for :func:`placements_from_words` (see there).  Compiled and called
    only for data that need it: rows whose scores differ only below the prefix of
    inexact words, which the walk found out of order."""
    prefix_shift = np.int64(index_bits + 1)
    class_bit = np.int64(1) << np.int64(index_bits)
    position_mask = class_bit - np.int64(1)
    while start < words.shape[0]:
        end = _run_end(words, start, prefix_shift)
        if end - start > 1 and not _run_is_ordered(
            words, start, end, class_keys, m, class_bit, position_mask
        ):
            _sort_by_full_keys(words, start, end, class_keys, m, class_bit, position_mask)
        start = end


@jit
def placements_from_words(
    words, class_keys, exact, index_bits, weights, use_weights, totals, v10, v01
):
    """Placements of one model into ``v10`` / ``v01`` from its sorted :func:`packed_words`.

    A tie group is a run of words of one prefix when the words are ``exact`` or the run
    is one row long; a longer run of inexact words must be in the order of the rows' full
    keys (``class_keys``), and is cut wherever the key changes.  ``weights`` holds the
    positives' weights then the negatives' (in order of appearance; ignored unless
    ``use_weights``), ``totals`` the two class totals, both positive.  The tie groups are
    visited from the highest score down; returns ``(auc, -1)``, the AUC
    ``sum_k N_k (2 TP_k + P_k) / (2 U W)`` folded as :mod:`assay._kernels.scans.roc_auc`.

    A run found out of the order of its full keys (rows whose scores differ only below
    the prefix, rare in real data) stops the walk: it returns ``(nan, start)`` with the
    run's start, the caller orders the runs from there (:func:`order_runs`) and walks
    again.  So the sort of such runs is compiled only for data that need it.
    """
    n = words.shape[0]
    m = v10.shape[0]
    options = RocAuc()
    context = make_context(totals[0], totals[1], not use_weights)
    state = scan_start(options, context, 0.0)
    prefix_shift = np.int64(index_bits + 1)
    class_bit = np.int64(1) << np.int64(index_bits)
    position_mask = class_bit - np.int64(1)
    tp = 0.0  # positive weight strictly above the current group
    fp = 0.0  # negative weight strictly above the current group
    start = 0
    run_end = 0  # the end of the current run of one prefix
    shared = False  # does that run hold rows of several scores?
    while start < n:
        if start == run_end:
            run_end = _run_end(words, start, prefix_shift)
            shared = not exact and run_end - start > 1
            if shared and not _run_is_ordered(
                words, start, run_end, class_keys, m, class_bit, position_mask
            ):
                return np.nan, np.int64(start)  # to be ordered first (order_runs)
        stop = run_end
        if shared:
            key = _full_key(words[start], class_keys, m, class_bit, position_mask)
            stop = start + 1
            while (
                stop < run_end
                and _full_key(words[stop], class_keys, m, class_bit, position_mask) == key
            ):
                stop += 1
        p = 0.0
        q = 0.0
        if stop == start + 1:  # one row (most groups): one placement to compute
            word = words[start]
            position = word & position_mask
            if word & class_bit:
                p = weights[position] if use_weights else 1.0
                v10[position] = group_placements(totals[0], totals[1], tp, fp, p, q)[0]
            else:
                q = weights[m + position] if use_weights else 1.0
                v01[position] = group_placements(totals[0], totals[1], tp, fp, p, q)[1]
        else:
            for r in range(start, stop):
                word = words[r]
                if word & class_bit:
                    p += weights[word & position_mask] if use_weights else 1.0
                else:
                    q += weights[m + (word & position_mask)] if use_weights else 1.0
            group_v10, group_v01 = group_placements(totals[0], totals[1], tp, fp, p, q)
            for r in range(start, stop):
                word = words[r]
                if word & class_bit:
                    v10[word & position_mask] = group_v10
                else:
                    v01[word & position_mask] = group_v01
        state = scan_fold(options, context, state, tp, fp, p, q)
        tp += p
        fp += q
        start = stop
    return scan_finish(options, context, state), np.int64(-1)


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
def two_row_cross_products(values, means, weights, use_weights):
    """:func:`weighted_cross_products` for two rows (a paired test), in scalars.

    The same operations in the same order, so the same bits, without the small arrays
    and inner loops of the general case (about 3x faster here).
    """
    m = values.shape[1]
    mean_0 = means[0]
    mean_1 = means[1]
    out_00 = 0.0
    out_01 = 0.0
    out_11 = 0.0
    difference = 0.0
    first_0 = 0.0
    first_1 = 0.0
    first_difference = 0.0
    constant_0 = True
    constant_1 = True
    constant_difference = True
    seen = False
    for i in range(m):
        c = weights[i] if use_weights else 1.0
        if c == 0.0:
            continue
        x_0 = values[0, i]
        x_1 = values[1, i]
        if not seen:
            first_0 = x_0
            first_1 = x_1
            first_difference = x_0 - x_1
            seen = True
        centered_0 = x_0 - mean_0
        centered_1 = x_1 - mean_1
        if x_0 != first_0:
            constant_0 = False
        if x_1 != first_1:
            constant_1 = False
        weighted_0 = c * centered_0
        out_00 += weighted_0 * centered_0
        out_01 += weighted_0 * centered_1
        out_11 += (c * centered_1) * centered_1
        if x_0 - x_1 != first_difference:
            constant_difference = False
        d = centered_0 - centered_1
        difference += c * d * d
    if constant_0:
        out_00 = 0.0
        out_01 = 0.0
    if constant_1:
        out_11 = 0.0
        out_01 = 0.0
    if constant_difference:
        difference = 0.0
    out = np.empty((2, 2), dtype=np.float64)
    out[0, 0] = out_00
    out[0, 1] = out_01
    out[1, 0] = out_01
    out[1, 1] = out_11
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
    auc = scan_merged_forward(RocAuc(), a, b, wa, wb, use_weights, integer_counts)
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
