"""Poisson replicates of the ROC and precision-recall curves of a range-partitioned job.

The replicates of :func:`assay.roc_band` and :func:`assay.precision_recall_band` with
``resampling="poisson"``, bucket by bucket: a bucket's atoms are tie groups, each with its
(score, class) cells' keyed Poisson counts (:mod:`assay.dask._replicates`, the counts of
the single-machine draw), and a replicate's curves need its class totals (the rates'
denominators) and the weight above each bucket, which the bootstrap's steps 1 and 2 give
(:func:`~assay.dask._replicates.replicate_totals`,
:func:`~assay.dask._replicates.replicate_prefix`).  Each bucket then folds its groups
from the weight above it with the fold of the single machine
(:func:`assay._kernels.bands.fold_curves`, the same integer counts and the same float
expressions), reading the grid points its segments pass; a grid point is passed in
exactly one bucket, or after the last vertex (the end of the curve).  The client merges
the buckets' readings: the curves of every replicate, bit for bit those of the single
machine.  A bucket sends only the grid points it reads in some replicate (a bucket
holds a range of scores: a few points), so what travels is about ``B`` values per grid
point and bucket that reads it.
"""

from __future__ import annotations

import numpy as np
from dask.delayed import Delayed, delayed

from assay._kernels._jit import jit
from assay._kernels.bands import (
    _FP,
    _N_SLOTS,
    _NEXT_RECALL,
    _NEXT_ROC,
    _TP,
    Grids,
    fold_curves,
    thresholds_of,
)
from assay.dask import _buckets as buckets
from assay.dask import _replicates as replicates
from assay.dask._graph import RankingJob

__all__: list[str] = []

Reading = tuple[int, np.ndarray]
"""A bucket's readings of one curve: the first grid point it reads and its values at
that point and the next ones (rows x points; NaN: not read there in that row)."""
Readings = dict[int, tuple[Reading, Reading]]
"""A task's buckets' readings of both curves."""
Curves = tuple[np.ndarray, np.ndarray]


@jit
def _passed(thresholds, count):
    """The grid points whose count threshold is at most ``count`` (passed above)."""
    g = 0
    while thresholds[g] <= count:
        g += 1
    return g


@jit
def _bucket_curves(positive, negative, tp, fp, n_positive, n_negative, grids, roc_out,
                   precision_out):  # fmt: skip
    """The grid points passed by a bucket's tie groups (whole-number weights
    ``positive[k]``, ``negative[k]``, descending) below the weight ``tp``, ``fp`` above
    it, into the outs; the other points are left as they are."""
    m = positive.shape[0]
    counts = np.empty(2 * m, dtype=np.int64)
    is_positive = np.empty(2 * m, dtype=np.bool_)
    continues = np.empty(2 * m, dtype=np.bool_)
    for k in range(m):  # a group as two atoms: its positives, then its negatives
        counts[2 * k] = np.int64(positive[k])
        counts[2 * k + 1] = np.int64(negative[k])
        is_positive[2 * k] = True
        is_positive[2 * k + 1] = False
        continues[2 * k] = True
        continues[2 * k + 1] = False
    thresholds = thresholds_of(grids, n_positive, n_negative)
    running = np.zeros(_N_SLOTS, dtype=np.int64)
    running[_TP] = tp
    running[_FP] = fp
    running[_NEXT_ROC] = _passed(thresholds.false_positives, fp)
    running[_NEXT_RECALL] = _passed(thresholds.true_positives, tp)
    fold_curves(0, counts, is_positive, continues, float(n_positive), float(n_negative), grids,
                thresholds, running, roc_out, precision_out)  # fmt: skip


def _unread(rows: int, grids: Grids) -> tuple[np.ndarray, np.ndarray]:
    return (
        np.full((rows, grids.roc.shape[0]), np.nan),
        np.full((rows, grids.precision_recall.shape[0]), np.nan),
    )


def _read(
    readings: tuple[np.ndarray, np.ndarray],
    row: int,
    weights: buckets.Atoms,
    above: tuple[float, float],
    totals: tuple[float, float],
    grids: Grids,
) -> None:
    tp, fp = above
    n_positive, n_negative = totals
    _bucket_curves(weights.positive, weights.negative, np.int64(tp), np.int64(fp),
                   np.int64(n_positive), np.int64(n_negative), grids, readings[0][row],
                   readings[1][row])  # fmt: skip


def _cropped(block: np.ndarray) -> Reading:
    """The columns of ``block`` from the first to the last read in some row."""
    read = np.flatnonzero(~np.isnan(block).all(axis=0))
    if read.size == 0:
        return 0, block[:, :0]
    return int(read[0]), np.ascontiguousarray(block[:, read[0] : read[-1] + 1])


