"""Resampling building blocks: row counts, confusion cells, sweeps of prefix sums.

ARCHITECTURE rules 3-5.  The single-model bootstrap of ranking metrics streams block by
block (:mod:`assay._kernels.streaming`); this module holds what the other procedures
share:

* :func:`replicate_metric`: a ranking metric from the cumulative weights of the classes
  at the end of every tie group -- branch-free over tie groups, exact integers when
  unweighted, so unit counts give the plain kernels' floats (tested); the permutation
  procedures use it;
* exact multinomial row counts by blocks of ``_BLOCK`` rows (block totals as
  conditional binomials, then uniform indices into the block, so the counts being
  written stay in cache), by strata, by clusters, or Poisson (:func:`row_counts`);
* the cell-multinomial bootstrap of confusion matrices (:func:`bootstrap_cells`).

Every replicate ``r`` draws from its own counter-based stream ``stream(seed, r)`` and is
computed by one thread from start to end, in a fixed order, so results are
bit-identical whatever the number of threads; ``n_workers`` only splits the replicates
between threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from assay._kernels import ranking
from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import binomial, next_below, next_u64, poisson, stream

MULTINOMIAL = 0
STRATIFIED = 1
POISSON = 2

# metric codes of :func:`replicate_metric`
ROC_AUC = 0
AVERAGE_PRECISION = 1
PR_AUC_TRAPEZOID = 2
PR_AUC_INTERPOLATED = 3
PR_AUC_ELEVEN_POINT = 4
EER_INTERPOLATE = 5
EER_NEAREST = 6

_BLOCK_BITS = 12
_BLOCK = 1 << _BLOCK_BITS  # atoms per block of index draws: the block's counts stay in L1
_INDEX_MASK = np.uint64(_BLOCK - 1)


@jit
def _replicate_roc_auc(positive_end, negative_end, positive_prefix, negative_prefix, max_fpr):
    """:func:`assay._kernels.ranking.roc_auc` from cumulative weights: no branch per group.

    With ``TP``, ``FP`` after group ``k`` read from the prefix sums, the trapezoid is
    ``(FP_k - FP_{k-1}) (TP_{k-1} + TP_k)``; the partial area stops in the group that
    crosses ``max_fpr``.
    """
    m = positive_end.shape[0]
    total_positive = float(positive_prefix[positive_end[m - 1]])
    total_negative = float(negative_prefix[negative_end[m - 1]])
    if total_positive == 0.0 or total_negative == 0.0:
        return np.nan
    limit = max_fpr * total_negative
    area2 = 0.0
    tp = 0.0
    fp = 0.0
    for g in range(m):
        next_tp = float(positive_prefix[positive_end[g]])
        next_fp = float(negative_prefix[negative_end[g]])
        if max_fpr < 1.0 and next_fp > limit:
            q = next_fp - fp
            if limit > fp:
                dx = limit - fp
                area2 += dx * (2.0 * tp + (next_tp - tp) * dx / q)
            break
        area2 += (next_fp - fp) * (tp + next_tp)
        tp = next_tp
        fp = next_fp
    partial = area2 / (2.0 * total_positive * total_negative)
    if max_fpr >= 1.0:
        return partial
    min_area = 0.5 * max_fpr * max_fpr
    return 0.5 * (1.0 + (partial - min_area) / (max_fpr - min_area))


@jit
def _replicate_precision_areas(positive_end, negative_end, positive_prefix, negative_prefix,
                               metric):  # fmt: skip
    """Step-sum AP or trapezoidal AUC-PR from cumulative weights (groups of zero weight
    add nothing and leave the previous precision unchanged)."""
    m = positive_end.shape[0]
    total_positive = float(positive_prefix[positive_end[m - 1]])
    if total_positive == 0.0:
        return np.nan
    total = 0.0
    tp = 0.0
    previous_precision = 1.0
    for g in range(m):
        next_tp = float(positive_prefix[positive_end[g]])
        fp = float(negative_prefix[negative_end[g]])
        p = next_tp - tp
        predicted = next_tp + fp
        precision = next_tp / predicted if predicted > 0.0 else previous_precision
        if metric == AVERAGE_PRECISION:
            total += p * precision
        else:
            total += p * (precision + previous_precision)
        previous_precision = precision
        tp = next_tp
    if metric == AVERAGE_PRECISION:
        return total / total_positive
    return total / (2.0 * total_positive)


@jit
def replicate_metric(positive_end, negative_end, positive_prefix, negative_prefix, metric,
                     option):  # fmt: skip
    """Metric ``metric`` (a code above) of one replicate; NaN where it is undefined.

    ``*_prefix``: cumulative class weights, ``prefix[0] = 0`` and ``prefix[*_end[g]]``
    the weight up to the end of tie group ``g``;
    ``option``: ``max_fpr`` of ROC AUC (1.0 for the full area).
    """
    if metric == ROC_AUC:
        return _replicate_roc_auc(
            positive_end, negative_end, positive_prefix, negative_prefix, option
        )
    if metric == AVERAGE_PRECISION or metric == PR_AUC_TRAPEZOID:
        return _replicate_precision_areas(
            positive_end, negative_end, positive_prefix, negative_prefix, metric
        )
    m = positive_end.shape[0]
    tps = np.empty(m, dtype=np.float64)
    fps = np.empty(m, dtype=np.float64)
    for g in range(m):
        tps[g] = positive_prefix[positive_end[g]]
        fps[g] = negative_prefix[negative_end[g]]
    if tps[m - 1] == 0.0:
        return np.nan
    if metric == PR_AUC_INTERPOLATED:
        return ranking.pr_auc_interpolated(tps, fps)
    if metric == PR_AUC_ELEVEN_POINT:
        return ranking.pr_auc_eleven_point(tps, fps)
    if fps[m - 1] == 0.0:
        return np.nan
    return ranking.equal_error_rate(tps, fps, metric == EER_INTERPOLATE)


@jit
def _rows_multinomial(total, counts, state):
    """Counts of ``total`` uniform draws over ``len(counts)`` atoms of one row each."""
    n_atoms = counts.shape[0]
    remaining_draws = total
    remaining_atoms = n_atoms
    for start in range(0, n_atoms, _BLOCK):
        end = min(start + _BLOCK, n_atoms)
        size = end - start
        for k in range(start, end):
            counts[k] = 0
        if remaining_draws == 0:
            continue
        if size == remaining_atoms:
            block_total = remaining_draws
        else:
            block_total, state = binomial(remaining_draws, size / remaining_atoms, state)
        remaining_draws -= block_total
        remaining_atoms -= size
        if size == _BLOCK:
            # five exactly uniform 12-bit indices from every 64-bit draw
            drawn = 0
            while drawn < block_total:
                bits, state = next_u64(state)
                for _ in range(5):
                    if drawn == block_total:
                        break
                    counts[start + np.int64(bits & _INDEX_MASK)] += 1
                    bits >>= np.uint64(_BLOCK_BITS)
                    drawn += 1
        else:
            for _ in range(block_total):
                index, state = next_below(size, state)
                counts[start + index] += 1
    return state


@jit
def _cells_multinomial(sizes, total_size, total, counts, state):
    """Counts of ``total`` draws over atoms of ``sizes`` rows (conditional binomials)."""
    remaining_draws = total
    remaining_size = total_size
    for k in range(sizes.shape[0]):
        if remaining_draws == 0 or sizes[k] == remaining_size:
            counts[k] = remaining_draws
            remaining_draws = 0
        else:
            count, state = binomial(remaining_draws, sizes[k] / remaining_size, state)
            counts[k] = count
            remaining_draws -= count
        remaining_size -= sizes[k]
    return state


@jit
def _stratum_counts(stratum_end, scheme, counts, state):
    """Row counts: a multinomial within each stratum (the whole sample is one stratum),
    or independent Poisson(1) counts."""
    if scheme == POISSON:
        for k in range(counts.shape[0]):
            count, state = poisson(1.0, state)
            counts[k] = count
        return state
    start = 0
    for s in range(stratum_end.shape[0]):
        end = stratum_end[s]
        state = _rows_multinomial(end - start, counts[start:end], state)
        start = end
    return state


@jit
def row_counts(stratum_end, cluster_of_row, n_clusters, scheme, state, counts, cluster_counts):
    """One replicate's count of every row: by strata, by clusters, or Poisson."""
    if n_clusters > 0:
        state = _rows_multinomial(n_clusters, cluster_counts, state)
        for k in range(counts.shape[0]):
            counts[k] = cluster_counts[cluster_of_row[k]]
        return state
    return _stratum_counts(stratum_end, scheme, counts, state)


