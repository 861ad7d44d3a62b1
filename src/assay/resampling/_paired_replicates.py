"""Both models' replicates for ``assay.compare``, one engine per path.

A paired replicate evaluates both models on the same resample of the rows (bootstrap) or
on the same swap of their values (permutation):

ranking metrics of binary scores
    bootstrap: both models sorted once, a replicate streamed over model A's order and
    folded in B's (:func:`assay._kernels.paired.paired_bootstrap_lanes`, eight
    replicates folded together in B's order, for scans that fold in one pass on rows
    too many for one thread's cache; :func:`assay._kernels.streaming.paired_bootstrap_ranking`,
    the same values one replicate at a time, for the others);
    permutation: both models' mid-distribution values sorted together once, a replicate
    walking them with each row's swap bit
    (:func:`assay._kernels.paired.compare_ranking_permutation`);
confusion-matrix metrics of unweighted labels
    the joint (truth, A, B) cells: a bootstrap replicate draws the cells, a permutation
    replicate splits every discordant cell binomially with its mirror;
anything else
    row counts (bootstrap) or swap masks (permutation) drawn by a kernel, and the metric
    called per replicate.

Replicate ``r`` draws from the stream keyed by (seed, r) whatever the path, so results
do not depend on the number of threads or the chunk size.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._kernels import paired, resample, streaming
from assay._kernels.estimates import paired_folded_estimates
from assay._kernels.scans import scan_records
from assay._validation import as_sample_weight
from assay.metrics._registry import MetricDeclaration
from assay.resampling._joint_cells import JointCells, joint_cells
from assay.resampling._paired_jackknife import cells_jackknife, ranking_jackknife, rows_jackknife
from assay.resampling._plans import (
    PairedRowsPlan,
    PairedStreamPlan,
    call_metric,
    cluster_codes,
    paired_rows_plan,
    paired_stream_plan,
    replicate_options,
    replicate_weight,
    rows_plan,
    scalar,
)
from assay.resampling._resampling import (
    accepts_sample_weight,
    chunk_size,
    n_workers,
    run_in_chunks,
    workers_for,
)
from assay.resampling._rows import as_rows, count_rows, swap_rows, whole_rows

__all__ = ["PairedReplicates", "paired_distribution"]


class PairedReplicates(NamedTuple):
    """Both models' replicates, the jackknife of their difference (BCa), and whether
    model A's replicates are those :func:`assay.bootstrap` draws for model A alone with
    the same seed (``a_alone``)."""

    values_a: np.ndarray
    values_b: np.ndarray
    jackknife: tuple[np.ndarray, np.ndarray] | None
    a_alone: bool = False
    estimates: tuple[float, float] | None = None
    """Both models' metric on the data when :func:`paired_distribution` was asked for it
    (``fold_estimates``) and could fold it over the sorted atoms; else None."""


LANES_MIN_ATOMS = 1 << 15
"""A paired bootstrap of a one-pass ranking scan on one thread folds its replicates
eight at a time (:func:`assay._kernels.paired.paired_bootstrap_lanes`) above this many
atoms, one at a time (:func:`assay._kernels.streaming.paired_bootstrap_ranking`, the same
values) up to it.  Up to 2**15 atoms, a replicate's int64 counts (256 KB) stay in cache
and both kernels take the same time (warm, 1,000 to 32,768 rows); the one-at-a-time
kernel is the one :func:`assay.bootstrap`'s replicate already compiled, so a small
``compare`` compiles about a quarter less (docs/performance.md)."""

_SCHEMES: dict[str, resample.Scheme] = {
    "multinomial": resample.MULTINOMIAL,
    "poisson": resample.POISSON,
}


def _run_pairs(
    run: Callable[[int, np.ndarray, np.ndarray], None],
    n_resamples: int,
    size: int,
    progress: bool,
    description: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Replicates of both models, chunk by chunk (see :func:`run_in_chunks`)."""
    out_b = np.empty(n_resamples, dtype=np.float64)

    def both(first: int, out_a: np.ndarray) -> None:
        run(first, out_a, out_b[first : first + out_a.shape[0]])

    out_a = run_in_chunks(both, n_resamples, size, progress=progress, description=description)
    return out_a, out_b


