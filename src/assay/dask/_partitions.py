"""The partitions of dask inputs, checked one by one, and the plan of a ranking job.

Every partition is read once, all its columns by one task (:func:`partition_tasks`,
:func:`packed_partitions`).  A job first summarises every partition
(:func:`summarise_partition`, or the split of a ranking job's partition): the checks of
the single-machine functions, run on the partition (an error names it), its class
labels, a sample of its scores and what its weights look like.  The summaries are
small; :func:`make_plan` turns them into the plan of the second pass: the positive
label, the splitters of the score range (and which of them are heavy), and the scale of
the weights (the same power of two as on one machine, so that integer weights stay
exact counts).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dask.delayed import delayed

from assay._labels import few_distinct_values, numbers_of_objects
from assay._scaling import power_of_two_scale
from assay._validation import (
    _as_float_array,
    _check_weight_signs,
    _count_non_finite,
    _is_continuous,
    as_1d,
    as_scores,
    binary_target,
    check_same_length,
)
from assay.metrics._sorted import _EXACT_UNIT_BITS, _count_unit

SAMPLE_SIZE = 512
"""Scores sampled from each partition to choose the splitters."""
_SAMPLE_SEED = 20240917  # a fixed seed: the same rows are sampled on every run


def partitions_of(collection: Any, name: str, two_d: bool = False) -> list[Any]:
    """The partitions of a dask Series or 1-D dask array, as ``dask.delayed`` objects;
    with ``two_d`` (multilabel indicators) also of a dask DataFrame or a 2-D dask array
    (its columns in one chunk)."""
    import dask.array as da
    import dask.dataframe as dd

    if isinstance(collection, (dd.Series, dd.Index)) or (
        two_d and isinstance(collection, dd.DataFrame)
    ):
        return list(collection.to_delayed())
    if isinstance(collection, da.Array):
        if two_d and collection.ndim == 2:
            return list(collection.rechunk({1: -1}).to_delayed().ravel())
        if collection.ndim != 1:
            shape = "1-D or 2-D" if two_d else "1-D"
            raise ValueError(
                f"`{name}` must be {shape}, got a dask array of shape {collection.shape}."
            )
        return list(collection.to_delayed().ravel())
    kinds = "a dask Series, DataFrame or array" if two_d else "a dask Series or a 1-D dask array"
    raise TypeError(
        f"`{name}` must be {kinds}; got {type(collection).__name__} "
        "(use the functions of `assay` for in-memory data)."
    )


def aligned_partitions(two_d: bool = False, **collections: Any) -> tuple[list[list[Any]], int]:
    """Partitions of each named collection (None stays None), and their common number;
    ``two_d`` admits 2-D collections (multilabel indicators)."""
    named = {
        name: partitions_of(c, name, two_d and name != "sample_weight")
        for name, c in collections.items()
        if c is not None
    }
    (first_name, first), *others = named.items()
    for name, parts in others:
        if len(parts) != len(first):
            raise ValueError(
                f"`{first_name}` and `{name}` have different numbers of partitions: "
                f"{len(first)} and {len(parts)}; partition them alike (columns of one "
                "dask DataFrame, or dask arrays with the same chunks)."
            )
    columns = [named.get(name) or [None] * len(first) for name in collections]
    return columns, len(first)


def partition_tasks(
    function: Callable[..., Any], collections: dict[str, Any], *args: Any, two_d: bool = False
) -> tuple[list[Any], int]:
    """``function(index, n_partitions, *columns, *args)`` on every partition, lazily,
    one task a partition (the columns in the order of ``collections``, None for a
    collection given as None); and the number of partitions.  ``two_d`` admits 2-D
    collections (multilabel indicators) but for ``sample_weight``.

    When the collections are dask Series (or, ``two_d``, DataFrames), that task also
    reads them: the columns of a dask DataFrame are read together, each file once, not
    once per column (and not by a task of their own).
    """
    import dask.dataframe as dd
    import pandas as pd

    def fused(name: str, collection: Any) -> bool:
        if isinstance(collection, dd.Series):
            return True
        return two_d and name != "sample_weight" and isinstance(collection, dd.DataFrame)

    given = [c for c in collections.values() if c is not None]
    if not all(fused(name, c) for name, c in collections.items() if c is not None):
        columns, n = aligned_partitions(two_d, **collections)
        tasks = [
            delayed(function, pure=True)(i, n, *(column[i] for column in columns), *args)
            for i in range(n)
        ]
        return tasks, n
    counts = {c.npartitions for c in given}
    if len(counts) > 1:
        aligned_partitions(two_d, **collections)  # raises: different numbers of partitions
    n = counts.pop()
    mapped = dd.map_partitions(
        _on_partition,
        *collections.values(),
        function=function,
        n_partitions=n,
        args=args,
        meta=pd.Series(dtype=object),
        align_dataframes=False,
        enforce_metadata=False,
        transform_divisions=False,
        token=function.__name__,
    )
    return list(mapped.to_delayed()), n


def _on_partition(
    *columns: Any,
    function: Callable[..., Any],
    n_partitions: int,
    args: tuple[Any, ...],
    partition_info: dict[str, Any] | None = None,
) -> Any:
    assert partition_info is not None, "Dask gives the partition's number"
    return function(partition_info["number"], n_partitions, *columns, *args)


def packed_partitions(two_d: bool = False, **collections: Any) -> tuple[list[Any], int]:
    """Each partition's columns as one lazy tuple (in the order named; None for a
    collection given as None), read together by one task a partition
    (:func:`partition_tasks`; ``two_d`` as there); and the number of partitions."""
    return partition_tasks(_packed, collections, two_d=two_d)


def _packed(index: int, n_partitions: int, *columns: Any) -> tuple[Any, ...]:
    return columns


def unpacked(
    function: Callable[..., Any],
    picks: tuple[int, ...],
    index: int,
    n_partitions: int,
    columns: tuple[Any, ...],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """``function(index, n_partitions, *(columns[k] for k in picks), *args, **kwargs)``:
    a function of some columns of a packed partition (:func:`packed_partitions`)."""
    return function(index, n_partitions, *(columns[k] for k in picks), *args, **kwargs)


def in_partition(index: int, n_partitions: int, check: Callable[[], Any]) -> Any:
    """``check()``, its ValueError naming partition ``index``."""
    try:
        return check()
    except ValueError as error:
        raise ValueError(f"In partition {index} of {n_partitions}: {error}") from error


def partition_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """The weights of one partition checked as on one machine, except 'not all zero'
    (a partition of zero weights is fine; the total is checked over all partitions)."""
    if sample_weight is None:
        return None
    weights = _as_float_array(sample_weight, "sample_weight", 1)
    if weights.shape[0] != n:
        raise ValueError(
            f"`sample_weight` has length {weights.shape[0]} but there are {n} samples."
        )
    _count_non_finite(weights, "sample_weight", "weights")
    # one positive weight appended: the negative values are counted, zero totals pass
    _check_weight_signs(np.append(weights, 1.0))
    return weights


class PartitionSummary(NamedTuple):
    """What the plan needs from one partition."""

    n: int
    classes: np.ndarray
    """Its distinct labels (at most two)."""
    sample: np.ndarray
    """Scores sampled from it (uniformly, without replacement)."""
    sample_share: float
    """Rows per sampled score."""
    weight_total: float
    weight_max: float
    weight_unit: float | None
    """The power of two all its weights are whole multiples of (None: no such unit)."""


def label_array(y_true: Any) -> np.ndarray:
    return numbers_of_objects(as_1d(y_true, "y_true"))


def partition_classes(y_true: Any, pos_label: Any, multiclass_hint: str) -> np.ndarray:
    """The (at most two) labels of one partition; its labels' own errors are raised
    (non-finite, continuous, more than two), those of the positive label are left to
    the check of all partitions' labels together (:func:`resolve_labels`)."""
    labels = label_array(y_true)
    classes = None
    try:
        if labels.dtype.kind != "f" or np.all(np.isfinite(labels)):
            classes = few_distinct_values(labels, 2)
    except TypeError:  # labels that do not compare: the message is binary_target's
        classes = None
    if classes is None or _is_continuous(classes):
        binary_target(y_true, pos_label, multiclass_hint=multiclass_hint)  # raises
    assert classes is not None
    return classes


