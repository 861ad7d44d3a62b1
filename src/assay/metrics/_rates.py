"""Specificity, negative predictive value and the error rates FPR, FNR, FDR.

Not in scikit-learn; they follow its conventions for ``labels``, ``pos_label``,
``average`` and ``zero_division`` exactly as :func:`assay.metrics.precision_score` does.
The micro average pools the one-vs-rest cells of the classes (``sum_j TN_j`` etc.), as
Honavar, "Evaluating model performance", does for its micro-averaged measures.
"""

from __future__ import annotations

from typing import Any

from assay.metrics._cell_metrics import (
    false_discovery_rate_from_confusion,
    false_negative_rate_from_confusion,
    false_positive_rate_from_confusion,
    npv_from_confusion,
    specificity_from_confusion,
)
from assay.metrics._classification import averaged_confusion

__all__ = [
    "false_discovery_rate",
    "false_negative_rate",
    "false_positive_rate",
    "npv_score",
    "specificity_score",
]


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
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values (dense or scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        None: one value per class.  'binary': the value of ``pos_label`` (the data may
        hold at most two labels).  'micro': the metric of the cells summed over the
        classes.  'macro': the unweighted mean over the classes.  'weighted': the mean
        weighted by the true support ``TP_j + FN_j``.  'samples' (multilabel targets
        only): the metric of each sample's label sets, averaged over the samples with
        their weights.  For multilabel targets the classes are the columns (``labels``
        selects them by index) and 'binary' is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a class whose denominator is zero.  'warn' gives 0.0 and warns.  NaN
        values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when every row belongs to the class
        (``TN + FP = 0``: no negatives).

    Notes
    -----
    ``Specificity_j = TNR_j = TN_j / (TN_j + FP_j)``, the recall of the negative class
    ("Classification validation", slide "Binary Classification: TPR, FPR"; Honavar,
    "Evaluating model performance", calls it specificity in the medical sense; Wu,
    "Evaluation", section 3.1).  Honavar's example TP=55, FP=5, FN=10, TN=30 has
    specificity 30/35.

    Examples
    --------
    >>> from assay.metrics import specificity_score
    >>> specificity_score([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    >>> specificity_score([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average=None)
    array([0.75, 0.75, 1.  ])
    """
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return specificity_from_confusion(matrix, **options, stacklevel=3)


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
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values (dense or scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        None: one value per class.  'binary': the value of ``pos_label`` (the data may
        hold at most two labels).  'micro': the metric of the cells summed over the
        classes.  'macro': the unweighted mean over the classes.  'weighted': the mean
        weighted by the true support ``TP_j + FN_j``.  'samples' (multilabel targets
        only): the metric of each sample's label sets, averaged over the samples with
        their weights.  For multilabel targets the classes are the columns (``labels``
        selects them by index) and 'binary' is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a class whose denominator is zero.  'warn' gives 0.0 and warns.  NaN
        values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when every row is predicted as the class (``TN + FN = 0``).

    Notes
    -----
    ``NPV_j = TN_j / (TN_j + FN_j)``, the precision of the negative class
    ("Classification validation", slide "Negative-class Precision"; "Estimation of the
    hypothesis real risk", table 5.4, NPV).

    Examples
    --------
    >>> from assay.metrics import npv_score
    >>> npv_score([0, 0, 1, 1], [0, 1, 1, 0])
    0.5
    >>> npv_score([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="micro")
    0.8
    """
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return npv_from_confusion(matrix, **options, stacklevel=3)


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
    """False positive rate (fall-out, false alarm rate) ``FP / (FP + TN)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values (dense or scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        None: one value per class.  'binary': the value of ``pos_label`` (the data may
        hold at most two labels).  'micro': the metric of the cells summed over the
        classes.  'macro': the unweighted mean over the classes.  'weighted': the mean
        weighted by the true support ``TP_j + FN_j``.  'samples' (multilabel targets
        only): the metric of each sample's label sets, averaged over the samples with
        their weights.  For multilabel targets the classes are the columns (``labels``
        selects them by index) and 'binary' is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a class whose denominator is zero.  'warn' gives 0.0 and warns.  NaN
        values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when every row belongs to the class
        (``FP + TN = 0``: no negatives).

    Notes
    -----
    ``FPR_j = FP_j / (FP_j + TN_j) = 1 - Specificity_j`` ("Classification validation",
    slide "False Positive Rate"; Honavar, "Evaluating model performance", "FalseAlarm";
    Wu, "Evaluation", section 3.1).  Honavar's example TP=55, FP=5, FN=10, TN=30 has a
    false alarm rate of 5/35.

    Examples
    --------
    >>> from assay.metrics import false_positive_rate
    >>> false_positive_rate([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    >>> false_positive_rate([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="macro")
    0.16666666666666666
    """
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return false_positive_rate_from_confusion(matrix, **options, stacklevel=3)


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
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values (dense or scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        None: one value per class.  'binary': the value of ``pos_label`` (the data may
        hold at most two labels).  'micro': the metric of the cells summed over the
        classes.  'macro': the unweighted mean over the classes.  'weighted': the mean
        weighted by the true support ``TP_j + FN_j``.  'samples' (multilabel targets
        only): the metric of each sample's label sets, averaged over the samples with
        their weights.  For multilabel targets the classes are the columns (``labels``
        selects them by index) and 'binary' is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a class whose denominator is zero.  'warn' gives 0.0 and warns.  NaN
        values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when the class has no true rows (``FN + TP = 0``).

    Notes
    -----
    ``FNR_j = FN_j / (FN_j + TP_j) = 1 - Recall_j`` ("Classification validation", slide
    "False Negative Rate"; Wu, "Evaluation", section 3.1).

    Examples
    --------
    >>> from assay.metrics import false_negative_rate
    >>> false_negative_rate([0, 1, 1, 1], [0, 1, 0, 0])
    0.6666666666666666
    >>> false_negative_rate([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="weighted")
    0.4
    """
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return false_negative_rate_from_confusion(matrix, **options, stacklevel=3)


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
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values (dense or scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`), or a
        predicted multilabel indicator.
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        None: one value per class.  'binary': the value of ``pos_label`` (the data may
        hold at most two labels).  'micro': the metric of the cells summed over the
        classes.  'macro': the unweighted mean over the classes.  'weighted': the mean
        weighted by the true support ``TP_j + FN_j``.  'samples' (multilabel targets
        only): the metric of each sample's label sets, averaged over the samples with
        their weights.  For multilabel targets the classes are the columns (``labels``
        selects them by index) and 'binary' is refused.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a class whose denominator is zero.  'warn' gives 0.0 and warns.  NaN
        values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when the class is never predicted (``FP + TP = 0``).

    Notes
    -----
    ``FDR_j = FP_j / (FP_j + TP_j) = 1 - Precision_j`` ("Estimation of the hypothesis real
    risk", table 5.4, FDP; Honavar, "Evaluating model performance", "Beware of
    terminological confusion", where some authors call it the false alarm rate).

    Examples
    --------
    >>> from assay.metrics import false_discovery_rate
    >>> false_discovery_rate([0, 1, 0, 1], [1, 1, 1, 0])
    0.6666666666666666
    >>> false_discovery_rate([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average=None)
    array([0.5, 1. , 0. ])
    """
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return false_discovery_rate_from_confusion(matrix, **options, stacklevel=3)
