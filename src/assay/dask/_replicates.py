"""Poisson bootstrap replicates of a range-partitioned scan, bucket by bucket.

An unweighted (score, class) cell of ``m`` rows counts ``Poisson(m)`` times in
replicate ``r``, drawn from its own keyed stream
``keyed_stream(stream(seed, r), score_key(score bits, class))``
(:mod:`assay._kernels._rng`): the same draw on whichever machine holds the cell, so
every bucket draws its own atoms' counts, and the counts of the whole are those of
the single-machine Poisson bootstrap (:func:`assay.bootstrap` with
``resampling="poisson"``).  A weighted row is a cell of its own: it counts
``Poisson(1)`` times, drawn from the stream keyed by its position in the input (which
its rows carry through the shuffle), and adds its count times its weight, as on one
machine.  A replicate is then the scan contract of
:mod:`assay.dask._buckets` with the drawn counts as the atoms' weights:

1. each bucket's per-replicate totals (:func:`replicate_totals`; a ``(B, 2)`` array);
2. their exclusive prefix in descending score order, per replicate
   (:func:`replicate_prefix`);
3. for a metric with a below pass, each bucket's summaries and their exclusive suffix
   (:func:`replicate_summaries`, :func:`replicate_belows`);
4. each bucket's fold from its prefix (:func:`replicate_states`);
5. the states combined in order and finished, one value per replicate
   (:func:`replicate_values`).

The counts are drawn again in steps 3 and 4 rather than kept (a bucket of ``m`` atoms
would need ``2 B m`` counts); what travels between tasks is ``O(B)`` per bucket.
Unweighted counts are integers, so every sum is exact and the values are bit-identical
to the single machine's; weighted sums are added in another order than on one machine,
and agree to about 1e-15 relative.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from dask.delayed import Delayed, delayed

from assay._kernels._jit import jit
from assay._kernels._rng import keyed_stream, poisson, score_key, stream
from assay._kernels.atoms import row_keys
from assay._kernels.pieces import make_context
from assay.dask import _buckets as buckets
from assay.dask._graph import RankingJob

_POSITIVE = 1  # the class tags of the keys, as in the single-machine plan
_NEGATIVE = 0


class Cells(NamedTuple):
    """A bucket's Poisson cells: each draws ``Poisson(rows)`` from the stream ``key`` and
    adds it (times its ``weight``; empty: unweighted) to the positive or negative weight
    of its atom."""

    atom: np.ndarray
    positive: np.ndarray
    rows: np.ndarray
    key: np.ndarray
    weight: np.ndarray = np.empty(0, dtype=np.float64)


@jit
def _single_keys(scores, positive, negative, out_atom, out_positive, out_rows, out_key):
    """The cells of one model's atoms: one per (score, class) holding rows."""
    bits = scores.view(np.uint64)
    c = 0
    for k in range(scores.shape[0]):
        if positive[k] > 0.0:
            out_atom[c] = k
            out_positive[c] = True
            out_rows[c] = positive[k]
            out_key[c] = score_key(bits[k], _POSITIVE)
            c += 1
        if negative[k] > 0.0:
            out_atom[c] = k
            out_positive[c] = False
            out_rows[c] = negative[k]
            out_key[c] = score_key(bits[k], _NEGATIVE)
            c += 1
    return c


def single_cells(atoms: dict[int, buckets.Atoms]) -> dict[int, Cells]:
    """Every bucket's cells of one model: a (score, class) cell of ``m`` rows."""
    cells = {}
    for bucket, a in atoms.items():
        size = 2 * a.scores.shape[0]
        out = (
            np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.bool_),
            np.empty(size, dtype=np.float64),
            np.empty(size, dtype=np.uint64),
        )  # the unweighted cells' columns
        used = _single_keys(a.scores, a.positive, a.negative, *out)
        cells[bucket] = Cells(*(column[:used].copy() for column in out))  # the room freed
    return cells


def paired_cells(
    frame: pd.DataFrame, atoms: dict[int, buckets.Atoms], first: str
) -> dict[int, Cells]:
    """Every bucket's cells of two models' scores: the rows alike in both scores and the
    class (the single machine's paired Poisson cells, keyed by
    :func:`assay._kernels.atoms.row_keys` of model A's score, model B's and the
    class).  ``first`` names the column holding model A's score (``"score"`` in A's
    buckets, ``"other"`` in B's)."""
    second = "other" if first == "score" else "score"
    cells = {}
    scores = frame[["score", "other"]].to_numpy() + 0.0  # -0.0 is 0.0, as in the keys
    alike = frame.assign(score=scores[:, 0], other=scores[:, 1])
    for bucket, rows in alike.groupby("bucket", sort=False):
        counted = rows.groupby(["score", "other", "positive"], sort=False).size()
        score = counted.index.get_level_values("score").to_numpy(dtype=np.float64)
        positive = counted.index.get_level_values("positive").to_numpy(dtype=np.bool_)
        names = {"score": score, "other": counted.index.get_level_values("other")}
        a = np.ascontiguousarray(names[first], dtype=np.float64)
        b = np.ascontiguousarray(names[second], dtype=np.float64)
        own = atoms[int(bucket)]
        cells[int(bucket)] = Cells(
            np.searchsorted(-own.scores, -score),  # atoms descend (-0.0 is 0.0)
            positive,
            counted.to_numpy(dtype=np.float64),
            row_keys(a, b, positive),
        )
    return cells


