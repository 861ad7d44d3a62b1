"""The Dask graph of a ranking job (see :mod:`assay.dask._buckets` for its steps)."""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import dask.dataframe as dd
from dask.delayed import Delayed, delayed

import dask
from assay.dask import _buckets as buckets
from assay.dask import _sorted_partitions as sorted_partitions
from assay.dask._partitions import (
    make_plan,
    packed_partitions,
    partition_tasks,
    summarise_partition,
    unpacked,
)
from assay.exceptions import UndefinedMetricWarning


class RankingJob(NamedTuple):
    """The lazy atoms of every shuffled partition and their combined prefix."""

    atoms: list[Delayed]
    prefix: Delayed
    plan: Any
    """The lazy plan, or its future when the partitions were checked, cut and bundled
    first (:func:`_located_groups`)."""
    row_counts: list[Delayed]
    """The number of rows of each partition that carry weight."""
    frames: list[Delayed] | None = None
    """The shuffled partitions, the rows with their buckets (a job that moves rows)."""
    merged: list[Delayed] | None = None
    """Each bucket's sorted classes (:func:`~assay.dask._buckets.merge_bucket`; a job
    that moves sorted pieces): the scans fold these, and ``atoms`` are built from them
    only for the callers that read atoms."""


def scanned(job: RankingJob) -> list[Delayed]:
    """What the scans of a job fold: its merged buckets, or its atoms."""
    return job.atoms if job.merged is None else job.merged


def plan_graph(
    packed: list[Any],
    picks: tuple[int, int, int],
    pos_label: Any,
    multiclass_hint: str = "",
    use_weights: bool = False,
    score_name: str = "y_score",
    n_buckets: int | None = None,
) -> Delayed:
    """The lazy :class:`~assay.dask._partitions.Plan` of packed partitions
    (:func:`~assay.dask._partitions.packed_partitions`; ``picks``: the positions of
    ``y_true``, the scores and the weights in them), each checked and summarised;
    ``n_buckets``: how many buckets its splitters cut (default: one per partition, at
    least two)."""
    n = len(packed)
    summaries = [
        delayed(unpacked, pure=True)(
            summarise_partition, picks, i, n, columns, pos_label, multiclass_hint, score_name
        )
        for i, columns in enumerate(packed)
    ]
    return delayed(make_plan, pure=True)(
        summaries, pos_label, multiclass_hint, use_weights, n_buckets or max(n, 2)
    )


def shuffle_job(rows: list[Delayed], plan: Delayed, meta: Any) -> RankingJob:
    """Shuffle the bucketed ``rows`` (frames like ``meta``) by bucket, and sort each
    bucket into its atoms."""
    frame = dd.from_delayed(rows, meta=meta, verify_meta=False)
    shuffled = frame.shuffle(on="bucket", npartitions=len(rows))
    frames = shuffled.to_delayed(optimize_graph=False)
    atoms = [delayed(buckets.bucket_atoms, pure=True)(part, plan) for part in frames]
    row_counts = [delayed(len, pure=True)(part) for part in frames]
    return RankingJob(atoms, _prefix_of(atoms, plan), plan, row_counts, frames)


def weighted_rows_job(
    y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, multiclass_hint: str = ""
) -> RankingJob:
    """The weighted rows shuffled to their buckets with their positions in the input
    (the keys of their Poisson counts), and each bucket sorted into its atoms."""
    packed, n = packed_partitions(y_true=y_true, y_score=y_score, sample_weight=sample_weight)
    plan = plan_graph(packed, (0, 1, 2), pos_label, multiclass_hint, True)
    rows = [
        delayed(unpacked, pure=True)(
            buckets.bucket_rows, (0, 1, 2), i, n, columns, plan, positions=True
        )
        for i, columns in enumerate(packed)
    ]
    return shuffle_job(rows, plan, buckets.rows_meta(True, positions=True))


def frames_of(job: RankingJob) -> list[Delayed]:
    """The shuffled partitions of a job that moves rows (:func:`shuffle_job`)."""
    assert job.frames is not None, "a job of atoms has no rows"
    return job.frames


def _prefix_of(held: list[Delayed], plan: Delayed) -> Delayed:
    totals = [delayed(buckets.bucket_totals, pure=True)(h) for h in held]
    return delayed(buckets.make_prefix, pure=True)(totals, plan)


