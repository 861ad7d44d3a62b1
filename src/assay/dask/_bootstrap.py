"""``assay.dask.bootstrap``: the Poisson bootstrap of a ranking or confusion-matrix metric
of dask collections."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np
from dask.delayed import delayed

import dask
from assay._procedure_checks import check_confidence_level, check_n_resamples
from assay._results import BootstrapResult
from assay._validation import check_option, resolve_seed
from assay.dask import _ranking
from assay.dask import _replicates as replicates
from assay.dask._cells_resampling import (
    Call,
    cells_bootstrap_graph,
    deliver_outcome,
    is_multilabel,
)
from assay.dask._graph import ScanValue, frames_of, ranking_job, scan_graph, weighted_rows_job
from assay.exceptions import UndefinedMetricWarning
from assay.metrics._registry import metric_range, resolve_metric_call
from assay.resampling._bootstrap import bootstrap_result

__all__ = ["bootstrap"]


def check_scan_metric(metric: Any, metric_kwargs: dict[str, Any]) -> tuple[Any, Any, str, Any]:
    """``(declaration, function, name, metric_kwargs)`` of a ranking metric of assay
    with its options checked; anything else is refused."""
    declaration, function, name, metric_kwargs = resolve_metric_call(metric, metric_kwargs)
    names = _ranking.SCAN_CALLS
    if declaration is None or declaration.name not in names:
        raise ValueError(
            f"`metric` must be a ranking metric of assay ({', '.join(names)}) or one "
            f"computed from the confusion matrix on Dask; got {name!r} (any other metric "
            "would need every replicate's rows in one place, which a partitioned "
            "collection does not have)."
        )
    _check_options(declaration.name, metric_kwargs)
    return declaration, function, name, metric_kwargs


def refuse_unsupported(interval: tuple[str, str], resampling: str) -> None:
    """What the Poisson bootstrap on Dask does not do: BCa (``interval`` is the name and
    value of the interval option), the multinomial draw."""
    name, value = interval
    if value == "bca":
        raise NotImplementedError(
            f"`{name}='bca'` is not supported on Dask yet (its jackknife needs the rows); "
            "use 'percentile' or 'basic'."
        )
    if resampling != "poisson":
        raise NotImplementedError(
            f"`resampling={resampling!r}` is not supported on Dask: the multinomial "
            "bootstrap draws n rows from all of them; use resampling='poisson'."
        )


def is_confusion_metric(declaration: Any) -> bool:
    """A metric of assay computed from the confusion matrix (F1, MCC, expected cost...)."""
    return declaration is not None and declaration.computed_from == "confusion"


def refuse_weighted_bca(interval: tuple[str, str], sample_weight: Any, *labels: Any) -> None:
    """BCa of a confusion-matrix metric on Dask: from the cells unweighted; weighted or
    multilabel (rows drawn one by one), its jackknife would leave out groups of rows,
    which are spread over the partitions."""
    name, value = interval
    if value == "bca" and sample_weight is not None:
        raise NotImplementedError(
            f"`{name}='bca'` with `sample_weight` is not supported on Dask (its jackknife "
            "leaves out groups of rows); use 'percentile' or 'basic', or no weights."
        )
    if value == "bca" and is_multilabel(*labels):
        raise NotImplementedError(
            f"`{name}='bca'` of multilabel targets is not supported on Dask (its jackknife "
            "leaves out groups of rows); use 'percentile' or 'basic'."
        )


def _check_options(name: str, metric_kwargs: dict[str, Any]) -> None:
    """The metric's own checks of its options (those of its dask function)."""
    arguments = inspect.signature(getattr(_ranking, name)).bind(None, None, **metric_kwargs)
    if "max_fpr" in metric_kwargs:
        _ranking._check_max_fpr(metric_kwargs["max_fpr"])
    if name == "pr_auc_score":
        check_option(arguments.arguments.get("method", "trapezoid"), "method",
                     tuple(_ranking.PR_AUC_SCANS))  # fmt: skip
    if name == "equal_error_rate":
        check_option(arguments.arguments.get("method", "interpolate"), "method",
                     _ranking.EER_METHODS)  # fmt: skip


