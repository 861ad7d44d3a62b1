"""One sorted sweep over tie groups yields every ranking quantity.

Input representation (built by :func:`split_scores` and a sort): the scores of the
positive rows and of the negative rows, each **negated** and sorted ascending
(so walking forward visits the original scores from the highest down), with their
weights when ``use_weights`` is true (empty arrays otherwise: every row weighs 1).
Rows of zero weight are removed before sorting; they cannot change any quantity.

A *tie group* is the set of rows sharing one score ``t_k``; ``P_k`` and ``N_k`` are
the total positive and negative weight in it.  ``TP_k`` and ``FP_k`` are the
cumulative sums down to and including group ``k`` (rows with score >= t_k are
predicted positive).  Ties count one half: a tie group is a single point of every
curve and the areas are trapezoids across it.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._jit import jit, jit_inline
from assay._kernels.atoms import count_tie_groups, next_tie_group
from assay._kernels.sorting import (
    MSD_THRESHOLD,
    _lsd_with_payload,
    bucket_sort_with_payload,
    descending_key,
)

_SIGN = np.uint64(0x8000000000000000)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit
def split_scores(scores, positive, weights, use_weights, weight_scale, buffer, weight_buffer):
    """Negated scores of positive and of negative rows (zero-weight rows dropped).

    Returns ``(positive_scores, negative_scores, positive_weights, negative_weights)``,
    unsorted; the weight arrays are empty when ``use_weights`` is false.  Weights are
    multiplied by ``weight_scale``, a power of two (so exactly) chosen by the caller to
    bring the largest weight near 1: every ranking quantity is invariant to a common
    scale of the weights, and products of class totals then cannot overflow or
    underflow for any realistic spread of weights.

    One pass: positives fill ``buffer`` (as long as ``scores``, of their dtype: float32
    scores stay float32, half the bytes to sort) from the front, negatives from the
    back (their order does not matter, they are sorted next); the two parts are views
    of it, and of ``weight_buffer`` (float64, as long as ``scores`` when
    ``use_weights``).  The caller allocates both (:func:`split_buffers`).
    """
    n = scores.shape[0]
    front = 0
    back = n
    for i in range(n):
        if use_weights:
            weight = weights[i]
            if weight == 0.0:
                continue
        if positive[i]:
            buffer[np.uint64(front)] = -scores[i]  # unsigned: no test for a negative index
            if use_weights:
                weight_buffer[np.uint64(front)] = weight * weight_scale
            front += 1
        else:
            back -= 1
            buffer[np.uint64(back)] = -scores[i]
            if use_weights:
                weight_buffer[np.uint64(back)] = weight * weight_scale
    if use_weights:
        return buffer[:front], buffer[back:], weight_buffer[:front], weight_buffer[back:]
    return buffer[:front], buffer[back:], weight_buffer, weight_buffer


def split_buffers(scores, use_weights):
    """The buffers of :func:`split_scores`, allocated by NumPy: NumPy asks the kernel for
    huge pages on large arrays, which a process whose allocator returns freed memory at
    once (a Dask worker) then faults in 512 times less often."""
    return np.empty(scores.shape[0], dtype=scores.dtype), np.empty(
        scores.shape[0] if use_weights else 0, dtype=np.float64
    )


_EMPTY_SLOT = np.uint64(0x7FF8000000000001)  # a NaN bit pattern: never a score
_SIGN_32 = np.uint64(0x80000000)  # the sign bit of a float32
_LOW_HALF = np.uint64(0xFFFFFFFF)
_MIX_LOW = np.uint64(0x9E3779B1)
_MIX_HIGH = np.uint64(0x85EBCA77)


def group_scores(scores, positive, weights, use_weights, weight_scale, limit):
    """Tie groups of float64 or float32 ``scores`` by hashing, when there are at most
    ``limit`` of them.

    :func:`hash_score_bits` sums the positive and the negative weight of every distinct
    score (zero-weight rows skipped; -0.0 is 0.0); the distinct scores are then sorted
    here by NumPy (``m log m`` for ``m`` groups; no sort is compiled for it).  Returns
    ``(ok, positive_scores, negative_scores, positive_weights, negative_weights)`` in
    the layout of :func:`split_scores` after sorting (negated scores ascending), with one
    entry per tie group that holds weight of that class; ``ok`` is False (and the arrays
    empty) as soon as more than ``limit`` distinct scores are seen, which costs only the
    rows read until then.  The group arrays are float64.
    """
    if scores.dtype == np.float32:
        bits, sign = scores.view(np.uint32), _SIGN_32
    else:
        bits, sign = scores.view(np.uint64), _SIGN
    ok, values, positive_sum, negative_sum = hash_score_bits(
        scores, bits, sign, positive, weights, use_weights, weight_scale, limit
    )
    if not ok:
        return False, values, values, values, values
    order = np.argsort(-values)  # distinct values: any sort gives this order
    negated = -values[order]  # descending scores: ascending negated scores
    positive_sum = positive_sum[order]
    negative_sum = negative_sum[order]
    has_positive = positive_sum > 0.0
    has_negative = negative_sum > 0.0
    return (
        True,
        negated[has_positive],
        negated[has_negative],
        positive_sum[has_positive],
        negative_sum[has_negative],
    )


@jit
def hash_score_bits(scores, bits, sign, positive, weights, use_weights, weight_scale, limit):
    """The distinct scores, in the order first seen, and each one's summed positive and
    negative weight, by hashing, when there are at most ``limit`` of them.

    One pass over the rows (zero-weight rows skipped) sums the weights of every distinct
    score in an open-addressing hash table keyed by the score's bits: ``bits`` are the
    raw bits of ``scores`` (uint64 for float64, uint32 for float32) and ``sign`` their
    sign bit (``-0.0`` is hashed as ``0.0``).  Returns ``(ok, values, positive_sums,
    negative_sums)``, float64 arrays with one entry per distinct score (each value
    ``+ 0.0``: -0.0 is 0.0); ``ok`` is False (and the arrays empty) as soon as more than
    ``limit`` distinct scores are seen.  :func:`group_scores` sorts them.
    """
    size = 16
    while size < 2 * limit:
        size *= 2
    mask = np.uint64(size - 1)
    slots = np.full(size, _EMPTY_SLOT, dtype=np.uint64)
    slot_group = np.empty(size, dtype=np.int64)
    group_row = np.empty(limit, dtype=np.int64)  # a row of each group
    positive_sum = np.zeros(limit, dtype=np.float64)
    negative_sum = np.zeros(limit, dtype=np.float64)
    # The count of groups lives in memory and the group is an unsigned index (no test
    # for a negative one): new groups are rare, and with a register held for the count
    # and the arrays' lengths for the test, the common row (a score seen before) reloaded
    # the row's arrays from the stack (20 % slower on 1e7 rows of 101 distinct scores).
    found = np.zeros(1, dtype=np.int64)
    for i in range(scores.shape[0]):
        if use_weights:
            weight = weights[i] * weight_scale
            if weight == 0.0:
                continue
        else:
            weight = 1.0
        key = np.uint64(bits[i])
        if key == sign:  # -0.0 is 0.0
            key = np.uint64(0)
        # multiplicative hash of both halves; 32 x 32-bit products cannot overflow
        mixed = ((key & _LOW_HALF) * _MIX_LOW) ^ ((key >> np.uint64(32)) * _MIX_HIGH)
        slot = (mixed >> np.uint64(16)) & mask
        while slots[slot] != key and slots[slot] != _EMPTY_SLOT:
            slot = (slot + np.uint64(1)) & mask
        if slots[slot] == _EMPTY_SLOT:
            n_groups = found[0]
            if n_groups == limit:
                none = np.empty(0, dtype=np.float64)
                return False, none, none, none
            slots[slot] = key
            slot_group[slot] = n_groups
            group_row[n_groups] = i
            found[0] = n_groups + 1
        group = np.uint64(slot_group[slot])
        if positive[i]:
            positive_sum[group] += weight
        else:
            negative_sum[group] += weight
    n_groups = found[0]
    values = np.empty(n_groups, dtype=np.float64)
    for g in range(n_groups):
        values[g] = np.float64(scores[group_row[g]]) + 0.0  # + 0.0: -0.0 is 0.0
    return True, values, positive_sum[:n_groups], negative_sum[:n_groups]


@jit_inline
def _negated_scores_to_keys(bits):
    """The raw bits of negated scores, in place, become the order-preserving keys of the
    original scores (descending original order is ascending negated order)."""
    for i in range(bits.shape[0]):
        bits[i] = descending_key(bits[i] ^ _SIGN)  # the key of the original score


@jit_inline
def _keys_to_negated_scores(bits):
    """Inverse of :func:`_negated_scores_to_keys` (-0.0 comes back as +0.0)."""
    for i in range(bits.shape[0]):
        ascending = bits[i] ^ _ALL
        if ascending & _SIGN:
            original = ascending ^ _SIGN
        else:
            original = ascending ^ _ALL
        bits[i] = original ^ _SIGN  # negate


@jit
def _sort_with_weights_lsd(negated_scores, weights):
    bits = negated_scores.view(np.uint64)
    _negated_scores_to_keys(bits)
    n = bits.shape[0]
    _lsd_with_payload(bits, weights, np.empty(n, dtype=np.uint64), np.empty_like(weights),
                      np.int64(0), n)  # fmt: skip
    _keys_to_negated_scores(bits)


@jit
def _sort_with_weights_buckets(negated_scores, weights):
    bits = negated_scores.view(np.uint64)
    _negated_scores_to_keys(bits)
    bucket_sort_with_payload(bits, weights)
    _keys_to_negated_scores(bits)


def sort_with_weights(negated_scores: np.ndarray, weights: np.ndarray) -> None:
    """Sort ``negated_scores`` ascending in place, carrying ``weights`` along.

    Radix sort of the order-preserving uint64 keys of the original scores (descending
    original order is ascending negated order), made in place of the scores' bits (no
    array of keys), then turned back into negated scores.  The sort of a large input
    takes the bucket passes (:func:`assay._kernels.sorting.bucket_sort_with_payload`),
    of a small one LSD passes only, chosen here by the size, so that a small call
    compiles only the LSD kernel; both give the same result.
    """
    if negated_scores.shape[0] < MSD_THRESHOLD:
        _sort_with_weights_lsd(negated_scores, weights)
    else:
        _sort_with_weights_buckets(negated_scores, weights)


DROP_NONE = 0
DROP_COLLINEAR = 1  # ROC: keep a point where a second difference of FP or TP is non-zero
DROP_FLAT_RECALL = 2  # PR/DET: keep a point where TP changes on one side of it


@jit
def _keep_point(mode, tp0, fp0, tp1, fp1, tp2, fp2):
    """Whether the middle of three consecutive points is kept (scikit-learn's rules)."""
    if mode == DROP_COLLINEAR:
        # np.diff(x, 2) evaluated the same way: (x2 - x1) - (x1 - x0)
        return ((fp2 - fp1) - (fp1 - fp0)) != 0.0 or ((tp2 - tp1) - (tp1 - tp0)) != 0.0
    return tp1 != tp0 or tp2 != tp1


@jit
def _emit(write, out_t, out_tp, out_fp, at, threshold, tp, fp):
    if write:
        u = np.uint64(at)  # unsigned: no test for a negative index
        out_t[u] = threshold
        out_tp[u] = tp
        out_fp[u] = fp


@jit
def _walk_kept_points(a, b, wa, wb, use_weights, mode, m, offset, out_t, out_tp, out_fp):
    """Visit the kept points; write them from ``offset`` when the arrays are non-empty.

    Returns the number of kept points.  The current point is decided once the next one
    is known; the first and last points are always kept.
    """
    write = out_t.shape[0] > 0
    drop = mode != DROP_NONE and m > 2
    kept = 0
    i = np.int64(0)  # not a literal 0: a literal argument compiles its own callee
    j = np.int64(0)
    tp = 0.0
    fp = 0.0
    previous_tp = 0.0
    previous_fp = 0.0
    current_tp = 0.0
    current_fp = 0.0
    current_threshold = 0.0
    for k in range(m):
        value, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        tp += p
        fp += q
        if k > 0 and (
            k == 1
            or not drop
            or _keep_point(mode, previous_tp, previous_fp, current_tp, current_fp, tp, fp)
        ):
            _emit(write, out_t, out_tp, out_fp, offset + kept, current_threshold, current_tp,
                  current_fp)  # fmt: skip
            kept += 1
        previous_tp = current_tp
        previous_fp = current_fp
        current_tp = tp
        current_fp = fp
        current_threshold = -value + 0.0  # the + 0.0 turns -0.0 into 0.0
    if m > 0:
        _emit(write, out_t, out_tp, out_fp, offset + kept, current_threshold, current_tp,
              current_fp)  # fmt: skip
        kept += 1
    return kept


@jit
def curve_piece(scores, positive, negative, tp, fp, after, mode, out_t, out_tp, out_fp):
    """The kept curve points of one piece of the atoms, from the weight above it.

    The piecewise form of :func:`curve_points` (the scan contract of
    :mod:`assay._kernels.pieces`, for a curve): ``scores``, ``positive``, ``negative``
    are the piece's atoms (scores descending, each of positive weight); ``tp``, ``fp``
    the exclusive prefix, the weight of every atom above the piece -- which is also the
    point just before its first atom.  ``after`` is ``(p, q)`` of the first atom of the
    next piece, or ``(-1.0, -1.0)`` for the last piece: the one atom of lookahead that
    the drop rule needs.  ``mode`` is the drop rule, DROP_NONE when the whole curve has
    at most two points.  The first and the last point of the curve are always kept; the
    first is the one with nothing above it (``tp == fp == 0``: atoms weigh more than 0).

    Writes the kept points (threshold, TP, FP) when the arrays are non-empty; returns
    how many there are.  With integer counts the points are bit-identical to the
    one-piece curve, whatever the split.
    """
    write = out_t.shape[0] > 0
    m = scores.shape[0]
    last_piece = after[0] < 0.0
    kept = 0
    previous_tp = tp
    previous_fp = fp
    for k in range(m):
        current_tp = previous_tp + positive[k]
        current_fp = previous_fp + negative[k]
        if k + 1 < m:
            next_tp = current_tp + positive[k + 1]
            next_fp = current_fp + negative[k + 1]
        else:
            next_tp = current_tp + after[0]
            next_fp = current_fp + after[1]
        if _piece_keeps(mode, k == 0 and tp == 0.0 and fp == 0.0, k + 1 == m and last_piece,
                        previous_tp, previous_fp, current_tp, current_fp, next_tp,
                        next_fp):  # fmt: skip
            _emit(write, out_t, out_tp, out_fp, kept, scores[k], current_tp, current_fp)
            kept += 1
        previous_tp = current_tp
        previous_fp = current_fp
    return kept


@jit_inline
def _piece_keeps(mode, first, last, tp0, fp0, tp1, fp1, tp2, fp2):
    """Whether a piece keeps its point (tp1, fp1), between (tp0, fp0) and (tp2, fp2):
    every point without a drop rule, the curve's ``first`` and ``last`` always."""
    return mode == DROP_NONE or first or last or _keep_point(mode, tp0, fp0, tp1, fp1, tp2, fp2)


@jit
def merged_curve_piece(a, b, wa, wb, use_weights, tp, fp, after, mode, out_t, out_tp, out_fp):
    """:func:`curve_piece` of the atoms of two sorted classes (the layout of
    :func:`split_scores` after sorting), visited by a merge instead of read from arrays
    of atoms: the same points, bit for bit."""
    write = out_t.shape[0] > 0
    last_piece = after[0] < 0.0
    kept = 0
    i = np.int64(0)
    j = np.int64(0)
    if a.shape[0] + b.shape[0] == 0:
        return kept
    value, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
    previous_tp = tp
    previous_fp = fp
    current_tp = tp + p
    current_fp = fp + q
    first = True
    while True:
        threshold = -value + 0.0  # the + 0.0 turns -0.0 into 0.0
        more = i < a.shape[0] or j < b.shape[0]
        if more:
            value, p, q, i, j = next_tie_group(a, b, wa, wb, use_weights, i, j)
        else:
            p, q = after
        next_tp = current_tp + p
        next_fp = current_fp + q
        if _piece_keeps(mode, first and tp == 0.0 and fp == 0.0, not more and last_piece,
                        previous_tp, previous_fp, current_tp, current_fp, next_tp,
                        next_fp):  # fmt: skip
            _emit(write, out_t, out_tp, out_fp, kept, threshold, current_tp, current_fp)
            kept += 1
        if not more:
            return kept
        first = False
        previous_tp = current_tp
        previous_fp = current_fp
        current_tp = next_tp
        current_fp = next_fp


@jit
def curve_points(a, b, wa, wb, use_weights, mode, prepend_origin):
    """Thresholds, TP and FP of the tie groups kept by ``mode``, in exact-size arrays.

    ``mode`` is DROP_NONE, DROP_COLLINEAR or DROP_FLAT_RECALL (applied to the tie
    groups, as scikit-learn does, only when there are more than two).  With
    ``prepend_origin`` the arrays start with the point TP = FP = 0 at threshold +inf.
    Two merges of the sorted arrays, one counting the kept points and one writing
    them, so no intermediate array of all groups is built.
    """
    m = count_tie_groups(a, b)
    none = np.empty(0, dtype=np.float64)
    # np.int64: a literal 0 would compile the walk a second time (the call below passes int64)
    kept = _walk_kept_points(a, b, wa, wb, use_weights, mode, m, np.int64(0), none, none, none)
    extra = 1 if prepend_origin else 0
    thresholds = np.empty(kept + extra, dtype=np.float64)
    true_positives = np.empty(kept + extra, dtype=np.float64)
    false_positives = np.empty(kept + extra, dtype=np.float64)
    if prepend_origin:
        thresholds[0] = np.inf
        true_positives[0] = 0.0
        false_positives[0] = 0.0
    _walk_kept_points(
        a, b, wa, wb, use_weights, mode, m, extra, thresholds, true_positives, false_positives
    )
    return thresholds, true_positives, false_positives