def empty_summary() -> PartitionSummary:
    """The summary of a partition without rows."""
    return PartitionSummary(0, np.empty(0), np.empty(0, dtype=np.float64), 0.0, 0.0, 0.0, None)


class CheckedPartition(NamedTuple):
    """One partition's columns, checked, with what its weights look like."""

    classes: np.ndarray
    labels: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None
    weight_total: float
    """The weights' sum (the rows without weights)."""
    weight_max: float
    weight_unit: float | None
    """The power of two all its weights are whole multiples of (None: no such unit, or
    no weight above zero)."""


def checked_partition(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    pos_label: Any,
    multiclass_hint: str,
    score_name: str,
    keep_float32: bool = False,
) -> CheckedPartition:
    """One partition's labels, scores and weights checked as on one machine (the caller
    names the partition in an error, :func:`in_partition`)."""
    classes = partition_classes(y_true, pos_label, multiclass_hint)
    labels = label_array(y_true)
    scores = as_scores(y_score, score_name, keep_float32=keep_float32)
    n = check_same_length(**{"y_true": labels, score_name: scores})
    weights = partition_weights(sample_weight, n)
    if weights is None:
        return CheckedPartition(classes, labels, scores, None, float(n), 0.0, None)
    if not np.any(weights > 0):
        return CheckedPartition(classes, labels, scores, weights, 0.0, 0.0, None)
    total, largest = float(np.sum(weights)), float(np.max(weights))
    return CheckedPartition(classes, labels, scores, weights, total, largest, _count_unit(weights))


