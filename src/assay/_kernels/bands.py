"""Bootstrap replicates of a ROC or precision-recall curve at a fixed grid.

The once-sorted rows are the merged atoms of :func:`assay._kernels.streaming.merge_atoms`
(one row per atom, in decreasing score order, ``continues`` marking ties).  A replicate
draws its counts block by block exactly as the stratified streaming bootstrap does (the
same stream, the same block totals, the same uniform indices: the class sizes stay
fixed) and folds each block at once into the curve: when a tie group closes, the curve
gains one vertex and every grid point it passes is read off the segment from the
previous vertex.  One pass per replicate, O(block + grid) memory.

Curves (the segment of a tie group is the straight line between its two vertices in
(false positive, true positive) space, so ties count one half):

* ``ROC``: true positive rate at false positive rates ``grid``; at a vertical segment
  (a group of positives only) the top of the segment, i.e. the highest TPR reached at a
  false positive rate not above the grid point;
* ``PRECISION_RECALL``: precision at recalls ``grid`` (all > 0), read on the same
  segments at the first point reaching that recall (the least false positives).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from assay._kernels._arrays import copy_into
from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import stream
from assay._kernels.streaming import _BLOCK, block_positive_counts, stratified_block

ROC = 0
PRECISION_RECALL = 1

# slots of a replicate's running state (kept between blocks)
_TP, _FP, _P, _Q, _NEXT = range(5)
_N_SLOTS = 5


@jit
def fold_curve(start, counts, is_positive, continues, n_positive, n_negative, grid, curve,
               running, out):  # fmt: skip
    """Fold the counts of atoms ``start .. start + len(counts)`` into the curve ``out``.

    ``running`` holds the weight above the open tie group (tp, fp), the group's own
    weight (p, q) and the next grid point to fill.
    """
    tp = running[_TP]
    fp = running[_FP]
    p = running[_P]
    q = running[_Q]
    g = np.int64(running[_NEXT])
    n_grid = grid.shape[0]
    for offset in range(counts.shape[0]):
        k = start + offset
        weight = float(counts[offset])
        positive = 1.0 if is_positive[k] else 0.0
        p += weight * positive
        q += weight - weight * positive
        if not continues[k] and (p > 0.0 or q > 0.0):
            new_tp = tp + p
            new_fp = fp + q
            tpr = tp / n_positive
            fpr = fp / n_negative
            new_tpr = new_tp / n_positive
            new_fpr = new_fp / n_negative
            if curve == ROC:
                while g < n_grid and grid[g] < new_fpr:
                    t = (grid[g] - fpr) / (new_fpr - fpr)
                    out[g] = tpr + t * (new_tpr - tpr)
                    g += 1
            else:
                while g < n_grid and grid[g] <= new_tpr:
                    t = (grid[g] - tpr) / (new_tpr - tpr)
                    at_tp = tp + t * (new_tp - tp)
                    at_fp = fp + t * (new_fp - fp)
                    out[g] = at_tp / (at_tp + at_fp)
                    g += 1
            tp = new_tp
            fp = new_fp
            p = 0.0
            q = 0.0
    running[_TP] = tp
    running[_FP] = fp
    running[_P] = p
    running[_Q] = q
    running[_NEXT] = g
    return g


@jit
def finish_curve(grid, curve, running, out):
    """Grid points past the last vertex: the end of the curve (TPR 1, or the prevalence)."""
    g = np.int64(running[_NEXT])
    tp = running[_TP]
    fp = running[_FP]
    for j in range(g, grid.shape[0]):
        out[j] = 1.0 if curve == ROC else tp / (tp + fp)


@jit
def curve_at_grid(is_positive, continues, counts, n_positive, n_negative, grid, curve):
    """The curve of rows weighted by ``counts`` (all ones: the data's own curve)."""
    out = np.empty(grid.shape[0], dtype=np.float64)
    running = np.zeros(_N_SLOTS, dtype=np.float64)
    fold_curve(0, counts, is_positive, continues, float(n_positive), float(n_negative), grid,
               curve, running, out)  # fmt: skip
    finish_curve(grid, curve, running, out)
    return out


@jit
def _replicate(is_positive, continues, n_positive, n_negative, block_positives, grid, curve,
               state, buffer, positive_buffer, negative_buffer, running, out, trace):  # fmt: skip
    """One stratified replicate's curve into ``out`` (``trace``: every count, for tests)."""
    n = is_positive.shape[0]
    running[:] = 0.0
    left = (n_positive, n_negative, n_positive, n_negative)
    for start in range(0, n, _BLOCK):
        end = min(start + _BLOCK, n)
        counts = buffer[: end - start]
        left, state = stratified_block(is_positive, start, counts,
                                       block_positives[start // _BLOCK], positive_buffer,
                                       negative_buffer, left, state)  # fmt: skip
        if trace.shape[0] > 0:
            copy_into(trace[start:end], counts)
        fold_curve(start, counts, is_positive, continues, float(n_positive),
                   float(n_negative), grid, curve, running, out)  # fmt: skip
    finish_curve(grid, curve, running, out)
    return state


@jit
def _class_sizes(is_positive):
    n_positive = 0
    for k in range(is_positive.shape[0]):
        if is_positive[k]:
            n_positive += 1
    return n_positive, is_positive.shape[0] - n_positive


@jit_parallel
def band_replicates(is_positive, continues, grid, curve, seed, first_replicate, out,
                    n_workers):  # fmt: skip
    """Curves of replicates ``first_replicate + r`` at ``grid`` into ``out[r]``.

    ``is_positive``, ``continues``: merged atoms of one row each; ``curve``: ``ROC`` or
    ``PRECISION_RECALL``; ``seed``: uint64.  Replicate ``r`` draws from ``stream(seed,
    r)``, as replicate ``r`` of the stratified streaming bootstrap, so the curves do not
    depend on the number of threads.
    """
    n_positive, n_negative = _class_sizes(is_positive)
    block_positives = block_positive_counts(is_positive)
    no_trace = np.empty(0, dtype=np.int64)
    count = out.shape[0]
    for worker in prange(n_workers):
        buffer = np.empty(_BLOCK, dtype=np.int64)
        positive_buffer = np.zeros(_BLOCK + 1, dtype=np.int64)  # + 1: the merge reads one past
        negative_buffer = np.zeros(_BLOCK + 1, dtype=np.int64)
        running = np.empty(_N_SLOTS, dtype=np.float64)
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            _replicate(is_positive, continues, n_positive, n_negative, block_positives, grid,
                       curve, state, buffer, positive_buffer, negative_buffer, running, out[r],
                       no_trace)  # fmt: skip


@jit
def traced_band_replicate(is_positive, continues, grid, curve, seed, replicate):
    """One replicate of :func:`band_replicates` with every atom's count (for tests)."""
    n = is_positive.shape[0]
    n_positive, n_negative = _class_sizes(is_positive)
    out = np.empty(grid.shape[0], dtype=np.float64)
    trace = np.zeros(n, dtype=np.int64)
    _replicate(is_positive, continues, n_positive, n_negative, block_positive_counts(is_positive),
               grid, curve, stream(seed, np.uint64(replicate)), np.empty(_BLOCK, dtype=np.int64),
               np.zeros(_BLOCK + 1, dtype=np.int64), np.zeros(_BLOCK + 1, dtype=np.int64),
               np.empty(_N_SLOTS, dtype=np.float64), out, trace)  # fmt: skip
    return out, trace
