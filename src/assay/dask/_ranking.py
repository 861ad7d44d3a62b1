"""Ranking metrics of dask collections: exact, from range-partitioned scans."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from dask.delayed import delayed

import dask
from assay._kernels import ranking as kernels
from assay._results import PrecisionRecallCurve, RocCurve
from assay._validation import check_option
from assay.dask import _buckets as buckets
from assay.dask._graph import (
    ScanValue,
    deliver,
    ranking_job,
    scan_graph,
    scanned,
    warned_value,
)
from assay.dask._thin import check_max_points, thin_precision_recall, thin_roc
from assay.metrics._ranking import (
    EER_METHODS,
    PR_AUC_SCANS,
    ROC_AUC_MULTICLASS_HINT,
    _check_max_fpr,
    average_precision_options,
    equal_error_rate_options,
    pr_auc_options,
    roc_auc_options,
)

__all__ = [
    "average_precision_score",
    "equal_error_rate",
    "pr_auc_score",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]

_ONE_CLASS = "Only one class is present in `y_true`; {} is undefined (NaN returned)."
_NO_POSITIVES = "No positive samples in `y_true`; {} is undefined (NaN returned)."


class ScanCall(NamedTuple):
    """What a ranking metric's dask function scans, and when it is undefined."""

    needs: str
    """The classes that must carry weight: ``"both"`` or ``"positive"``."""
    message: str
    multiclass_hint: str = ""


SCAN_CALLS = {
    "roc_auc_score": ScanCall("both", _ONE_CLASS.format("ROC AUC"), ROC_AUC_MULTICLASS_HINT),
    "average_precision_score": ScanCall("positive", _NO_POSITIVES.format("average precision")),
    "pr_auc_score": ScanCall(
        "positive", _NO_POSITIVES.format("the area under the precision-recall curve")
    ),
    "equal_error_rate": ScanCall("both", _ONE_CLASS.format("the equal error rate")),
}
"""The ranking metrics of :mod:`assay.dask` (those :func:`bootstrap` and :func:`compare`
take too)."""


def _scan_metric(
    name: str, options: Any, y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any,
    compute: bool,
) -> Any:  # fmt: skip
    """The body of every ranking metric: one job, one scan, delivered."""
    call = SCAN_CALLS[name]
    job = ranking_job(
        y_true, y_score, sample_weight, pos_label, call.multiclass_hint, compute, scans_only=True
    )
    return deliver(scan_graph(job, options, call.needs, call.message), compute, stacklevel=4)


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    max_fpr: float | None = None,
    pos_label: Any = None,
    compute: bool = True,
) -> Any:
    """Area under the ROC curve of dask collections, exactly (binary targets).

    Parameters
    ----------
    y_true : dask Series or 1-D dask array
        Binary targets (the rules of :func:`assay.roc_auc_score`).
    y_score : dask Series or 1-D dask array
        Scores, partitioned like ``y_true`` (same number of partitions and the same
        length in each: e.g. two columns of one dask DataFrame).
    sample_weight : dask Series or 1-D dask array, default=None
        Non-negative weights, partitioned like ``y_true``.
    max_fpr : float in (0, 1], default=None
        The McClish-standardised partial area over FPR in [0, max_fpr].
    pos_label : int, float, bool or str, default=None
        The positive class (inferred for {0, 1}, {-1, 1} and booleans).
    compute : bool, default=True
        Compute now and return a float; False returns a ``dask.delayed`` object
        (computed later, it gives NaN for a single class without the warning).

    Returns
    -------
    float or dask.delayed.Delayed
        The area, equal to :func:`assay.roc_auc_score` on the same rows: bit for bit
        without weights or with integer weights, to rounding (1e-12 relative) with
        fractional weights.

    Raises
    ------
    ValueError
        The single-machine errors; an error found in one partition names it.

    Warns
    -----
    UndefinedMetricWarning
        A single class in ``y_true``: NaN.

    Notes
    -----
    Each partition is sorted into its tie groups where it lies and cut at splitters
    sampled from the scores (equal scores always share a bucket); each bucket merges
    its pieces from every partition and is folded by the same scan as on one machine,
    starting from the weight above it; the states are combined in score order. See
    the user guide page "Dask" and :func:`assay.roc_auc_score` for the formula.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import assay.dask
    >>> frame = dd.from_pandas(pd.DataFrame({"y": [0, 0, 1, 1],
    ...                                      "score": [0.1, 0.4, 0.35, 0.8]}), npartitions=2)
    >>> assay.dask.roc_auc_score(frame["y"], frame["score"])
    0.75
    """
    options = roc_auc_options(_check_max_fpr(max_fpr))
    return _scan_metric(
        "roc_auc_score", options, y_true, y_score, sample_weight, pos_label, compute
    )


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    compute: bool = True,
) -> Any:
    """Average precision of dask collections, exactly (binary targets).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, compute
        As in :func:`roc_auc_score`.

    Returns
    -------
    float or dask.delayed.Delayed
        Equal to :func:`assay.average_precision_score` on the same rows.

    Warns
    -----
    UndefinedMetricWarning
        Without positives: NaN.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> import assay.dask
    >>> frame = dd.from_pandas(pd.DataFrame({"y": [0, 0, 1, 1],
    ...                                      "score": [0.1, 0.4, 0.35, 0.8]}), npartitions=2)
    >>> round(assay.dask.average_precision_score(frame["y"], frame["score"]), 6)
    0.833333
    """
    options = average_precision_options()
    return _scan_metric(
        "average_precision_score", options, y_true, y_score, sample_weight, pos_label, compute
    )


