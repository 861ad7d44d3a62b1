"""``assay.permutation_test``: is a model's metric better than chance?

Under the null hypothesis the predictions carry no information about the targets, so the
targets may be permuted against the predictions.  The p-value is the share of
permutations whose metric is at least as extreme as the observed one,
``(count + 1) / (B + 1)`` (Phipson & Smyth 2010), or exact (``count / B``) when every
distinct arrangement of binary targets can be enumerated (at most ``n_resamples``).

Fast paths: ranking metrics of binary scores shuffle the labels over the once-sorted
rows; confusion-matrix metrics of unweighted labels shuffle label codes and count the
cells; anything else calls the metric with permuted targets.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._kernels import paired, resample
from assay._kernels.pieces import scan
from assay._procedure_checks import check_alternative, check_n_resamples
from assay._results import PermutationTestResult
from assay._scaling import scale_free_weights
from assay._sort_choice import descending_order
from assay._validation import as_1d, as_sample_weight, as_scores, binary_target, check_same_length
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import MetricDeclaration
from assay.resampling._joint_cells import unit_matrices
from assay.resampling._plans import (
    call_metric,
    replicate_options,
    scalar,
)
from assay.resampling._pvalues import permutation_pvalue
from assay.resampling._replicates import drop_undefined
from assay.resampling._resampling import (
    check_weights_supported,
    chunk_size,
    n_workers,
    resolve_metric_call,
    resolve_seed,
    run_in_chunks,
    workers_for,
)
from assay.resampling._rows import as_rows, whole_rows

__all__ = ["permutation_test"]


def _sorted_rows(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any
) -> paired.SortedRows:
    """The rows of a binary ranking problem in decreasing order of score, with the end of
    every tie group (zero-weight rows left out)."""
    positive, _ = binary_target(y_true, pos_label)
    scores = as_scores(y_score)
    n = check_same_length(y_true=positive, y_score=scores)
    weights = scale_free_weights(as_sample_weight(sample_weight, n))  # tiny, huge
    order = descending_order(scores)
    if weights is not None:
        order = order[weights[order] > 0]
    ordered = scores[order]
    group_end = np.append(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1, ordered.shape[0])
    positive_sorted = np.ascontiguousarray(positive[order])
    unit_sorted = np.empty(0) if weights is None else np.ascontiguousarray(weights[order])
    return paired.SortedRows(
        group_end.astype(np.int64), positive_sorted, unit_sorted, weights is not None
    )


def _ranking_statistic(
    declaration: MetricDeclaration | None,
    function: Callable[..., Any],
    y_true: Any,
    y_pred: Any,
    sample_weight: Any,
    metric_kwargs: dict[str, Any],
    name: str,
) -> tuple[float, paired.SortedRows | None]:
    """The observed metric, and the sorted rows of a ranking metric when made first.

    Unweighted binary scores of both classes and a ranking metric with its default
    options: the statistic is the scan of the rows' tie groups that every permutation
    runs (:func:`assay._kernels.pieces.scan` of the groups' class counts, the metric's
    value bit for bit), so no plain scan is compiled besides it.  Otherwise the metric is
    called first, as its errors and warnings come first (and where the rows cannot be
    sorted, the metric's own error is raised).
    """
    if (
        declaration is None
        or declaration.scan_options is None
        or sample_weight is not None
        or metric_kwargs
        or np.ndim(y_true) != 1
        or np.ndim(y_pred) != 1
    ):
        return scalar(
            call_metric(function, y_true, y_pred, sample_weight, metric_kwargs), name
        ), None
    try:
        rows = _sorted_rows(y_true, as_rows(y_pred), None, None)
    except Exception:
        call_metric(function, y_true, y_pred, None, metric_kwargs)  # its error first
        raise
    positive = rows.positive_sorted
    if not positive.any() or positive.all():  # NaN and the metric's warning
        return scalar(call_metric(function, y_true, y_pred, None, metric_kwargs), name), rows
    starts = np.concatenate(([0], rows.group_end[:-1]))
    positive_sums = np.add.reduceat(positive.astype(np.float64), starts)
    negative_sums = np.diff(np.concatenate(([0], rows.group_end))) - positive_sums
    statistic = scan(declaration.scan_options(), positive_sums, negative_sums, np.bool_(True))
    return float(statistic), rows


def _ranking_null(
    scan_options: Any, rows: paired.SortedRows, seed: int, n_resamples: int, progress: bool
) -> np.ndarray:
    n_rows = rows.positive_sorted.shape[0]
    workers = workers_for(n_resamples * 2 * n_rows)  # small calls: the serial kernel

    def run(first: int, out: np.ndarray) -> None:
        draw = resample.Draw(resample.PERMUTATION, np.uint64(seed), first)
        paired.permute_ranking_labels(rows, scan_options, draw, out, workers)

    size = chunk_size(n_resamples, 2 * n_rows, workers)
    return run_in_chunks(run, n_resamples, size, progress=progress, description="permutation")


def _cells_null(
    declaration: MetricDeclaration, y_true: Any, y_pred: Any, options: dict[str, Any],
    seed: int, n_resamples: int, progress: bool,
) -> np.ndarray:  # fmt: skip
    assert declaration.from_confusion is not None
    truth = as_1d(y_true, "y_true")
    prediction = as_1d(y_pred, "y_pred")
    check_same_length(y_true=truth, y_pred=prediction)
    truth_labels, truth_codes = np.unique(truth, return_inverse=True)
    predicted_labels, predicted_codes = np.unique(prediction, return_inverse=True)
    k_true, k_predicted = truth_labels.shape[0], predicted_labels.shape[0]
    pair_true = np.repeat(truth_labels, k_predicted)
    pair_predicted = np.tile(predicted_labels, k_true)
    units, resolved = unit_matrices(declaration, pair_true, pair_predicted, options)
    side = int(np.sqrt(units.shape[1]))
    from_confusion = declaration.from_confusion
    workers = n_workers()

    def run(first: int, out: np.ndarray) -> None:
        counts = np.empty((out.shape[0], k_true * k_predicted), dtype=np.int64)
        paired.permute_pairs(
            truth_codes.astype(np.int64),
            predicted_codes.astype(np.int64),
            k_predicted,
            resample.Draw(resample.PERMUTATION, np.uint64(seed), first),
            counts,
            workers,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out[:] = from_confusion((counts @ units).reshape(-1, side, side), **resolved)

    size = max(workers, min(n_resamples, (1 << 24) // max(truth.shape[0], 1)))
    return run_in_chunks(run, n_resamples, size, progress=progress, description="permutation")


def _rows_null(
    function: Callable[..., Any], y_true: Any, y_pred: Any, sample_weight: Any,
    options: dict[str, Any], seed: int, n_resamples: int, progress: bool,
) -> np.ndarray:  # fmt: skip
    truth = as_rows(y_true)
    prediction = as_rows(y_pred)
    n = truth.shape[0]
    weights = as_sample_weight(sample_weight, n)
    workers = n_workers()

    def run(first: int, out: np.ndarray) -> None:
        permutations = np.empty((out.shape[0], n), dtype=np.int64)
        draw = resample.Draw(resample.PERMUTATION, np.uint64(seed), first)
        paired.permutations(draw, permutations, workers)
        for i in range(out.shape[0]):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = call_metric(
                        function, truth[permutations[i]], prediction, weights, options
                    )
            except Exception as error:
                raise RuntimeError(
                    f"`metric` raised {type(error).__name__} on permutation {first + i}: {error}"
                ) from error
            out[i] = scalar(value, "metric")

    size = max(workers, min(n_resamples, (1 << 24) // max(n, 1)))
    return run_in_chunks(run, n_resamples, size, progress=progress, description="permutation")


def _exact_null(
    function: Callable[..., Any], y_true: Any, y_pred: Any, sample_weight: Any,
    options: dict[str, Any], labels: np.ndarray, codes: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The metric for every distinct arrangement of two-class targets over the rows."""
    n = codes.shape[0]
    n_second = int(np.count_nonzero(codes))
    values = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for chosen in itertools.combinations(range(n), n_second):
            arranged = np.full(n, labels[0], dtype=labels.dtype)
            arranged[list(chosen)] = labels[1]
            value = call_metric(function, arranged, y_pred, sample_weight, options)
            values.append(scalar(value, "metric"))
    return np.array(values)


def permutation_test(
    metric: Any,
    y_true: Any,
    y_pred: Any,
    *,
    n_resamples: int = 9999,
    alternative: str | None = None,
    sample_weight: Any = None,
    rng: Any = None,
    progress: bool = False,
    **metric_kwargs: Any,
) -> PermutationTestResult:
    """Permutation test of a metric against chance: targets permuted against predictions.

    Parameters
    ----------
    metric : callable or str
        An assay metric or its name (fast paths), or any callable
        ``f(y_true, y_pred, **metric_kwargs)`` returning a number.
    y_true : array-like of shape (n_samples,)
        True targets; they are permuted.
    y_pred : array-like
        Predictions or scores; they stay with their rows (and weights).
    n_resamples : int, default=9999
        Random permutations (ignored when the exact enumeration is used).
    alternative : {"greater", "less", "two-sided"}, optional
        Default: "greater" for a metric where larger is better, "less" where smaller is
        better (error rates, costs, losses), "two-sided" for a callable.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights; they stay with the rows.
    rng : None, int or numpy.random.Generator, default=None
        Source of the master seed (reported in the result).
    progress : bool, default=False
        Print a progress line on standard error.
    **metric_kwargs
        Options passed to ``metric``.

    Returns
    -------
    PermutationTestResult
        ``statistic`` (the observed metric), ``pvalue``, ``alternative``,
        ``null_distribution``, ``n_resamples``, ``exact`` and ``rng_seed``.

    Raises
    ------
    ValueError
        Bad options or inputs.
    RuntimeError
        A callable ``metric`` raised on a permutation.

    Warns
    -----
    UndefinedMetricWarning
        When the metric was undefined on some permutations (left out and counted); when
        it is undefined on all of them, the p-value is NaN (as :func:`assay.bootstrap`
        returns a NaN interval).

    Notes
    -----
    Randomized p-value ``(count + 1) / (B + 1)``, never 0 (Phipson & Smyth 2010). With
    two classes and at most ``n_resamples`` distinct arrangements of the targets
    (``C(n, n_positive)``), every arrangement is enumerated and the p-value is exact
    (``count / C``). The two-sided p-value doubles the smaller one-sided p-value
    (capped at 1), as ``scipy.stats.permutation_test`` does.

    Examples
    --------
    >>> import assay
    >>> from assay.datasets import binormal_scores
    >>> y_true, y_score = binormal_scores(2000, auc=0.6, rng=0)
    >>> result = assay.permutation_test(assay.roc_auc_score, y_true, y_score,
    ...                                 n_resamples=999, rng=1)
    >>> result.pvalue
    0.001
    """
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    n_resamples = check_n_resamples(n_resamples)
    if alternative is None:
        alternative = "two-sided"
        if declaration is not None:
            alternative = "greater" if declaration.greater_is_better else "less"
    alternative = check_alternative(alternative)
    check_weights_supported(function, sample_weight)
    seed = resolve_seed(rng)
    statistic, rows = _ranking_statistic(
        declaration, function, y_true, y_pred, sample_weight, metric_kwargs, name
    )
    options = replicate_options(declaration, function, metric_kwargs)

    rows_only = whole_rows(y_true, y_pred)  # multilabel: permute whole rows
    truth = as_rows(y_true)
    exact = False
    if not rows_only and truth.ndim == 1:
        labels, codes = np.unique(truth, return_inverse=True)
        exact = (
            labels.shape[0] == 2
            and math.comb(truth.shape[0], int(np.count_nonzero(codes))) <= n_resamples
        )
    score_array = as_rows(y_pred)
    if exact:
        null = _exact_null(function, y_true, y_pred, sample_weight, options, labels, codes)
    elif (
        declaration is not None
        and declaration.computed_from == "ranking"
        and score_array.ndim == 1
        and not rows_only
    ):
        assert declaration.scan_options is not None
        if rows is None:
            rows = _sorted_rows(y_true, score_array, metric_kwargs.get("pos_label"), sample_weight)
        null = _ranking_null(
            declaration.scan_options(**metric_kwargs), rows, seed, n_resamples, progress
        )
    elif (
        declaration is not None
        and declaration.computed_from == "confusion"
        and sample_weight is None
        and not rows_only
    ):
        null = _cells_null(declaration, y_true, y_pred, options, seed, n_resamples, progress)
    else:
        null = _rows_null(
            function, y_true, y_pred, sample_weight, options, seed, n_resamples, progress
        )
    null, n_undefined = drop_undefined(null)
    if n_undefined and not null.shape[0]:  # as bootstrap: NaN with a warning, no error
        warnings.warn(
            f"The metric is undefined on all {n_undefined} permutations; the p-value is NaN.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        pvalue = math.nan
    else:
        if n_undefined:
            warnings.warn(
                f"The metric was undefined on {n_undefined} of "
                f"{n_undefined + null.shape[0]} permutations; they are left out.",
                UndefinedMetricWarning,
                stacklevel=2,
            )
        pvalue = permutation_pvalue(null, statistic, alternative, exact=exact)
    return PermutationTestResult(
        statistic=statistic,
        pvalue=float(pvalue),
        alternative=alternative,
        null_distribution=null,
        n_resamples=int(null.shape[0] + n_undefined),
        exact=bool(exact),
        rng_seed=None if exact else seed,
        metric=name,
    )
