"""Streaming bootstrap of ranking metrics: draw and sweep block by block, in cache.

The once-sorted rows are laid out in one merged order of decreasing score (ARCHITECTURE
rule 2) as :class:`RowAtoms`: per atom a class flag, a flag saying whether the next atom
shares its score (the tie group continues), and a value (the row weight, or the number
of rows of a tie cell).  A replicate walks that order in blocks of ``_BLOCK`` atoms: it
draws the block's counts into a small buffer and at once folds them into the running
sums of the metric.  Nothing of size n is written per replicate, so memory traffic is
one read of the flags, and the memory of a replicate is O(block) whatever n.

The counts of a block are drawn by :func:`assay._kernels.draws.draw_block` (a tie cell of
several rows gets its count from the same walk, by conditional binomials); the scheme's
draw is chosen by the type of the scheme when a kernel compiles, so a kernel compiles
only the draw of the scheme it is called with.

Every metric is its scan of :mod:`assay._kernels.scans`, selected by its options named
tuple: a scan that folds in one pass (ROC AUC, AP, the trapezoidal AUC-PR) is folded as the
tie groups close; one that needs the class totals or what lies below (partial AUC,
interpolated and 11-point AP, EER) records the replicate's weight per tie group and is
scanned at the end; which of the two is chosen by the options' type when a kernel
compiles (:func:`fold_counts`), so a one-pass scan compiles no recording.  Replicate ``r``
draws from its own stream ``stream(seed, r)`` in a fixed order: results do not depend on
the number of threads: a call's threads each run the same serial kernel on their share
of the replicates, and a small call runs it alone on the calling thread.  Counts are
integers and unweighted sums are kept exactly (the scans' exact context), weighted ones
in float64.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.extending import overload

from assay._kernels._arrays import copy_into
from assay._kernels._jit import OVERLOAD_OPTIONS, jit, jit_inline, run_workers
from assay._kernels._rng import stream
from assay._kernels.atoms import count_groups
from assay._kernels.draws import _BLOCK, draw_block, draws_left, with_binomial
from assay._kernels.draws import stratified_block as stratified_block  # bands' draw
from assay._kernels.pieces import FLOAT_EXACT_LIMIT, scan
from assay._kernels.resample import POISSON, _rows_multinomial
from assay._kernels.scans import (
    SCANS,
    Context,
    below_identity,
    scan_finish,
    scan_fold,
    scan_records,
    scan_start,
)

# slots of a replicate's running sums (kept between blocks)
_P, _Q, _TP, _FP, _GROUP = range(5)
_N_SLOTS = 5


class RowAtoms(NamedTuple):
    """Sorted atoms in one merged order of decreasing score.

    ``value`` is read as the rows of a tie cell (``cells``), a row's weight
    (``weighted``), or not at all (empty: unweighted rows).  ``key`` and ``repeats`` serve
    the Poisson bootstrap only (empty otherwise): the key of each atom's draw, and
    whether an atom's rows were drawn with the atom before it (empty: no atom repeats).
    """

    is_positive: np.ndarray
    continues: np.ndarray
    value: np.ndarray
    cells: bool
    weighted: bool
    key: np.ndarray
    repeats: np.ndarray


class Clusters(NamedTuple):
    """The cluster of every atom (``n_clusters == 0``: no clusters), or the groups of a
    delete-a-group jackknife."""

    cluster_of_atom: np.ndarray
    n_clusters: int


class NoClusters(NamedTuple):
    """Atoms drawn one by one: :class:`Clusters` with ``n_clusters == 0``, as a type of
    its own, so that a replicate compiled for it compiles no multinomial draw over the
    clusters (:func:`draw_clusters`).  Made by :func:`no_clusters`."""

    cluster_of_atom: np.ndarray
    n_clusters: int


def no_clusters() -> NoClusters:
    """The clusters of a resampling call without clusters (no atom is in one)."""
    return NoClusters(np.empty(0, dtype=np.int64), 0)


def draw_clusters(clusters, cluster_counts, state):
    """The replicate's count of every cluster into ``cluster_counts`` (a multinomial over
    the clusters, drawn as :func:`assay._kernels.resample.row_counts` draws it); nothing
    without clusters.  Returns the stream state.  Inside kernels :class:`NoClusters`
    compiles to nothing (:func:`_draw_clusters`)."""
    if clusters.n_clusters > 0:
        return _rows_multinomial(clusters.n_clusters, cluster_counts, state)
    return state


@overload(draw_clusters, jit_options=OVERLOAD_OPTIONS)
def _draw_clusters(clusters, cluster_counts, state):
    # a branch on ``n_clusters`` alone would compile the clusters' draw into every replicate
    def none(clusters, cluster_counts, state):
        return state

    def drawn(clusters, cluster_counts, state):
        if clusters.n_clusters > 0:
            return _rows_multinomial(clusters.n_clusters, cluster_counts, state)
        return state

    return none if clusters.instance_class is NoClusters else drawn


class _Sums(NamedTuple):
    """A replicate's running sums and, for a recording scan, its tie groups' weights."""

    running: np.ndarray
    recorded_p: np.ndarray
    recorded_q: np.ndarray


class _Buffers(NamedTuple):
    """Per-thread buffers of a replicate's counts."""

    counts: np.ndarray
    positive: np.ndarray
    negative: np.ndarray
    cluster_counts: np.ndarray


