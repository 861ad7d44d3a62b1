"""The input partitions of a ranking job, each read once: checked, split and summarised
where it lies, then cut into one piece per bucket.

1. :func:`sort_partition` checks a partition as the single-machine functions do (an
   error names it), splits its rows by class (few distinct scores are summed by hashing
   into sorted (score, class) cells instead; float32 scores stay float32), and returns
   the partition's summary for the plan beside the rows.  The plan is not known yet, so
   the rows are split by the partition's own larger label (the *marked* one), not by
   the positive label, and weighted by the partition's own power of two; the summary's
   sample is read off the entries at evenly spaced positions.  The rows are not sorted
   here: each bucket sorts its rows once (:func:`~assay.dask._buckets.merge_bucket`).
2. Once the plan is known, :func:`cut_partition` turns the marked side into the
   positive or the negative class, brings the weights to the plan's power of two (an
   exact multiplication by a power of two) and gathers each class's rows by bucket
   (:func:`~assay._kernels.buckets.bucket_rows`: a table of the score range, no sort;
   the rows on a heavy splitter summed into one cell), or cuts the sorted cells at the
   splitters.

The rows are read once: the split partition stays on its worker between the two steps
(Dask spills it to disk when memory runs short).
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import numpy as np

from assay._kernels.buckets import bucket_rows
from assay.dask._buckets import Piece, join_pieces
from assay.dask._partitions import (
    SAMPLE_SIZE,
    CheckedPartition,
    PartitionSummary,
    Plan,
    checked_partition,
    empty_summary,
    in_partition,
    weight_plan,
)
from assay.metrics._sorted import SortedBinary, sort_scaled

_EMPTY = np.empty(0, dtype=np.float64)


class SortedPartition(NamedTuple):
    """One input partition's rows split by class where they lie (``data`` None: no
    rows): unsorted rows, or sorted cells of tie groups (``data.grouped``)."""

    data: SortedBinary | None
    marked: Any
    """The label of the rows on the data's ``positive`` side (the partition's larger
    label); the other side holds the other label's rows."""
    weight_scale: float
    """The power of two its weights were multiplied by (1.0 without weights)."""
    kept: int
    """Its rows that carry weight (all rows without weights)."""


def _local_scale(part: CheckedPartition) -> float:
    """The power of two one machine would scale these weights by if they were all."""
    if part.weights is None or part.weight_max == 0.0:
        return 1.0
    summary = PartitionSummary(
        0, _EMPTY, _EMPTY, 0.0, part.weight_total, part.weight_max, part.weight_unit
    )
    return weight_plan([summary], True)[0]


def sorted_sample(data: SortedBinary, size: int) -> tuple[np.ndarray, float]:
    """About ``size`` scores read off the entries at evenly spaced positions (each class
    apart, one stride for both), sorted, and the entries each stands for: of sorted
    cells, scores at evenly spaced ranks; of rows, a systematic sample of the rows."""
    sides = (data.positive_scores, data.negative_scores)
    total = sum(x.shape[0] for x in sides)
    stride = max(total / size, 1.0)
    picks = [x[np.arange(stride / 2, x.shape[0], stride).astype(np.int64)] for x in sides]
    sample = -np.concatenate(picks).astype(np.float64) + 0.0  # -0.0 is 0.0
    return np.sort(sample), stride


def sort_partition(
    index: int,
    n_partitions: int,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    pos_label: Any,
    multiclass_hint: str = "",
    score_name: str = "y_score",
) -> tuple[PartitionSummary, SortedPartition]:
    """Check, split and summarise one input partition (see the module docstring)."""
    if len(y_true) == 0 and len(y_score) == 0:
        return empty_summary(), SortedPartition(None, None, 1.0, 0)

    def work() -> tuple[PartitionSummary, SortedPartition]:
        part = checked_partition(
            y_true, y_score, sample_weight, pos_label, multiclass_hint, score_name, True
        )
        marked = part.classes[-1]
        scale = _local_scale(part)
        is_marked = np.asarray(part.labels == marked, dtype=bool)
        # the rows stay unsorted (each bucket sorts its rows once), few distinct scores
        # are summed into sorted cells by hashing
        data = sort_scaled(is_marked, part.scores, part.weights, scale, False, sort=False)
        kept = data.positive_scores.shape[0] + data.negative_scores.shape[0]
        if data.grouped:  # entries are (score, class) cells, not rows
            n = part.scores.shape[0]
            kept = n if part.weights is None else int(np.count_nonzero(part.weights))
        sample, share = sorted_sample(data, SAMPLE_SIZE)
        summary = PartitionSummary(
            part.scores.shape[0], part.classes, sample, share, part.weight_total,
            part.weight_max, part.weight_unit,
        )  # fmt: skip
        return summary, SortedPartition(data, marked, scale, kept)

    result: tuple[PartitionSummary, SortedPartition] = in_partition(index, n_partitions, work)
    return result


def _is_label(value: Any, label: Any) -> bool:
    return bool(np.asarray(value == label).all())


