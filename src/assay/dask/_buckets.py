"""Range-partitioned scans: bucket the atoms by score, fold each bucket, combine in order.

The scan contract of :mod:`assay._kernels.pieces`, with the pieces on the workers:

1. every input partition is checked and summarised (:mod:`assay.dask._partitions`);
   the plan holds the splitters of the score range;
2. every partition is sorted where it lies (:func:`partition_pieces`, the single-machine
   sort: few distinct scores are summed into (score, class) cells) and cut at the
   splitters into one piece per bucket; equal scores, ``-0.0`` and ``0.0`` included,
   share a bucket; the pieces of a group of partitions are joined
   (:func:`combine_pieces`);
3. each bucket merges its pieces from every group into its atoms
   (:func:`merge_bucket`): the exchange moves sorted scores or cells, never rows
   through a shuffle (a heavy score among many distinct ones still travels row by row
   to its one bucket);
4. the buckets' totals, in descending score order, give each bucket the weight above it
   and the context (:func:`make_prefix`); a metric with a below pass gets the summary
   of the buckets under each bucket;
5. each bucket is folded from its prefix (:func:`bucket_states`) and the states are
   combined in order and finished (:func:`finish_states`).

A job that needs the rows themselves in their buckets (the paired jobs, which carry a
second model's score with each row) moves them with Dask's shuffle instead
(:func:`bucket_rows`, :func:`bucket_atoms`): there a bucket holds one heavy score alone,
summed without a sort.

The functions here run inside Dask tasks: they take and return plain values and
dictionaries keyed by bucket number (a shuffled partition holds several buckets, in no
particular order).
"""

from __future__ import annotations

import itertools
import math
from typing import Any, NamedTuple

import numba
import numpy as np
import pandas as pd

from assay._kernels.atoms import tie_groups
from assay._kernels.pieces import (
    below_summary,
    fold_piece,
    make_context,
    piece_kernel,
    piece_totals,
)
from assay._kernels.ranking import DROP_NONE, curve_piece, sort_with_weights
from assay._kernels.scans import (
    SCANS,
    Context,
    below_combine,
    below_identity,
    scan_combine,
    scan_finish,
)
from assay._sort_choice import sort_in_place, sort_method
from assay._validation import as_scores, binary_target
from assay.dask._partitions import Plan, bucket_of, in_partition
from assay.metrics._sorted import sort_scaled

_EMPTY = np.empty(0, dtype=np.float64)


def rows_meta(
    use_weights: bool, carried: tuple[str, ...] = (), positions: bool = False
) -> pd.DataFrame:
    """The columns of the bucketed rows (the shuffle's input); ``carried`` names float
    columns travelling with the rows (another model's score, a placement);
    ``positions``: each row's position in the input travels too (int64 ``"position"``:
    the key of a weighted row's Poisson count)."""
    columns: dict[str, Any] = {
        "bucket": np.empty(0, dtype=np.int64),
        "positive": np.empty(0, dtype=bool),
        "score": _EMPTY,
    }
    if use_weights:
        columns["weight"] = _EMPTY
    if positions:
        columns["position"] = np.empty(0, dtype=np.int64)
    for name in carried:
        columns[name] = _EMPTY
    return pd.DataFrame(columns)


class Atoms(NamedTuple):
    """The tie groups of one bucket: distinct scores descending, class weights."""

    scores: np.ndarray
    positive: np.ndarray
    negative: np.ndarray


def exchange_groups(n_partitions: int) -> int:
    """The number of groups of partitions whose pieces are joined before they are sent
    (:func:`combine_pieces`): two per worker of the current client, at most one per
    partition; each group sends one piece to every bucket."""
    return max(1, min(n_partitions, 2 * _current_workers()))


def exchange_size(n_partitions: int) -> int:
    """The number of buckets (each merged by one task) for ``n_partitions`` input
    partitions.

    Every partition sends one piece to every bucket, and each piece is a task of the
    graph (a few milliseconds of a worker's time), so buckets are few: two per worker
    of the current client (4 without one), but at least one per 2 partitions, so that
    a bucket holds about the rows of 2 partitions (what a task holds, and a bootstrap's
    draws for its cells, grow with a bucket, and the partitions are sized by the user
    to what a worker holds); never more than the partitions or :data:`MAX_BUCKETS`.
    """
    wanted = max(2 * _current_workers(), math.ceil(n_partitions / 2))
    return max(2, min(n_partitions, wanted, MAX_BUCKETS))


