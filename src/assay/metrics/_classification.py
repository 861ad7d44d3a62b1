"""Accuracy, error rate, precision, recall and F-scores (scikit-learn's names).

Each function counts the confusion matrix once (:mod:`assay.metrics._confusion`) and
applies the matching function of the matrix from :mod:`assay.metrics._cell_metrics`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from assay._kernels._cache import user_stacklevel
from assay._validation import check_option, check_zero_division
from assay.exceptions import IgnoredOptionWarning
from assay.metrics._cell_metrics import (
    accuracy_from_confusion,
    error_rate_from_confusion,
    f1_from_confusion,
    fbeta_from_confusion,
    precision_from_confusion,
    recall_from_confusion,
)
from assay.metrics._confusion import AVERAGES, averaging_options, labelled_confusion
from assay.metrics._multilabel import any_multilabel, multilabel_cells, subset_accuracy

__all__ = [
    "accuracy_score",
    "error_rate",
    "f1_score",
    "fbeta_score",
    "precision_score",
    "recall_score",
]


def averaged_confusion(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any,
    pos_label: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
    averages: tuple[str | None, ...] = AVERAGES,
) -> tuple[Any, dict[str, Any]]:
    """Check the options, count the matrix, and return it with the options of its metric.

    Multilabel indicators give :class:`~assay.metrics._multilabel.IndicatorCells` in
    place of the matrix (cells per label, or per row for ``average='samples'``).
    """
    _warn_ignored_pos_label(pos_label, average)
    if any_multilabel(y_true, y_pred):
        return multilabel_cells(y_true, y_pred, labels, average, sample_weight, zero_division)
    if average == "samples":
        raise ValueError(
            "`average`='samples' needs multilabel targets (2-D 0/1 indicators), but "
            "`y_true` and `y_pred` are 1-D class labels; choose None, 'micro', 'macro' "
            "or 'weighted' (or 'binary' for two classes), or use `accuracy_score`."
        )
    check_option(average, "average", averages)
    zero_division = check_zero_division(zero_division)
    binary = average == "binary"
    confusion = labelled_confusion(
        y_true,
        y_pred,
        labels=None if binary else labels,
        sample_weight=sample_weight,
        pos_label=pos_label if binary else None,
    )
    matrix, options = averaging_options(
        confusion, average=average, pos_label=pos_label, labels_given=labels is not None
    )
    return matrix, {**options, "zero_division": zero_division}


def _warn_ignored_pos_label(pos_label: Any, average: Any) -> None:
    """Warn that ``pos_label`` (other than the default) is not used: with an average
    other than 'binary' every class is counted (scikit-learn warns alike)."""
    if average == "binary" or pos_label is None:
        return
    try:
        default = bool(pos_label == 1)
    except (TypeError, ValueError):  # an array, or an object that does not compare
        default = False
    if not default:
        warnings.warn(
            f"`pos_label` ({pos_label!r}) is ignored when `average` is {average!r}, not "
            f"'binary': every class is counted. Use `labels=[{pos_label!r}]` to score "
            "that class alone, or `average='binary'`.",
            IgnoredOptionWarning,
            stacklevel=user_stacklevel(),
        )


def averaged_resolver(
    averages: tuple[str | None, ...], with_beta: bool
) -> Callable[..., tuple[np.ndarray, dict[str, Any]]]:
    """Resolver of the metrics that take ``labels, pos_label, average, zero_division``
    (the ``resolve`` of their registry entries: matrix and options of a public call)."""

    def resolve(
        y_true: Any,
        y_pred: Any,
        *,
        labels: Any,
        pos_label: Any,
        average: str | None,
        sample_weight: Any,
        zero_division: Any,
        beta: float | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        matrix, options = averaged_confusion(
            y_true,
            y_pred,
            labels=labels,
            pos_label=pos_label,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
            averages=averages,
        )
        if with_beta:
            options["beta"] = float(beta)  # type: ignore[arg-type]
        return matrix, options

    return resolve


def resolve_counts(
    y_true: Any, y_pred: Any, *, normalize: bool, sample_weight: Any
) -> tuple[np.ndarray, dict[str, Any]]:
    """The matrix and options of :func:`accuracy_score` and :func:`error_rate`."""
    confusion = labelled_confusion(y_true, y_pred, sample_weight=sample_weight)
    return confusion.matrix, {"normalize": normalize}


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted count) of rows whose predicted class is the true class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels (integers, booleans, strings; floats holding integers), or a
        multilabel indicator of 0/1 values: then a row is correct only if its whole
        label set is (the subset accuracy).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    normalize : bool, default=True
        If False, return the (weighted) number of correct rows instead of the fraction.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.

    Returns
    -------
    float
        ``sum_j TP_j / n`` (weighted), or ``sum_j TP_j`` when ``normalize=False``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; negative, non-finite or all-zero weights.

    Notes
    -----
    ``ACC = (1/n) sum_i I(y_i = yhat_i) = trace(C) / sum(C)`` for the confusion matrix
    ``C`` ("Classification validation", slide "Accuracy"; binary form ``(TP + TN) / n``).
    It is always defined.

    Examples
    --------
    >>> from assay.metrics import accuracy_score
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3], normalize=False)
    2.0
    """
    if any_multilabel(y_true, y_pred):
        return subset_accuracy(
            y_true, y_pred, normalize=normalize, sample_weight=sample_weight, errors=False
        )
    matrix, options = resolve_counts(
        y_true, y_pred, normalize=normalize, sample_weight=sample_weight
    )
    return float(accuracy_from_confusion(matrix, **options))


