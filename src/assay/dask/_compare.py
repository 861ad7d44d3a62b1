"""``assay.dask.compare``: the paired Poisson bootstrap of two models' ranking or
confusion-matrix metric."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from dask.delayed import delayed

import dask
from assay._procedure_checks import check_alternative, check_confidence_level, check_n_resamples
from assay._results import ComparisonResult
from assay._validation import check_option, resolve_seed
from assay.dask import _replicates as replicates
from assay.dask._bootstrap import (
    check_scan_metric,
    is_confusion_metric,
    refuse_unsupported,
    refuse_weighted_bca,
)
from assay.dask._cells_resampling import Call, cells_compare_graph, deliver_outcome
from assay.dask._delong import paired_jobs
from assay.dask._graph import ScanValue, frames_of, scan_graph
from assay.dask._ranking import SCAN_CALLS
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import resolve_metric_call
from assay.resampling._interval_pvalues import difference_range, summary_interval_and_pvalue
from assay.resampling._intervals import bootstrap_summary

__all__ = ["compare"]


def compare(
    metric: Any,
    y_true: Any,
    pred_a: Any,
    pred_b: Any,
    *,
    method: str = "bootstrap",
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    alternative: str = "two-sided",
    interval: str = "basic",
    stratify: bool = False,
    groups: Any = None,
    resampling: str = "poisson",
    sample_weight: Any = None,
    rng: Any = None,
    compute: bool = True,
    **metric_kwargs: Any,
) -> Any:
    """Does model A beat model B on the same rows? The paired Poisson bootstrap on Dask.

    The same replicates, and so the same result, as :func:`assay.compare` with
    ``resampling="poisson"`` and the same seed on the same rows, in any order and any
    partitioning.

    Parameters
    ----------
    metric : callable or str
        A ranking metric of assay (``roc_auc_score``, ``average_precision_score``,
        ``pr_auc_score``, ``equal_error_rate``), a metric of assay computed from the
        confusion matrix (``f1_score``, ``matthews_corrcoef``, ``expected_cost``, ...),
        its name, or a ``functools.partial`` of one with keyword options.
    y_true : dask Series or 1-D dask array
        Targets (binary for a ranking metric).
    pred_a, pred_b : dask Series or 1-D dask array
        The two models' scores (a ranking metric) or predicted labels (a
        confusion-matrix metric) for the same rows, partitioned like ``y_true``.
    method : {"bootstrap"}, default="bootstrap"
        The paired bootstrap (the permutation test swaps the two scores row by row,
        which needs every row's two mid-distribution values together: not on Dask).
    n_resamples : int, default=None
        Number of replicates (None: 2000).
    confidence_level : float in (0, 1), default=0.95
        Coverage of the interval of the difference.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative about ``metric(A) - metric(B)``; a one-sided alternative gives
        a one-sided interval (as :func:`assay.compare`).
    interval : {"basic", "percentile", "bca"}, default="basic"
        The interval of the difference, and the one its p-value inverts.  BCa only for
        an unweighted confusion-matrix metric (its jackknife leaves out one row of each
        joint (truth, A, B) cell).
    stratify, groups : default=False, None
        As :func:`assay.compare`, refused with the Poisson bootstrap.
    resampling : {"poisson"}, default="poisson"
        Every row alike in both scores (or both predictions, a confusion-matrix metric)
        and the class forms a cell of ``m`` rows that counts Poisson(``m``) times in a
        replicate, for both models.
    sample_weight : dask Series or 1-D dask array, default=None
        Row weights, partitioned like ``y_true``.  Each weighted row is a cell of its
        own: it counts Poisson(1) times for both models, drawn from the stream keyed by
        its position in the input (carried with the row through both shuffles; a
        confusion-matrix metric has no shuffle: a first pass counts each partition's
        rows), times its weight, as on one machine (to about 1e-15 relative; bit for bit
        with integer weights and a confusion-matrix metric).
    rng : None, int or numpy.random.Generator, default=None
        Source of the master seed; the seed used is reported in the result.
    compute : bool, default=True
        Compute now; False returns a ``dask.delayed`` object of the result (computed
        later, it gives no warnings).
    **metric_kwargs
        Options of ``metric`` (``pos_label``, ``max_fpr``, ...).

    Returns
    -------
    ComparisonResult or dask.delayed.Delayed
        As :func:`assay.compare`: ``estimate_a``, ``estimate_b``, ``difference``,
        ``confidence_interval``, ``pvalue``, ``resampled_differences``, ...

    Raises
    ------
    ValueError
        Bad options, a metric that is neither a ranking metric of assay nor one computed
        from the confusion matrix, ``stratify`` or ``groups``, or the inputs' errors (an
        error found in one partition names it).
    NotImplementedError
        ``method="permutation"``, ``interval="bca"`` with a ranking metric or with
        weights, or ``resampling="multinomial"``.

    Warns
    -----
    UndefinedMetricWarning
        The metric is undefined on the data or in some replicates (as
        :func:`assay.compare`).

    Notes
    -----
    Replicate ``b`` draws the count of each cell of rows alike in both scores and the
    class from the stream keyed by (seed, ``b``, both scores, the class), as the single
    machine does.  The rows are shuffled to model A's score buckets carrying B's score,
    then to B's buckets carrying A's (two shuffles): in either, a bucket holds whole
    cells, draws their counts and adds them to its atoms, and the replicate scan of
    :func:`bootstrap` runs on each model's buckets.  Counts are integers and every sum
    is exact: both models' replicates, and so the differences, equal those of
    :func:`assay.compare` bit for bit; the interval and p-value are computed by the
    same code as there.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import numpy as np, assay, assay.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> frame = pd.DataFrame({"y": y, "a": rng.normal(size=1000) + y,
    ...                       "b": rng.normal(size=1000) + 0.5 * y})
    >>> rows = dd.from_pandas(frame, npartitions=4)
    >>> result = assay.dask.compare(assay.roc_auc_score, rows["y"], rows["a"], rows["b"],
    ...                             n_resamples=50, rng=1)
    >>> same = assay.compare(assay.roc_auc_score, frame["y"], frame["a"], frame["b"],
    ...                      n_resamples=50, rng=1, resampling="poisson")
    >>> bool(np.array_equal(result.resampled_differences, same.resampled_differences))
    True
    """
    found = resolve_metric_call(metric, metric_kwargs)
    confusion = is_confusion_metric(found[0])
    declaration, function, name, metric_kwargs = (
        found if confusion else check_scan_metric(metric, metric_kwargs)
    )
    check_option(method, "method", ("bootstrap", "permutation"))
    n_resamples = check_n_resamples(2000 if n_resamples is None else n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    alternative = check_alternative(alternative)
    check_option(interval, "interval", ("percentile", "basic", "bca"))
    check_option(resampling, "resampling", ("multinomial", "poisson"))
    if method == "permutation":
        raise NotImplementedError(
            "`method='permutation'` is not supported on Dask (a swap of the two models' "
            "scores needs each row's values in both orders); use method='bootstrap'."
        )
    if stratify:
        raise ValueError(
            "`stratify=True` keeps the class counts fixed, which needs `resampling='multinomial'`."
        )
    if groups is not None:
        raise ValueError(
            "`groups` resamples whole clusters with a multinomial draw; it cannot be "
            "combined with `stratify=True` or `resampling='poisson'`."
        )
    refuse_unsupported(("interval", "basic" if confusion else interval), resampling)
    refuse_weighted_bca(("interval", interval), sample_weight, y_true, pred_a, pred_b)
    seed = resolve_seed(rng)
    settings: dict[str, Any] = {
        "interval": interval,
        "confidence_level": confidence_level,
        "alternative": alternative,
        "n_resamples": n_resamples,
        "seed": seed,
        "name": name,
    }
    if confusion:
        call = Call(declaration, function, name, metric_kwargs, settings)
        call.settings["declaration"] = declaration
        outcome = cells_compare_graph(call, y_true, pred_a, pred_b, sample_weight)
        return deliver_outcome(outcome, compute)
    assert declaration is not None
    scan = SCAN_CALLS[declaration.name]
    assert declaration.scan_options is not None
    options = declaration.scan_options(**metric_kwargs)
    weighted = sample_weight is not None
    jobs = paired_jobs(
        y_true, pred_a, pred_b, sample_weight, metric_kwargs.get("pos_label"),
        ("pred_a", "pred_b"), carry="other", positions=weighted,
    )  # fmt: skip
    estimates = []
    distributions = []
    for job, first in ((jobs.a, "score"), (jobs.b, "other")):
        estimates.append(scan_graph(job, options, scan.needs, scan.message))
        # unweighted: the rows alike in both scores and the class are one cell (keyed by
        # A's score, B's and the class); weighted: each row is a cell keyed by its
        # position, the same in both models' buckets
        cells = [
            delayed(replicates.weighted_cells, pure=True)(frame, atoms)
            if weighted
            else delayed(replicates.paired_cells, pure=True)(frame, atoms, first)
            for frame, atoms in zip(frames_of(job), job.atoms, strict=True)
        ]
        distributions.append(
            replicates.replicates_graph(job, cells, options, seed, n_resamples, weighted)
        )
    settings["value_range"] = difference_range(declaration)
    if not compute:
        return delayed(_lazy_result, pure=True)(estimates, distributions, settings)
    estimated, values = dask.compute(estimates, distributions)
    for estimate in estimated:
        if estimate.warning:
            warnings.warn(estimate.warning, UndefinedMetricWarning, stacklevel=2)
    return comparison_result(estimated, values, **settings, stacklevel=3)


def comparison_result(
    estimates: list[ScanValue],
    values: list[np.ndarray],
    *,
    interval: str,
    confidence_level: float,
    alternative: str,
    n_resamples: int,
    seed: int,
    name: str,
    value_range: tuple[float, float],
    stacklevel: int,
) -> ComparisonResult:
    """The bootstrap result of :func:`assay.compare` from both models' estimates and
    replicates (the same steps; ``stacklevel`` 2 points at this function's caller)."""
    estimate_a, estimate_b = (estimate.value for estimate in estimates)
    difference = estimate_a - estimate_b
    summary = bootstrap_summary(
        values[0] - values[1],
        difference,
        method=interval,
        confidence_level=confidence_level,
        stacklevel=stacklevel + 1,
    )
    interval_found, pvalue = summary_interval_and_pvalue(
        summary, difference, None, confidence_level, alternative, value_range
    )
    return ComparisonResult(
        estimate_a=estimate_a,
        estimate_b=estimate_b,
        difference=difference,
        confidence_interval=interval_found,
        pvalue=float(pvalue),
        alternative=alternative,
        method="bootstrap",
        interval=summary.method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        n_undefined=summary.n_undefined,
        rng_seed=seed,
        metric=name,
        resampled_differences=summary.bootstrap_distribution,
    )


def _lazy_result(
    estimates: list[ScanValue], values: list[np.ndarray], settings: dict[str, Any]
) -> ComparisonResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return comparison_result(estimates, values, **settings, stacklevel=2)
