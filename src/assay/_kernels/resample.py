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
between threads.  A Poisson count is drawn from its item's keyed stream
``keyed_stream(stream(seed, r), key)`` (a row's position, a cell's index): it depends
on the item alone, not on the other items, so data split into pieces that know their
items' keys draw the same counts.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import prange

from assay._kernels._jit import jit, jit_inline, jit_parallel
from assay._kernels._rng import binomial, keyed_stream, next_below, next_u64, poisson, stream

# Each scheme is a number of its own integer type, its value its code: a kernel taking a
# :class:`Draw` is compiled per type, so a draw chosen by the scheme's type (an
# ``overload``, :func:`assay._kernels.draws.scheme_block`) compiles no other scheme.  (A
# named tuple cannot serve as the tag: a tuple inside an argument of Numba's parallel loops
# is taken for an array and the loop fails to compile.)
MULTINOMIAL = np.int8(0)
"""The multinomial bootstrap: as many draws with replacement as rows."""
STRATIFIED = np.int16(1)
"""The stratified bootstrap: each class draws its own number of rows among its rows."""
POISSON = np.int32(2)
"""The Poisson bootstrap: every row an independent Poisson(1) count."""
PERMUTATION = np.int64(3)
"""A permutation replicate (what it permutes is the kernel's procedure)."""
Scheme = np.integer[Any]


class Draw(NamedTuple):
    """Which replicates a resampling kernel draws, and how.

    ``scheme``: MULTINOMIAL, STRATIFIED or POISSON for a bootstrap, PERMUTATION for a
    permutation test; ``seed``: the uint64 master seed; replicates ``first_replicate,
    first_replicate + 1, ...`` fill the output in order, replicate ``r`` from the stream
    ``stream(seed, r)``.  ``binomial``: the conditional binomial sampler of a streamed
    replicate's blocks, which its kernel's wrapper sets
    (:func:`assay._kernels.draws.with_binomial`); other kernels leave it None.
    """

    scheme: Scheme
    seed: np.uint64
    first_replicate: int
    binomial: Any = None


class Strata(NamedTuple):
    """Rows of the generic path: consecutive strata ending at ``stratum_end`` (the whole
    sample is one stratum), or the cluster of every row (``n_clusters > 0``)."""

    stratum_end: np.ndarray
    cluster_of_row: np.ndarray
    n_clusters: int


_BLOCK_BITS = 12
_BLOCK = 1 << _BLOCK_BITS  # atoms per block of index draws: the block's counts stay in L1
_INDEX_MASK = np.uint64(_BLOCK - 1)


@jit_inline
def full_block_indices(buffer, draws, state):
    """``draws`` exactly uniform indices into a full block ``buffer`` of ``_BLOCK`` atoms
    (counts incremented): five 12-bit indices from every 64-bit draw."""
    drawn = 0
    while drawn < draws:
        bits, state = next_u64(state)
        for _ in range(5):
            if drawn == draws:
                break
            buffer[np.int64(bits & _INDEX_MASK)] += 1
            bits >>= np.uint64(_BLOCK_BITS)
            drawn += 1
    return state


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
            state = full_block_indices(counts[start:end], block_total, state)
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
    or independent Poisson(1) counts, row ``k``'s from the stream keyed by ``k``."""
    if scheme == POISSON:
        for k in range(counts.shape[0]):
            count, _ = poisson(1.0, keyed_stream(state, k))
            counts[k] = count
        return state
    start = 0
    for s in range(stratum_end.shape[0]):
        end = stratum_end[s]
        state = _rows_multinomial(end - start, counts[start:end], state)
        start = end
    return state


@jit
def row_counts(strata, scheme, state, counts, cluster_counts):
    """One replicate's count of every row: by strata, by clusters, or Poisson."""
    if strata.n_clusters > 0:
        state = _rows_multinomial(strata.n_clusters, cluster_counts, state)
        for k in range(counts.shape[0]):
            counts[k] = cluster_counts[strata.cluster_of_row[k]]
        return state
    return _stratum_counts(strata.stratum_end, scheme, counts, state)


@jit_parallel
def bootstrap_cells(cells, n_strata, draw, out, n_workers):
    """Cell counts of replicates drawn from the cell counts alone: O(cells) each.

    ``cells``: int64 counts of an unweighted table whose ``n_strata`` consecutive runs
    of equal length are the strata (a confusion matrix in row-major order has one run
    per true class; a joint (truth, A, B) table too).  MULTINOMIAL draws n rows over all
    cells, STRATIFIED draws each stratum's total over its own cells (class counts
    fixed), POISSON draws every cell as Poisson(count) (a sum of Poisson(1) row counts)
    from the stream keyed by the cell's index, so a cell's count depends on the cell
    alone: tables summed from pieces of the rows give the same replicates.  ``draw``:
    :class:`Draw`; ``out`` is (replicates, cells) int64.
    """
    n = cells.sum()
    length = cells.shape[0] // n_strata
    count = out.shape[0]
    scheme = draw.scheme
    for worker in prange(n_workers):
        for r in range(worker, count, n_workers):
            state = stream(draw.seed, np.uint64(draw.first_replicate + r))
            replicate = out[r]
            if scheme == POISSON:
                for c in range(cells.shape[0]):
                    value, _ = poisson(float(cells[c]), keyed_stream(state, c))
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
def bootstrap_row_counts(strata, draw, out, n_workers):
    """Row counts of replicates ``draw.first_replicate + r`` into ``out`` (replicates, n):
    the generic path, for metrics that only take rows and weights.  ``strata``:
    :class:`Strata`; ``draw``: :class:`Draw` (a Poisson count is keyed by the row's
    position)."""
    count = out.shape[0]
    for worker in prange(n_workers):
        cluster_counts = np.empty(strata.n_clusters, dtype=np.int64)
        for r in range(worker, count, n_workers):
            state = stream(draw.seed, np.uint64(draw.first_replicate + r))
            row_counts(strata, draw.scheme, state, out[r], cluster_counts)