def weighted_cells(frame: pd.DataFrame, atoms: dict[int, buckets.Atoms]) -> dict[int, Cells]:
    """Every bucket's cells of weighted rows: each row a cell of its own, keyed by its
    position in the input (the single machine's weighted Poisson draw, the same for
    both models of a pair)."""
    cells = {}
    scores = frame["score"].to_numpy(dtype=np.float64) + 0.0  # -0.0 is 0.0, as the atoms
    positive = frame["positive"].to_numpy(dtype=np.bool_)
    weight = frame["weight"].to_numpy(dtype=np.float64)
    position = frame["position"].to_numpy(dtype=np.int64)
    for bucket, rows in frame.groupby("bucket", sort=False).indices.items():
        own = atoms[int(bucket)]
        cells[int(bucket)] = Cells(
            np.searchsorted(-own.scores, -scores[rows]),  # atoms descend
            np.ascontiguousarray(positive[rows]),
            np.ones(rows.shape[0], dtype=np.float64),
            position[rows].astype(np.uint64),
            np.ascontiguousarray(weight[rows]),
        )
    return cells


@jit
def cell_counts(cells, seed, replicate, out_positive, out_negative):
    """The Poisson weights of a bucket's atoms in one replicate: the sum of their cells'
    draws (times the cells' weights, when weighted)."""
    state = stream(np.uint64(seed), np.uint64(replicate))
    out_positive[:] = 0.0
    out_negative[:] = 0.0
    weighted = cells.weight.shape[0] > 0
    for c in range(cells.atom.shape[0]):
        count, _ = poisson(cells.rows[c], keyed_stream(state, cells.key[c]))
        drawn = count * cells.weight[c] if weighted else float(count)
        if cells.positive[c]:
            out_positive[cells.atom[c]] += drawn
        else:
            out_negative[cells.atom[c]] += drawn


@jit
def _totals_of_replicates(cells, m, seed, out):
    """``out[r]``: the bucket's drawn positive and negative weight in replicate ``r``."""
    counts_positive = np.empty(m, dtype=np.float64)
    counts_negative = np.empty(m, dtype=np.float64)
    for r in range(out.shape[0]):
        cell_counts(cells, seed, r, counts_positive, counts_negative)
        total_positive = 0.0
        total_negative = 0.0
        for k in range(m):
            total_positive += counts_positive[k]
            total_negative += counts_negative[k]
        out[r, 0] = total_positive
        out[r, 1] = total_negative


def replicate_totals(
    atoms: dict[int, buckets.Atoms], cells: dict[int, Cells], seed: int, n_resamples: int
) -> dict[int, np.ndarray]:
    """Each bucket's ``(n_resamples, 2)`` drawn totals."""
    totals = {}
    for bucket, a in atoms.items():
        out = np.empty((n_resamples, 2), dtype=np.float64)
        _totals_of_replicates(cells[bucket], a.scores.shape[0], np.uint64(seed), out)
        totals[bucket] = out
    return totals


class ReplicatePrefix(NamedTuple):
    """The per-replicate totals and the weight above every bucket in each replicate."""

    prefix: buckets.Prefix
    """The data's prefix: the buckets' order (the same in every replicate)."""
    totals: np.ndarray
    """``(B, 2)``: each replicate's positive and negative weight."""
    above: dict[int, np.ndarray]
    """``(B, 2)``: the weight above the bucket in each replicate."""
    integer_counts: bool = True
    """The drawn weights are counts (unweighted rows): the scans sum exactly."""

    def of(self, replicate: int, held: Iterable[int] = ()) -> buckets.Prefix:
        """The :class:`~assay.dask._buckets.Prefix` of one replicate, with the weight
        above the buckets ``held`` (those a task folds) only."""
        total_positive, total_negative = self.totals[replicate]
        context = make_context(total_positive, total_negative, self.integer_counts)
        above = {bucket: tuple(self.above[bucket][replicate]) for bucket in held}
        return self.prefix._replace(context=context, above=above)