def bootstrap(
    metric: Any,
    y_true: Any,
    y_score: Any,
    *,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
    method: str = "percentile",
    resampling: str = "poisson",
    sample_weight: Any = None,
    rng: Any = None,
    compute: bool = True,
    **metric_kwargs: Any,
) -> Any:
    """Poisson bootstrap confidence interval of a ranking or confusion-matrix metric of
    dask collections.

    The same replicates, and so the same result, as :func:`assay.bootstrap` with
    ``resampling="poisson"`` and the same seed on the same rows, in any order and any
    partitioning (weighted rows: any partitioning of the rows in the same order).

    Parameters
    ----------
    metric : callable or str
        A ranking metric of assay (``assay.roc_auc_score``, ``average_precision_score``,
        ``pr_auc_score``, ``equal_error_rate``), a metric of assay computed from the
        confusion matrix (``f1_score``, ``precision_score``, ``matthews_corrcoef``,
        ``balanced_accuracy_score``, ``expected_cost``, ...), its name, or a
        ``functools.partial`` of one with keyword options.
    y_true : dask Series or 1-D dask array
        Binary targets.
    y_score : dask Series or 1-D dask array
        Scores (a ranking metric) or predicted labels (a confusion-matrix metric),
        partitioned like ``y_true``.
    n_resamples : int, default=2000
        Number of bootstrap replicates.
    confidence_level : float in (0, 1), default=0.95
        Coverage of the interval.
    method : {"percentile", "basic", "bca"}, default="percentile"
        The interval, as in :func:`assay.bootstrap`.  BCa only for an unweighted
        confusion-matrix metric (its jackknife leaves out one row of each confusion
        cell); otherwise its jackknife needs the rows, not available on Dask.
    resampling : {"poisson"}, default="poisson"
        The Poisson bootstrap only: every (score, class) cell of ``m`` rows counts
        Poisson(``m``) times, drawn where the cell is; the classical (multinomial)
        bootstrap draws ``n`` rows from all of them, which needs the total ``n`` and
        one draw over every row.
    sample_weight : dask Series or 1-D dask array, default=None
        Row weights, partitioned like ``y_true``.  A weighted row counts Poisson(1)
        times, drawn from the stream keyed by its position in the input (its
        partition's first row's position plus its index in the partition: the rows
        carry it to their buckets, through one shuffle), times its weight, as on one
        machine: the same replicates as :func:`assay.bootstrap` of the rows in the same
        order, however they are partitioned (to about 1e-15 relative: the weighted sums
        are added in another order).
    rng : None, int or numpy.random.Generator, default=None
        Source of the master seed; the seed used is reported in the result.
    compute : bool, default=True
        Compute now; False returns a ``dask.delayed`` object of the result (computed
        later, it gives no warnings).
    **metric_kwargs
        Options of ``metric`` (``pos_label``, ``max_fpr``, ``method`` of
        ``pr_auc_score`` given through a ``functools.partial``, ...).

    Returns
    -------
    BootstrapResult or dask.delayed.Delayed
        As :func:`assay.bootstrap`: ``estimate``, ``confidence_interval``,
        ``standard_error``, ``bias``, ``bootstrap_distribution``, ``n_undefined``,
        ``rng_seed``.

    Raises
    ------
    ValueError
        Bad options, a metric that is neither a ranking metric of assay nor one computed
        from the confusion matrix, or the inputs' errors (an error found in one
        partition names it).
    NotImplementedError
        ``method="bca"`` with a ranking metric or with weights, or
        ``resampling="multinomial"``.

    Warns
    -----
    UndefinedMetricWarning
        The metric is undefined on the data (NaN estimate) or in some replicates (left
        out and counted in ``n_undefined``).

    Notes
    -----
    A ranking metric: replicate ``b`` draws the count of each cell from the stream keyed
    by (seed, ``b``, the cell's score and class), so each bucket of the range-partitioned
    rows draws its own cells; the buckets' per-replicate totals give the weight above
    every bucket in every replicate, each bucket folds its counts from there, and the
    states are combined in score order (see the user guide page "Dask").  Counts are
    integers and every sum is exact: the replicates equal those of
    :func:`assay.bootstrap` bit for bit.

    A confusion-matrix metric needs no shuffle.  Unweighted, each partition is reduced
    to its distinct (true, predicted) label pairs with their counts, and the replicates
    are drawn from the summed confusion cells, each cell's count from the stream keyed
    by the cell, as on one machine (bit for bit).  Weighted, each partition draws its
    rows' counts (keyed by their positions: a first pass counts the rows of every
    partition) and sums the drawn weight of each of its label pairs per replicate; a
    replicate's value is the metric of the pairs with those weights (integer weights: bit
    for bit; fractional ones: to about 1e-15 relative).

    The interval, standard error and bias are computed by the same code as there.
    Poisson bootstrap: Hanley & MacGibbon (2006), "Creating non-parametric bootstrap
    samples using Poisson frequencies", Computer Methods and Programs in Biomedicine 83.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import numpy as np, assay, assay.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> frame = pd.DataFrame({"y": y, "score": rng.normal(size=1000) + y})
    >>> rows = dd.from_pandas(frame, npartitions=4)
    >>> result = assay.dask.bootstrap(assay.roc_auc_score, rows["y"], rows["score"],
    ...                               n_resamples=50, rng=1)
    >>> same = assay.bootstrap(assay.roc_auc_score, frame["y"], frame["score"],
    ...                        n_resamples=50, rng=1, resampling="poisson")
    >>> bool(np.array_equal(result.bootstrap_distribution, same.bootstrap_distribution))
    True
    """
    found = resolve_metric_call(metric, metric_kwargs)
    confusion = is_confusion_metric(found[0])
    declaration, function, name, metric_kwargs = (
        found if confusion else check_scan_metric(metric, metric_kwargs)
    )
    n_resamples = check_n_resamples(n_resamples)
    confidence_level = check_confidence_level(confidence_level)
    check_option(method, "method", ("percentile", "basic", "bca"))
    check_option(resampling, "resampling", ("multinomial", "poisson"))
    refuse_unsupported(("method", "percentile" if confusion else method), resampling)
    refuse_weighted_bca(("method", method), sample_weight, y_true, y_score)
    seed = resolve_seed(rng)
    settings: dict[str, Any] = {
        "method": method,
        "confidence_level": confidence_level,
        "n_resamples": n_resamples,
        "seed": seed,
        "name": name,
        "value_range": metric_range(declaration, function, metric_kwargs),
    }
    if confusion:
        outcome = cells_bootstrap_graph(
            Call(declaration, function, name, metric_kwargs, settings),
            y_true, y_score, sample_weight,
        )  # fmt: skip
        return deliver_outcome(outcome, compute)
    assert declaration is not None
    call = _ranking.SCAN_CALLS[declaration.name]
    assert declaration.scan_options is not None
    options = declaration.scan_options(**metric_kwargs)
    pos_label = metric_kwargs.get("pos_label")
    weighted = sample_weight is not None
    if weighted:  # rows keyed by their positions: moved with them
        job = weighted_rows_job(y_true, y_score, sample_weight, pos_label, call.multiclass_hint)
        cells = [
            delayed(replicates.weighted_cells, pure=True)(frame, atoms)
            for frame, atoms in zip(frames_of(job), job.atoms, strict=True)
        ]
    else:
        job = ranking_job(y_true, y_score, None, pos_label, call.multiclass_hint, compute)
        cells = [delayed(replicates.single_cells, pure=True)(a) for a in job.atoms]
    estimate = scan_graph(job, options, call.needs, call.message)
    distribution = replicates.replicates_graph(job, cells, options, seed, n_resamples, weighted)
    if not compute:
        return delayed(_lazy_result, pure=True)(distribution, estimate, settings)
    estimated, values = dask.compute(estimate, distribution)
    if estimated.warning:
        warnings.warn(estimated.warning, UndefinedMetricWarning, stacklevel=2)
    return bootstrap_result(values, estimated.value, None, **settings, stacklevel=4)


def _lazy_result(
    distribution: np.ndarray, estimate: ScanValue, settings: dict[str, Any]
) -> BootstrapResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bootstrap_result(distribution, estimate.value, None, **settings, stacklevel=2)
