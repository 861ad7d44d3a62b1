"""Range-partitioned scans: bucket the atoms by score, fold each bucket, combine in order.

The scan contract of :mod:`assay._kernels.pieces`, with the pieces on the workers:

1. every input partition is read once: checked (few distinct scores are summed into
   sorted (score, class) cells by hashing) and summarised where it lies
   (:mod:`assay.dask._sorted_partitions`); the plan holds the splitters of the score
   range;
2. every partition's rows are split by class and gathered by bucket (no sort), or its
   sorted cells
   cut at the splitters, into one piece per bucket; equal scores, ``-0.0`` and ``0.0``
   included, share a bucket; the pieces of a group of partitions are bundled
   (:func:`combine_pieces`), where the partitions lie when the call computes at once
   on a ``distributed`` client (:func:`assay.dask._graph.ranking_job`);
3. each bucket joins its pieces from every group and sorts each class, as one machine
   sorts its rows (:func:`merge_bucket`): the exchange moves scores or cells, never
   rows through a shuffle (a heavy score among many distinct ones travels as one cell
   per partition and class); :func:`atoms_of` builds a bucket's atoms for the callers
   that read atoms;
4. the buckets' totals, in descending score order, give each bucket the weight above it
   and the context (:func:`make_prefix`); a metric with a below pass gets the summary
   of the buckets under each bucket;
5. each bucket is folded from its prefix (:func:`bucket_states`: a merge of its two
   sorted classes, or its atoms) and the states are combined in order and finished
   (:func:`finish_states`).

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
from collections.abc import Mapping
from typing import Any, NamedTuple

import numba
import numpy as np
import pandas as pd

from assay._kernels.atoms import tie_groups
from assay._kernels.pieces import (
    below_summary,
    fold_piece,
    make_context,
    merged_below_summary,
    merged_state,
    piece_kernel,
    piece_totals,
    sorted_summary,
)
from assay._kernels.ranking import (
    DROP_NONE,
    curve_piece,
    merged_curve_piece,
    sort_with_weights,
)
from assay._kernels.scans import (
    SCANS,
    Context,
    below_combine,
    below_identity,
    scan_combine,
    scan_finish,
)
from assay._kernels.sorting import radix_sort_joined
from assay._sort_choice import sort_in_place, sort_method
from assay._validation import as_scores, binary_target
from assay.dask import _memory
from assay.dask._partitions import Plan, bucket_of, in_partition

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


SCAN_PARTITIONS_PER_BUCKET = 4
"""Partitions per bucket of a job whose buckets are only merged and scanned: a merging
task holds its bucket's scores about three times (the pieces, their join, the sort's
scratch)."""
ATOMS_PARTITIONS_PER_BUCKET = 2
"""Partitions per bucket of a job that builds each bucket's tie groups as arrays (the
unweighted bootstrap, whose draws take about 90 bytes a tie group, and the DeLong
interval's placements)."""


def exchange_size(n_partitions: int, partitions_per_bucket: int) -> int:
    """The number of buckets (each merged by one task) for ``n_partitions`` input
    partitions.

    Every group of partitions sends one piece to every bucket, and every piece and every
    bucket is a task of the graph (a few milliseconds of a worker's time), so buckets are
    few: two per worker of the current client (4 without one), but at least one per
    ``partitions_per_bucket`` partitions, so that a bucket holds about their rows (what
    a task holds grows with a bucket, and the partitions are sized by the user to what a
    worker holds); never more than the partitions or :data:`MAX_BUCKETS`.
    """
    wanted = max(2 * _current_workers(), math.ceil(n_partitions / partitions_per_bucket))
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
    """One partition's rows of one bucket, or a whole merged bucket
    (:func:`merge_bucket`), each class's negated scores ascending (the layout of
    :class:`~assay.metrics._sorted.SortedBinary`): rows, or (score, class) cells with
    their summed weights."""

    positive_scores: np.ndarray
    negative_scores: np.ndarray
    positive_weights: np.ndarray
    negative_weights: np.ndarray
    use_weights: bool


def join_pieces(pieces: Any) -> Piece | None:
    """The rows of several pieces of one bucket in one piece (new arrays, each class's
    scores not sorted any more; None: no rows)."""
    held = [p for p in pieces if _holds_rows(p)]
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
    """Several partitions' outputs of
    :func:`~assay.dask._sorted_partitions.cut_partition` as one: each bucket's pieces
    bundled in a tuple (not copied: the bucket joins them), the empty ones left out, and
    the kept rows added (fewer objects to send: one per group of partitions and
    bucket)."""
    n_buckets = len(outputs[0]) - 1
    bundles = [
        tuple(output[k] for output in outputs if _holds_rows(output[k])) for k in range(n_buckets)
    ]
    kept = sum(int(output[n_buckets]) for output in outputs)
    return (*bundles, kept)