def ranking_job(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    pos_label: Any,
    multiclass_hint: str = "",
    located: bool = False,
    scans_only: bool = False,
) -> RankingJob:
    """Check, split and summarise every partition where it lies (one read), gather its
    rows by bucket of the plan's splitters, bundle the pieces of each group of
    partitions, and merge (join and sort) each bucket's pieces from all groups; all
    lazy, unless ``located``.

    What moves is each class's scores (a heavy score, or few distinct ones, as cells),
    never rows through a shuffle; the pieces are bundled in groups because every piece
    sent is a task of the graph.  A group is made of consecutive partitions, wherever
    they lie, and its bundling task gathers them first: about half of the scores move
    twice on two workers.  With ``located`` (a caller that computes the result at once)
    on a ``distributed`` client, the checked partitions are computed first and each
    group is made of partitions that lie on one worker, where one task cuts and bundles
    them (:func:`_located_groups`): each piece moves once, to its bucket, and the graph
    has no task per partition after the read.  ``scans_only``: the
    caller only scans the merged buckets (never reads ``atoms``), whose buckets may be
    larger (:data:`~assay.dask._buckets.SCAN_PARTITIONS_PER_BUCKET`).
    """
    sorted_parts, n = partition_tasks(
        sorted_partitions.sort_partition,
        {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight},
        pos_label,
        multiclass_hint,
    )
    use_weights = sample_weight is not None
    per_bucket = (
        buckets.SCAN_PARTITIONS_PER_BUCKET if scans_only else buckets.ATOMS_PARTITIONS_PER_BUCKET
    )
    n_buckets = buckets.exchange_size(n, per_bucket)
    plan_options = (pos_label, multiclass_hint, use_weights, n_buckets)
    client = _computing_client() if located else None
    if client is not None:
        plan, groups = _located_groups(client, sorted_parts, plan_options)
    else:
        plan = delayed(make_plan, pure=True)([part[0] for part in sorted_parts], *plan_options)
        # the cut takes the whole output (summary, sorted rows): where it already lies, and
        # without a task to pick the rows out of it
        split = [
            delayed(sorted_partitions.cut_partition, pure=True)(part, plan, n_buckets)
            for part in sorted_parts
        ]
        size = math.ceil(n / buckets.exchange_groups(n))
        groups = [
            delayed(buckets.combine_pieces, pure=True, nout=n_buckets + 1)(*split[i : i + size])
            for i in range(0, n, size)
        ]
    merged = [
        delayed(buckets.merge_bucket, pure=True)(k, *(group[k] for group in groups))
        for k in range(n_buckets)
    ]
    atoms = [delayed(buckets.atoms_of, pure=True)(m) for m in merged]
    row_counts = [group[n_buckets] for group in groups]
    return RankingJob(atoms, _prefix_of(merged, plan), plan, row_counts, merged=merged)


def _computing_client() -> Any:
    """The ``distributed`` client that ``dask.compute`` uses now, or None (another
    scheduler is in effect, or none is running)."""
    scheduler = dask.base.get_scheduler()
    client = getattr(scheduler, "__self__", None)
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - the extra installs it
        return None
    return client if isinstance(client, Client) else None


def _located_groups(
    client: Any, sorted_parts: list[Delayed], plan_options: tuple[Any, ...]
) -> tuple[Any, list[tuple[Delayed, ...]]]:
    """The plan and the bundles of the cut partitions, made where the partitions lie.

    The checked partitions (:func:`~assay.dask._sorted_partitions.sort_partition`) are
    computed on ``client`` first.  Then, on each worker that holds some, one task picks
    their summaries for the plan, and two tasks (one a thread if it has more threads;
    one if it holds a single partition) each cut their share of them at the plan's
    splitters and bundle their pieces
    (:func:`~assay.dask._sorted_partitions.cut_and_bundle`); the plan and the bundles
    are computed too, and the checked partitions let go.  Each task, and each pick of a
    bundle's bucket, is asked to run on that worker (another one if it has gone): a
    checked partition never moves, and each piece moves once, to its bucket.

    ``plan_options``: the arguments of :func:`~assay.dask._partitions.make_plan` after
    the summaries, the number of buckets last.  Returns the plan's future and, for each
    bundle, the lazy picks of its ``n_buckets`` pieces and of its count of kept rows.
    The futures of the plan and the bundles stay referenced by the graph, so Dask
    recomputes them (the checked partitions again, from the input) if a worker is lost
    before the buckets are merged.  An error of a partition is raised here, as it would
    be by the whole computation."""
    n_buckets = plan_options[-1]
    futures = client.compute(sorted_parts)
    _raise_first_error(futures)
    holders = client.who_has(futures)
    by_worker: dict[str, list[tuple[int, Any]]] = {}
    for index, future in enumerate(futures):
        addresses = sorted(holders.get(future.key, ()))
        by_worker.setdefault(addresses[0] if addresses else "", []).append((index, future))
    order: list[int] = []
    picked = []
    for address, held in by_worker.items():
        with _on_worker(address):
            picked.append(
                delayed(sorted_partitions.summaries_of, pure=True)(*(f for _, f in held))
            )
        order.extend(index for index, _ in held)
    plan = delayed(_plan_in_order, pure=True)(picked, order, *plan_options)
    threads = {address: int(count) for address, count in client.nthreads().items()}
    placed = []
    for address, held in by_worker.items():
        # two bundles a worker, or one a thread if it has more (its threads cut at once)
        size = math.ceil(len(held) / max(2, threads.get(address, 1)))
        for start in range(0, len(held), size):
            with _on_worker(address):
                bundle = delayed(sorted_partitions.cut_and_bundle, pure=True)(
                    plan, n_buckets, *(f for _, f in held[start : start + size])
                )
            placed.append((address, bundle))
    # the plan and the bundles computed in turn: the checked partitions, which only the
    # bundles read, are then let go (Dask recomputes them from the files if a bundle is
    # lost)
    plan_future, *bundles = client.compute([plan, *(bundle for _, bundle in placed)])
    _raise_first_error([plan_future, *bundles])
    groups = []
    for (address, _), bundle in zip(placed, bundles, strict=True):
        with _on_worker(address):  # each pick of a bucket where its bundle lies
            groups.append(
                tuple(
                    delayed(operator.getitem, pure=True)(bundle, k) for k in range(n_buckets + 1)
                )
            )
    return plan_future, groups


