"""Paired comparisons and permutation tests, on once-sorted data (ARCHITECTURE rules 3-5).

Paired bootstrap of two ranking models, eight replicates at a time
    Each replicate is streamed over model A's order exactly as
    :func:`assay._kernels.streaming.paired_bootstrap_ranking` streams it, and its counts
    are kept as bytes, eight replicates side by side per row; model B then folds the
    eight replicates together in its own order, one 64-bit read per row for all eight
    (a random read into n bytes per replicate instead of n int64 words).
Paired permutation of two ranking models
    Under the null hypothesis the two models' scores of a row are exchangeable: a
    replicate swaps them row by row with probability 1/2.  Both models' scores are sorted
    together once (2n entries); a replicate walks that order, giving each entry to model
    A' or B' by the row's swap bit, and accumulates each model's per-group weights, so no
    replicate is re-sorted.
Permutation of the labels (one model against chance)
    A replicate shuffles the labels over the once-sorted rows (Fisher-Yates) and sweeps.
Joint confusion cells
    A paired replicate of two classifiers draws the (truth, prediction A, prediction B)
    cells; a paired permutation splits every discordant cell binomially with its mirror.

Every replicate ``r`` uses its own random stream ``stream(seed, r)``: results are
bit-identical for any number of threads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from assay._kernels._arrays import copy_into
from assay._kernels._jit import jit, jit_inline, jit_parallel, run_workers
from assay._kernels._rng import binomial, next_u64, shuffle, stream
from assay._kernels.draws import _BLOCK, draw_block, draws_left, with_binomial
from assay._kernels.pieces import scan
from assay._kernels.streaming import (
    DRAWN,
    _class_counts,
    _Classes,
    _exactness,
    _start,
    draw_clusters,
    finish_counts,
    fold_counts,
    new_buffers,
    new_sums,
    paired_bootstrap_ranking,
)

_ONE = np.uint64(1)
LANES = 8  # replicates whose counts share one 64-bit word per row
_SATURATED = 255  # a count kept as a byte; this or more: the replicate is redone in int64
_BYTE = np.uint64(0xFF)


class SwapEntries(NamedTuple):
    """Both models' values of every row sorted together: the 2n (row, model) entries in
    decreasing order, with the tie group of each (``n_groups`` groups of equal values)."""

    entry_group: np.ndarray
    entry_row: np.ndarray
    entry_is_b: np.ndarray
    n_groups: int


class LabelledRows(NamedTuple):
    """Rows with their class and weight (``unit_of_row``, read when ``weighted``)."""

    positive_of_row: np.ndarray
    unit_of_row: np.ndarray
    weighted: bool


class SortedRows(NamedTuple):
    """Rows sorted by decreasing score: the end of every tie group, and the rows' labels
    and weights in that order (``unit_sorted`` read when ``weighted``)."""

    group_end: np.ndarray
    positive_sorted: np.ndarray
    unit_sorted: np.ndarray
    weighted: bool


@jit
def _swapped_replicates(entries, rows, options, draw, out_a, out_b, worker, n_workers):
    """Replicates ``worker, worker + n_workers, ...`` of :func:`compare_ranking_permutation`."""
    positive_of_row = rows.positive_of_row
    unit_of_row = rows.unit_of_row
    weighted = rows.weighted
    entry_row = entries.entry_row
    n = positive_of_row.shape[0]
    n_entries = entry_row.shape[0]
    swapped = np.empty(n, dtype=np.bool_)
    sums = np.empty((4, entries.n_groups), dtype=np.float64)  # P_A, N_A, P_B, N_B
    for r in range(worker, out_a.shape[0], n_workers):
        _swap_bits(stream(draw.seed, np.uint64(draw.first_replicate + r)), swapped)
        sums[:, :] = 0.0
        for e in range(n_entries):
            row = entry_row[e]
            to_b = entries.entry_is_b[e] != swapped[row]
            slot = (2 if to_b else 0) + (0 if positive_of_row[row] else 1)
            sums[slot, entries.entry_group[e]] += unit_of_row[row] if weighted else 1.0
        out_a[r] = scan(options, sums[0], sums[1], not weighted)
        out_b[r] = scan(options, sums[2], sums[3], not weighted)


def compare_ranking_permutation(entries, rows, options, draw, out_a, out_b, n_workers):
    """Metric of the two models after swapping their scores row by row at random.

    ``entries``: :class:`SwapEntries`; ``rows``: :class:`LabelledRows`; ``draw``:
    :class:`~assay._kernels.resample.Draw` (its seed and first replicate).  A row's swap
    bit decides which model each of its two entries goes to.  Unweighted sums are exact.
    ``n_workers`` threads share the replicates, each running the serial kernel on its
    share (:func:`~assay._kernels._jit.run_workers`), with the same values on any number.
    """
    run_workers(_swapped_replicates, (entries, rows, options, draw, out_a, out_b), n_workers)


@jit
def _shuffled_replicates(rows, options, draw, out, worker, n_workers):
    """Replicates ``worker, worker + n_workers, ...`` of :func:`permute_ranking_labels`."""
    group_end = rows.group_end
    unit_sorted = rows.unit_sorted
    weighted = rows.weighted
    n = rows.positive_sorted.shape[0]
    m = group_end.shape[0]
    labels = np.empty(n, dtype=np.bool_)
    positive_sums = np.empty(m, dtype=np.float64)
    negative_sums = np.empty(m, dtype=np.float64)
    for r in range(worker, out.shape[0], n_workers):
        state = stream(draw.seed, np.uint64(draw.first_replicate + r))
        copy_into(labels, rows.positive_sorted)
        state = shuffle(labels, state)
        start = 0
        for g in range(m):
            p = 0.0
            q = 0.0
            for i in range(start, group_end[g]):
                w = unit_sorted[i] if weighted else 1.0
                if labels[i]:
                    p += w
                else:
                    q += w
            positive_sums[g] = p
            negative_sums[g] = q
            start = group_end[g]
        out[r] = scan(options, positive_sums, negative_sums, not weighted)


def permute_ranking_labels(rows, options, draw, out, n_workers):
    """Metric after shuffling the labels over the sorted rows (weights stay with rows).

    ``rows``: :class:`SortedRows`; ``draw``: :class:`~assay._kernels.resample.Draw` (its
    seed and first replicate).  Unweighted sums are exact.  ``n_workers`` threads share
    the replicates (:func:`~assay._kernels._jit.run_workers`), with the same values on
    any number.
    """
    run_workers(_shuffled_replicates, (rows, options, draw, out), n_workers)


@jit_parallel
def permute_joint_cells(cells, partner, draw, out, n_workers):
    """Paired permutation of two classifiers on joint (truth, A, B) cells.

    Every row of a discordant cell ``c`` (A and B differ) moves to its mirror cell
    ``partner[c]`` (A and B exchanged) with probability 1/2: a Binomial(count, 1/2)
    split; concordant cells (``partner[c] == c``) stay.  ``draw``:
    :class:`~assay._kernels.resample.Draw` (its seed and first replicate); ``out``:
    (replicates, cells).
    """
    count = out.shape[0]
    for worker in prange(n_workers):
        for r in range(worker, count, n_workers):
            state = stream(draw.seed, np.uint64(draw.first_replicate + r))
            replicate = out[r]
            replicate[:] = 0
            for c in range(cells.shape[0]):
                if partner[c] == c:
                    replicate[c] += cells[c]
                else:
                    moved, state = binomial(cells[c], 0.5, state)
                    replicate[c] += cells[c] - moved
                    replicate[partner[c]] += moved


@jit_parallel
def permute_pairs(first_codes, second_codes, n_second, draw, out, n_workers):
    """Joint counts of (first, second) codes after shuffling the first codes.

    One model against chance on labels: the truth is permuted against the predictions,
    which keeps both margins.  ``draw``: :class:`~assay._kernels.resample.Draw` (its seed
    and first replicate); ``out``: (replicates, n_first * n_second) int64.
    """
    n = first_codes.shape[0]
    count = out.shape[0]
    for worker in prange(n_workers):
        shuffled = np.empty(n, dtype=np.int64)
        for r in range(worker, count, n_workers):
            state = stream(draw.seed, np.uint64(draw.first_replicate + r))
            copy_into(shuffled, first_codes)
            state = shuffle(shuffled, state)
            replicate = out[r]
            replicate[:] = 0
            for i in range(n):
                replicate[shuffled[i] * n_second + second_codes[i]] += 1


@jit
def _swap_bits(state, swapped):
    for start in range(0, swapped.shape[0], 64):
        bits, state = next_u64(state)
        for i in range(start, min(start + 64, swapped.shape[0])):
            swapped[i] = (bits & _ONE) == _ONE
            bits >>= _ONE
    return state


@jit_parallel
def swap_masks(draw, out, n_workers):
    """Row-by-row swap decisions (probability 1/2) of replicates: ``out`` (replicates, n)
    bool; the generic path of paired permutations (the same bits as the fast paths)."""
    count = out.shape[0]
    for worker in prange(n_workers):
        for r in range(worker, count, n_workers):
            _swap_bits(stream(draw.seed, np.uint64(draw.first_replicate + r)), out[r])


@jit_parallel
def permutations(draw, out, n_workers):
    """Random permutations of ``range(n)``: ``out`` (replicates, n) int64; the generic
    path of label permutations (Fisher-Yates on each replicate's own stream)."""
    count = out.shape[0]
    for worker in prange(n_workers):
        for r in range(worker, count, n_workers):
            row = out[r]
            for i in range(row.shape[0]):
                row[i] = i
            shuffle(row, stream(draw.seed, np.uint64(draw.first_replicate + r)))


@jit_inline
def _lane_replicate(atoms, clusters, options, scheme, classes, state, buffers, sums, lanes,
                    lane, counting, exact, small):  # fmt: skip
    """Model A's replicate over atoms of one row each, its counts kept as bytes.

    The draws and the fold are those of :func:`assay._kernels.streaming._replicate`
    (the same counts in the same order, the same value; with ``counting.data``, every
    row counted once: the data themselves); atom ``k``'s count goes to
    ``lanes[k * LANES + lane]``, capped at ``_SATURATED``.  Returns ``(value,
    saturated)``: a saturated replicate's bytes are not its counts.
    """
    n = atoms.is_positive.shape[0]
    context, scan_state = _start(options, exact, small, sums)
    replicate_state = state
    if not counting.data:
        state = draw_clusters(clusters, buffers.cluster_counts, state)
    left = draws_left(classes)
    saturated = False
    for start in range(0, n, _BLOCK):
        size = min(_BLOCK, n - start)
        counts = buffers.counts[:size]
        if counting.data:  # a row each
            for offset in range(size):
                counts[offset] = 1
        else:
            state, left = draw_block(atoms, clusters, scheme, classes, buffers, start, counts,
                                     replicate_state, state, left)  # fmt: skip
        for offset in range(size):
            count = counts[offset]
            saturated |= count >= _SATURATED
            lanes[(start + offset) * LANES + lane] = min(count, _SATURATED)
        scan_state = fold_counts(atoms, atoms.weighted, start, counts, options, context,
                                 scan_state, sums)  # fmt: skip
    return finish_counts(options, context, scan_state, sums), saturated


@jit
def _lane_batches(a, b, a_position_of_b, clusters, options, draw, counting, out_a, out_b,
                  saturated_b, n_positive, n_negative, block_positives, buffers, sums_a,
                  sums_b, worker, n_workers):  # fmt: skip
    """Batches ``worker, worker + n_workers, ...`` of :func:`paired_bootstrap_lanes`: one
    thread's share (all of them for worker 0 of 1).  A replicate whose counts did not fit
    in bytes gets no value of B here: ``saturated_b[r]`` is set instead.  ``counting``:
    :class:`~assay._kernels.streaming.Counting` (with ``data``, one replicate: the data
    themselves, both models' estimates)."""
    n = a.is_positive.shape[0]
    count = out_a.shape[0]
    n_batches = (count + LANES - 1) // LANES
    exact, small = _exactness(counting, a, draw.scheme, clusters.n_clusters > 0,
                              n_positive + n_negative)  # fmt: skip
    classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    lanes = np.zeros(n * LANES, dtype=np.uint8)
    words = lanes.view(np.uint64)
    gathered = np.empty(_BLOCK, dtype=np.uint64)
    block = np.empty(_BLOCK, dtype=np.int64)
    context, empty_state = _start(options, exact, small, sums_a)
    states_b = [empty_state for _ in range(LANES)]
    saturated = np.zeros(LANES, dtype=np.bool_)
    for batch in range(worker, n_batches, n_workers):
        first = batch * LANES
        width = min(LANES, count - first)
        for lane in range(width):
            state = stream(draw.seed, np.uint64(draw.first_replicate + first + lane))
            value, saturated_lane = _lane_replicate(
                a, clusters, options, draw.scheme, classes, state, buffers, sums_a, lanes, lane,
                counting, exact, small,
            )  # fmt: skip
            out_a[first + lane] = value
            saturated[lane] = saturated_lane
            context, start_state = _start(options, exact, small, sums_b[lane])
            states_b[lane] = start_state
        for start in range(0, n, _BLOCK):
            size = min(_BLOCK, n - start)
            for offset in range(size):
                gathered[offset] = words[a_position_of_b[start + offset]]
            for lane in range(width):
                if saturated[lane]:
                    continue
                shift = np.uint64(8 * lane)
                for offset in range(size):
                    block[offset] = np.int64((gathered[offset] >> shift) & _BYTE)
                states_b[lane] = fold_counts(b, b.weighted, start, block[:size], options, context,
                                             states_b[lane], sums_b[lane])  # fmt: skip
        for lane in range(width):
            if saturated[lane]:
                saturated_b[first + lane] = True
            else:
                out_b[first + lane] = finish_counts(options, context, states_b[lane],
                                                    sums_b[lane])  # fmt: skip


def lanes_scratch(clusters):
    """The function that allocates a thread's buffers for :func:`_lane_batches` (model
    A's block buffers and sums, and the sums of model B in each of the ``LANES``)."""
    return lambda: (new_buffers(clusters.n_clusters), new_sums(0),
                    tuple(new_sums(0) for _ in range(LANES)))  # fmt: skip


def paired_bootstrap_lanes(a, b, a_position_of_b, clusters, options, draw, out_a, out_b,
                           n_workers):  # fmt: skip
    """:func:`assay._kernels.streaming.paired_bootstrap_ranking` (the same values),
    eight replicates at a time, for scans that fold in one pass (``scan_records`` False).

    ``a``, ``b``: :class:`~assay._kernels.streaming.RowAtoms` of the same rows (one row
    per atom), each in its own merged order; ``a_position_of_b[k]``: the position in A's
    order of B's atom ``k``; ``clusters`` in A's order.  Each worker takes batches of
    eight consecutive replicates: A's replicates are streamed one by one, their counts
    stored as bytes side by side per row; B folds the batch in its own order, reading
    each row's eight counts as one 64-bit word.  A replicate with a count of 255 or more
    (never for n < 255 rows, and for more rows about as likely as drawing one row 255
    times; with Poisson draws, whenever hundreds of rows are alike) is redone after the
    batches with int64 counts (:func:`~assay._kernels.streaming.paired_bootstrap_ranking`
    of each run of such replicates, compiled only then).  ``n_workers`` threads share
    the batches, each running the serial kernel on its share
    (:func:`~assay._kernels._jit.run_workers`), with the same values on any number.
    """
    n_positive, n_negative, block_positives = _class_counts(a)
    saturated_b = np.zeros(out_b.shape[0], dtype=np.bool_)
    draw = with_binomial(draw, a, clusters)
    arguments = (a, b, a_position_of_b, clusters, options, draw, DRAWN, out_a, out_b,
                 saturated_b, n_positive, n_negative, block_positives)  # fmt: skip
    run_workers(_lane_batches, arguments, n_workers, lanes_scratch(clusters))
    redone = np.flatnonzero(saturated_b)
    # each run of consecutive saturated replicates at once, on all the workers
    for run in np.split(redone, np.flatnonzero(np.diff(redone) > 1) + 1) if redone.size else ():
        first, count = int(run[0]), run.shape[0]
        values_a = np.empty(count, dtype=np.float64)
        values_b = np.empty(count, dtype=np.float64)
        these = draw._replace(first_replicate=int(draw.first_replicate + first))
        paired_bootstrap_ranking(a, b, a_position_of_b, clusters, options, these, values_a,
                                 values_b, n_workers)  # fmt: skip
        out_b[first : first + count] = values_b