class _Classes(NamedTuple):
    """Rows of each class, positive atoms in each block, the blocks' binomial sampler."""

    n_positive: int
    n_negative: int
    block_positives: np.ndarray
    binomial: object


class Counting(NamedTuple):
    """How a replicate counts the atoms: drawn by the scheme (``data`` false), or each
    atom counted as the rows it stands for, the data themselves (``data`` true: the
    metric's estimate, :mod:`assay._kernels.estimates`), with ``exact`` and ``small``
    those of the data (:class:`~assay._kernels.scans.Context`).  The same kernel computes both,
    so a resampling call compiles no kernel of its own for its estimate."""

    data: bool
    exact: bool
    small: bool


DRAWN = Counting(False, False, False)


@jit_inline
def _fold_groups(atoms, weights_from_value, start, counts, options, context, state, sums):
    """Fold the counts of atoms ``start .. start + len(counts)``; returns the scan state.

    The running sums live in local variables inside the loop (loaded from and stored back
    to ``sums.running`` once per block); a tie group closes where ``continues`` is False
    and is folded into the metric's scan.  A weight is the count, times the atom's value
    when ``weights_from_value``.
    """
    is_positive = atoms.is_positive
    continues = atoms.continues
    value = atoms.value
    running = sums.running
    p = running[_P]
    q = running[_Q]
    tp = running[_TP]
    fp = running[_FP]
    for offset in range(counts.shape[0]):
        k = start + offset
        weight = counts[offset] * value[k] if weights_from_value else float(counts[offset])
        positive = 1.0 if is_positive[k] else 0.0  # a select, not a branch
        p += weight * positive
        q += weight - weight * positive
        if not continues[k]:
            state = scan_fold(options, context, state, tp, fp, p, q)
            tp += p
            fp += q
            p = 0.0
            q = 0.0
    running[_P] = p
    running[_Q] = q
    running[_TP] = tp
    running[_FP] = fp
    return state


@jit_inline
def _record_groups(atoms, weights_from_value, start, counts, sums):
    """Record the weights of the tie groups closing among atoms ``start .. start +
    len(counts)`` in ``sums.recorded_p``, ``sums.recorded_q`` (as :func:`_fold_groups`
    sums them), for a scan that reads the totals or what lies below."""
    is_positive = atoms.is_positive
    continues = atoms.continues
    value = atoms.value
    running = sums.running
    p = running[_P]
    q = running[_Q]
    tp = running[_TP]
    fp = running[_FP]
    group = np.int64(running[_GROUP])
    for offset in range(counts.shape[0]):
        k = start + offset
        weight = counts[offset] * value[k] if weights_from_value else float(counts[offset])
        positive = 1.0 if is_positive[k] else 0.0
        p += weight * positive
        q += weight - weight * positive
        if not continues[k]:
            sums.recorded_p[group] = p
            sums.recorded_q[group] = q
            group += 1
            tp += p
            fp += q
            p = 0.0
            q = 0.0
    running[_P] = p
    running[_Q] = q
    running[_TP] = tp
    running[_FP] = fp
    running[_GROUP] = group


def fold_counts(atoms, weights_from_value, start, counts, options, context, state, sums):
    """Fold the counts of atoms ``start .. start + len(counts)`` into a replicate.

    A scan that folds in one pass folds each tie group as it closes
    (:func:`_fold_groups`); one that reads the totals or what lies below records the
    groups' weights, scanned at the end (:func:`_record_groups`, :func:`finish_counts`).
    Inside kernels the path is chosen by the options' type when the caller compiles
    (:func:`_fold_counts`), so a one-pass scan such as the full ROC AUC compiles no
    recording.  Returns the scan state.
    """
    if scan_records(options):
        _record_groups(atoms, weights_from_value, start, counts, sums)
        return state
    return _fold_groups(atoms, weights_from_value, start, counts, options, context, state, sums)


