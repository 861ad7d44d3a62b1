"""Bootstrap replicates of the ROC and precision-recall curves at fixed grids.

The once-sorted rows are the merged atoms of :func:`assay._kernels.atoms.merge_atoms`
(one row per atom, in decreasing score order, ``continues`` marking ties).  A replicate
draws its counts block by block exactly as the stratified streaming bootstrap does (the
same stream, the same block totals, the same uniform indices: the class sizes stay
fixed) and folds each block at once into both curves: when a tie group closes, the
curves gain one vertex and every grid point it passes is read off the segment from the
previous vertex.  One pass per replicate serves both curves, O(block + grid) memory.

Curves (the segment of a tie group is the straight line between its two vertices in
(false positive, true positive) space, so ties count one half):

* ROC: true positive rate at false positive rates ``grids.roc``; at a vertical segment
  (a group of positives only) the top of the segment, i.e. the highest TPR reached at a
  false positive rate not above the grid point;
* precision-recall: precision at recalls ``grids.precision_recall`` (all > 0), read on
  the same segments at the first point reaching that recall (the least false positives).

An empty grid leaves its curve out.  The weights above the open tie group are integer
counts, and the fold compares them with integer *thresholds*: the least count of false
positives at which the segment passes the next ROC grid point (``x < fp / N`` in
float64), and the least count of true positives that reaches the next recall
(``x <= tp / P``).  As ``fp / N`` rounded to float64 never decreases when ``fp`` grows,
the comparison of counts is exactly the comparison of rates, and the hot loop does no
division: a segment is interpolated (in float64) only where it passes a grid point.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from assay._kernels._arrays import copy_into
from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import stream
from assay._kernels.draws import block_positive_counts
from assay._kernels.streaming import _BLOCK, stratified_block

# a count no replicate reaches: the threshold past the last grid point
_NEVER = np.int64(np.iinfo(np.int64).max)

# slots of a replicate's running counts (kept between blocks)
_TP, _FP, _P, _Q, _NEXT_ROC, _NEXT_RECALL = range(6)
_N_SLOTS = 6


class Grids(NamedTuple):
    """The grids of both curves (float64, strictly increasing; empty: no such curve)."""

    roc: np.ndarray
    precision_recall: np.ndarray


class Thresholds(NamedTuple):
    """Least counts that pass each grid point, then ``_NEVER`` (one more than the grid)."""

    false_positives: np.ndarray
    true_positives: np.ndarray


@jit
def _least_count(x, total, strict):
    """The least count ``c`` in ``0 .. total`` with ``x < c / total`` (``strict``) or
    ``x <= c / total`` in float64, or ``_NEVER``."""
    low = np.int64(0)
    high = np.int64(total) + 1  # the answer lies in low .. high (high: none)
    denominator = float(total)
    while low < high:
        middle = (low + high) // 2
        rate = float(middle) / denominator
        if (x < rate) if strict else (x <= rate):
            high = middle
        else:
            low = middle + 1
    return low if low <= total else _NEVER


@jit
def _count_thresholds(grid, total, strict):
    thresholds = np.empty(grid.shape[0] + 1, dtype=np.int64)
    for g in range(grid.shape[0]):
        thresholds[g] = _least_count(grid[g], total, strict)
    thresholds[grid.shape[0]] = _NEVER
    return thresholds


@jit
def thresholds_of(grids, n_positive, n_negative):
    """The count thresholds of both grids (see the module's notes)."""
    return Thresholds(
        _count_thresholds(grids.roc, n_negative, True),
        _count_thresholds(grids.precision_recall, n_positive, False),
    )


@jit
def _read_segment(tp, fp, new_tp, new_fp, n_positive, n_negative, grids, thresholds, running,
                  roc_out, precision_out):  # fmt: skip
    """The grid points passed by the segment from (fp, tp) to (new_fp, new_tp)."""
    g = np.int64(running[_NEXT_ROC])
    h = np.int64(running[_NEXT_RECALL])
    tp = float(tp)
    fp = float(fp)
    new_tp = float(new_tp)
    new_fp = float(new_fp)
    tpr = tp / n_positive
    fpr = fp / n_negative
    new_tpr = new_tp / n_positive
    new_fpr = new_fp / n_negative
    while new_fp >= thresholds.false_positives[g]:
        t = (grids.roc[g] - fpr) / (new_fpr - fpr)
        roc_out[g] = tpr + t * (new_tpr - tpr)
        g += 1
    while new_tp >= thresholds.true_positives[h]:
        t = (grids.precision_recall[h] - tpr) / (new_tpr - tpr)
        at_tp = tp + t * (new_tp - tp)
        at_fp = fp + t * (new_fp - fp)
        precision_out[h] = at_tp / (at_tp + at_fp)
        h += 1
    running[_NEXT_ROC] = g
    running[_NEXT_RECALL] = h


@jit
def fold_curves(start, counts, is_positive, continues, n_positive, n_negative, grids, thresholds,
                running, roc_out, precision_out):  # fmt: skip
    """Fold the counts of atoms ``start .. start + len(counts)`` into both curves.

    ``running`` holds the counts above the open tie group (tp, fp), the group's own
    counts (p, q) and the next grid point of each curve to fill.
    """
    tp = running[_TP]
    fp = running[_FP]
    p = running[_P]
    q = running[_Q]
    next_fp = thresholds.false_positives[running[_NEXT_ROC]]
    next_tp = thresholds.true_positives[running[_NEXT_RECALL]]
    zero = np.int64(0)
    for offset in range(counts.shape[0]):
        k = start + offset
        weight = counts[offset]
        positive = is_positive[k]
        p += weight if positive else zero  # selects, not branches
        q += zero if positive else weight
        if not continues[k]:
            if fp + q >= next_fp or tp + p >= next_tp:
                _read_segment(tp, fp, tp + p, fp + q, n_positive, n_negative, grids,
                              thresholds, running, roc_out, precision_out)  # fmt: skip
                next_fp = thresholds.false_positives[running[_NEXT_ROC]]
                next_tp = thresholds.true_positives[running[_NEXT_RECALL]]
            tp += p
            fp += q
            p = zero
            q = zero
    running[_TP] = tp
    running[_FP] = fp
    running[_P] = p
    running[_Q] = q


@jit
def finish_curves(running, roc_out, precision_out):
    """Grid points past the last vertex: the end of the curve (TPR 1, or the prevalence)."""
    tp = float(running[_TP])
    fp = float(running[_FP])
    for g in range(running[_NEXT_ROC], roc_out.shape[0]):
        roc_out[g] = 1.0
    for h in range(running[_NEXT_RECALL], precision_out.shape[0]):
        precision_out[h] = tp / (tp + fp)


@jit
def _empty_curves(grids):
    return (np.empty(grids.roc.shape[0], dtype=np.float64),
            np.empty(grids.precision_recall.shape[0], dtype=np.float64))  # fmt: skip


@jit
def curves_at_grids(is_positive, continues, counts, n_positive, n_negative, grids):
    """Both curves of rows weighted by ``counts`` (all ones: the data's own curves)."""
    roc_out, precision_out = _empty_curves(grids)
    running = np.zeros(_N_SLOTS, dtype=np.int64)
    fold_curves(0, counts, is_positive, continues, float(n_positive), float(n_negative), grids,
                thresholds_of(grids, n_positive, n_negative), running, roc_out,
                precision_out)  # fmt: skip
    finish_curves(running, roc_out, precision_out)
    return roc_out, precision_out


@jit
def _replicate(is_positive, continues, n_positive, n_negative, block_positives, grids,
               thresholds, state, buffer, positive_buffer, negative_buffer, running, roc_out,
               precision_out, trace):  # fmt: skip
    """One stratified replicate's curves into the outs (``trace``: every count, for tests)."""
    n = is_positive.shape[0]
    running[:] = 0
    left = (n_positive, n_negative, n_positive, n_negative)
    for start in range(0, n, _BLOCK):
        end = min(start + _BLOCK, n)
        counts = buffer[: end - start]
        left, state = stratified_block(is_positive, start, counts,
                                       block_positives[start // _BLOCK], positive_buffer,
                                       negative_buffer, left, state, None)  # fmt: skip
        if trace.shape[0] > 0:
            copy_into(trace[start:end], counts)
        fold_curves(start, counts, is_positive, continues, float(n_positive),
                    float(n_negative), grids, thresholds, running, roc_out,
                    precision_out)  # fmt: skip
    finish_curves(running, roc_out, precision_out)
    return state


@jit
def _class_sizes(is_positive):
    n_positive = 0
    for k in range(is_positive.shape[0]):
        if is_positive[k]:
            n_positive += 1
    return n_positive, is_positive.shape[0] - n_positive


@jit_parallel
def band_replicates(is_positive, continues, grids, seed, first_replicate, roc_out,
                    precision_out, n_workers):  # fmt: skip
    """Curves of replicates ``first_replicate + r`` at ``grids`` into ``roc_out[r]`` and
    ``precision_out[r]``.

    ``is_positive``, ``continues``: merged atoms of one row each; ``grids``:
    :class:`Grids` (an empty grid, with an out of as many columns: no such curve);
    ``seed``: uint64.  Replicate ``r`` draws from ``stream(seed, r)``, as replicate ``r``
    of the stratified streaming bootstrap, so the curves do not depend on the number of
    threads nor on which curves are asked for.
    """
    n_positive, n_negative = _class_sizes(is_positive)
    block_positives = block_positive_counts(is_positive)
    no_trace = np.empty(0, dtype=np.int64)
    count = roc_out.shape[0]
    for worker in prange(n_workers):
        # built in the parallel loop: a named tuple made outside it does not reach it
        thresholds = thresholds_of(grids, n_positive, n_negative)
        buffer = np.empty(_BLOCK, dtype=np.int64)
        positive_buffer = np.zeros(_BLOCK + 1, dtype=np.int64)  # + 1: the merge reads one past
        negative_buffer = np.zeros(_BLOCK + 1, dtype=np.int64)
        running = np.empty(_N_SLOTS, dtype=np.int64)
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            _replicate(is_positive, continues, n_positive, n_negative, block_positives, grids,
                       thresholds, state, buffer, positive_buffer, negative_buffer, running,
                       roc_out[r], precision_out[r], no_trace)  # fmt: skip


@jit
def traced_band_replicate(is_positive, continues, grids, seed, replicate):
    """One replicate of :func:`band_replicates` with every atom's count (for tests)."""
    n = is_positive.shape[0]
    n_positive, n_negative = _class_sizes(is_positive)
    roc_out, precision_out = _empty_curves(grids)
    trace = np.zeros(n, dtype=np.int64)
    _replicate(is_positive, continues, n_positive, n_negative, block_positive_counts(is_positive),
               grids, thresholds_of(grids, n_positive, n_negative),
               stream(seed, np.uint64(replicate)), np.empty(_BLOCK, dtype=np.int64),
               np.zeros(_BLOCK + 1, dtype=np.int64), np.zeros(_BLOCK + 1, dtype=np.int64),
               np.empty(_N_SLOTS, dtype=np.int64), roc_out, precision_out, trace)  # fmt: skip
    return roc_out, precision_out, trace