@jit_parallel
def bootstrap_cells(cells, n_strata, scheme, seed, first_replicate, out, n_workers):
    """Cell counts of replicates drawn from the cell counts alone: O(cells) each.

    ``cells``: int64 counts of an unweighted table whose ``n_strata`` consecutive runs
    of equal length are the strata (a confusion matrix in row-major order has one run
    per true class; a joint (truth, A, B) table too).  MULTINOMIAL draws n rows over all
    cells, STRATIFIED draws each stratum's total over its own cells (class counts
    fixed), POISSON draws every cell as Poisson(count) (a sum of Poisson(1) row counts).
    ``out`` is (replicates, cells) int64.
    """
    n = cells.sum()
    length = cells.shape[0] // n_strata
    count = out.shape[0]
    for worker in prange(n_workers):
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            replicate = out[r]
            if scheme == POISSON:
                for c in range(cells.shape[0]):
                    value, state = poisson(float(cells[c]), state)
                    replicate[c] = value
            elif scheme == STRATIFIED:
                for i in range(n_strata):
                    stratum = cells[i * length : (i + 1) * length]
                    total = stratum.sum()
                    state = _cells_multinomial(
                        stratum, total, total, replicate[i * length : (i + 1) * length], state
                    )
            else:
                state = _cells_multinomial(cells, n, n, replicate, state)


@jit_parallel
def bootstrap_row_counts(
    stratum_end, cluster_of_row, n_clusters, scheme, seed, first_replicate, out, n_workers
):
    """Row counts of replicates ``first_replicate + r`` into ``out`` (replicates, n): the
    generic path, for metrics that only take rows and weights."""
    count = out.shape[0]
    for worker in prange(n_workers):
        cluster_counts = np.empty(n_clusters, dtype=np.int64)
        for r in range(worker, count, n_workers):
            state = stream(seed, np.uint64(first_replicate + r))
            row_counts(stratum_end, cluster_of_row, n_clusters, scheme, state, out[r],
                       cluster_counts)  # fmt: skip
