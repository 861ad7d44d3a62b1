"""Resampling building blocks: row counts, confusion cells, sweeps of prefix sums.

ARCHITECTURE rules 3-5.  The single-model bootstrap of ranking metrics streams block by
block (:mod:`assay._kernels.streaming`); this module holds what the other procedures
share:

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

from assay._kernels._jit import jit, jit_parallel
from assay._kernels._rng import next_below, next_u64, stream
from assay._kernels._samplers import binomial, poisson

MULTINOMIAL = 0
STRATIFIED = 1
POISSON = 2

_BLOCK_BITS = 12
_BLOCK = 1 << _BLOCK_BITS  # atoms per block of index draws: the block's counts stay in L1
_INDEX_MASK = np.uint64(_BLOCK - 1)


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
