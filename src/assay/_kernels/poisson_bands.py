"""Poisson bootstrap replicates of the ROC and precision-recall curves at fixed grids.

The atoms are those of the Poisson bootstrap of a ranking metric
(:class:`assay._kernels.streaming.RowAtoms`, keyed: unweighted rows as (score, class)
cells, or rows one by one with the alike rows after the first marked ``repeats``), and a
replicate's counts are that bootstrap's, atom for atom: the count of a cell of m rows is
one Poisson(m) draw from ``keyed_stream(stream(seed, r), key)``
(:func:`assay._kernels.draws._poisson_counts`), so replicate ``r`` depends on the seed,
``r`` and the cells alone, never on the order of the rows.

A Poisson replicate does not keep the class sizes: its totals ``P*`` and ``N*`` (the
rates' denominators, hence the count thresholds of the grid points,
:func:`assay._kernels.bands.thresholds_of`) are known only once every count is drawn.  A
replicate therefore walks the atoms twice, block by block, drawing the same counts each
time from their keyed streams: once to sum the totals, once to fold the counts into both
curves (:func:`assay._kernels.bands.fold_curves`, the fold of the multinomial bands).
Memory stays O(block) whatever n, at the price of drawing every count twice.

A replicate that draws no positive or no negative row has no curves: both are NaN (a
rate without a denominator; the precision-recall curve too, so the two curves of one
call always rest on the same replicates), and the API leaves it out of the bands.
"""

from __future__ import annotations

import numpy as np

from assay._kernels._arrays import copy_into
from assay._kernels._jit import jit, run_workers
from assay._kernels._rng import stream
from assay._kernels.bands import _N_SLOTS, finish_curves, fold_curves, thresholds_of
from assay._kernels.draws import _BLOCK, _poisson_counts


@jit
def _drawn_totals(atoms, replicate_state, buffer):
    """The replicate's positive and negative rows drawn (the first walk)."""
    n = atoms.is_positive.shape[0]
    is_positive = atoms.is_positive
    positives = np.int64(0)
    negatives = np.int64(0)
    zero = np.int64(0)
    for start in range(0, n, _BLOCK):
        counts = buffer[: min(_BLOCK, n - start)]
        _poisson_counts(atoms, start, counts, replicate_state)
        for offset in range(counts.shape[0]):
            count = counts[offset]
            positive = is_positive[start + offset]
            positives += count if positive else zero  # selects, not branches
            negatives += zero if positive else count
    return positives, negatives


@jit
def _replicate(atoms, grids, replicate_state, buffer, running, roc_out, precision_out, trace):
    """One Poisson replicate's curves into the outs (NaN without a class drawn).

    ``trace``: when not empty, receives every atom's count (for tests).
    """
    n = atoms.is_positive.shape[0]
    n_positive, n_negative = _drawn_totals(atoms, replicate_state, buffer)
    if n_positive == 0 or n_negative == 0:
        roc_out[:] = np.nan
        precision_out[:] = np.nan
        if trace.shape[0] > 0:
            _poisson_counts(atoms, 0, trace, replicate_state)
        return
    thresholds = thresholds_of(grids, n_positive, n_negative)
    running[:] = 0
    for start in range(0, n, _BLOCK):
        end = min(start + _BLOCK, n)
        counts = buffer[: end - start]
        _poisson_counts(atoms, start, counts, replicate_state)
        if trace.shape[0] > 0:
            copy_into(trace[start:end], counts)
        fold_curves(start, counts, atoms.is_positive, atoms.continues, float(n_positive),
                    float(n_negative), grids, thresholds, running, roc_out,
                    precision_out)  # fmt: skip
    finish_curves(running, roc_out, precision_out)


@jit
def _replicates(atoms, grids, seed, first_replicate, roc_out, precision_out, worker, n_workers):
    """Replicates ``worker, worker + n_workers, ...`` of :func:`poisson_band_replicates`."""
    buffer = np.empty(_BLOCK, dtype=np.int64)
    running = np.empty(_N_SLOTS, dtype=np.int64)
    no_trace = np.empty(0, dtype=np.int64)
    for r in range(worker, roc_out.shape[0], n_workers):
        replicate_state = stream(seed, np.uint64(first_replicate + r))
        _replicate(atoms, grids, replicate_state, buffer, running, roc_out[r], precision_out[r],
                   no_trace)  # fmt: skip


def poisson_band_replicates(atoms, grids, seed, first_replicate, roc_out, precision_out,
                            n_workers):  # fmt: skip
    """Curves of Poisson replicates ``first_replicate + r`` into ``roc_out[r]`` and
    ``precision_out[r]`` (NaN rows: no positive or no negative row drawn).

    ``atoms``: keyed unweighted :class:`~assay._kernels.streaming.RowAtoms` of the
    Poisson bootstrap (``stream_plan(..., keyed=True)``); ``grids``:
    :class:`~assay._kernels.bands.Grids` (an empty grid, with an out of as many columns:
    no such curve); ``seed``: uint64.  Replicate ``r`` draws the counts of replicate ``r``
    of the Poisson bootstrap with the same seed; ``n_workers`` threads share the
    replicates, each running the serial kernel on its share
    (:func:`~assay._kernels._jit.run_workers`), with the same values on any number.
    """
    arguments = (atoms, grids, seed, first_replicate, roc_out, precision_out)
    run_workers(_replicates, arguments, n_workers)


@jit
def traced_poisson_band_replicate(atoms, grids, seed, replicate):
    """One replicate of :func:`poisson_band_replicates` with every atom's count (for
    tests): ``(roc, precision, counts)``."""
    roc_out = np.empty(grids.roc.shape[0], dtype=np.float64)
    precision_out = np.empty(grids.precision_recall.shape[0], dtype=np.float64)
    trace = np.zeros(atoms.is_positive.shape[0], dtype=np.int64)
    _replicate(atoms, grids, stream(seed, np.uint64(replicate)), np.empty(_BLOCK, dtype=np.int64),
               np.empty(_N_SLOTS, dtype=np.int64), roc_out, precision_out, trace)  # fmt: skip
    return roc_out, precision_out, trace
