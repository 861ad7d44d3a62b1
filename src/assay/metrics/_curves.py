"""Threshold curves: the cutoff table, ROC, precision-recall and DET curves.

All four come from one sorted sweep (:func:`assay._kernels.ranking.curve_points`)
that returns, for each distinct score ``t_k`` from the highest down, the cumulative
weights ``TP_k`` and ``FP_k`` of rows with ``score >= t_k``.  Output conventions are
scikit-learn's, so the results are interchangeable with ``sklearn.metrics``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._kernels import ranking as kernels
from assay._results import ConfusionAtThresholds, DetCurve, PrecisionRecallCurve, RocCurve
from assay.metrics._sorted import SortedBinary, sort_binary, warn_undefined

__all__ = [
    "confusion_matrix_at_thresholds",
    "det_curve",
    "precision_recall_curve",
    "roc_curve",
]


def _counts(data: SortedBinary) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds and cumulative TP, FP in the caller's weight units."""
    thresholds, tps, fps = kernels.curve_points(*data.kernel_arguments, kernels.DROP_NONE, False)
    if data.weight_scale != 1.0:  # undo the kernels' power-of-two scaling (exact)
        tps /= data.weight_scale
        fps /= data.weight_scale
    return thresholds, tps, fps


def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> ConfusionAtThresholds:
    """Binary confusion matrix at every distinct score threshold (the cutoff table).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores (probabilities or decision values); higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class; inferred as 1 (True) for {0, 1}, {-1, 1} and booleans.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights. Rows of zero weight are ignored (they create no
        threshold).

    Returns
    -------
    ConfusionAtThresholds
        Named tuple ``(tns, fps, fns, tps, thresholds)`` of float64 arrays, one entry
        per distinct score, thresholds decreasing. Entry ``i`` describes the rule
        "predict positive iff score >= thresholds[i]".

    Raises
    ------
    ValueError
        On empty, mismatched, non-finite or non-binary input, or bad weights.

    Notes
    -----
    Tied scores form one row: a threshold cannot separate them. The rows are the
    cutoff table of Honavar's "Evaluating model performance" slides;
    the layout and order are scikit-learn's ``confusion_matrix_at_thresholds``.

    Examples
    --------
    >>> import assay
    >>> table = assay.confusion_matrix_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> table.tps
    array([1., 1., 2., 2.])
    >>> table.thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    """
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    thresholds, tps, fps = _counts(data)
    return ConfusionAtThresholds(fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds)


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> RocCurve:
    """Receiver operating characteristic curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.
    drop_intermediate : bool, default=True
        Drop points in the middle of straight runs with equal steps (scikit-learn's
        rule: a point is kept when the second difference of FP or TP is non-zero).
        This never changes the area under the curve.

    Returns
    -------
    RocCurve
        Named tuple ``(fpr, tpr, thresholds)``; the first point is (0, 0) at threshold
        ``+inf``; thresholds decrease.

    Warns
    -----
    UndefinedMetricWarning
        Without positives ``tpr`` is NaN; without negatives ``fpr`` is NaN.

    Notes
    -----
    ``FPR_k = FP_k / N`` and ``TPR_k = TP_k / P`` for the rule score >= t_k
    (Wu, "Evaluation", section 3.2; Fawcett 2006). Tied scores give a single point,
    so a tie between a positive and a negative draws a diagonal segment: it counts
    one half in the area.

    References
    ----------
    T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27 (2006).

    Examples
    --------
    >>> import assay
    >>> fpr, tpr, thresholds = assay.roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> tpr
    array([0. , 0.5, 0.5, 1. , 1. ])
    """
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    mode = kernels.DROP_COLLINEAR if drop_intermediate else kernels.DROP_NONE
    thresholds, tps, fps = kernels.curve_points(*data.kernel_arguments, mode, True)
    # rates are divided in place: no array of the size of the curve is made twice
    if fps[-1] <= 0:
        warn_undefined(
            "No negative samples in `y_true`; the false positive rate is undefined (NaN)."
        )
        fps[:] = np.nan
    else:
        fps /= fps[-1]
    if tps[-1] <= 0:
        warn_undefined(
            "No positive samples in `y_true`; the true positive rate is undefined (NaN)."
        )
        tps[:] = np.nan
    else:
        tps /= tps[-1]
    fpr, tpr = fps, tps
    return RocCurve(fpr, tpr, thresholds)