def _current_workers() -> int:
    """The workers of the current ``distributed`` client (2 without one)."""
    try:
        from distributed import default_client

        info = default_client().scheduler_info(n_workers=1)  # the totals suffice
        workers = int(info.get("n_workers", len(info["workers"])))
    except (ImportError, ValueError):  # no distributed, or no client
        return 2
    return max(workers, 1)


MAX_BUCKETS = 256
"""At most this many buckets, whatever the number of partitions."""


class Piece(NamedTuple):
    """One partition's rows of one bucket, each class's negated scores ascending (the
    layout of :class:`~assay.metrics._sorted.SortedBinary`): rows, or (score, class)
    cells with their summed weights."""

    positive_scores: np.ndarray
    negative_scores: np.ndarray
    positive_weights: np.ndarray
    negative_weights: np.ndarray
    use_weights: bool


def partition_pieces(
    index: int,
    n_partitions: int,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    plan: Plan,
    n_buckets: int,
    score_name: str = "y_score",
) -> tuple[Any, ...]:
    """One input partition sorted where it lies and cut at the plan's splitters.

    Returns ``n_buckets`` pieces (:class:`Piece`; bucket ``k`` holds the scores in
    ``(splitters[k - 1], splitters[k]]``: buckets ascend with the scores, and equal
    scores share one), then the number of rows kept (zero weights dropped).  The sort
    is the single-machine one (float32 scores stay float32; few distinct scores are
    summed by hashing into (score, class) cells, so a heavy score is one entry here).
    """
    if len(y_true) == 0:
        empty = Piece(_EMPTY, _EMPTY, _EMPTY, _EMPTY, False)
        return (*([empty] * n_buckets), 0)

    def sort() -> tuple[Any, int]:
        positive = binary_target(y_true, plan.pos_label)[0]
        scores = as_scores(y_score, score_name, keep_float32=True)
        weights = None
        if sample_weight is not None:
            weights = np.asarray(sample_weight, dtype=np.float64)
        data = sort_scaled(positive, scores, weights, plan.weight_scale, plan.integer_counts)
        kept = data.positive_scores.shape[0] + data.negative_scores.shape[0]
        if data.grouped:  # entries are (score, class) cells, not rows
            kept = positive.shape[0] if weights is None else int(np.count_nonzero(weights))
        return data, kept

    data, kept = in_partition(index, n_partitions, sort)
    columns = []
    for scores, weights in (
        (data.positive_scores, data.positive_weights),
        (data.negative_scores, data.negative_weights),
    ):
        starts, ends = bucket_bounds(scores, plan.splitters, n_buckets)
        columns.append([
            (scores[i:j], weights[i:j] if data.use_weights else _EMPTY)
            for i, j in zip(starts.tolist(), ends.tolist(), strict=True)
        ])  # fmt: skip
    pieces = [
        _summed_runs(Piece(positive[0], negative[0], positive[1], negative[1], data.use_weights))
        for positive, negative in zip(*columns, strict=True)
    ]
    return (*pieces, kept)


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


def join_pieces(pieces: Any) -> Piece | None:
    """The rows of several pieces of one bucket in one piece (new arrays, each class's
    scores not sorted any more; None: no rows)."""
    held = [p for p in pieces if p.positive_scores.shape[0] + p.negative_scores.shape[0]]
    if not held:
        return None
    use_weights = any(p.use_weights for p in held)
    dtype = np.result_type(*(p.positive_scores.dtype for p in held),
                           *(p.negative_scores.dtype for p in held))  # fmt: skip
    if use_weights:
        dtype = np.dtype(np.float64)  # the weighted sort works on float64 keys
    sides = []
    for side in ("positive", "negative"):
        parts = [(getattr(p, f"{side}_scores"), getattr(p, f"{side}_weights"), p.use_weights)
                 for p in held]  # fmt: skip
        scores = np.concatenate([s for s, _, _ in parts]).astype(dtype, copy=False)
        weights = _EMPTY
        if use_weights:
            weights = np.concatenate([w if weighted else np.ones(s.shape[0])
                                      for s, w, weighted in parts])  # fmt: skip
        sides.append((scores, weights))
    (a, wa), (b, wb) = sides
    return Piece(a, b, wa, wb, use_weights)