def _holds_rows(piece: Piece) -> bool:
    return piece.positive_scores.shape[0] + piece.negative_scores.shape[0] > 0


def merge_bucket(bucket: int, *bundles: tuple[Piece, ...]) -> dict[int, Piece]:
    """One bucket's entries from the bundles of its pieces (:func:`combine_pieces`; none
    holding rows: no entry): each class's pieces joined and sorted as on one machine (a
    new :class:`Piece`, each class ascending again; unweighted scores of one dtype are
    radix sorted straight from the pieces, without a joined copy, when the radix sort is
    this machine's choice).  Its tie groups are visited by a merge of the two classes
    when it is folded; :func:`atoms_of` builds them for the jobs that need them."""
    pieces = [piece for bundle in bundles for piece in bundle if _holds_rows(piece)]
    if not pieces:
        return {}
    sides = [[getattr(p, name) for p in pieces if getattr(p, name).shape[0]]
             for name in ("positive_scores", "negative_scores")]  # fmt: skip
    dtypes = {x.dtype for side in sides for x in side}
    if len(dtypes) == 1 and not any(p.use_weights for p in pieces):
        (dtype,) = dtypes
        a, b = (_sorted_side(side, dtype) for side in sides)
        return {bucket: Piece(a, b, _EMPTY, _EMPTY, False)}
    joined = join_pieces(pieces)
    assert joined is not None  # the pieces hold rows
    _sort_classes(*joined)
    return {bucket: joined}


def _sorted_side(arrays: list[np.ndarray], dtype: np.dtype[Any]) -> np.ndarray:
    """One class's unweighted scores from several arrays, sorted into a new array."""
    n = sum(x.shape[0] for x in arrays)
    if n and sort_method(dtype, n) == "radix":
        return radix_sort_joined(arrays, out=_memory.pooled(n, dtype))
    joined = np.concatenate(arrays) if arrays else np.empty(0, dtype=dtype)
    sort_in_place(joined, "numpy")
    return joined


def atoms_of(merged: dict[int, Piece]) -> dict[int, Atoms]:
    """The atoms of merged buckets (:func:`merge_bucket`)."""
    return {bucket: Atoms(*tie_groups(*piece)) for bucket, piece in merged.items()}


def _sort_classes(
    a: np.ndarray, b: np.ndarray, wa: np.ndarray, wb: np.ndarray, use_weights: bool
) -> None:
    """Sort two classes' negated scores in place, as on one machine (the weights carried
    along when ``use_weights``)."""
    for scores, weights in ((a, wa), (b, wb)):
        if use_weights:
            sort_with_weights(scores, weights)
        else:
            sort_in_place(scores, sort_method(scores.dtype, scores.shape[0]))


def _sorted_into_atoms(
    a: np.ndarray, b: np.ndarray, wa: np.ndarray, wb: np.ndarray, use_weights: bool
) -> Atoms:
    """The atoms of two classes' negated scores (sorted here, in place)."""
    _sort_classes(a, b, wa, wb, use_weights)
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
    few_atoms: int
    """Its atoms, counted up to 3 (all that the curves need to know)."""
    first: tuple[float, float]
    """``(p, q)`` of its highest atom."""


def bucket_totals(held: dict[int, Atoms | Piece]) -> dict[int, BucketTotals]:
    """Each bucket's class totals, its atoms counted up to 3 and its first atom, from
    its atoms or from its sorted classes (a merged bucket, :func:`merge_bucket`)."""
    totals = {}
    for bucket, entries in held.items():
        if isinstance(entries, Atoms):
            m = entries.scores.shape[0]
            positive, negative = piece_totals(entries.positive, entries.negative, 0, m)
            first = (float(entries.positive[0]), float(entries.negative[0]))
            totals[bucket] = BucketTotals(positive, negative, min(m, 3), first)
        else:
            positive, negative, p, q, few = sorted_summary(*entries)
            totals[bucket] = BucketTotals(positive, negative, few, (p, q))
    return totals


class Prefix(NamedTuple):
    """The combined totals: what each bucket needs to fold its atoms."""

    context: Context
    order: list[int]
    """The buckets holding atoms, in descending score order."""
    above: dict[int, tuple[float, float]]
    """``(tp, fp)``: the weight of every atom above the bucket."""
    after: dict[int, tuple[float, float]]
    """``(p, q)`` of the atom just below the bucket (``(-1, -1)`` for the last)."""
    few_atoms: int
    """All buckets' atoms, counted up to 3."""
    integer_counts: bool
    own: dict[int, tuple[float, float]]
    """``(P, N)``: the bucket's own class totals."""


