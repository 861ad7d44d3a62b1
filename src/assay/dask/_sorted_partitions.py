"""The input partitions of a ranking job, each read once: checked and summarised where it
lies, then cut into one piece per bucket.

1. :func:`sort_partition` checks a partition as the single-machine functions do (an
   error names it), marks each row's class and returns the partition's summary for the
   plan beside the rows.  Few distinct scores are summed by hashing into sorted
   (score, class) cells instead (float32 scores stay float32).  The plan is not known
   yet, so the rows are marked by the partition's own larger label (the *marked* one),
   not by the positive label, and cells are weighted by the partition's own power of
   two; the summary's sample is read off the rows (or cells) at evenly spaced
   positions.  The rows are neither split nor sorted here: each bucket sorts its rows
   once (:func:`~assay.dask._buckets.merge_bucket`).
2. Once the plan is known, :func:`cut_partition` splits the rows by class and gathers
   each class's rows by bucket in one pass to count and one to gather
   (:func:`~assay._kernels.buckets.bucket_rows`: a table of the score range, no sort;
   the rows on a heavy splitter summed into one cell), their weights multiplied by the
   plan's power of two as one machine multiplies them; or it cuts the sorted cells at
   the splitters, bringing their weights to the plan's power of two (an exact
   multiplication by a power of two).  A call computed at once on a ``distributed``
   client cuts the partitions that lie on one worker, and bundles their pieces, in one
   task there (:func:`cut_and_bundle`; their summaries are picked by one task a worker,
   :func:`summaries_of`).

The rows are read once: the checked partition stays on its worker between the two
steps (Dask spills it to disk when memory runs short).
"""

from __future__ import annotations

import itertools
from typing import Any, NamedTuple

import numpy as np

from assay._kernels.buckets import bucket_rows
from assay.dask import _memory
from assay.dask._buckets import Piece, combine_pieces, join_pieces
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
from assay.metrics._sorted import SortedBinary, grouped_scaled

_EMPTY = np.empty(0, dtype=np.float64)


class Rows(NamedTuple):
    """A partition's checked rows, as read."""

    scores: np.ndarray
    """Float32 or float64 scores (float64 with weights, as the weighted sort takes)."""
    marked: np.ndarray
    """Bool, one per row: the row has the marked label."""
    weights: np.ndarray
    """The weights as given (empty without weights)."""
    use_weights: bool


class SortedPartition(NamedTuple):
    """One input partition's rows, or sorted cells of tie groups (``data.grouped``;
    ``data`` None: no rows)."""

    data: SortedBinary | Rows | None
    marked: Any
    """The partition's larger label: the label of the rows marked in :class:`Rows`, or
    on the cells' ``positive`` side (the other side holds the other label's)."""
    weight_scale: float
    """The power of two the cells' weights were multiplied by (1.0 for rows, whose
    weights are as given, and without weights)."""
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


def sorted_sample(data: SortedBinary | Rows, size: int) -> tuple[np.ndarray, float]:
    """About ``size`` scores read off the entries at evenly spaced positions, sorted, and
    the entries each stands for: of sorted cells, scores at evenly spaced ranks (each
    class apart, one stride for both); of rows, a systematic sample of the rows (rows
    of weight 0 left out: they are not sent)."""
    if isinstance(data, Rows):
        stride = max(data.scores.shape[0] / size, 1.0)
        at = np.arange(stride / 2, data.scores.shape[0], stride).astype(np.int64)
        if data.use_weights:
            at = at[data.weights[at] != 0.0]
        sample = data.scores[at].astype(np.float64) + 0.0  # -0.0 is 0.0
        return np.sort(sample), stride
    sides = (data.positive_scores, data.negative_scores)
    total = sum(x.shape[0] for x in sides)
    stride = max(total / size, 1.0)
    picks = [x[np.arange(stride / 2, x.shape[0], stride).astype(np.int64)] for x in sides]
    sample = -np.concatenate(picks).astype(np.float64) + 0.0  # -0.0 is 0.0
    return np.sort(sample), stride


