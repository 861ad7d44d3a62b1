"""Agreement beyond the diagonal: Matthews correlation, balanced accuracy, Cohen's kappa.

Each function counts the confusion matrix once (:mod:`assay.metrics._confusion`) and
applies its function of the matrix from :mod:`assay.metrics._cell_metrics`.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from assay._validation import check_option, format_values
from assay.metrics._cell_metrics import (
    balanced_accuracy_from_confusion,
    cohen_kappa_from_confusion,
    matthews_from_confusion,
)
from assay.metrics._classification import averaged_confusion
from assay.metrics._confusion import AVERAGES, labelled_confusion
from assay.metrics._multilabel import refuse_multilabel

__all__ = ["balanced_accuracy_score", "cohen_kappa_score", "matthews_corrcoef"]


def matthews_corrcoef(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "multiclass",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Matthews correlation coefficient: Gorodkin's R_K, or one-vs-rest CC_j averaged.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (integers, booleans, strings; floats holding integers).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    labels : array-like, default=None
        Classes to report and average over (for ``average != 'binary'``), in this order.
        Classes absent from the data are allowed (their cells are 0); rows of unlisted
        classes still count as negatives of every listed class.  Default: the sorted
        union of the labels of ``y_true`` and ``y_pred``.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'multiclass', 'binary', 'micro', 'macro', 'weighted'} or None, \
default='multiclass'
        'multiclass': Gorodkin's R_K of the confusion matrix (of the ``labels`` block
        when given); scikit-learn's value, equal to the binary coefficient for two
        classes.  None: one CC_j per class.  'binary': CC of ``pos_label`` (the data may
        hold at most two labels).  'micro': CC of the cells summed over the classes.
        'macro': the unweighted mean of CC_j.  'weighted': the mean weighted by the true
        support ``TP_j + FN_j``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value of a coefficient whose denominator is zero.  'warn' gives 0.0 and warns.
        NaN values are left out of the 'macro' and 'weighted' averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The coefficient in [-1, 1], or one per class for ``average=None``.

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
        With ``zero_division='warn'``, when a denominator is zero (the true or the
        predicted labels do not vary); the value is then 0.0, scikit-learn's value.

    Notes
    -----
    Per class (Matthews 1975; Honavar, "Evaluating model performance", "Correlation
    Coefficient"):
    ``CC_j = (TP_j TN_j - FP_j FN_j) / sqrt((TP_j+FN_j)(TP_j+FP_j)(TN_j+FP_j)(TN_j+FN_j))``;
    'micro' applies the same formula to the cells summed over the classes (Honavar).
    'multiclass' is R_K (Gorodkin 2004) of the matrix ``C`` with row sums ``t``,
    column sums ``p``, trace ``c`` and total ``s``:
    ``R_K = (c s - t.p) / sqrt((s^2 - p.p)(s^2 - t.t))``.

    References
    ----------
    B. W. Matthews (1975). Comparison of the predicted and observed secondary structure
    of T4 phage lysozyme. Biochimica et Biophysica Acta 405(2):442-451.
    J. Gorodkin (2004). Comparing two K-category assignments by a K-category
    correlation coefficient. Computational Biology and Chemistry 28(5-6):367-374.

    Examples
    --------
    >>> from assay.metrics import matthews_corrcoef
    >>> matthews_corrcoef([1, 1, 1, 0], [1, 0, 1, 1])
    -0.3333333333333333
    >>> matthews_corrcoef([0, 1, 2, 2, 2], [0, 0, 2, 2, 1], average="micro")
    0.4
    """
    refuse_multilabel("matthews_corrcoef", y_true, y_pred)
    matrix, options = averaged_confusion(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
        averages=("multiclass", *AVERAGES),
    )
    return matthews_from_confusion(matrix, **options, stacklevel=3)