def _raise_first_error(futures: list[Any]) -> None:
    """Wait for ``futures``; the first that failed raises its error (a partition's
    error, as the whole computation would raise it)."""
    from distributed import wait

    wait(futures)
    for future in futures:
        if future.status == "error":
            future.result()


def _on_worker(address: str) -> Any:
    """Tasks made in this context are asked to run on the worker at ``address`` (or on
    another one if it has gone; no restriction for an empty address)."""
    if not address:
        return dask.annotate()
    return dask.annotate(workers=[address], allow_other_workers=True)


def _plan_in_order(picked: list[list[Any]], order: list[int], *plan_options: Any) -> Any:
    """:func:`~assay.dask._partitions.make_plan` of the summaries picked on each worker
    (``order``: the partition of each, in the order picked), in partition order."""
    summaries: list[Any] = [None] * len(order)
    picks = (summary for summaries_of_worker in picked for summary in summaries_of_worker)
    for index, summary in zip(order, picks, strict=True):
        summaries[index] = summary
    return make_plan(summaries, *plan_options)


class ScanValue(NamedTuple):
    """A metric's value, and the warning to give with it (empty: none)."""

    value: float
    warning: str


def _scan_value(
    states: list[dict[int, Any]], prefix: buckets.Prefix, options: Any, needs: str, message: str
) -> ScanValue:
    context = prefix.context
    missing = (needs in ("both", "positive") and context.total_positive == 0.0) or (
        needs == "both" and context.total_negative == 0.0
    )
    if missing:
        return ScanValue(float("nan"), message)
    return ScanValue(buckets.finish_states(states, prefix, options), "")


def scan_graph(job: RankingJob, options: Any, needs: str, message: str) -> Delayed:
    """The lazy :class:`ScanValue` of the scan ``options`` over the job's buckets."""
    belows = None
    if buckets.has_below_pass(options):
        summaries = [
            delayed(buckets.bucket_summaries, pure=True)(a, job.prefix, options)
            for a in scanned(job)
        ]
        belows = delayed(buckets.belows_of, pure=True)(summaries, job.prefix, options)
    states = [
        delayed(buckets.bucket_states, pure=True)(a, job.prefix, belows, options)
        for a in scanned(job)
    ]
    return delayed(_scan_value, pure=True)(states, job.prefix, options, needs, message)


def _value_only(result: ScanValue) -> float:
    return result.value


def deliver(graph: Delayed, compute: bool, stacklevel: int = 3) -> Any:
    """Compute ``graph`` (a :class:`ScanValue`-like result with ``warning``) and warn at
    the user's line; or, ``compute=False``, the lazy value (which cannot warn)."""
    if not compute:
        return delayed(_value_only, pure=True)(graph)
    (result,) = dask.compute(graph)
    return warned_value(result, stacklevel + 1)


def warned_value(result: Any, stacklevel: int) -> Any:
    """A computed :class:`ScanValue`-like result's value, its warning (if any) given at
    ``stacklevel`` from this function's caller's caller."""
    if result.warning:
        warnings.warn(result.warning, UndefinedMetricWarning, stacklevel=stacklevel)
    return result.value


def _built_quietly(build: Callable[..., Any], numbers: Any, *options: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build(numbers, *options, 2)


def deliver_result(graph: Delayed, build: Callable[..., Any], compute: bool, *options: Any) -> Any:
    """``build(numbers, *options, stacklevel)`` of the computed ``graph``, its warnings
    at the line that called the public function (the caller of this one's caller); or,
    ``compute=False``, the lazy result (built without warnings)."""
    if not compute:
        return delayed(_built_quietly, pure=True)(build, graph, *options)
    (numbers,) = dask.compute(graph)
    return build(numbers, *options, 4)