def _drop_flat_recall(
    thresholds: np.ndarray, tps: np.ndarray, fps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keep a point only where TP changes on one side of it (scikit-learn's rule)."""
    if fps.shape[0] <= 2:
        return thresholds, tps, fps
    keep = np.empty(tps.shape[0], dtype=bool)
    keep[0] = keep[-1] = True
    keep[1:-1] = (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0)
    return thresholds[keep], tps[keep], fps[keep]


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> PrecisionRecallCurve:
    """Precision-recall pairs for every distinct score threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.
    drop_intermediate : bool, default=False
        Drop thresholds where TP is unchanged on both sides (flat recall).

    Returns
    -------
    PrecisionRecallCurve
        Named tuple ``(precision, recall, thresholds)``: thresholds increase; the
        last point (precision 1, recall 0) has no threshold (scikit-learn's layout).

    Warns
    -----
    UndefinedMetricWarning
        Without positives recall is 0/0: NaN (scikit-learn sets it to 1).

    Notes
    -----
    ``precision_k = TP_k / (TP_k + FP_k)`` and ``recall_k = TP_k / P``
    (Wu, "Evaluation", eqs. 17-18). Tied scores give a single point.

    Examples
    --------
    >>> import assay
    >>> precision, recall, thresholds = assay.precision_recall_curve(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision
    array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ])
    >>> recall
    array([1. , 1. , 0.5, 0.5, 0. ])
    """
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    mode = kernels.DROP_FLAT_RECALL if drop_intermediate else kernels.DROP_NONE
    thresholds, tps, fps = kernels.curve_points(*data.kernel_arguments, mode, False)
    precision = tps / (tps + fps)  # every tie group carries positive weight
    if tps[-1] <= 0:
        warn_undefined("No positive samples in `y_true`; recall is undefined (NaN).")
        tps[:] = np.nan
    else:
        tps /= tps[-1]
    return PrecisionRecallCurve(
        np.concatenate((precision[::-1], [1.0])),
        np.concatenate((tps[::-1], [0.0])),
        thresholds[::-1].copy(),
    )


def det_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> DetCurve:
    """Detection error trade-off: false positive rate against false negative rate.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary targets. Labels other than {0, 1}, {-1, 1} or booleans need
        ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more positive.
    pos_label : int, float, bool or str, default=None
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are ignored.
    drop_intermediate : bool, default=False
        Drop thresholds where TP is unchanged on both sides (flat FNR).

    Returns
    -------
    DetCurve
        Named tuple ``(fpr, fnr, thresholds)`` with increasing thresholds, trimmed
        like scikit-learn's (from the last point with FPR at its maximum to the first
        with FNR = 0), including the point at threshold ``+inf`` where FPR = 0 and
        FNR = 1 unless FPR = 0 is reached at a finite threshold.

    Warns
    -----
    UndefinedMetricWarning
        With a single class, the missing rate is NaN (scikit-learn raises instead).

    Notes
    -----
    ``FPR_k = FP_k / N``, ``FNR_k = FN_k / P = 1 - TPR_k`` (Wu, "Evaluation",
    section 3.1).

    Examples
    --------
    >>> import assay
    >>> fpr, fnr, thresholds = assay.det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr
    array([0.5, 0.5, 0. ])
    >>> fnr
    array([0. , 0.5, 0.5])
    """
    data = sort_binary(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    # rates only: the kernels' scaled weights (1e-310 is a subnormal, 2**1023 times it not)
    thresholds, tps, fps = kernels.curve_points(*data.kernel_arguments, kernels.DROP_NONE, True)
    if drop_intermediate:
        thresholds, tps, fps = _drop_flat_recall(thresholds, tps, fps)
    total_positive, total_negative = tps[-1], fps[-1]
    # first point: the last one where FP is still at its initial value
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    # last point: the first one where every positive is found (FN = 0)
    last = int(np.searchsorted(tps, tps[-1])) + 1
    tps, fps, thresholds = tps[first:last], fps[first:last], thresholds[first:last]
    if total_negative <= 0:
        warn_undefined(
            "No negative samples in `y_true`; the false positive rate is undefined (NaN)."
        )
        fpr = np.full(fps.shape, np.nan)
    else:
        fpr = fps / total_negative
    if total_positive <= 0:
        warn_undefined(
            "No positive samples in `y_true`; the false negative rate is undefined (NaN)."
        )
        fnr = np.full(tps.shape, np.nan)
    else:
        fnr = (total_positive - tps) / total_positive
    return DetCurve(fpr[::-1].copy(), fnr[::-1].copy(), thresholds[::-1].copy())