def resolve_balanced_accuracy(
    y_true: Any, y_pred: Any, *, sample_weight: Any, adjusted: bool
) -> tuple[np.ndarray, dict[str, Any]]:
    """The matrix and options of :func:`balanced_accuracy_score`."""
    confusion = labelled_confusion(y_true, y_pred, sample_weight=sample_weight)
    return confusion.matrix, {"adjusted": adjusted}


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Balanced accuracy: the mean over the classes of the recall ``TP_j / (TP_j + FN_j)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (integers, booleans, strings; floats holding integers).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    adjusted : bool, default=False
        Rescale so that chance level (``1 / n_classes``) is 0 and perfect is 1.

    Returns
    -------
    float
        The balanced accuracy (adjusted: ``(score - 1/K) / (1 - 1/K)`` over the K classes
        that have true rows).

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights.

    Warns
    -----
    UndefinedMetricWarning
        When a class occurs only in ``y_pred`` (or only with zero weight in ``y_true``):
        its recall is undefined and it is left out, as in scikit-learn.  With
        ``adjusted=True`` and a single class in ``y_true`` the result is NaN (chance
        level equals perfect).

    Notes
    -----
    ``BA = (1/K) sum_j TP_j / (TP_j + FN_j)`` over the classes with ``TP_j + FN_j > 0``;
    for two classes ``(TPR + TNR) / 2`` (Brodersen et al. 2010).  Unlike accuracy it does
    not reward predicting the majority class of an imbalanced test set: the matrix
    ``[[9990, 10], [90, 10]]`` of the "Classification validation" slides has accuracy
    0.990 but balanced accuracy 0.5495.

    References
    ----------
    K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann (2010). The balanced
    accuracy and its posterior distribution. Proc. 20th ICPR, 3121-3124.

    Examples
    --------
    >>> from assay.metrics import balanced_accuracy_score
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1], adjusted=True)
    0.25
    """
    refuse_multilabel("balanced_accuracy_score", y_true, y_pred)
    matrix, options = resolve_balanced_accuracy(
        y_true, y_pred, sample_weight=sample_weight, adjusted=adjusted
    )
    return float(balanced_accuracy_from_confusion(matrix, **options, stacklevel=3))


def resolve_cohen_kappa(
    y1: Any,
    y2: Any,
    *,
    labels: Any,
    weights: str | None,
    sample_weight: Any,
    replace_undefined_by: float,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Check the options; the matrix and options of :func:`cohen_kappa_score`."""
    if not isinstance(replace_undefined_by, numbers.Real) or not (
        math.isnan(replace_undefined_by) or -1.0 <= replace_undefined_by <= 1.0
    ):
        raise ValueError(
            "`replace_undefined_by` must be NaN or a number in [-1, 1]; "
            f"got {replace_undefined_by!r}."
        )
    confusion = labelled_confusion(
        y1, y2, labels=labels, sample_weight=sample_weight, names=("y1", "y2"), raters=True
    )
    classes = None
    if labels is not None:
        k = confusion.n_requested
        if not confusion.in_y_true[:k].any():
            raise ValueError(
                f"None of `labels` {format_values(confusion.classes[:k])} occurs in `y1`; "
                "at least one must."
            )
        classes = list(range(k))
    return confusion.matrix, {
        "weights": weights,
        "classes": classes,
        "replace_undefined_by": replace_undefined_by,
    }


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: str | None = None,
    sample_weight: Any = None,
    replace_undefined_by: float = math.nan,
) -> float:
    """Cohen's kappa: agreement between two labelings beyond the agreement by chance.

    Parameters
    ----------
    y1 : array-like of shape (n_samples,)
        Labels from the first annotator (or the true labels).
    y2 : array-like of shape (n_samples,)
        Labels from the second annotator (or the predictions).  Kappa is symmetric.
    labels : array-like, default=None
        Classes of the confusion matrix, in this order (rows with other labels are left
        out); at least one must occur in ``y1``.  The order matters for ``weights``.
        Default: the sorted union of the labels of ``y1`` and ``y2``.
    weights : {'linear', 'quadratic'}, default=None
        Disagreement weight of classes ``i, j`` (by position): ``|i - j|``, ``(i - j)^2``,
        or ``1`` for every ``i != j`` (None).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    replace_undefined_by : float, default=nan
        Value returned when kappa is undefined (NaN, or a number in [-1, 1]).

    Returns
    -------
    float
        Kappa in [-1, 1]; 0 is chance agreement, 1 perfect agreement.

    Raises
    ------
    ValueError
        Inputs of different lengths or empty; continuous or non-finite float labels;
        string and numeric labels mixed; bad weights; an unknown ``weights``;
        ``replace_undefined_by`` outside [-1, 1]; ``labels`` empty, repeated or none of
        them in ``y1``.

    Warns
    -----
    UndefinedMetricWarning
        When no row has both labels in ``labels``, or the expected disagreement is zero
        (the labelings share a single label); the result is ``replace_undefined_by``.

    Notes
    -----
    With the confusion matrix ``O`` (total ``s``), chance matrix
    ``E_ij = (sum_j O_ij)(sum_i O_ij) / s`` and disagreement weights ``W``:
    ``kappa = 1 - sum(W O) / sum(W E)``; unweighted, ``(p_o - p_e) / (1 - p_e)`` with
    observed agreement ``p_o`` and chance agreement ``p_e`` (Cohen 1960).

    References
    ----------
    J. Cohen (1960). A coefficient of agreement for nominal scales. Educational and
    Psychological Measurement 20(1):37-46.

    Examples
    --------
    >>> from assay.metrics import cohen_kappa_score
    >>> y1 = ["negative", "positive", "negative", "neutral", "positive"]
    >>> y2 = ["negative", "positive", "negative", "neutral", "negative"]
    >>> cohen_kappa_score(y1, y2)
    0.6875
    """
    refuse_multilabel("cohen_kappa_score", y1, y2, names=("y1", "y2"))
    check_option(weights, "weights", (None, "linear", "quadratic"))
    matrix, options = resolve_cohen_kappa(
        y1,
        y2,
        labels=labels,
        weights=weights,
        sample_weight=sample_weight,
        replace_undefined_by=replace_undefined_by,
    )
    return float(cohen_kappa_from_confusion(matrix, **options, stacklevel=3))
