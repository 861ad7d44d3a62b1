"""The report's one draw: each replicate's ROC AUC and curves of two models, and the
rows' joint cells.

A batch of eight replicates is drawn over model A's order exactly as the paired bootstrap
draws it (:func:`assay._kernels.paired.paired_bootstrap_lanes`: the same streams, the same
counts, the same ROC AUC values of both models), with the counts kept as bytes, eight
replicates side by side per row.  The same counts then give both models' ROC and
precision-recall curves at fixed grids (:func:`assay._kernels.bands.fold_curves`):

* model A's curves read the bytes again in A's order, once the replicate's class totals
  are known (an unstratified replicate knows them only after its last block);
* model B folds each row's eight counts in its own order into its ROC AUC and its curves.

The curves read the counts again only in the blocks where a grid point is passed: while a
replicate's ROC AUC is folded, the running sums at the start of every block (the weight
above the open tie group and the group's own) are recorded, and a block is read again,
from its recorded sums, only if a tie group closing in it reaches the next grid point
(the sums at the next block's start reach it); about one block per grid point instead of
every row.  The curves are those of the whole fold, value for value.

A replicate that draws no positive or no negative row has no curves (NaN). A replicate with
a count of 255 or more (never for fewer than 255 rows) is redone with int64 counts after
the batches, by a kernel of its own compiled only then, as in the paired bootstrap. The
joint cells of the rows (the label and every model's prediction: the threshold metrics) are
summed from the bytes while model A's curves read them, eight replicates at once: each row
adds its word, split into two words of four 16-bit counters, to its cell's counters, which
are emptied into the cells every 256 rows (at most 255 a count, so no counter overflows); a
redone replicate's cells are summed from its int64 counts. Exact whatever the counts. Every
replicate ``r`` draws from ``stream(seed, r)``: the values do not depend on the number of
threads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from assay._kernels._jit import jit, run_workers
from assay._kernels._rng import stream
from assay._kernels.bands import _FP as _CURVE_FP
from assay._kernels.bands import (
    _N_SLOTS,
    _NEXT_RECALL,
    _NEXT_ROC,
    Thresholds,
    finish_curves,
    fold_curves,
    thresholds_of,
)
from assay._kernels.bands import _P as _CURVE_P
from assay._kernels.bands import _Q as _CURVE_Q
from assay._kernels.bands import _TP as _CURVE_TP
from assay._kernels.draws import _BLOCK, draw_block, draws_left, with_binomial
from assay._kernels.paired import _BYTE, _SATURATED, LANES, lanes_scratch
from assay._kernels.streaming import (
    _FP,
    _P,
    _Q,
    _TP,
    Counting,
    _class_counts,
    _Classes,
    _replicate,
    _small,
    _start,
    finish_counts,
    fold_counts,
    new_buffers,
    new_sums,
)


class Outs(NamedTuple):
    """Where the replicates go: both models' ROC AUC (replicates,) and curves
    (replicates, grid points), and the rows' joint cells (replicates, cells; no columns:
    none counted).  Flat: a nested named tuple does not reach a parallel loop."""

    roc_auc_a: np.ndarray
    roc_auc_b: np.ndarray
    roc_a: np.ndarray
    precision_a: np.ndarray
    roc_b: np.ndarray
    precision_b: np.ndarray
    cells: np.ndarray


_EVEN_BYTES = np.uint64(0x00FF00FF00FF00FF)  # bytes 0, 2, 4, 6 as four 16-bit counters
_COUNTER = np.uint64(0xFFFF)
_FLUSH_ROWS = 256  # rows added to the 16-bit counters before they are emptied: 256 * 255 < 2**16


@jit
def _record_start(sums, starts, j):
    """``starts[j]``: the running sums of a replicate's fold at the start of block ``j``
    (the weight above the open tie group, and the group's own), in the curves' order."""
    running = sums.running
    starts[j, _CURVE_TP] = np.int64(running[_TP])  # whole numbers below 2**53
    starts[j, _CURVE_FP] = np.int64(running[_FP])
    starts[j, _CURVE_P] = np.int64(running[_P])
    starts[j, _CURVE_Q] = np.int64(running[_Q])


@jit
def _curves_from_starts(words, positions, lane, is_positive, continues, starts, n_positive,
                        n_negative, grids, thresholds, running, block, roc_out,
                        precision_out):  # fmt: skip
    """Both curves of one replicate from the blocks where a grid point is passed.

    ``words[k]`` (``words[positions[k]]`` when ``positions`` is not empty): the eight
    counts of atom ``k``, this replicate's in byte ``lane``; ``starts``: the running sums
    at the start of every block and at the end (:func:`_record_start`).  A block is
    folded again from its start only if the sums at the next block's start reach the
    next grid point of either curve; the others pass no grid point (the grid points
    passed so far lie below the sums at the block's start).
    """
    n = is_positive.shape[0]
    shift = np.uint64(8 * lane)
    gather = positions.shape[0] > 0
    running[:] = 0
    for j, start in enumerate(range(0, n, _BLOCK)):
        next_fp = thresholds.false_positives[running[_NEXT_ROC]]
        next_tp = thresholds.true_positives[running[_NEXT_RECALL]]
        if starts[j + 1, _CURVE_FP] < next_fp and starts[j + 1, _CURVE_TP] < next_tp:
            continue
        size = min(_BLOCK, n - start)
        for slot in (_CURVE_TP, _CURVE_FP, _CURVE_P, _CURVE_Q):
            running[slot] = starts[j, slot]
        for offset in range(size):
            word = words[positions[start + offset]] if gather else words[start + offset]
            block[offset] = np.int64((word >> shift) & _BYTE)
        fold_curves(start, block[:size], is_positive, continues, n_positive, n_negative, grids,
                    thresholds, running, roc_out, precision_out)  # fmt: skip
    last = (n + _BLOCK - 1) // _BLOCK
    running[_CURVE_TP] = starts[last, _CURVE_TP] + starts[last, _CURVE_P]
    running[_CURVE_FP] = starts[last, _CURVE_FP] + starts[last, _CURVE_Q]
    finish_curves(running, roc_out, precision_out)


@jit
def _lane_replicate(atoms, clusters, options, scheme, classes, state, buffers, sums, lanes,
                    lane, starts):  # fmt: skip
    """Model A's replicate, its counts kept as bytes (as the paired bootstrap's lanes),
    the running sums at the start of every block recorded in ``starts``.

    Returns ``(value, saturated, drawn_positive)``: the ROC AUC, whether a count reached
    ``_SATURATED`` (the bytes are then not the counts), and the positive rows drawn.
    """
    n = atoms.is_positive.shape[0]
    small = _small(scheme, clusters.n_clusters > 0, classes.n_positive + classes.n_negative)
    context, scan_state = _start(options, not atoms.weighted, small, sums)
    replicate_state = state
    left = draws_left(classes)
    saturated = False
    drawn_positive = np.int64(0)
    zero = np.int64(0)
    for j, start in enumerate(range(0, n, _BLOCK)):
        _record_start(sums, starts, j)
        size = min(_BLOCK, n - start)
        counts = buffers.counts[:size]
        state, left = draw_block(atoms, clusters, scheme, classes, buffers, start, counts,
                                 replicate_state, state, left)  # fmt: skip
        for offset in range(size):
            count = counts[offset]
            saturated |= count >= _SATURATED
            drawn_positive += count if atoms.is_positive[start + offset] else zero
            lanes[(start + offset) * LANES + lane] = min(count, _SATURATED)
        scan_state = fold_counts(atoms, atoms.weighted, start, counts, options, context,
                                 scan_state, sums)  # fmt: skip
    _record_start(sums, starts, (n + _BLOCK - 1) // _BLOCK)
    return finish_counts(options, context, scan_state, sums), saturated, drawn_positive


@jit
def _count_cells(words, codes, start, size, even, odd, cells, first, width):
    """Add the bytes of rows ``start .. start + size`` (``size`` at most
    :data:`_FLUSH_ROWS`) to their cells' counters (``even``, ``odd``: (cells,) uint64,
    lanes 0, 2, 4, 6 and 1, 3, 5, 7), then empty the counters into ``cells[first + lane]``."""
    for offset in range(size):
        word = words[start + offset]
        code = codes[start + offset]
        even[code] += word & _EVEN_BYTES
        odd[code] += (word >> np.uint64(8)) & _EVEN_BYTES
    for code in range(even.shape[0]):
        for half in range(4):
            shift = np.uint64(16 * half)
            lane = 2 * half
            if lane < width:
                cells[first + lane, code] += np.int64((even[code] >> shift) & _COUNTER)
            if lane + 1 < width:
                cells[first + lane + 1, code] += np.int64((odd[code] >> shift) & _COUNTER)
        even[code] = 0
        odd[code] = 0


@jit
def _cells_of_counts(counts, codes, cells):
    """``cells[c]``: the sum of the int64 ``counts`` of the atoms of cell ``c``."""
    cells[:] = 0
    for k in range(counts.shape[0]):
        cells[codes[k]] += counts[k]


@jit
def _undefined(roc, precision):
    roc[:] = np.nan
    precision[:] = np.nan


@jit
def _curves_of_counts(atoms, counts, n_positive, n_negative, grids, running, roc, precision):
    """Both curves of one replicate's int64 counts in the atoms' order."""
    if n_positive == 0 or n_negative == 0:
        _undefined(roc, precision)
        return
    thresholds = thresholds_of(grids, n_positive, n_negative)
    running[:] = 0
    fold_curves(0, counts, atoms.is_positive, atoms.continues, float(n_positive),
                float(n_negative), grids, thresholds, running, roc, precision)  # fmt: skip
    finish_curves(running, roc, precision)


@jit
def _batches(a, b, a_position_of_b, clusters, codes, options, draw, grids, outs, saturated_out,
             n_positive, n_negative, block_positives, buffers, sums_a, sums_b, worker,
             n_workers):  # fmt: skip
    """Batches ``worker, worker + n_workers, ...`` of :func:`report_replicates`.  A
    replicate whose counts did not fit in bytes is flagged in ``saturated_out`` and left
    to :func:`_redone` (its A's ROC AUC is already right)."""
    out_a = outs.roc_auc_a
    out_b = outs.roc_auc_b
    n = a.is_positive.shape[0]
    has_b = a_position_of_b.shape[0] > 0
    count = out_a.shape[0]
    n_batches = (count + LANES - 1) // LANES
    small = _small(draw.scheme, False, n_positive + n_negative)
    classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    lanes = np.zeros(n * LANES, dtype=np.uint8)
    words = lanes.view(np.uint64)
    gathered = np.empty(_BLOCK, dtype=np.uint64)
    block = np.empty(_BLOCK, dtype=np.int64)
    context, empty_state = _start(options, True, small, sums_a)
    states_b = [empty_state for _ in range(LANES)]
    saturated = np.zeros(LANES, dtype=np.bool_)
    drawn_positive = np.zeros(LANES, dtype=np.int64)
    defined = np.zeros(LANES, dtype=np.bool_)
    n_roc = grids.roc.shape[0] + 1
    n_recall = grids.precision_recall.shape[0] + 1
    false_positives = np.empty((LANES, n_roc), dtype=np.int64)
    true_positives = np.empty((LANES, n_recall), dtype=np.int64)
    running = np.zeros(_N_SLOTS, dtype=np.int64)
    n_blocks = (n + _BLOCK - 1) // _BLOCK
    starts_a = np.zeros((LANES, n_blocks + 1, 4), dtype=np.int64)
    starts_b = np.zeros((LANES, n_blocks + 1, 4), dtype=np.int64)
    in_order = np.empty(0, dtype=np.int64)  # A's words are in A's order
    counting = codes.shape[0] > 0
    n_cells = outs.cells.shape[1]
    even = np.zeros(n_cells, dtype=np.uint64)
    odd = np.zeros(n_cells, dtype=np.uint64)
    for batch in range(worker, n_batches, n_workers):
        first = batch * LANES
        width = min(LANES, count - first)
        for lane in range(width):
            r = first + lane
            state = stream(draw.seed, np.uint64(draw.first_replicate + r))
            value, saturated_lane, positives = _lane_replicate(
                a, clusters, options, draw.scheme, classes, state, buffers, sums_a, lanes, lane,
                starts_a[lane],
            )  # fmt: skip
            outs.cells[r, :] = 0
            out_a[r] = value
            saturated[lane] = saturated_lane
            drawn_positive[lane] = positives
            drawn_negative = n_positive + n_negative - positives
            defined[lane] = positives > 0 and drawn_negative > 0
            if defined[lane]:
                thresholds = thresholds_of(grids, positives, drawn_negative)
                false_positives[lane, :] = thresholds.false_positives
                true_positives[lane, :] = thresholds.true_positives
            else:
                _undefined(outs.roc_a[r], outs.precision_a[r])
                if has_b:
                    _undefined(outs.roc_b[r], outs.precision_b[r])
            context, start_state = _start(options, True, small, sums_b[lane])
            states_b[lane] = start_state
        if counting:  # the cells: the bytes again, in A's order
            for flush in range(0, n, _FLUSH_ROWS):
                _count_cells(words, codes, flush, min(_FLUSH_ROWS, n - flush), even, odd,
                             outs.cells, first, width)  # fmt: skip
        for lane in range(width):  # model A's curves
            if saturated[lane] or not defined[lane]:
                continue
            r = first + lane
            positives = drawn_positive[lane]
            _curves_from_starts(words, in_order, lane, a.is_positive, a.continues,
                                starts_a[lane], float(positives),
                                float(n_positive + n_negative - positives), grids,
                                Thresholds(false_positives[lane], true_positives[lane]),
                                running, block, outs.roc_a[r], outs.precision_a[r])  # fmt: skip
        if has_b:  # model B: each row's eight counts in B's order
            for j, start in enumerate(range(0, n, _BLOCK)):
                size = min(_BLOCK, n - start)
                for offset in range(size):
                    gathered[offset] = words[a_position_of_b[start + offset]]
                for lane in range(width):
                    if saturated[lane]:
                        continue
                    _record_start(sums_b[lane], starts_b[lane], j)
                    shift = np.uint64(8 * lane)
                    for offset in range(size):
                        block[offset] = np.int64((gathered[offset] >> shift) & _BYTE)
                    states_b[lane] = fold_counts(b, False, start, block[:size], options,
                                                 context, states_b[lane],
                                                 sums_b[lane])  # fmt: skip
            for lane in range(width):
                r = first + lane
                if saturated[lane]:
                    continue
                _record_start(sums_b[lane], starts_b[lane], n_blocks)
                out_b[r] = finish_counts(options, context, states_b[lane], sums_b[lane])
                if defined[lane]:
                    positives = drawn_positive[lane]
                    _curves_from_starts(words, a_position_of_b, lane, b.is_positive,
                                        b.continues, starts_b[lane], float(positives),
                                        float(n_positive + n_negative - positives), grids,
                                        Thresholds(false_positives[lane], true_positives[lane]),
                                        running, block, outs.roc_b[r],
                                        outs.precision_b[r])  # fmt: skip
        for lane in range(width):
            if saturated[lane]:
                saturated_out[first + lane] = True


@jit
def _redone(a, b, a_position_of_b, clusters, codes, options, draw, grids, outs, n_positive,
            n_negative, block_positives, buffers, sums_a, sums_b, r):  # fmt: skip
    """Replicate ``r`` of :func:`_batches` from its int64 counts (a count did not fit in
    a byte): its joint cells, both models' curves and model B's ROC AUC."""
    n = a.is_positive.shape[0]
    small = _small(draw.scheme, False, n_positive + n_negative)
    classes = _Classes(n_positive, n_negative, block_positives, draw.binomial)
    running = np.zeros(_N_SLOTS, dtype=np.int64)
    full = np.zeros(n, dtype=np.int64)
    state = stream(draw.seed, np.uint64(draw.first_replicate + r))
    _replicate(a, clusters, options, draw.scheme, classes, state, buffers, sums_a, full,
               Counting(False, False, False))  # fmt: skip
    if codes.shape[0] > 0:  # the bytes were not the counts
        _cells_of_counts(full, codes, outs.cells[r])
    positives = np.int64(0)
    for k in range(n):
        if a.is_positive[k]:
            positives += full[k]
    negatives = n_positive + n_negative - positives
    _curves_of_counts(a, full, positives, negatives, grids, running, outs.roc_a[r],
                      outs.precision_a[r])  # fmt: skip
    if a_position_of_b.shape[0] == 0:
        return
    in_b = np.empty(n, dtype=np.int64)
    for k in range(n):
        in_b[k] = full[a_position_of_b[k]]
    context, scan_state = _start(options, True, small, sums_b)
    scan_state = fold_counts(b, False, 0, in_b, options, context, scan_state, sums_b)
    outs.roc_auc_b[r] = finish_counts(options, context, scan_state, sums_b)
    _curves_of_counts(b, in_b, positives, negatives, grids, running, outs.roc_b[r],
                      outs.precision_b[r])  # fmt: skip


def report_replicates(a, b, a_position_of_b, clusters, codes, options, draw, grids, outs,
                      n_workers):  # fmt: skip
    """Both models' ROC AUC and curves of replicates ``draw.first_replicate + r``.

    ``a``, ``b``: :class:`~assay._kernels.streaming.RowAtoms` of the same unweighted rows
    (one row per atom), each in its own merged order; ``clusters``: none
    (``n_clusters == 0``, the plan's); ``codes``: the joint cell of each of A's atoms
    (uint8; empty: no cells counted); ``a_position_of_b[k]``: the position
    in A's order of B's atom ``k`` (empty: model A alone, B's outs untouched);
    ``options``: the ROC AUC scan's; ``draw``: a multinomial
    :class:`~assay._kernels.resample.Draw`; ``grids``: :class:`~assay._kernels.bands.Grids`;
    ``outs``: :class:`Outs`.  Its ROC AUC replicates are ``out_a`` and ``out_b`` of
    :func:`assay._kernels.paired.paired_bootstrap_lanes` with the same arguments.
    ``n_workers`` threads share the batches of eight, each running the serial kernel on
    its share (:func:`~assay._kernels._jit.run_workers`), with the same values on any
    number.
    """
    n_positive, n_negative, block_positives = _class_counts(a)
    draw = with_binomial(draw, a, clusters)
    saturated = np.zeros(outs.roc_auc_a.shape[0], dtype=np.bool_)
    arguments = (a, b, a_position_of_b, clusters, codes, options, draw, grids, outs, saturated,
                 n_positive, n_negative, block_positives)  # fmt: skip
    run_workers(_batches, arguments, n_workers, lanes_scratch(clusters))
    for r in np.flatnonzero(saturated):  # compiled only for a draw that needs it
        _redone(a, b, a_position_of_b, clusters, codes, options, draw, grids, outs, n_positive,
                n_negative, block_positives, new_buffers(0), new_sums(0), new_sums(0),
                int(r))  # fmt: skip
