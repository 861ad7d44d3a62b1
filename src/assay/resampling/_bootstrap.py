"""``assay.bootstrap``: a confidence interval for any metric, in seconds at 1e6-1e8 rows.

Three paths, chosen from the metric's declaration in the registry (ARCHITECTURE rule 8):

ranking (ROC AUC, partial AUC, AP, AUC-PR, EER; binary scores)
    The scores are sorted once; a replicate is a vector of counts over the sorted atoms
    and its metric one O(n) weighted sweep (:mod:`assay._kernels.resample`).
confusion (every confusion-matrix metric; unweighted rows)
    The confusion matrix is the sufficient statistic: a replicate's matrix is one
    multinomial draw over the cells, O(cells) whatever n (rule 4).
generic (regression losses, weighted confusion metrics, multi-class scores, any callable)
    A replicate's row counts are drawn by a kernel and passed to the metric as sample
    weights (integer weights equal repetition, a registry-tested invariance); a callable
    without ``sample_weight`` gets the resampled rows themselves.

Every replicate ``b`` draws from the random stream keyed by (seed, b): results are
bit-identical for any number of threads and any chunk size.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._kernels import estimates, jackknife, resample, streaming
from assay._procedure_checks import check_confidence_level, check_n_resamples
from assay._results import BootstrapResult, ConfidenceInterval
from assay._validation import as_sample_weight, check_option, reject_sparse
from assay.metrics._ranking import is_full_roc_auc
from assay.metrics._registry import MetricDeclaration, clip_to_range, metric_range
from assay.resampling._intervals import bootstrap_summary
from assay.resampling._plans import (
    RowsPlan,
    StreamPlan,
    call_metric,
    cluster_codes,
    replicate_options,
    replicate_weight,
    rows_plan,
    scalar,
    stream_plan,
)
from assay.resampling._resampling import (
    accepts_sample_weight,
    check_weights_supported,
    chunk_size,
    n_workers,
    resolve_metric_call,
    resolve_seed,
    run_in_chunks,
    workers_for,
)
from assay.resampling._rows import as_rows, count_rows, whole_rows

__all__ = ["bootstrap"]

_JACKKNIFE_GROUPS = 100  # delete-a-group jackknife for BCa where no closed form exists
_EMPTY_INT = np.empty(0, dtype=np.int64)
_EMPTY_FLOAT = np.empty(0, dtype=np.float64)
_SCHEMES: dict[str, resample.Scheme] = {
    "multinomial": resample.MULTINOMIAL,
    "poisson": resample.POISSON,
}


def _check_options(method: str, resampling: str, stratify: bool, groups: Any) -> None:
    check_option(method, "method", ("percentile", "basic", "bca"))
    check_option(resampling, "resampling", ("multinomial", "poisson"))
    if stratify and resampling == "poisson":
        raise ValueError(
            "`stratify=True` keeps the class counts fixed, which needs `resampling='multinomial'`."
        )
    if groups is not None and (stratify or resampling == "poisson"):
        raise ValueError(
            "`groups` resamples whole clusters with a multinomial draw; it cannot be "
            "combined with `stratify=True` or `resampling='poisson'`."
        )


def _ranking_distribution(
    plan: StreamPlan,
    options: Any,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> np.ndarray:
    workers = workers_for(n_resamples * plan.n_atoms)  # small calls: the serial kernel

    def run(first: int, out: np.ndarray) -> None:
        draw = resample.Draw(scheme, np.uint64(seed), first)
        streaming.bootstrap_ranking(plan.atoms, plan.clusters, options, draw, out, workers)

    size = chunk_size(n_resamples, plan.n_atoms, workers)
    return run_in_chunks(run, n_resamples, size, progress=progress, description="bootstrap")


def _ranking_estimate(
    function: Callable[..., Any],
    scan_options: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    y_score: np.ndarray,
    sample_weight: Any,
    clusters: np.ndarray | None,
    scheme: resample.Scheme,
    metric_kwargs: dict[str, Any],
    name: str,
) -> tuple[float, Any, StreamPlan]:
    """The estimate, the scan options and the sorted atoms of a ranking metric's bootstrap
    (``y_score``: the scores ``y_pred`` as an array).

    Unweighted rows of both classes with the metric's default options: the estimate is
    the fold of the atoms (:func:`assay._kernels.estimates.folded_estimate`, the metric's
    value bit for bit), so a bootstrap compiles no plain scan besides its replicates'
    fold.  Otherwise the metric is called first, as its errors and warnings come first
    (and where the atoms cannot be laid out, the metric's own error is raised).
    """
    keyed = scheme == resample.POISSON
    if sample_weight is None and not metric_kwargs:
        options = scan_options()
        try:
            streamed = stream_plan(
                y_true, y_score, pos_label=None, sample_weight=None, clusters=clusters, keyed=keyed
            )
        except Exception:
            call_metric(function, y_true, y_pred, None, metric_kwargs)  # its error first
            raise
        is_positive = streamed.atoms.is_positive
        if is_positive.any() and not is_positive.all():
            estimate = estimates.folded_estimate(
                streamed.atoms, streamed.clusters, options, scheme
            )
            return float(estimate), options, streamed
        estimate = scalar(call_metric(function, y_true, y_pred, None, metric_kwargs), name)
        return estimate, options, streamed
    estimate = scalar(call_metric(function, y_true, y_pred, sample_weight, metric_kwargs), name)
    options = scan_options(**metric_kwargs)
    streamed = stream_plan(
        y_true,
        y_score,
        pos_label=metric_kwargs.get("pos_label"),
        sample_weight=sample_weight,
        clusters=clusters,
        keyed=keyed,
    )
    return estimate, options, streamed


def _ranking_jackknife(plan: StreamPlan, options: Any, seed: int) -> tuple[np.ndarray, np.ndarray]:
    atoms, clusters = plan
    if is_full_roc_auc(options) and clusters.n_clusters == 0:
        return jackknife.auc_jackknife(atoms)
    if clusters.n_clusters > 0:  # leave whole clusters out (a group per cluster, up to 100)
        n_groups = min(_JACKKNIFE_GROUPS, clusters.n_clusters)
        group_of_atom = clusters.cluster_of_atom % n_groups
    else:
        n_rows = int(atoms.value.sum()) if atoms.cells else plan.n_atoms
        n_groups = min(_JACKKNIFE_GROUPS, n_rows)
        group_of_atom = np.random.default_rng(seed).permutation(plan.n_atoms) % n_groups
    groups = streaming.Clusters(np.ascontiguousarray(group_of_atom, dtype=np.int64), n_groups)
    values = np.empty(n_groups, dtype=np.float64)
    jackknife.grouped_jackknife(atoms, groups, options, values, n_workers())
    return values, np.ones(n_groups)


def _cells_distribution(
    matrix: np.ndarray,
    from_confusion: Callable[..., Any],
    options: dict[str, Any],
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> np.ndarray:
    k = matrix.shape[0]
    cells = np.ascontiguousarray(np.rint(matrix).astype(np.int64).ravel())
    workers = n_workers()

    def run(first: int, out: np.ndarray) -> None:
        counts = np.empty((out.shape[0], k * k), dtype=np.int64)
        draw = resample.Draw(scheme, np.uint64(seed), first)
        resample.bootstrap_cells(cells, k, draw, counts, workers)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined replicates are NaN and counted
            out[:] = from_confusion(counts.reshape(-1, k, k).astype(np.float64), **options)

    size = min(n_resamples, 4096)
    return run_in_chunks(run, n_resamples, size, progress=progress, description="bootstrap")


def _cells_jackknife(
    matrix: np.ndarray, from_confusion: Callable[..., Any], options: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """Leave one row out of each non-empty cell: one value per cell, counted per row."""
    cells = np.flatnonzero(matrix.ravel() > 0)
    stack = np.repeat(matrix[None, :, :].astype(np.float64), cells.shape[0], axis=0)
    stack.reshape(cells.shape[0], -1)[np.arange(cells.shape[0]), cells] -= 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        values = np.asarray(from_confusion(stack, **options), dtype=np.float64)
    return values, matrix.ravel()[cells].astype(np.float64)


def _confusion_bootstrap(
    declaration: MetricDeclaration,
    name: str,
    y_true: Any,
    y_pred: Any,
    metric_kwargs: dict[str, Any],
    method: str,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: Any,
) -> tuple[float, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """Estimate, replicates and jackknife of a confusion metric from one pass over the rows.

    The confusion matrix gives the estimate (exactly as the public function computes
    it, warnings included) and the cells the replicates draw from; replicates whose
    ratio is undefined are NaN (counted), whatever ``zero_division`` says.
    """
    assert declaration.from_confusion is not None
    from_confusion = declaration.from_confusion
    matrix, resolved = declaration.resolve_arguments(y_true, y_pred, **metric_kwargs)
    # a warning points at the user's call: frames from_confusion (1), this function (2),
    # bootstrap (3), the user's (4)
    warns = "stacklevel" in inspect.signature(from_confusion).parameters
    where = {"stacklevel": 4} if warns else {}
    estimate = scalar(from_confusion(matrix, **resolved, **where), name)
    if resolved.get("zero_division") == "warn":
        resolved["zero_division"] = np.nan
    distribution = _cells_distribution(
        matrix, from_confusion, resolved, scheme, seed, n_resamples, progress
    )
    jackknife = _cells_jackknife(matrix, from_confusion, resolved) if method == "bca" else None
    return estimate, distribution, jackknife


def _rows_distribution(
    function: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    weights: np.ndarray | None,
    options: dict[str, Any],
    plan: RowsPlan,
    scheme: resample.Scheme,
    seed: int,
    n_resamples: int,
    progress: bool,
) -> np.ndarray:
    n = plan.n
    truth = as_rows(y_true)
    prediction = as_rows(y_pred)
    weighted_call = accepts_sample_weight(function)
    workers = n_workers()
    rows = np.arange(n)

    def run(first: int, out: np.ndarray) -> None:
        counts = np.empty((out.shape[0], n), dtype=np.int64)
        draw = resample.Draw(scheme, np.uint64(seed), first)
        resample.bootstrap_row_counts(plan.strata, draw, counts, workers)
        for i in range(out.shape[0]):
            replicate = counts[i]
            if plan.order is not None:
                in_row_order = np.empty(n, dtype=np.int64)
                in_row_order[plan.order] = replicate
                replicate = in_row_order
            sample_weight = replicate_weight(replicate, weights)
            if sample_weight is None:
                out[i] = np.nan
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    if weighted_call:
                        value = function(truth, prediction, sample_weight=sample_weight, **options)
                    else:
                        taken = np.repeat(rows, replicate)
                        value = function(truth[taken], prediction[taken], **options)
            except Exception as error:
                raise RuntimeError(
                    f"`metric` raised {type(error).__name__} on bootstrap replicate "
                    f"{first + i}: {error}"
                ) from error
            out[i] = scalar(value, getattr(function, "__name__", "metric"))

    size = max(workers, min(n_resamples, (1 << 24) // max(n, 1)))
    return run_in_chunks(run, n_resamples, size, progress=progress, description="bootstrap")


def _rows_jackknife(
    function: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    weights: np.ndarray | None,
    options: dict[str, Any],
    plan: RowsPlan,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Delete-a-group jackknife (clusters kept whole), one metric call per group."""
    n = plan.n
    if plan.n_clusters > 0:
        n_groups = min(_JACKKNIFE_GROUPS, plan.n_clusters)
        group_of_row = plan.clusters % n_groups
    else:
        n_groups = min(_JACKKNIFE_GROUPS, n)
        group_of_row = np.random.default_rng(seed).permutation(n) % n_groups
    truth = as_rows(y_true)
    prediction = as_rows(y_pred)
    values = np.empty(n_groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for g in range(n_groups):
            kept = group_of_row != g
            sample_weight = replicate_weight(kept.astype(np.float64), weights)
            if sample_weight is None:  # one cluster, or all weight in the group left out
                values[g] = np.nan  # (BCa is then undefined)
                continue
            if accepts_sample_weight(function):
                value = function(truth, prediction, sample_weight=sample_weight, **options)
            else:
                value = function(truth[kept], prediction[kept], **options)
            values[g] = scalar(value, getattr(function, "__name__", "metric"))
    return values, np.ones(n_groups)


def bootstrap(
    metric: Any,
    y_true: Any,
    y_pred: Any,
    *,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
    method: str = "percentile",
    stratify: bool = False,
    groups: Any = None,
    resampling: str = "multinomial",
    sample_weight: Any = None,
    rng: Any = None,
    progress: bool = False,
    **metric_kwargs: Any,
) -> BootstrapResult:
    """Bootstrap confidence interval of a metric on a test set.

    Parameters
    ----------
    metric : callable or str
        An assay metric (``assay.roc_auc_score``, ``assay.f1_score``, ...) or its name,
        which selects a fast path, or any callable ``f(y_true, y_pred, **metric_kwargs)``
        returning a number (given ``sample_weight=`` replicate counts if it accepts it,
        otherwise the resampled rows).
    y_true : array-like of shape (n_samples,)
        True targets.
    y_pred : array-like
        Predictions or scores, as ``metric`` takes them.
    n_resamples : int, default=2000
        Number of bootstrap replicates.
    confidence_level : float in (0, 1), default=0.95
        Coverage of the interval.
    method : {"percentile", "basic", "bca"}, default="percentile"
        Percentile, basic (reverse percentile) or bias-corrected and accelerated
        interval (Efron & Tibshirani 1993, ch. 13-14). BCa's acceleration comes from a
        closed-form jackknife where one exists (ROC AUC: leave-one-out values from the
        placements; confusion-matrix metrics: one value per cell) and otherwise from a
        delete-a-group jackknife over 100 random groups of rows (whole clusters with
        ``groups``).
    stratify : bool, default=False
        Keep the number of rows of each class of ``y_true`` fixed in every replicate
        (pROC's default for AUC). Needs ``resampling="multinomial"``.
    groups : array-like of shape (n_samples,), default=None
        Cluster labels (patients, users, documents): replicates draw whole clusters
        with replacement instead of rows.
    resampling : {"multinomial", "poisson"}, default="multinomial"
        The classical bootstrap (n rows drawn with replacement), or the Poisson
        bootstrap (every row counted Poisson(1) times independently; the replicate
        size varies), which streams over data of unknown size.  Its counts are keyed by
        what they count (an unweighted row by its score and class, a confusion cell by
        its labels, a weighted row by its position), so unweighted replicates do not
        depend on the order of the rows, nor any on a split of the rows into pieces.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights: a replicate's weight of a row is its count times its weight.
    rng : None, int or numpy.random.Generator, default=None
        Source of the master seed; the seed used is reported in the result.
    progress : bool, default=False
        Print a progress line on standard error.
    **metric_kwargs
        Options passed to ``metric`` (``pos_label``, ``average``, ``max_fpr``, ...).

    Returns
    -------
    BootstrapResult
        ``estimate`` (the metric on the data), ``confidence_interval`` (inside the
        metric's range, see Notes), ``standard_error``, ``bias``,
        ``bootstrap_distribution`` (defined replicates), ``n_undefined``, ``rng_seed``
        and the settings used.

    Raises
    ------
    ValueError
        Bad options (see the messages) or inputs the metric rejects.
    RuntimeError
        A callable ``metric`` raised on a replicate (the message names the replicate).

    Warns
    -----
    UndefinedMetricWarning
        When the metric was undefined in some replicates (for example a replicate
        without positives, or one that drew only rows of weight zero, which the metric
        is not called on): they are left out and counted in ``n_undefined``. With
        ``zero_division="warn"`` (the default of the confusion metrics) such a replicate
        is undefined rather than 0.
    DegenerateDataWarning
        When BCa cannot be computed (all replicates equal, ...) and the percentile
        interval is returned instead.

    Notes
    -----
    A ranking metric's replicate is a vector of counts over the once-sorted rows and its
    value one weighted O(n) sweep; a confusion metric's replicate is a multinomial draw
    of the confusion-matrix cells, O(cells) whatever n (a stratified replicate draws
    each true class's row of cells). Replicate ``b`` uses the counter-based random
    stream keyed by (seed, b), so results are identical for any number of threads and
    any chunk size. The bootstrap itself: Efron (1979); "Estimation of the hypothesis
    real risk", section on the bootstrap; Gama, "Evaluation of classification and
    regression algorithms", "Bootstrap".

    The interval stays in the range of the metric (``[0, 1]`` for rates and areas,
    ``[-1, 1]`` for MCC and kappa, ``[0, inf)`` for losses and counts, ``(-inf, 1]``
    for R², read from the registry for the options given; a callable may state its
    own as an attribute ``value_range = (lowest, highest)``).  Percentile and BCa
    bounds are quantiles of the replicates and lie in it already; the basic interval
    ``2 * estimate - q`` can leave it (an AUC near 1 gives an upper bound above 1)
    and is clipped.  Clipping loses no coverage: a true value in the range lies in the
    clipped interval exactly when it lies in the unclipped one.

    References
    ----------
    B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap* (1993).

    Examples
    --------
    >>> import assay
    >>> from assay.datasets import binormal_scores
    >>> y_true, y_score = binormal_scores(10_000, rng=0)
    >>> result = assay.bootstrap(assay.roc_auc_score, y_true, y_score, n_resamples=500, rng=1)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high)
    True
    """
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    n_resamples = check_n_resamples(n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    _check_options(method, resampling, stratify, groups)
    check_weights_supported(function, sample_weight)
    seed = resolve_seed(rng)
    scheme: resample.Scheme = resample.STRATIFIED if stratify else _SCHEMES[resampling]
    rows_only = whole_rows(y_true, y_pred)  # multilabel: a replicate draws whole rows
    if not rows_only:
        reject_sparse(y_true, "y_true")
        reject_sparse(y_pred, "y_pred")

    n = count_rows(y_true)
    clusters = cluster_codes(groups, n)
    score_array = as_rows(y_pred)
    jackknife: tuple[np.ndarray, np.ndarray] | None = None
    if (
        declaration is not None
        and declaration.computed_from == "confusion"
        and sample_weight is None
        and clusters is None
        and not rows_only
    ):
        estimate, distribution, jackknife = _confusion_bootstrap(
            declaration,
            name,
            y_true,
            y_pred,
            metric_kwargs,
            method,
            scheme,
            seed,
            n_resamples,
            progress,
        )
    elif (
        declaration is not None
        and declaration.computed_from == "ranking"
        and score_array.ndim == 1
        and not rows_only
    ):
        assert declaration.scan_options is not None
        estimate, options, streamed = _ranking_estimate(
            function,
            declaration.scan_options,
            y_true,
            y_pred,
            score_array,
            sample_weight,
            clusters,
            scheme,
            metric_kwargs,
            name,
        )
        distribution = _ranking_distribution(
            streamed, options, scheme, seed, n_resamples, progress
        )
        if method == "bca":
            jackknife = _ranking_jackknife(streamed, options, seed)
    else:
        estimate = scalar(
            call_metric(function, y_true, y_pred, sample_weight, metric_kwargs), name
        )
        weights = as_sample_weight(sample_weight, n)
        options = replicate_options(declaration, function, metric_kwargs)
        plan_rows = rows_plan(y_true, n, stratify, clusters)
        distribution = _rows_distribution(
            function,
            y_true,
            y_pred,
            weights,
            options,
            plan_rows,
            scheme,
            seed,
            n_resamples,
            progress,
        )
        if method == "bca":
            jackknife = _rows_jackknife(
                function, y_true, y_pred, weights, options, plan_rows, seed
            )
    return bootstrap_result(
        distribution,
        estimate,
        jackknife,
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        seed=seed,
        name=name,
        value_range=metric_range(declaration, function, metric_kwargs),
        stacklevel=4,
    )


def bootstrap_result(
    distribution: np.ndarray,
    estimate: float,
    jackknife: tuple[np.ndarray, np.ndarray] | None,
    *,
    method: str,
    confidence_level: float,
    n_resamples: int,
    seed: int,
    name: str,
    value_range: tuple[float, float],
    stacklevel: int,
) -> BootstrapResult:
    """The :class:`BootstrapResult` of replicates: interval, standard error and bias
    (a warning about the replicates points ``stacklevel`` frames up)."""
    summary = bootstrap_summary(
        distribution,
        estimate,
        method=method,
        confidence_level=confidence_level,
        jackknife_values=None if jackknife is None else jackknife[0],
        jackknife_counts=None if jackknife is None else jackknife[1],
        stacklevel=stacklevel,
    )
    # the basic interval 2 * estimate - q can leave the metric's range (an AUC above 1);
    # percentile and BCa intervals are quantiles of replicates, inside it already
    low, high = clip_to_range(*summary.confidence_interval, value_range)
    return BootstrapResult(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(low, high),
        standard_error=summary.standard_error,
        bias=summary.bias,
        bootstrap_distribution=summary.bootstrap_distribution,
        method=summary.method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_undefined=summary.n_undefined,
        rng_seed=seed,
        metric=name,
    )