def make_prefix(totals: list[dict[int, BucketTotals]], plan: Plan) -> Prefix:
    """The exclusive prefix of the buckets' totals, and the context of the scan."""
    merged = {bucket: t for part in totals for bucket, t in part.items() if t.few_atoms > 0}
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
    few_atoms = min(3, sum(t.few_atoms for t in merged.values()))
    own = {bucket: (t.positive, t.negative) for bucket, t in merged.items()}
    return Prefix(context, order, above, after, few_atoms, plan.integer_counts, own)


def has_below_pass(options: Any) -> bool:
    return SCANS[type(options)].below is not None


def bucket_summaries(
    held: Mapping[int, Atoms | Piece], prefix: Prefix, options: Any
) -> dict[int, Any]:
    """The below-pass summary of each bucket (for a metric that has a below pass), from
    its atoms or from its sorted classes."""
    summaries = {}
    for bucket, entries in held.items():
        if isinstance(entries, Atoms):
            summaries[bucket] = below_summary(
                options,
                prefix.context,
                entries.positive,
                entries.negative,
                0,
                entries.scores.shape[0],
                *prefix.above[bucket],
            )
        else:
            summaries[bucket] = merged_below_summary(
                options, prefix.context, *entries, *prefix.above[bucket]
            )
    return summaries


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
    held: Mapping[int, Atoms | Piece], prefix: Prefix, belows: dict[int, Any] | None, options: Any
) -> dict[int, Any]:
    """Each bucket's state, folded from the weight above it, from its atoms or from its
    sorted classes (their tie groups visited by a merge, as on one machine)."""
    identity = below_identity(options)
    states = {}
    for bucket, entries in held.items():
        below = identity if belows is None else belows[bucket]
        if isinstance(entries, Atoms):
            states[bucket] = fold_piece(
                options,
                prefix.context,
                below,
                entries.positive,
                entries.negative,
                0,
                entries.scores.shape[0],
                *prefix.above[bucket],
            )
        else:
            states[bucket] = merged_state(
                options, prefix.context, below, *entries, *prefix.above[bucket],
                *prefix.own[bucket],
            )  # fmt: skip
    return states


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
    entries: dict[int, Any], prefix: Prefix, mode: int
) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each bucket's kept curve points ``(thresholds, tp, fp)``: of its merged classes
    (:class:`Piece`, :func:`merged_curve_piece`) or its :class:`Atoms`
    (:func:`curve_piece`)."""
    if prefix.few_atoms <= 2:
        mode = DROP_NONE
    curves = {}
    for bucket, entry in entries.items():
        kernel: Any
        if isinstance(entry, Atoms):
            kernel, data = curve_piece, (entry.scores, entry.positive, entry.negative)
        else:
            kernel, data = merged_curve_piece, tuple(entry)
        arguments = (*data, *prefix.above[bucket], prefix.after[bucket], mode)
        kept = kernel(*arguments, _EMPTY, _EMPTY, _EMPTY)
        points = (np.empty(kept), np.empty(kept), np.empty(kept))
        kernel(*arguments, *points)
        curves[bucket] = points
    return curves


def join_curves(
    curves: list[dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]],
    prefix: Prefix,
    origin: bool = False,
    rates: bool = False,
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], tuple[float, float]]:
    """The buckets' points ``(thresholds, tp, fp)`` in one array each, in descending
    score order, and the last point's ``(tp, fp)``.  ``origin``: after the point
    ``(inf, 0, 0)`` above every score; ``rates``: tp and fp divided by the last point's
    as they are copied (NaN where that is not positive).  New arrays (the caller may
    change them in place)."""
    merged = {bucket: c for part in curves for bucket, c in part.items()}
    pieces = [merged[bucket] for bucket in prefix.order if merged[bucket][0].shape[0]]
    last = (float(pieces[-1][1][-1]), float(pieces[-1][2][-1])) if pieces else (0.0, 0.0)
    start = 1 if origin else 0
    size = start + sum(p[0].shape[0] for p in pieces)
    joined = (np.empty(size), np.empty(size), np.empty(size))
    if origin:
        for column, value in zip(joined, (np.inf, 0.0, 0.0), strict=True):
            column[0] = value
    np.concatenate([p[0] for p in pieces] or [_EMPTY], out=joined[0][start:])
    for i, total in ((1, last[0]), (2, last[1])):
        if rates and total <= 0.0:
            joined[i][:] = np.nan
            continue
        at = start
        for piece in pieces:
            end = at + piece[i].shape[0]
            if rates:
                np.divide(piece[i], total, out=joined[i][at:end])
            else:
                joined[i][at:end] = piece[i]
            at = end
        if rates and origin:
            joined[i][0] /= total
    return joined, last