def _records(options):
    """Whether the scan of the options type ``options`` (a Numba type) records its groups."""
    return SCANS[options.instance_class].records()


@overload(fold_counts, jit_options=OVERLOAD_OPTIONS)
def _fold_counts(atoms, weights_from_value, start, counts, options, context, state, sums):
    # a branch on ``scan_records`` would compile both paths into every replicate
    def recording(atoms, weights_from_value, start, counts, options, context, state, sums):
        _record_groups(atoms, weights_from_value, start, counts, sums)
        return state

    def folding(atoms, weights_from_value, start, counts, options, context, state, sums):
        return _fold_groups(atoms, weights_from_value, start, counts, options, context, state,
                            sums)  # fmt: skip

    return recording if _records(options) else folding


@jit_inline
def _small(scheme, clustered, n_rows):
    """Whether a replicate's class totals surely have ``2 P N < 2**53`` (see
    :class:`~assay._kernels.scans.Context`): a multinomial or stratified replicate of
    unclustered rows draws exactly ``n_rows`` rows, so ``2 P N <= n_rows**2 / 2``.  A
    Poisson or a clustered replicate has no such bound and keeps the integer sums."""
    small = 0.5 * n_rows * n_rows < FLOAT_EXACT_LIMIT
    return scheme != POISSON and not clustered and small


@jit_inline
def _exactness(counting, atoms, scheme, clustered, n_rows):
    """``(exact, small)`` of a replicate's sums (:class:`~assay._kernels.scans.Context`):
    the data's own (``counting.data``, :class:`Counting`), or a drawn replicate's:
    integers for unweighted rows, in float64 where :func:`_small` bounds them."""
    if counting.data:
        return counting.exact, counting.small
    return not atoms.weighted, _small(scheme, clustered, n_rows)


@jit_inline
def _start(options, exact, small, sums):
    """The empty replicate: zero running sums and the scan's start state."""
    sums.running[:] = 0.0
    context = Context(np.nan, np.nan, exact, exact and small)
    return context, scan_start(options, context, below_identity(options))


def finish_counts(options, context, state, sums):
    """The metric of a folded replicate; a recording scan scans its recorded groups.

    Inside kernels the path is chosen by the options' type (:func:`_finish_counts`), as
    in :func:`fold_counts`: the one-piece :func:`~assay._kernels.pieces.scan` is compiled
    only for the scans that record.
    """
    if scan_records(options):
        return scan(options, sums.recorded_p, sums.recorded_q, context.exact)
    running = sums.running
    context = Context(running[_TP], running[_FP], context.exact, context.small)
    return scan_finish(options, context, state)


@overload(finish_counts, jit_options=OVERLOAD_OPTIONS)
def _finish_counts(options, context, state, sums):
    def recorded(options, context, state, sums):
        return scan(options, sums.recorded_p, sums.recorded_q, context.exact)

    def folded(options, context, state, sums):
        running = sums.running
        totals = Context(running[_TP], running[_FP], context.exact, context.small)
        return scan_finish(options, totals, state)

    return recorded if _records(options) else folded


@jit_inline
def _replicate(atoms, clusters, options, scheme, classes, state, buffers, sums, trace,
               counting):  # fmt: skip
    """One replicate, block by block (atoms of one row each, or tie cells of several rows).

    ``trace``: None, or an array that receives every atom's count (for tests, and model
    B of a paired replicate); None is a type of its own, and its copy is not compiled.
    ``counting``: :class:`Counting`, a draw or the data themselves.
    """
    n = atoms.is_positive.shape[0]
    data = counting.data
    exact, small = _exactness(counting, atoms, scheme, clusters.n_clusters > 0,
                              classes.n_positive + classes.n_negative)  # fmt: skip
    context, scan_state = _start(options, exact, small, sums)
    replicate_state = state
    # whole clusters: a multinomial over the clusters first, drawn exactly as the other
    # resampling paths draw it (:func:`assay._kernels.resample.row_counts`)
    if not data:
        state = draw_clusters(clusters, buffers.cluster_counts, state)
    left = draws_left(classes)
    for start in range(0, n, _BLOCK):
        end = start + _BLOCK if n - start > _BLOCK else n
        counts = buffers.counts[: end - start]
        if data:  # every atom counts the rows it stands for
            for offset in range(end - start):
                counts[offset] = np.int64(atoms.value[start + offset]) if atoms.cells else 1
        else:
            state, left = draw_block(atoms, clusters, scheme, classes, buffers, start, counts,
                                     replicate_state, state, left)  # fmt: skip
        if trace is not None:
            copy_into(trace[start:end], counts)
        scan_state = fold_counts(atoms, atoms.weighted, start, counts, options, context,
                                 scan_state, sums)  # fmt: skip
    return finish_counts(options, context, scan_state, sums), state