def _permuted_pairs(
    plan: PairedRowsPlan,
    options: Any,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Paired permutation of ranking metrics: both models' mid-distribution codes sorted
    together once (2n entries, tie groups of equal codes, :func:`paired_rows_plan`); a
    replicate gives each entry to A' or B' by its row's swap bit."""
    workers = workers_for(n_resamples * 2 * plan.n_rows)  # small calls: the serial kernel

    def run(first: int, out_a: np.ndarray, out_b: np.ndarray) -> None:
        draw = resample.Draw(resample.PERMUTATION, np.uint64(seed), first)
        paired.compare_ranking_permutation(plan.entries, plan.rows, options, draw, out_a, out_b,
                                           workers)  # fmt: skip

    size = chunk_size(n_resamples, 2 * plan.n_rows, workers)
    return _run_pairs(run, n_resamples, size, progress, "permutation")


def in_lanes(plan: PairedStreamPlan, options: Any, n_resamples: int) -> bool:
    """Whether a paired bootstrap of ranking metrics draws its replicates eight at a time
    (:func:`assay._kernels.paired.paired_bootstrap_lanes`): scans that fold in one pass,
    on several threads or more than :data:`LANES_MIN_ATOMS` atoms."""
    workers = workers_for(n_resamples * 3 * plan.n_atoms)
    one_at_a_time = workers == 1 and plan.n_atoms <= LANES_MIN_ATOMS
    return not (scan_records(options) or one_at_a_time)


def _streamed_pairs(
    plan: PairedStreamPlan,
    options: Any,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Paired bootstrap of ranking metrics: one replicate streamed over A's order, B
    folding the same row counts in its own order."""
    workers = workers_for(n_resamples * 3 * plan.n_atoms)  # small calls: the serial kernel
    kernel = (
        paired.paired_bootstrap_lanes
        if in_lanes(plan, options, n_resamples)
        else streaming.paired_bootstrap_ranking
    )

    def run(first: int, out_a: np.ndarray, out_b: np.ndarray) -> None:
        draw = resample.Draw(scheme, np.uint64(seed), first)
        kernel(
            plan.a, plan.b, plan.a_position_of_b, plan.clusters, options, draw, out_a, out_b,
            workers,
        )  # fmt: skip

    size = chunk_size(n_resamples, 3 * plan.n_atoms, workers)
    if kernel is paired.paired_bootstrap_lanes:  # whole batches of eight for every worker
        batches = paired.LANES * workers
        size = min(n_resamples, max(batches, size - size % batches))
    return _run_pairs(run, n_resamples, size, progress, "bootstrap")


def _cells_pairs(
    cells: JointCells,
    from_confusion: Callable[..., Any],
    permutation: bool,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> tuple[np.ndarray, np.ndarray]:
    workers = n_workers()
    k = cells.n_labels
    active = cells.active
    t, x, y = active // (k * k), (active // k) % k, active % k
    partner = np.searchsorted(active, (t * k + y) * k + x)  # mirrors are active too
    active_cells = np.ascontiguousarray(cells.cells[active])
    side_a = int(np.sqrt(cells.unit_a.shape[1]))
    side_b = int(np.sqrt(cells.unit_b.shape[1]))

    def run(first: int, out_a: np.ndarray, out_b: np.ndarray) -> None:
        if permutation:
            counts = np.empty((out_a.shape[0], active.shape[0]), dtype=np.int64)
            paired.permute_joint_cells(
                active_cells,
                np.ascontiguousarray(partner),
                resample.Draw(resample.PERMUTATION, np.uint64(seed), first),
                counts,
                workers,
            )
        else:
            dense = np.empty((out_a.shape[0], k**3), dtype=np.int64)
            draw = resample.Draw(scheme, np.uint64(seed), first)
            resample.bootstrap_cells(cells.cells, k, draw, dense, workers)
            counts = dense[:, active]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined replicates are NaN and counted
            matrices_a = (counts @ cells.unit_a).reshape(-1, side_a, side_a)
            matrices_b = (counts @ cells.unit_b).reshape(-1, side_b, side_b)
            out_a[:] = from_confusion(matrices_a, **cells.options_a)
            out_b[:] = from_confusion(matrices_b, **cells.options_b)

    size = min(n_resamples, 4096)
    return _run_pairs(
        run, n_resamples, size, progress, "permutation" if permutation else "bootstrap"
    )


def _rows_pairs(
    function: Callable[..., Any],
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    weights: np.ndarray | None,
    options: dict[str, Any],
    stratify: bool,
    clusters: np.ndarray | None,
    permutation: bool,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> tuple[np.ndarray, np.ndarray]:
    truth = as_rows(y_true)
    first_model = as_rows(pred_a)
    second_model = as_rows(pred_b)
    n = truth.shape[0]
    plan = rows_plan(y_true, n, stratify, clusters)
    weighted_call = accepts_sample_weight(function)
    workers = n_workers()
    rows = np.arange(n)

    def evaluate(prediction_a: np.ndarray, prediction_b: np.ndarray, drawn: Any) -> tuple:
        """Both metrics on the rows (``drawn`` None) or on the drawn weights (the counts
        themselves without ``sample_weight``, the only case of a callable without it)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if drawn is None:
                return (
                    call_metric(function, truth, prediction_a, weights, options),
                    call_metric(function, truth, prediction_b, weights, options),
                )
            if weighted_call:
                return (
                    function(truth, prediction_a, sample_weight=drawn, **options),
                    function(truth, prediction_b, sample_weight=drawn, **options),
                )
            taken = np.repeat(rows, drawn)
            return (
                function(truth[taken], prediction_a[taken], **options),
                function(truth[taken], prediction_b[taken], **options),
            )

    def run(first: int, out_a: np.ndarray, out_b: np.ndarray) -> None:
        if permutation:
            masks = np.empty((out_a.shape[0], n), dtype=np.bool_)
            draw = resample.Draw(resample.PERMUTATION, np.uint64(seed), first)
            paired.swap_masks(draw, masks, workers)
        else:
            counts = np.empty((out_a.shape[0], n), dtype=np.int64)
            draw = resample.Draw(scheme, np.uint64(seed), first)
            resample.bootstrap_row_counts(plan.strata, draw, counts, workers)
        for i in range(out_a.shape[0]):
            try:
                if permutation:
                    swap = masks[i]
                    value_a, value_b = evaluate(
                        swap_rows(first_model, second_model, swap),
                        swap_rows(second_model, first_model, swap),
                        None,
                    )
                else:
                    replicate = counts[i]
                    if plan.order is not None:
                        in_row_order = np.empty(n, dtype=np.int64)
                        in_row_order[plan.order] = replicate
                        replicate = in_row_order
                    drawn = replicate_weight(replicate, weights)
                    if drawn is None:  # no weight drawn: undefined, as in the bootstrap
                        out_a[i] = out_b[i] = np.nan
                        continue
                    value_a, value_b = evaluate(first_model, second_model, drawn)
            except Exception as error:
                raise RuntimeError(
                    f"`metric` raised {type(error).__name__} on replicate {first + i}: {error}"
                ) from error
            out_a[i] = scalar(value_a, "metric")
            out_b[i] = scalar(value_b, "metric")

    size = max(workers, min(n_resamples, (1 << 24) // max(n, 1)))
    return _run_pairs(
        run, n_resamples, size, progress, "permutation" if permutation else "bootstrap"
    )


def paired_distribution(
    declaration: MetricDeclaration | None,
    function: Callable[..., Any],
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    permutation: bool,
    stratify: bool,
    groups: Any,
    resampling: str,
    sample_weight: Any,
    seed: int,
    n_resamples: int,
    progress: bool,
    metric_kwargs: dict[str, Any],
    bca: bool = False,
    fold_estimates: bool = False,
) -> PairedReplicates:
    """Both models' replicates, and with ``bca`` the jackknife of their difference.

    With ``fold_estimates`` (unweighted rows, the metric's default options), a ranking
    metric's paired bootstrap also folds both models' metric on the data over their
    sorted atoms when both classes are present (``estimates``; the metric's values bit
    for bit, :func:`assay._kernels.estimates.folded_estimate`), so that no plain scan is
    compiled for them.

    Model A's replicates of a ranking metric are those of ``bootstrap`` of model A alone
    (``a_alone``) when both lay the same atoms out and draw them alike: unweighted rows
    without clusters, no tied scores of A (the single-model plan keeps every row an
    atom of its own, in the same order), a multinomial or stratified draw.
    """
    scheme: resample.Scheme = resample.STRATIFIED if stratify else _SCHEMES[resampling]
    n = count_rows(y_true)
    clusters = cluster_codes(groups, n)
    scores_a = as_rows(pred_a)
    rows_only = whole_rows(y_true, pred_a) or whole_rows(y_true, pred_b)
    if (
        declaration is not None
        and declaration.computed_from == "ranking"
        and scores_a.ndim == 1
        and not (permutation and clusters is not None)
        and not rows_only
    ):
        assert declaration.scan_options is not None
        options = declaration.scan_options(**metric_kwargs)
        if not permutation:
            streamed = paired_stream_plan(
                y_true,
                pred_a,
                pred_b,
                pos_label=metric_kwargs.get("pos_label"),
                sample_weight=sample_weight,
                clusters=clusters,
                keyed=scheme == resample.POISSON,
            )
            pairs = _streamed_pairs(streamed, options, scheme, seed, n_resamples, progress)
            a_alone = (
                sample_weight is None
                and clusters is None
                and scheme != resample.POISSON
                and not streamed.a.continues.any()
            )
            jackknife = ranking_jackknife(streamed, options, seed) if bca else None
            estimates = None
            if (
                fold_estimates
                and streamed.a.is_positive.any()
                and not streamed.a.is_positive.all()
            ):
                value_a, value_b = paired_folded_estimates(
                    streamed.a, streamed.b, streamed.a_position_of_b, streamed.clusters, options,
                    scheme, in_lanes(streamed, options, n_resamples),
                )  # fmt: skip
                estimates = (float(value_a), float(value_b))
            return PairedReplicates(*pairs, jackknife, a_alone, estimates)
        rows = paired_rows_plan(
            y_true,
            pred_a,
            pred_b,
            pos_label=metric_kwargs.get("pos_label"),
            sample_weight=sample_weight,
        )
        return PairedReplicates(*_permuted_pairs(rows, options, seed, n_resamples, progress), None)
    options = replicate_options(declaration, function, metric_kwargs)
    if (
        declaration is not None
        and declaration.computed_from == "confusion"
        and sample_weight is None
        and clusters is None
        and not rows_only
    ):
        assert declaration.from_confusion is not None
        cells = joint_cells(declaration, y_true, pred_a, pred_b, options, mirrors=permutation)
        pairs = _cells_pairs(
            cells,
            declaration.from_confusion,
            permutation,
            scheme,
            seed,
            n_resamples,
            progress,
        )
        if not bca:
            return PairedReplicates(*pairs, None)
        return PairedReplicates(*pairs, cells_jackknife(cells, declaration.from_confusion))
    weights = as_sample_weight(sample_weight, n)
    pairs = _rows_pairs(
        function,
        y_true,
        pred_a,
        pred_b,
        weights,
        options,
        stratify,
        clusters,
        permutation,
        scheme,
        seed,
        n_resamples,
        progress,
    )
    if not bca:
        return PairedReplicates(*pairs, None)
    plan = rows_plan(y_true, n, stratify, clusters)
    jackknife = rows_jackknife(function, y_true, pred_a, pred_b, weights, options, plan, seed)
    return PairedReplicates(*pairs, jackknife)