def _sent(dense: dict[int, tuple[np.ndarray, np.ndarray]]) -> Readings:
    return {bucket: (_cropped(roc), _cropped(pr)) for bucket, (roc, pr) in dense.items()}


def data_readings(
    atoms: dict[int, buckets.Atoms], prefix: buckets.Prefix, grids: Grids
) -> Readings:
    """Each bucket's readings of the data's curves (one row)."""
    totals = (prefix.context.total_positive, prefix.context.total_negative)
    out = {}
    for bucket, a in atoms.items():
        if bucket not in prefix.above:
            continue  # no atoms
        out[bucket] = _unread(1, grids)
        _read(out[bucket], 0, a, prefix.above[bucket], totals, grids)
    return _sent(out)


def replicate_readings(
    atoms: dict[int, buckets.Atoms],
    cells: dict[int, replicates.Cells],
    prefixes: replicates.ReplicatePrefix,
    grids: Grids,
    seed: int,
) -> Readings:
    """Each bucket's readings of every replicate's curves (replicates x grid points; NaN
    where the bucket passes no grid point, or the replicate drew no positive or no
    negative row)."""
    held = [bucket for bucket in atoms if bucket in prefixes.above]
    n_resamples = prefixes.totals.shape[0]
    out = {bucket: _unread(n_resamples, grids) for bucket in held}
    drawn = replicates._Drawn({bucket: atoms[bucket] for bucket in held}, cells, seed)
    for r in range(n_resamples):
        totals = tuple(prefixes.totals[r])
        if totals[0] == 0 or totals[1] == 0:
            continue
        for bucket, weights in drawn.replicate(r).items():
            _read(out[bucket], r, weights, tuple(prefixes.above[bucket][r]), totals, grids)
    return _sent(out)


def merged_curves(
    readings: list[Readings], totals: np.ndarray, grids: Grids
) -> tuple[np.ndarray, np.ndarray]:
    """The curves of the buckets' readings: each grid point from the bucket that passes
    it, else the end of the curve (TPR 1, precision the share of positives); a row whose
    ``totals`` (positive, negative) hold a 0 is NaN (no curve)."""
    rows = totals.shape[0]
    roc, precision = _unread(rows, grids)
    for part in readings:
        for bucket_readings in part.values():
            for curve, (first, block) in zip((roc, precision), bucket_readings, strict=True):
                read = curve[:, first : first + block.shape[1]]
                np.copyto(read, block, where=~np.isnan(block))
    n_positive, n_negative = totals[:, :1], totals[:, 1:]
    defined = (n_positive > 0) & (n_negative > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = n_positive / (n_positive + n_negative)
    roc = np.where(np.isnan(roc), 1.0, roc)
    precision = np.where(np.isnan(precision), share, precision)
    return np.where(defined, roc, np.nan), np.where(defined, precision, np.nan)


def _band_curves(
    data: list[Readings],
    drawn: list[Readings],
    prefix: buckets.Prefix,
    prefixes: replicates.ReplicatePrefix,
    grids: Grids,
) -> tuple[Curves, Curves]:
    """Both curves of the data and of every replicate, as
    :func:`assay.resampling._bands.poisson_curves` returns them."""
    data_totals = np.array([[prefix.context.total_positive, prefix.context.total_negative]])
    roc_estimate, precision_estimate = merged_curves(data, data_totals, grids)
    return (roc_estimate[0], precision_estimate[0]), merged_curves(drawn, prefixes.totals, grids)


def band_curves_graph(job: RankingJob, grids: Grids, seed: int, n_resamples: int) -> Delayed:
    """The lazy curves of the data and of every replicate of an unweighted job
    (:func:`_band_curves`): the tasks of steps 1 and 2 are
    those of :func:`~assay.dask._replicates.replicates_graph` with the same arguments
    (Dask computes them once for both)."""
    cells = [delayed(replicates.single_cells, pure=True)(a) for a in job.atoms]
    parts = list(zip(job.atoms, cells, strict=True))
    totals = [
        delayed(replicates.replicate_totals, pure=True)(a, c, seed, n_resamples) for a, c in parts
    ]
    prefixes = delayed(replicates.replicate_prefix, pure=True)(
        totals, job.prefix, n_resamples, True
    )
    data = [delayed(data_readings, pure=True)(a, job.prefix, grids) for a in job.atoms]
    drawn = [delayed(replicate_readings, pure=True)(a, c, prefixes, grids, seed) for a, c in parts]
    return delayed(_band_curves, pure=True)(data, drawn, job.prefix, prefixes, grids)