def pr_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "trapezoid",
    pos_label: Any = None,
    sample_weight: Any = None,
    compute: bool = True,
) -> Any:
    """Area under the precision-recall curve of dask collections, by a named rule.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, compute
        As in :func:`roc_auc_score`.
    method : {"trapezoid", "interpolated", "11-point"}, default="trapezoid"
        The rule of :func:`assay.pr_auc_score`.

    Returns
    -------
    float or dask.delayed.Delayed
        Equal to :func:`assay.pr_auc_score` on the same rows.

    Warns
    -----
    UndefinedMetricWarning
        Without positives: NaN.

    Examples
    --------
    >>> import dask.array as da
    >>> import assay.dask
    >>> labels = da.from_array([1, 0, 1, 1, 0, 1, 0, 0, 1, 0], chunks=4)
    >>> scores = da.from_array([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1], chunks=4)
    >>> round(assay.dask.pr_auc_score(labels, scores), 6)
    0.690556
    """
    check_option(method, "method", tuple(PR_AUC_SCANS))
    options = pr_auc_options(method)
    return _scan_metric(
        "pr_auc_score", options, y_true, y_score, sample_weight, pos_label, compute
    )


def equal_error_rate(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "interpolate",
    pos_label: Any = None,
    sample_weight: Any = None,
    compute: bool = True,
) -> Any:
    """Equal error rate of dask collections, exactly.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, compute
        As in :func:`roc_auc_score`.
    method : {"interpolate", "nearest"}, default="interpolate"
        The rule of :func:`assay.equal_error_rate`.

    Returns
    -------
    float or dask.delayed.Delayed
        Equal to :func:`assay.equal_error_rate` on the same rows.

    Warns
    -----
    UndefinedMetricWarning
        A single class: NaN.

    Examples
    --------
    >>> import dask.array as da
    >>> import assay.dask
    >>> labels = da.from_array([0, 0, 1, 1], chunks=2)
    >>> assay.dask.equal_error_rate(labels, da.from_array([0.1, 0.4, 0.35, 0.8], chunks=2))
    0.5
    """
    check_option(method, "method", EER_METHODS)
    options = equal_error_rate_options(method)
    return _scan_metric(
        "equal_error_rate", options, y_true, y_score, sample_weight, pos_label, compute
    )


def _deliver_curve(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    pos_label: Any,
    mode: int,
    finish: Callable[..., Any],
    max_points: int | None,
    compute: bool,
) -> Any:
    """A curve: ``finish(curves, prefix, max_points)`` (a :class:`ScanValue`) of every
    bucket's points, joined once.  Computed now, the buckets' points come to the caller
    and are joined there (the curve travels once, not to a worker and on to the
    caller); lazily, one task joins them."""
    job = ranking_job(y_true, y_score, sample_weight, pos_label, located=compute, scans_only=True)
    pieces = [
        delayed(buckets.bucket_curves, pure=True)(entries, job.prefix, mode)
        for entries in scanned(job)
    ]
    if not compute:
        return deliver(delayed(finish, pure=True)(pieces, job.prefix, max_points), False)
    curves, prefix = dask.compute(pieces, job.prefix)
    return warned_value(finish(curves, prefix, max_points), 4)