def _class_counts(atoms):
    """The rows of each class and the positive atoms of every block of ``_BLOCK``.

    Counted in NumPy, exactly (integers, and the integer sizes of tie cells summed in
    float64, exact in any order below 2**53), as fast as a kernel and not compiled: one
    kernel fewer for a resampling call's first run."""
    n = atoms.is_positive.shape[0]
    flags = atoms.is_positive.view(np.uint8)
    full = n - n % _BLOCK
    block_positives = np.empty((n + _BLOCK - 1) // _BLOCK, dtype=np.int64)
    block_positives[: full // _BLOCK] = flags[:full].reshape(-1, _BLOCK).sum(axis=1)
    if full < n:
        block_positives[-1] = flags[full:].sum()
    if not atoms.cells:  # an atom is a row: the positive rows are counted by block already
        n_positive = int(block_positives.sum())
        return n_positive, n - n_positive, block_positives
    n_positive = atoms.value.sum(where=atoms.is_positive)
    n_negative = atoms.value.sum(where=~atoms.is_positive)
    return int(n_positive), int(n_negative), block_positives


def new_buffers(n_clusters):
    """A replicate's block buffers (:class:`_Buffers`), allocated in NumPy: a kernel given
    its buffers compiles no allocation of its own (NumPy's ``empty`` and ``zeros`` cost
    Numba some 0.25 s to compile on a call's first run)."""
    return _Buffers(
        np.empty(_BLOCK, dtype=np.int64),
        np.zeros(_BLOCK + 1, dtype=np.int64),  # + 1: the merge back reads one past the end
        np.zeros(_BLOCK + 1, dtype=np.int64),
        np.empty(n_clusters, dtype=np.int64),
    )


def new_sums(n_groups):
    """A replicate's sums (:class:`_Sums`) for a scan recording ``n_groups`` tie groups
    (0 for a one-pass scan), allocated in NumPy (see :func:`new_buffers`)."""
    return _Sums(
        np.empty(_N_SLOTS, dtype=np.float64),
        np.empty(n_groups, dtype=np.float64),
        np.empty(n_groups, dtype=np.float64),
    )


@jit
def _ranking_replicates(atoms, clusters, options, draw, counting, out, n_positive, n_negative,
                        block_positives, buffers, sums, worker, n_workers):  # fmt: skip
    """Replicates ``worker, worker + n_workers, ...`` of :func:`bootstrap_ranking`: one
    thread's share (all of them for worker 0 of 1).  ``counting``: :class:`Counting`;
    ``n_positive``, ``n_negative``, ``block_positives``: :func:`_class_counts`;
    ``buffers``, ``sums``: the thread's own (:func:`_ranking_scratch`)."""
    replicate_classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    for r in range(worker, out.shape[0], n_workers):
        state = stream(draw.seed, np.uint64(draw.first_replicate + r))
        result, _ = _replicate(atoms, clusters, options, draw.scheme, replicate_classes, state,
                               buffers, sums, None, counting)  # fmt: skip
        out[r] = result


def bootstrap_ranking(atoms, clusters, options, draw, out, n_workers):
    """Metric of replicates ``draw.first_replicate + r`` for ``r < len(out)``, into ``out``.

    ``atoms``: :class:`RowAtoms` (:func:`merge_atoms`); ``clusters``: :class:`Clusters`,
    with ``n_clusters > 0`` replicates draw whole clusters (:class:`NoClusters`, from
    :func:`no_clusters`, when there are none); ``options``: the metric's
    scan options (:mod:`assay._kernels.scans`); ``draw``:
    :class:`~assay._kernels.resample.Draw`, the scheme (MULTINOMIAL, STRATIFIED or
    POISSON), the uint64 seed and the first replicate.  Unweighted counts are summed
    exactly.  ``n_workers`` threads share the replicates, each running the serial kernel
    on its share (:func:`assay._kernels._jit.run_workers`; with one, the calling thread
    alone: :func:`assay._kernels._jit.workers_for`).  Every replicate is computed by the
    same function from its own stream: the values do not depend on ``n_workers``.
    """
    arguments = (atoms, clusters, options, with_binomial(draw, atoms, clusters), DRAWN, out,
                 *_class_counts(atoms))  # fmt: skip
    run_workers(_ranking_replicates, arguments, n_workers, _ranking_scratch(atoms, clusters,
                options))  # fmt: skip


def _ranking_scratch(atoms, clusters, options):
    """The function that allocates a thread's buffers and sums for replicates of
    ``atoms`` (:func:`new_buffers`, :func:`new_sums`)."""
    m = count_groups(atoms.continues) if scan_records(options) else 0
    return lambda: (new_buffers(clusters.n_clusters), new_sums(m))


@jit
def _traced_replicate(atoms, clusters, options, draw, n_positive, n_negative, block_positives,
                      buffers, sums, trace):  # fmt: skip
    classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    result, _ = _replicate(atoms, clusters, options, draw.scheme, classes,
                           stream(draw.seed, np.uint64(draw.first_replicate)), buffers, sums,
                           trace, DRAWN)  # fmt: skip
    return result


def traced_replicate(atoms, clusters, options, draw):
    """Replicate ``draw.first_replicate`` of :func:`bootstrap_ranking` with every atom's
    count (for tests): ``(value, counts)``."""
    draw = with_binomial(draw, atoms, clusters)
    trace = np.zeros(atoms.is_positive.shape[0], dtype=np.int64)
    value = _traced_replicate(atoms, clusters, options, draw, *_class_counts(atoms),
                              *_ranking_scratch(atoms, clusters, options)(), trace)  # fmt: skip
    return value, trace


@jit
def _paired_replicates(a, b, a_position_of_b, clusters, options, draw, counting, out_a, out_b,
                       n_positive, n_negative, block_positives, buffers, sums_a, sums_b,
                       counts, worker, n_workers):  # fmt: skip
    """Replicates ``worker, worker + n_workers, ...`` of :func:`paired_bootstrap_ranking`
    (``counting``: :class:`Counting`)."""
    n = a.is_positive.shape[0]
    replicate_classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    block = buffers.counts  # free once model A's replicate is drawn and folded
    exact, small = _exactness(counting, b, draw.scheme, clusters.n_clusters > 0,
                              n_positive + n_negative)  # fmt: skip
    for r in range(worker, out_a.shape[0], n_workers):
        state = stream(draw.seed, np.uint64(draw.first_replicate + r))
        result, state = _replicate(a, clusters, options, draw.scheme, replicate_classes, state,
                                   buffers, sums_a, counts, counting)  # fmt: skip
        out_a[r] = result
        context, scan_state = _start(options, exact, small, sums_b)
        for start in range(0, n, _BLOCK):
            size = n - start if n - start < _BLOCK else _BLOCK
            for offset in range(size):
                block[offset] = counts[a_position_of_b[start + offset]]
            scan_state = fold_counts(b, b.weighted, start, block[:size], options, context,
                                     scan_state, sums_b)  # fmt: skip
        out_b[r] = finish_counts(options, context, scan_state, sums_b)


def paired_bootstrap_ranking(a, b, a_position_of_b, clusters, options, draw, out_a, out_b,
                             n_workers):  # fmt: skip
    """Both models' metric on the same replicates (a paired bootstrap).

    ``a``, ``b``: :class:`RowAtoms` of the same rows (one row per atom), each model's in
    its own merged order; ``a_position_of_b[k]`` is the position in A's order of B's atom
    ``k``.  A replicate is streamed over A's order exactly as in
    :func:`bootstrap_ranking`, keeping every row's count, and model B folds the same
    counts in its own order.  ``clusters`` is in A's order.  ``n_workers``: as in
    :func:`bootstrap_ranking` (one: the serial kernel).
    """
    draw = with_binomial(draw, a, clusters)
    arguments, scratch = _paired_arguments(a, b, a_position_of_b, clusters, options, draw, DRAWN,
                                           out_a, out_b)  # fmt: skip
    run_workers(_paired_replicates, arguments, n_workers, scratch)


def _paired_arguments(a, b, a_position_of_b, clusters, options, draw, counting, out_a, out_b):
    """The arguments of :func:`_paired_replicates` shared by its threads, and the function
    that allocates one thread's buffers (its arguments after them)."""
    n_positive, n_negative, block_positives = _class_counts(a)
    record = scan_records(options)
    m_a = count_groups(a.continues) if record else 0
    m_b = count_groups(b.continues) if record else 0
    n = a.is_positive.shape[0]

    def scratch():
        return (new_buffers(clusters.n_clusters), new_sums(m_a), new_sums(m_b),
                np.zeros(n, dtype=np.int64))  # fmt: skip

    arguments = (a, b, a_position_of_b, clusters, options, draw, counting, out_a, out_b,
                 n_positive, n_negative, block_positives)  # fmt: skip
    return arguments, scratch