def _marked_rows(labels: np.ndarray, marked: Any) -> np.ndarray:
    """Whether each label is ``marked`` (numbers compared into an array of
    :func:`~assay.dask._memory.empty`)."""
    if labels.dtype.kind not in "biuf":
        return np.asarray(labels == marked, dtype=bool)
    out = _memory.empty(labels.shape[0], np.bool_)
    return np.equal(labels, marked, out=out)


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
    """Check, mark and summarise one input partition (see the module docstring)."""
    if len(y_true) == 0 and len(y_score) == 0:
        return empty_summary(), SortedPartition(None, None, 1.0, 0)

    def work() -> tuple[PartitionSummary, SortedPartition]:
        part = checked_partition(
            y_true, y_score, sample_weight, pos_label, multiclass_hint, score_name, True
        )
        marked = part.classes[-1]
        is_marked = _marked_rows(part.labels, marked)
        scores = part.scores
        if part.weights is not None and scores.dtype != np.float64:
            scores = scores.astype(np.float64)  # the weighted sort works on float64 keys
        n = scores.shape[0]
        # few distinct scores are summed into sorted cells by hashing; other rows stay
        # as they are (the cut splits them, each bucket sorts its rows once)
        scale = _local_scale(part)
        data: SortedBinary | Rows | None = grouped_scaled(
            is_marked, scores, part.weights, scale, False
        )
        if data is None:
            weights = _EMPTY if part.weights is None else part.weights
            data, scale = Rows(scores, is_marked, weights, part.weights is not None), 1.0
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
    """One checked partition (the output of :func:`sort_partition`) cut at the plan's
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
    marked_positive = _is_label(part.marked, plan.pos_label)
    ratio = plan.weight_scale / part.weight_scale  # a power of two: exact
    if isinstance(data, Rows):
        pieces = _cut_rows(data, marked_positive, ratio, plan, n_buckets)
        return (*pieces, part.kept)
    marked = (data.positive_scores, data.positive_weights)
    other = (data.negative_scores, data.negative_weights)
    positive, negative = (marked, other) if marked_positive else (other, marked)
    if data.use_weights and ratio != 1.0:
        # as one machine's scaling of the same weights
        positive = (positive[0], positive[1] * ratio)
        negative = (negative[0], negative[1] * ratio)
    return (*_cut_sorted((positive, negative), data.use_weights, plan, n_buckets), part.kept)


def summaries_of(*outputs: tuple[PartitionSummary, SortedPartition]) -> list[PartitionSummary]:
    """The summaries of several checked partitions (outputs of :func:`sort_partition`),
    picked where they lie."""
    return [output[0] for output in outputs]


def cut_and_bundle(
    plan: Plan, n_buckets: int, *outputs: tuple[PartitionSummary, SortedPartition]
) -> tuple[Any, ...]:
    """Several checked partitions cut at the plan's splitters (:func:`cut_partition`)
    and their pieces bundled by bucket (:func:`~assay.dask._buckets.combine_pieces`), in
    one task where they lie."""
    return combine_pieces(*(cut_partition(output, plan, n_buckets) for output in outputs))


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


def _cut_rows(rows: Rows, marked_positive: bool, scale: float, plan: Plan, n: int) -> list[Piece]:
    """Rows split by class and gathered by bucket
    (:func:`~assay._kernels.buckets.bucket_rows`), their weights multiplied by
    ``scale``; the rows on a heavy splitter summed into one cell per class."""
    splitters = plan.splitters
    heavy = plan.heavy if plan.heavy.shape == splitters.shape else np.zeros(splitters.shape, bool)
    negated, gathered, starts, cells = bucket_rows(
        rows.scores, rows.marked, marked_positive, rows.weights, rows.use_weights, scale,
        splitters, heavy, n, _memory.empty,
    )  # fmt: skip
    sides = _slices((negated, gathered), rows.use_weights, itertools.pairwise(starts.tolist()))
    result = []
    for k in range(n):
        (a, wa), (b, wb) = sides[2 * k], sides[2 * k + 1]
        piece = Piece(a, b, wa, wb, rows.use_weights)
        if cells[2 * k] > 0.0 or cells[2 * k + 1] > 0.0:
            piece = _with_cell(piece, -splitters[k] + 0.0, cells[2 * k], cells[2 * k + 1])
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