def _roc_from_curves(curves: Any, prefix: buckets.Prefix, max_points: int | None) -> Any:
    # from the point above every score; the rates divided as the points are joined
    (thresholds, tps, fps), (tp, fp) = buckets.join_curves(curves, prefix, origin=True, rates=True)
    warning = []
    if fp <= 0:
        warning.append(
            "No negative samples in `y_true`; the false positive rate is undefined (NaN)."
        )
    if tp <= 0:
        warning.append(
            "No positive samples in `y_true`; the true positive rate is undefined (NaN)."
        )
    if max_points is not None:
        fps, tps, thresholds = thin_roc(fps, tps, thresholds, max_points)
    return ScanValue(RocCurve(fps, tps, thresholds), " ".join(warning))  # type: ignore[arg-type]


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    max_points: int | None = None,
    compute: bool = True,
) -> Any:
    """Receiver operating characteristic curve of dask collections: every exact point,
    or at most ``max_points`` that keep the exact area.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, compute
        As in :func:`roc_auc_score`.
    drop_intermediate : bool, default=True
        Drop the points in the middle of straight runs (the rule of
        :func:`assay.roc_curve`; it never changes the area).
    max_points : int >= 3, default=None
        At most this many points, whose trapezoid area is the exact AUC (to rounding):
        exact points at evenly spaced positions of the curve, both ends included, and
        between two of them a corner point (threshold NaN) on the border of the box
        they span that gives the two segments the exact area of the curve between
        them.  None: every point.

    Returns
    -------
    RocCurve or dask.delayed.Delayed
        ``(fpr, tpr, thresholds)``, equal to :func:`assay.roc_curve` on the same rows.
        The curve has a point per tie group kept: it is collected in the memory of
        one worker (and, without ``max_points``, of the client).

    Warns
    -----
    UndefinedMetricWarning
        Without positives (negatives) the TPR (FPR) is NaN.

    Examples
    --------
    >>> import dask.array as da
    >>> import assay.dask
    >>> labels = da.from_array([0, 0, 1, 1], chunks=2)
    >>> curve = assay.dask.roc_curve(labels, da.from_array([0.1, 0.4, 0.35, 0.8], chunks=2))
    >>> curve.fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    """
    max_points = check_max_points(max_points, 3)
    mode = kernels.DROP_COLLINEAR if drop_intermediate else kernels.DROP_NONE
    return _deliver_curve(
        y_true, y_score, sample_weight, pos_label, mode, _roc_from_curves, max_points, compute
    )


def _precision_recall_from_curves(
    curves: Any, prefix: buckets.Prefix, max_points: int | None
) -> Any:
    (thresholds, tps, fps), _ = buckets.join_curves(curves, prefix)
    precision = tps / (tps + fps)  # every tie group carries positive weight
    warning = ""
    if tps[-1] <= 0:
        warning = "No positive samples in `y_true`; recall is undefined (NaN)."
        tps[:] = np.nan
    else:
        tps /= tps[-1]
    curve = PrecisionRecallCurve(
        np.concatenate((precision[::-1], [1.0])),
        np.concatenate((tps[::-1], [0.0])),
        thresholds[::-1].copy(),
    )
    if max_points is not None:
        curve = PrecisionRecallCurve(*thin_precision_recall(*curve, max_points))
    return ScanValue(curve, warning)  # type: ignore[arg-type]


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
    max_points: int | None = None,
    compute: bool = True,
) -> Any:
    """Precision-recall curve of dask collections: every exact point, or at most
    ``max_points`` that keep the average precision.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label, compute
        As in :func:`roc_auc_score`.
    drop_intermediate : bool, default=False
        Drop thresholds where TP is unchanged on both sides (flat recall).
    max_points : int >= 2, default=None
        At most this many points, whose step sum ``sum (R_k - R_(k-1)) P_k`` is the
        average precision (to rounding): exact thresholds and recalls at evenly
        spaced positions, each with the recall-weighted mean precision of the
        points it stands for (those from it up to the next one kept), and the point
        (recall 0, precision 1).  None: every point.

    Returns
    -------
    PrecisionRecallCurve or dask.delayed.Delayed
        ``(precision, recall, thresholds)``, equal to
        :func:`assay.precision_recall_curve` on the same rows.

    Warns
    -----
    UndefinedMetricWarning
        Without positives recall is NaN.

    Examples
    --------
    >>> import dask.array as da
    >>> import assay.dask
    >>> labels = da.from_array([0, 0, 1, 1], chunks=2)
    >>> curve = assay.dask.precision_recall_curve(
    ...     labels, da.from_array([0.1, 0.4, 0.35, 0.8], chunks=2))
    >>> curve.recall
    array([1. , 1. , 0.5, 0.5, 0. ])
    """
    max_points = check_max_points(max_points, 2)
    mode = kernels.DROP_FLAT_RECALL if drop_intermediate else kernels.DROP_NONE
    return _deliver_curve(
        y_true, y_score, sample_weight, pos_label, mode, _precision_recall_from_curves,
        max_points, compute,
    )  # fmt: skip