def replicate_prefix(
    totals: list[dict[int, np.ndarray]],
    prefix: buckets.Prefix,
    n_resamples: int,
    integer_counts: bool = True,
) -> ReplicatePrefix:
    """The exclusive prefix of the buckets' drawn totals, replicate by replicate
    (``integer_counts``: unweighted, the drawn weights are counts)."""
    merged = {bucket: t for part in totals for bucket, t in part.items()}
    running = np.zeros((n_resamples, 2), dtype=np.float64)
    above = {}
    for bucket in prefix.order:
        above[bucket] = running.copy()
        running += merged[bucket]  # whole numbers unless weighted: exact in any order
    return ReplicatePrefix(prefix, running, above, integer_counts)


class _Drawn:
    """A partition's buckets with buffers for one replicate's counts."""

    def __init__(self, atoms: dict[int, buckets.Atoms], cells: dict[int, Cells], seed: int):
        self.cells = cells
        self.seed = np.uint64(seed)
        self.counts = {
            bucket: buckets.Atoms(a.scores, np.empty_like(a.positive), np.empty_like(a.negative))
            for bucket, a in atoms.items()
        }

    def replicate(self, r: int) -> dict[int, buckets.Atoms]:
        """The buckets' atoms weighted by replicate ``r``'s counts."""
        for bucket, drawn in self.counts.items():
            cell_counts(self.cells[bucket], self.seed, r, drawn.positive, drawn.negative)
        return self.counts


def replicate_summaries(
    atoms: dict[int, buckets.Atoms],
    cells: dict[int, Cells],
    prefixes: ReplicatePrefix,
    options: Any,
    seed: int,
) -> dict[int, list[Any]]:
    """Each bucket's below-pass summary in every replicate."""
    drawn = _Drawn(atoms, cells, seed)
    summaries: dict[int, list[Any]] = {bucket: [] for bucket in atoms}
    for r in range(prefixes.totals.shape[0]):
        for bucket, summary in buckets.bucket_summaries(
            drawn.replicate(r), prefixes.of(r, atoms), options
        ).items():
            summaries[bucket].append(summary)
    return summaries


def replicate_belows(
    summaries: list[dict[int, list[Any]]], prefixes: ReplicatePrefix, options: Any
) -> dict[int, list[Any]]:
    """What lies below each bucket in every replicate."""
    merged = {bucket: s for part in summaries for bucket, s in part.items()}
    belows: dict[int, list[Any]] = {bucket: [] for bucket in merged}
    for r in range(prefixes.totals.shape[0]):
        of_replicate = {bucket: s[r] for bucket, s in merged.items()}
        for bucket, below in buckets.belows_of([of_replicate], prefixes.of(r), options).items():
            belows[bucket].append(below)
    return belows


def replicate_states(
    atoms: dict[int, buckets.Atoms],
    cells: dict[int, Cells],
    prefixes: ReplicatePrefix,
    belows: dict[int, list[Any]] | None,
    options: Any,
    seed: int,
) -> dict[int, list[Any]]:
    """Each bucket's state in every replicate, folded from the weight above it."""
    drawn = _Drawn(atoms, cells, seed)
    states: dict[int, list[Any]] = {bucket: [] for bucket in atoms}
    for r in range(prefixes.totals.shape[0]):
        below = None if belows is None else {bucket: b[r] for bucket, b in belows.items()}
        for bucket, state in buckets.bucket_states(
            drawn.replicate(r), prefixes.of(r, atoms), below, options
        ).items():
            states[bucket].append(state)
    return states


def replicate_values(
    states: list[dict[int, list[Any]]], prefixes: ReplicatePrefix, options: Any
) -> np.ndarray:
    """The metric of every replicate: its buckets' states combined in order, finished."""
    merged = {bucket: s for part in states for bucket, s in part.items()}
    values = np.empty(prefixes.totals.shape[0], dtype=np.float64)
    for r in range(values.shape[0]):
        of_replicate = {bucket: s[r] for bucket, s in merged.items()}
        values[r] = buckets.finish_states([of_replicate], prefixes.of(r), options)
    return values


def replicates_graph(
    job: RankingJob,
    cells: list[Delayed],
    options: Any,
    seed: int,
    n_resamples: int,
    weighted: bool = False,
) -> Delayed:
    """The lazy replicate values of a job whose partitions' buckets have the ``cells``
    (``weighted``: cells of weighted rows): the scan contract, every step a B-vector
    per bucket."""
    parts = list(zip(job.atoms, cells, strict=True))
    totals = [delayed(replicate_totals, pure=True)(a, c, seed, n_resamples) for a, c in parts]
    prefixes = delayed(replicate_prefix, pure=True)(totals, job.prefix, n_resamples, not weighted)
    belows = None
    if buckets.has_below_pass(options):
        summaries = [
            delayed(replicate_summaries, pure=True)(a, c, prefixes, options, seed)
            for a, c in parts
        ]
        belows = delayed(replicate_belows, pure=True)(summaries, prefixes, options)
    states = [
        delayed(replicate_states, pure=True)(a, c, prefixes, belows, options, seed)
        for a, c in parts
    ]
    return delayed(replicate_values, pure=True)(states, prefixes, options)
