"""Reference per-class rates: precision, recall, specificity, NPV, FPR, FNR, FDR, F.

Each is a ratio of the one-vs-rest cells of a class; see :mod:`._cells` for how the
classes combine (``average``) and how 0/0 is handled (``zero_division``).
"""

from __future__ import annotations

from typing import Any

from ._cells import (
    CellMetric,
    combine,
    f_beta_metric,
    fdr,
    fnr,
    fpr,
    npv,
    precision,
    recall,
    selected_cells,
    specificity,
)
from ._exact import zero_division_value
from ._multilabel import is_indicator, multilabel_rate

__all__ = [
    "f1_score",
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "npv_score",
    "precision_score",
    "recall_score",
    "specificity_score",
]


def _rate(
    metric: CellMetric,
    y_true: Any,
    y_pred: Any,
    labels: Any,
    pos_label: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
) -> Any:
    if is_indicator(y_true) or is_indicator(y_pred):
        return multilabel_rate(
            metric,
            y_true,
            y_pred,
            labels=labels,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
    undefined = zero_division_value(zero_division)
    _, cells = selected_cells(y_true, y_pred, labels, pos_label, average, sample_weight)
    return combine(metric, cells, average, undefined)


def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Precision ``TP / (TP + FP)``: the fraction of predicted positives that are right.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``Precision_j = n_jj / |R_j|`` ("Classification validation", slide "Precision"; Wu,
    "Evaluation", eq. 17; Honavar, "Evaluating model performance", also calls it
    specificity).

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    >>> precision_score([0, 1, 2, 2], [0, 2, 2, 1], average=None)
    array([1. , 0. , 0.5])
    """
    return _rate(
        precision, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
    )


def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Recall (sensitivity, true positive rate) ``TP / (TP + FN)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``Recall_i = n_ii / |D_i|`` ("Classification validation", slide "Recall"; Wu,
    "Evaluation", eq. 18; Honavar, "Evaluating model performance", sensitivity).

    Examples
    --------
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _rate(recall, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)


def specificity_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Specificity (true negative rate) ``TN / (TN + FP)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``TNR = Recall_N`` ("Classification validation", slide "TPR, FPR"; Wu, "Evaluation",
    section 3.1; Honavar, "Evaluating model performance", uses the same formula for
    specificity_1 = 30/35).

    Examples
    --------
    >>> specificity_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _rate(
        specificity, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
    )


def npv_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Negative predictive value ``TN / (TN + FN)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    The negative-class precision ``Precision_N`` ("Classification validation";
    "Estimation of the hypothesis real risk", NPV).

    Examples
    --------
    >>> npv_score([0, 1, 1, 0, 0], [1, 1, 0, 0, 0])  # TN 2 / (TN 2 + FN 1)
    0.6666666666666666
    """
    return _rate(npv, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)


def false_positive_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """False positive rate (false alarm rate) ``FP / (FP + TN)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``FPR = 1 - Recall_N`` ("Classification validation"; Honavar, "Evaluating model
    performance", false alarm = 5/35).

    Examples
    --------
    >>> false_positive_rate([0, 1, 1, 0, 0], [1, 1, 0, 0, 0])  # FP 1 / 3 negatives
    0.3333333333333333
    """
    return _rate(fpr, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)


def false_negative_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """False negative rate (miss rate) ``FN / (FN + TP)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``FNR = 1 - Recall_P`` ("Classification validation"; Wu, "Evaluation", section 3.1).

    Examples
    --------
    >>> false_negative_rate([0, 1, 1, 0, 0], [1, 1, 0, 0, 0])
    0.5
    """
    return _rate(fnr, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)


def false_discovery_rate(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """False discovery rate ``FP / (FP + TP)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``FDR = 1 - precision`` ("Estimation of the hypothesis real risk", FDP; Honavar,
    "Evaluating model performance", the "false alarm" of some authors).

    Examples
    --------
    >>> false_discovery_rate([0, 1, 1, 0, 0], [1, 1, 1, 0, 0])  # FP 1 / 3 predicted
    0.3333333333333333
    """
    return _rate(fdr, y_true, y_pred, labels, pos_label, average, sample_weight, zero_division)


def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """F1 score, the harmonic mean of precision and recall.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``F = 2 TP / (2 TP + FP + FN)`` (Wu, "Evaluation", eq. 20; "Classification
    validation", ``F_i = 2 n_ii / (|D_i| + |R_i|)``, whose overall F is the macro mean).

    Examples
    --------
    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> f1_score([0, 1, 2, 2], [0, 2, 2, 1], average="macro")
    0.5
    """
    return _rate(
        f_beta_metric(1.0),
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
    )


def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """F-beta score, computed from the cells.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    beta : float
        Weight of recall relative to precision (keyword only).
    labels : array-like, default=None
        Classes to report on (default: sorted union of both label vectors); rows
        with other labels still count as negatives of every listed class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', None}, default='binary'
        How the per-class values combine (see the module notes).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The combined value, or one value per class for ``average=None``.

    Notes
    -----
    ``F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)`` (Wu, "Evaluation", eq. 21,
    rewritten with counts); ``beta = inf`` gives the recall, ``beta = 0`` the precision.

    Examples
    --------
    >>> fbeta_score([0, 1, 1, 0], [1, 1, 1, 0], beta=2.0)  # 5 * 2 / (5 * 2 + 1)
    0.9090909090909091
    """
    return _rate(
        f_beta_metric(beta),
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
    )