def summarise_partition(
    index: int,
    n_partitions: int,
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    pos_label: Any,
    multiclass_hint: str = "",
    score_name: str = "y_score",
) -> PartitionSummary:
    """Check one partition and summarise it (see the module docstring); ``score_name``
    names the scores in errors."""
    if len(y_true) == 0 and len(y_score) == 0:
        return empty_summary()

    def check() -> PartitionSummary:
        part = checked_partition(
            y_true, y_score, sample_weight, pos_label, multiclass_hint, score_name
        )
        n = part.scores.shape[0]
        size = min(n, SAMPLE_SIZE)
        rng = np.random.default_rng([_SAMPLE_SEED, index])
        sample = np.sort(part.scores[rng.choice(n, size, replace=False)]) + 0.0  # -0.0 is 0.0
        return PartitionSummary(
            n, part.classes, sample, n / size, part.weight_total, part.weight_max,
            part.weight_unit,
        )  # fmt: skip

    result: PartitionSummary = in_partition(index, n_partitions, check)
    return result


class Plan(NamedTuple):
    """How the second pass buckets and weighs the rows."""

    pos_label: Any
    splitters: np.ndarray
    """Distinct scores, ascending: bucket ``2 i`` holds the scores between splitters
    ``i - 1`` and ``i``, bucket ``2 i + 1`` the score ``splitters[i]`` alone."""
    weight_scale: float
    """The weights are multiplied by this power of two (as on one machine)."""
    integer_counts: bool
    """Every (scaled) weight is a whole number: the scans sum exactly."""
    offsets: np.ndarray = np.zeros(0, dtype=np.int64)
    """Where each input partition starts in the input (its first row's position): a
    weighted row's Poisson count is keyed by its position, as on one machine."""
    heavy: np.ndarray = np.zeros(0, dtype=bool)
    """For each splitter, whether its score holds at least half a bucket's share of the
    sample: its rows are summed into one cell per partition and class, not sent row by
    row (empty: none is)."""


def resolve_labels(
    summaries: list[PartitionSummary], pos_label: Any, multiclass_hint: str = ""
) -> Any:
    """The positive label from the partitions' labels, by the single-machine rules; an
    error names the first partition after which the labels seen are refused."""
    present = [(i, s.classes) for i, s in enumerate(summaries) if s.n > 0]
    if not present:
        raise ValueError("`y_true` is empty; at least one sample is needed.")
    try:
        labels = np.concatenate([c for _, c in present])
        return binary_target(labels, pos_label, multiclass_hint=multiclass_hint)[1]
    except ValueError:
        for stop in range(1, len(present) + 1):
            seen = np.concatenate([c for _, c in present[:stop]])
            in_partition(
                present[stop - 1][0],
                len(summaries),
                functools.partial(binary_target, seen, pos_label, multiclass_hint=multiclass_hint),
            )
        raise