def error_rate(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted count) of misclassified rows: ``1 - accuracy``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels, or a multilabel indicator of 0/1 values (then a row is wrong
        when any of its labels is: the subset 0-1 loss, :func:`assay.zero_one_loss`).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    normalize : bool, default=True
        If False, return the (weighted) number of misclassified rows.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.

    Returns
    -------
    float
        ``1 - accuracy_score(...)``, or ``n - sum_j TP_j`` when ``normalize=False``
        (scikit-learn's ``zero_one_loss``).

    Raises
    ------
    ValueError
        As :func:`accuracy_score`.

    Notes
    -----
    ``ERR = (1/n) sum_i I(y_i != yhat_i)``; binary form ``(FP + FN) / n``
    ("Classification validation", slide "Error Rates").  The mailing example of Honavar,
    "Evaluating model performance": confusion ``[[8, 2], [20, 970]]`` gives an error
    rate of 22/1000 = 2.2 %.

    Examples
    --------
    >>> from assay.metrics import error_rate
    >>> error_rate([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> error_rate([1, 1, 0], [1, 0, 1], normalize=False, sample_weight=[1.0, 2.0, 0.5])
    2.5
    """
    if any_multilabel(y_true, y_pred):
        return subset_accuracy(
            y_true, y_pred, normalize=normalize, sample_weight=sample_weight, errors=True
        )
    matrix, options = resolve_counts(
        y_true, y_pred, normalize=normalize, sample_weight=sample_weight
    )
    return float(error_rate_from_confusion(matrix, **options))


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
    """Precision ``TP / (TP + FP)``: the fraction of predicted members that are members.

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
        The averaged precision, or one per class for ``average=None``.

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
        With ``zero_division='warn'``, when a class was never predicted (``TP + FP = 0``).

    Notes
    -----
    ``Precision_j = TP_j / (TP_j + FP_j) = n_jj / |R_j|`` ("Classification validation",
    slide "Precision"; Wu, "Evaluation", section 3.3, eq. 17); micro average
    ``sum_j TP_j / sum_j (TP_j + FP_j)`` (Sokolova & Lapalme 2009; Honavar, "Evaluating
    model performance", "Micro-averaged performance measures").

    Examples
    --------
    >>> from assay.metrics import precision_score
    >>> precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    >>> precision_score([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average=None)
    array([0.5, 0. , 1. ])
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
    return precision_from_confusion(matrix, **options, stacklevel=3)


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
        The averaged recall, or one per class for ``average=None``.

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
        With ``zero_division='warn'``, when a class has no true rows (``TP + FN = 0``).

    Notes
    -----
    ``Recall_j = TP_j / (TP_j + FN_j) = n_jj / |D_j|`` ("Classification validation", slide
    "Recall"; Honavar, "Evaluating model performance", "Sensitivity"; Wu, "Evaluation",
    eq. 18).  The micro average equals the accuracy when all
    classes are included.

    Examples
    --------
    >>> from assay.metrics import recall_score
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> recall_score([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="macro")
    0.5555555555555555
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
    return recall_from_confusion(matrix, **options, stacklevel=3)


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
    """F1 score, the harmonic mean of precision and recall, ``2 TP / (2 TP + FP + FN)``.

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
        The averaged F1, or one per class for ``average=None``.

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
        With ``zero_division='warn'``, when a class is neither true nor predicted
        anywhere (``TP + FP + FN = 0``).

    Notes
    -----
    ``F_j = 2 P_j R_j / (P_j + R_j) = 2 TP_j / (2 TP_j + FP_j + FN_j)`` computed from the
    counts, so it is defined whenever the class occurs (van Rijsbergen 1979, chapter 7;
    "Classification validation", slide "F-measure"; Wu, "Evaluation", eq. 20).  The
    'macro' average is the "overall F-measure" of the "Classification validation" slides.

    Examples
    --------
    >>> from assay.metrics import f1_score
    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> f1_score([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="weighted")
    0.6133333333333334
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
    return f1_from_confusion(matrix, **options, stacklevel=3)


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
    """F-beta score: recall counts ``beta`` times as much as precision.

    Parameters
    ----------
    beta : float
        Non-negative weight of recall; 0 gives the precision, ``inf`` the recall.
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
        The averaged F-beta, or one per class for ``average=None``.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``average`` or
        ``zero_division``; ``average='binary'`` with more than two labels, or a
        ``pos_label`` that is not one of two present labels; ``labels`` empty or
        repeated.
        Also for a negative or NaN ``beta``.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when the denominator is zero (for 0 < beta < inf:
        the class is neither true nor predicted; for beta 0 or inf: as precision or
        recall).

    Notes
    -----
    ``F_beta = (1 + b^2) P R / (b^2 P + R) = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``
    (Wu, "Evaluation", section 3.3, eq. 21), computed from the counts.

    Examples
    --------
    >>> from assay.metrics import fbeta_score
    >>> fbeta_score([0, 1, 1, 0], [1, 1, 0, 0], beta=2.0)
    0.5
    >>> fbeta_score([1, 1, 1, 0], [1, 0, 0, 0], beta=0.5)
    0.7142857142857143
    """
    if not (isinstance(beta, (int, float, np.integer, np.floating)) and beta >= 0):
        raise ValueError(f"`beta` must be a non-negative number; got {beta!r}.")
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    return fbeta_from_confusion(matrix, beta=float(beta), **options, stacklevel=3)