def combine_pieces(*outputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Several partitions' outputs of :func:`partition_pieces` as one: each bucket's
    pieces joined, the kept rows added (fewer pieces to send: one per group of
    partitions and bucket)."""
    n_buckets = len(outputs[0]) - 1
    empty = Piece(_EMPTY, _EMPTY, _EMPTY, _EMPTY, False)
    pieces = [join_pieces([output[k] for output in outputs]) for k in range(n_buckets)]
    kept = sum(int(output[n_buckets]) for output in outputs)
    return (*(empty if piece is None else piece for piece in pieces), kept)


def merge_bucket(bucket: int, *pieces: Piece) -> dict[int, Atoms]:
    """The atoms of one bucket from every partition's piece of it (none: no entry):
    each class's pieces joined and sorted as on one machine, then merged into tie
    groups."""
    joined = join_pieces(pieces)
    if joined is None:
        return {}
    return {bucket: _sorted_into_atoms(*joined)}


def _sorted_into_atoms(
    a: np.ndarray, b: np.ndarray, wa: np.ndarray, wb: np.ndarray, use_weights: bool
) -> Atoms:
    """The atoms of two classes' negated scores (sorted here, in place, as on one
    machine; the weights carried along when ``use_weights``)."""
    for scores, weights in ((a, wa), (b, wb)):
        if use_weights:
            sort_with_weights(scores, weights)
        else:
            sort_in_place(scores, sort_method(scores.dtype, scores.shape[0]))
    return Atoms(*tie_groups(a, b, wa, wb, use_weights))


def bucket_rows(
    index: int,
    n_partitions: int,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    plan: Plan,
    score_name: str = "y_score",
    other: tuple[str, Any] | None = None,
    positions: bool = False,
) -> pd.DataFrame:
    """One input partition's rows with their buckets (zero-weight rows dropped; weights
    multiplied by the plan's power of two, exactly); ``other``, ``(name, scores)``, is
    another model's scores carried along as column ``"other"``; ``positions``: each
    row's position in the input as column ``"position"`` (the partition's offset in the
    plan plus the row's index in it, counted before zero-weight rows are dropped)."""
    use_weights = sample_weight is not None
    carried = () if other is None else ("other",)
    meta = rows_meta(use_weights, carried, positions)
    if len(y_true) == 0:
        return meta

    def rows() -> pd.DataFrame:
        positive = binary_target(y_true, plan.pos_label)[0]
        scores = as_scores(y_score, score_name)
        columns: dict[str, Any] = {
            "bucket": bucket_of(scores, plan.splitters),
            "positive": positive,
            "score": scores,
        }
        if other is not None:
            columns["other"] = as_scores(other[1], other[0]) + 0.0  # -0.0 is 0.0
        if positions:
            start = int(plan.offsets[index])
            columns["position"] = np.arange(start, start + scores.shape[0], dtype=np.int64)
        if use_weights:
            weights = np.asarray(sample_weight, dtype=np.float64) * plan.weight_scale
            kept = weights > 0.0
            columns = {name: column[kept] for name, column in columns.items()}
            columns["weight"] = weights[kept]
        return pd.DataFrame({name: columns[name] for name in meta.columns})

    frame: pd.DataFrame = in_partition(index, n_partitions, rows)
    return frame


def _heavy_atom(score: float, positive: np.ndarray, weights: np.ndarray | None) -> Atoms:
    """The one atom of a bucket holding a single score: summed, not sorted."""
    if weights is None:
        p = float(np.count_nonzero(positive))
        q = float(positive.shape[0]) - p
    else:
        p = float(np.sum(weights[positive]))
        q = float(np.sum(weights[~positive]))
    return Atoms(np.array([score + 0.0]), np.array([p]), np.array([q]))