def weight_plan(summaries: list[PartitionSummary], use_weights: bool) -> tuple[float, bool]:
    """``(weight_scale, integer_counts)`` over all partitions, as on one machine."""
    if not use_weights:
        return 1.0, True
    total = sum(s.weight_total for s in summaries)
    _check_weight_signs(np.array([total]))  # not all zero
    weighted = [s for s in summaries if s.weight_max > 0.0]
    units = [s.weight_unit for s in weighted]
    if all(unit is not None for unit in units):
        unit = min(u for u in units if u is not None)
        unit_exponent = int(np.log2(unit))
        if int(np.frexp(total)[1]) - unit_exponent <= _EXACT_UNIT_BITS:
            return 1.0 / unit, True
    return power_of_two_scale(max(s.weight_max for s in weighted)), False


def choose_splitters(summaries: list[PartitionSummary], n_buckets: int) -> np.ndarray:
    """Distinct scores cutting the sampled rows into ``n_buckets`` parts of equal weight.

    A score holding more than a bucket's share of the sample is a splitter (every
    quantile inside its run is that score), and a splitter gets a bucket of its own: a
    heavy tie group is one atom, summed without a sort, and never overloads a bucket.
    """
    samples = [s.sample for s in summaries if s.n > 0]
    shares = [np.full(s.sample.shape[0], s.sample_share) for s in summaries if s.n > 0]
    scores = np.concatenate(samples)
    order = np.argsort(scores, kind="stable")
    scores = scores[order]
    cumulative = np.cumsum(np.concatenate(shares)[order])
    levels = cumulative[-1] * np.arange(1, n_buckets) / n_buckets
    picks = np.minimum(np.searchsorted(cumulative, levels), scores.shape[0] - 1)
    return np.unique(scores[picks])


def heavy_splitters(
    summaries: list[PartitionSummary], splitters: np.ndarray, n_buckets: int
) -> np.ndarray:
    """Whether each splitter's score holds at least half a bucket's share of the sampled
    rows (:attr:`Plan.heavy`)."""
    present = [s for s in summaries if s.n > 0]
    scores = np.concatenate([s.sample for s in present])
    shares = np.concatenate([np.full(s.sample.shape[0], s.sample_share) for s in present])
    held = np.bincount(
        np.searchsorted(splitters, scores), weights=shares * np.isin(scores, splitters),
        minlength=splitters.shape[0] + 1,
    )[: splitters.shape[0]]  # fmt: skip
    return held >= shares.sum() / (2 * n_buckets)


def make_plan(
    summaries: list[PartitionSummary],
    pos_label: Any,
    multiclass_hint: str,
    use_weights: bool,
    n_buckets: int,
) -> Plan:
    """The plan of the second pass (see :class:`Plan`)."""
    positive_label = resolve_labels(summaries, pos_label, multiclass_hint)
    weight_scale, integer_counts = weight_plan(summaries, use_weights)
    lengths = np.array([s.n for s in summaries], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    splitters = choose_splitters(summaries, n_buckets)
    heavy = heavy_splitters(summaries, splitters, n_buckets)
    return Plan(positive_label, splitters, weight_scale, integer_counts, offsets, heavy)


def bucket_of(scores: np.ndarray, splitters: np.ndarray) -> np.ndarray:
    """The bucket of each score: ``2 i`` below splitter ``i``, ``2 i + 1`` on it.

    Equal scores get the same bucket (``-0.0`` and ``0.0`` compare equal), so a tie
    group never straddles two buckets; buckets ascend with the scores.
    """
    position = np.searchsorted(splitters, scores, side="left")
    inside = position < splitters.shape[0]
    on_splitter = np.zeros(scores.shape[0], dtype=bool)
    on_splitter[inside] = splitters[position[inside]] == scores[inside]
    return 2 * position.astype(np.int64) + on_splitter