def cut_partition(
    output: tuple[PartitionSummary, SortedPartition], plan: Plan, n_buckets: int
) -> tuple[Any, ...]:
    """One split partition (the output of :func:`sort_partition`) cut at the plan's
    splitters.

    Returns ``n_buckets`` pieces (:class:`~assay.dask._buckets.Piece`; bucket ``k``
    holds the scores in ``(splitters[k - 1], splitters[k]]``: buckets ascend with the
    scores, and equal scores share one), then the number of rows kept.
    """
    part = output[1]
    data = part.data
    if data is None:
        empty = Piece(_EMPTY, _EMPTY, _EMPTY, _EMPTY, False)
        return (*([empty] * n_buckets), 0)
    marked = (data.positive_scores, data.positive_weights)
    other = (data.negative_scores, data.negative_weights)
    positive, negative = (
        (marked, other) if _is_label(part.marked, plan.pos_label) else (other, marked)
    )
    ratio = plan.weight_scale / part.weight_scale
    if data.use_weights and ratio != 1.0:
        # a power of two: exact, as one machine's scaling of the same weights
        positive = (positive[0], positive[1] * ratio)
        negative = (negative[0], negative[1] * ratio)
    cut = _cut_sorted if data.grouped else _cut_rows
    return (*cut((positive, negative), data.use_weights, plan, n_buckets), part.kept)


Side = tuple[np.ndarray, np.ndarray]
"""One class's negated scores and their weights (empty without weights)."""


def _slices(side: Side, use_weights: bool, bounds: Any) -> list[Side]:
    scores, weights = side
    return [(scores[i:j], weights[i:j] if use_weights else _EMPTY) for i, j in bounds]


def _cut_sorted(sides: tuple[Side, Side], use_weights: bool, plan: Plan, n: int) -> list[Piece]:
    """Sorted entries cut where the splitters fall."""
    columns = []
    for side in sides:
        starts, ends = bucket_bounds(side[0], plan.splitters, n)
        bounds = zip(starts.tolist(), ends.tolist(), strict=True)
        columns.append(_slices(side, use_weights, bounds))
    return [
        _summed_runs(Piece(p[0], q[0], p[1], q[1], use_weights))
        for p, q in zip(*columns, strict=True)
    ]


def _cut_rows(sides: tuple[Side, Side], use_weights: bool, plan: Plan, n: int) -> list[Piece]:
    """Unsorted rows gathered by bucket (:func:`~assay._kernels.buckets.bucket_rows`);
    the rows on a heavy splitter summed into one cell per class."""
    splitters = plan.splitters
    heavy = plan.heavy if plan.heavy.shape == splitters.shape else np.zeros(splitters.shape, bool)
    columns = []
    for side in sides:
        rows, gathered, starts, cells = bucket_rows(*side, use_weights, splitters, heavy, n)
        bounds = itertools.pairwise(starts.tolist())
        columns.append((_slices((rows, gathered), use_weights, bounds), cells))
    (positive_pieces, positive_cells), (negative_pieces, negative_cells) = columns
    result = []
    for k in range(n):
        (a, wa), (b, wb) = positive_pieces[k], negative_pieces[k]
        piece = Piece(a, b, wa, wb, use_weights)
        if positive_cells[k] > 0.0 or negative_cells[k] > 0.0:
            piece = _with_cell(piece, -splitters[k] + 0.0, positive_cells[k], negative_cells[k])
        result.append(piece)
    return result


def _with_cell(piece: Piece, negated: float, positive: float, negative: float) -> Piece:
    """``piece`` and the cell of one score (negated) with its classes' weights, joined
    (weighted: the cell's weights are counts of rows when the rows are unweighted)."""
    sides = [
        (np.array([negated]), np.array([weight])) if weight > 0.0 else (_EMPTY, _EMPTY)
        for weight in (positive, negative)
    ]
    cell = Piece(sides[0][0], sides[1][0], sides[0][1], sides[1][1], True)
    joined = join_pieces([piece, cell])
    assert joined is not None
    return joined


def _summed_runs(piece: Piece) -> Piece:
    """An unweighted piece whose rows repeat scores (at least two rows a distinct score
    in one class) as (score, class) cells with their counts: a heavy score among many
    distinct ones travels as one cell per partition, not row by row."""
    if piece.use_weights:
        return piece
    sides = (piece.positive_scores, piece.negative_scores)
    repeats = [int(np.count_nonzero(x[1:] == x[:-1])) for x in sides]  # rows after the first
    if all(2 * r < x.shape[0] for r, x in zip(repeats, sides, strict=True)):
        return piece
    starts = [np.flatnonzero(np.r_[True, x[1:] != x[:-1]]) if x.shape[0] else None for x in sides]
    cells = []
    for first, x in zip(starts, sides, strict=True):
        if first is None:
            cells.append((_EMPTY, _EMPTY))
        else:
            counts = np.diff(np.r_[first, x.shape[0]]).astype(np.float64)
            cells.append((x[first].astype(np.float64), counts))
    (a, wa), (b, wb) = cells
    return Piece(a, b, wa, wb, True)


def bucket_bounds(
    negated: np.ndarray, splitters: np.ndarray, n_buckets: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(starts, ends)``: bucket ``k`` is ``negated[starts[k]:ends[k]]`` of ascending
    negated scores (the scores in ``(splitters[k - 1], splitters[k]]``; buckets past
    the one above the last splitter are empty)."""
    m = splitters.shape[0]
    below = np.searchsorted(negated, -splitters, side="left")  # scores above each splitter
    starts = np.zeros(n_buckets, dtype=np.int64)
    ends = np.zeros(n_buckets, dtype=np.int64)
    starts[:m] = below
    ends[0] = negated.shape[0]
    ends[1 : m + 1] = below
    return starts, ends