def _sorted_atoms(scores: np.ndarray, positive: np.ndarray, weights: np.ndarray | None) -> Atoms:
    """The atoms of a bucket's rows: each class's negated scores sorted, then merged."""
    if weights is None:
        return _sorted_into_atoms(-scores[positive], -scores[~positive], _EMPTY, _EMPTY, False)
    return _sorted_into_atoms(
        -scores[positive], -scores[~positive], weights[positive], weights[~positive], True
    )


def bucket_atoms(frame: pd.DataFrame, plan: Plan) -> dict[int, Atoms]:
    """The atoms of every bucket of one shuffled partition."""
    buckets = frame["bucket"].to_numpy()
    order = np.argsort(buckets, kind="stable")
    buckets = buckets[order]
    positive = frame["positive"].to_numpy()[order]
    scores = frame["score"].to_numpy()[order]
    weights = frame["weight"].to_numpy()[order] if "weight" in frame.columns else None
    starts = [*np.flatnonzero(np.diff(buckets, prepend=-1)).tolist(), buckets.shape[0]]
    atoms: dict[int, Atoms] = {}
    for start, end in itertools.pairwise(starts):
        bucket = int(buckets[start])
        rows = slice(start, end)
        part_weights = None if weights is None else weights[rows]
        if bucket % 2:
            splitter = float(plan.splitters[bucket // 2])
            atoms[bucket] = _heavy_atom(splitter, positive[rows], part_weights)
        else:
            atoms[bucket] = _sorted_atoms(scores[rows], positive[rows], part_weights)
    return atoms


class BucketTotals(NamedTuple):
    positive: float
    negative: float
    n_atoms: int
    first: tuple[float, float]
    """``(p, q)`` of its highest atom."""


def bucket_totals(atoms: dict[int, Atoms]) -> dict[int, BucketTotals]:
    """Each bucket's class totals, number of atoms and first atom."""
    return {
        bucket: BucketTotals(
            *piece_totals(a.positive, a.negative, 0, a.scores.shape[0]),  # type: ignore[call-arg]
            a.scores.shape[0],
            (float(a.positive[0]), float(a.negative[0])),
        )
        for bucket, a in atoms.items()
    }


class Prefix(NamedTuple):
    """The combined totals: what each bucket needs to fold its atoms."""

    context: Context
    order: list[int]
    """The buckets holding atoms, in descending score order."""
    above: dict[int, tuple[float, float]]
    """``(tp, fp)``: the weight of every atom above the bucket."""
    after: dict[int, tuple[float, float]]
    """``(p, q)`` of the atom just below the bucket (``(-1, -1)`` for the last)."""
    n_atoms: int
    integer_counts: bool


def make_prefix(totals: list[dict[int, BucketTotals]], plan: Plan) -> Prefix:
    """The exclusive prefix of the buckets' totals, and the context of the scan."""
    merged = {bucket: t for part in totals for bucket, t in part.items() if t.n_atoms > 0}
    order = sorted(merged, reverse=True)
    above: dict[int, tuple[float, float]] = {}
    after: dict[int, tuple[float, float]] = {}
    tp = 0.0
    fp = 0.0
    for position, bucket in enumerate(order):
        above[bucket] = (tp, fp)
        tp += merged[bucket].positive
        fp += merged[bucket].negative
        following = order[position + 1] if position + 1 < len(order) else None
        after[bucket] = (-1.0, -1.0) if following is None else merged[following].first
    context = make_context(tp, fp, plan.integer_counts)
    n_atoms = sum(t.n_atoms for t in merged.values())
    return Prefix(context, order, above, after, n_atoms, plan.integer_counts)


def has_below_pass(options: Any) -> bool:
    return SCANS[type(options)].below is not None


def bucket_summaries(atoms: dict[int, Atoms], prefix: Prefix, options: Any) -> dict[int, Any]:
    """The below-pass summary of each bucket (for a metric that has a below pass)."""
    return {
        bucket: below_summary(
            options,
            prefix.context,
            a.positive,
            a.negative,
            0,
            a.scores.shape[0],
            *prefix.above[bucket],
        )
        for bucket, a in atoms.items()
    }


def belows_of(summaries: list[dict[int, Any]], prefix: Prefix, options: Any) -> dict[int, Any]:
    """What lies below each bucket: the exclusive suffix of the summaries."""
    merged = {bucket: s for part in summaries for bucket, s in part.items()}
    below = below_identity(options)
    belows: dict[int, Any] = {}
    for bucket in reversed(prefix.order):
        belows[bucket] = below
        below = below_combine(options, merged[bucket], below)
    return belows


def bucket_states(
    atoms: dict[int, Atoms], prefix: Prefix, belows: dict[int, Any] | None, options: Any
) -> dict[int, Any]:
    """Each bucket's state, folded from the weight above it."""
    identity = below_identity(options)
    return {
        bucket: fold_piece(
            options,
            prefix.context,
            identity if belows is None else belows[bucket],
            a.positive,
            a.negative,
            0,
            a.scores.shape[0],
            *prefix.above[bucket],
        )
        for bucket, a in atoms.items()
    }


def _state_type(options: Any, context: Context, below: Any) -> Any:
    """The Numba type of a scan's state (None when Numba's JIT is disabled).

    Read from the compiled kernel of the scan's direction (:func:`fold_piece` itself is
    a plain function that calls it).
    """
    kernel = piece_kernel(options)
    overloads = getattr(kernel, "overloads", None)
    if overloads is None:
        return None
    arguments = (options, context, below, _EMPTY, _EMPTY, 0, 0, 0.0, 0.0)
    kernel(*arguments)  # compiled (or loaded from the cache) for these types
    types = tuple(kernel.typeof_pyval(argument) for argument in arguments)
    return overloads[types].signature.return_type


def _retyped(value: Any, numba_type: Any) -> Any:
    """A state as it left Numba, its integers given back their NumPy types.

    Numba returns an unsigned 64-bit word as a Python int, which it would take back
    as a signed one (an exact sum's words overflow then): the word is made a
    ``numpy.uint64`` again, from the state's Numba type.
    """
    if isinstance(value, tuple):
        return tuple(
            _retyped(item, item_type) for item, item_type in zip(value, numba_type, strict=True)
        )
    if isinstance(numba_type, numba.types.Integer):
        return np.dtype(numba_type.name).type(value)
    return value


def finish_states(states: list[dict[int, Any]], prefix: Prefix, options: Any) -> float:
    """The metric: the buckets' states combined in descending score order, finished."""
    merged = {bucket: s for part in states for bucket, s in part.items()}
    state_type = _state_type(options, prefix.context, below_identity(options))
    if state_type is not None:
        merged = {bucket: _retyped(s, state_type) for bucket, s in merged.items()}
    state = merged[prefix.order[0]]
    for bucket in prefix.order[1:]:
        state = scan_combine(options, state, merged[bucket])
        if state_type is not None:  # a combine that calls Numba returns Python ints too
            state = _retyped(state, state_type)
    return float(scan_finish(options, prefix.context, state))


def bucket_curves(
    atoms: dict[int, Atoms], prefix: Prefix, mode: int
) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each bucket's kept curve points ``(thresholds, tp, fp)`` (:func:`curve_piece`)."""
    if prefix.n_atoms <= 2:
        mode = DROP_NONE
    curves = {}
    for bucket, a in atoms.items():
        arguments = (
            a.scores,
            a.positive,
            a.negative,
            *prefix.above[bucket],
            prefix.after[bucket],
            mode,
        )
        kept = curve_piece(*arguments, _EMPTY, _EMPTY, _EMPTY)
        points = (np.empty(kept), np.empty(kept), np.empty(kept))
        curve_piece(*arguments, *points)
        curves[bucket] = points
    return curves


def join_curves(
    curves: list[dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]], prefix: Prefix
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The buckets' points concatenated in descending score order."""
    merged = {bucket: c for part in curves for bucket, c in part.items()}
    pieces = [merged[bucket] for bucket in prefix.order]
    return tuple(np.concatenate([p[i] for p in pieces]) for i in range(3))  # type: ignore[return-value]
