"""Metrics of label sets: the per-label confusion matrices, Hamming loss, Jaccard index
and the 0-1 loss, for binary, multi-class and multilabel targets (scikit-learn's names).

Multilabel targets are (n_samples, n_labels) 0/1 indicators, dense or scipy.sparse
(:mod:`assay.metrics._multilabel`); 1-D targets go through the confusion matrix
(:mod:`assay.metrics._confusion`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._validation import as_sample_weight, check_option
from assay.metrics._cell_metrics import (
    hamming_from_confusion,
    jaccard_from_confusion,
)
from assay.metrics._classification import averaged_confusion, error_rate, resolve_counts
from assay.metrics._confusion import labelled_confusion
from assay.metrics._multilabel import (
    any_multilabel,
    indicator_cells,
    row_mismatches,
)

__all__ = ["hamming_loss", "jaccard_score", "multilabel_confusion_matrix", "zero_one_loss"]


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """One 2x2 confusion matrix per label (one-vs-rest for 1-D targets), or per sample.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels, or a multilabel indicator of 0/1 values (dense or
        scipy.sparse).
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted labels (not scores), or a predicted multilabel indicator.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    labels : array-like, default=None
        The classes (1-D targets) or column indices (multilabel) to report, in this
        order.  Default: every class present, sorted; every column.
    samplewise : bool, default=False
        Multilabel only: one matrix per sample (its labels are its rows) instead of per
        label.

    Returns
    -------
    ndarray of shape (n_outputs, 2, 2)
        ``[[TN, FP], [FN, TP]]`` of each label (or sample): int64 counts without weights
        or with integer weights, float64 sums of fractional weights.

    Raises
    ------
    ValueError
        As :func:`assay.confusion_matrix` for 1-D targets; for multilabel targets:
        values other than 0 and 1, shapes that differ, one multilabel and one 1-D target,
        ``labels`` that are not column indices in ``[0, n_labels)``; ``samplewise`` for
        1-D targets.

    Notes
    -----
    For label ``j``: ``TP_j = sum_i w_i T_ij P_ij``, ``FP_j = sum_i w_i (1 - T_ij)
    P_ij``, ``FN_j = sum_i w_i T_ij (1 - P_ij)``, ``TN_j`` the rest (Tsoumakas, Katakis
    & Vlahavas 2010, "Mining multi-label data", evaluation measures: each label is a
    binary problem).  A sparse indicator is counted from its stored entries, never densified.
    With ``samplewise`` and weights, each sample's cells are multiplied by its weight
    (scikit-learn's layout).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.metrics import multilabel_confusion_matrix
    >>> y_true = np.array([[1, 0, 1], [0, 1, 0]])
    >>> y_pred = np.array([[1, 0, 0], [0, 1, 1]])
    >>> multilabel_confusion_matrix(y_true, y_pred)
    array([[[1, 0],
            [0, 1]],
    <BLANKLINE>
           [[1, 0],
            [0, 1]],
    <BLANKLINE>
           [[0, 1],
            [1, 0]]])
    >>> multilabel_confusion_matrix(["a", "b", "a"], ["a", "a", "a"], labels=["a"])
    array([[[0, 1],
            [0, 2]]])
    """
    if not isinstance(samplewise, (bool, np.bool_)):
        raise ValueError(f"`samplewise` must be True or False; got {samplewise!r}.")
    if any_multilabel(y_true, y_pred):
        cells = indicator_cells(
            y_true, y_pred, labels=labels, sample_weight=sample_weight, samplewise=samplewise
        )
        matrices = cells.matrices()
        if samplewise and cells.row_weights is not None:
            matrices = matrices * cells.row_weights[:, None, None]
        return matrices
    if samplewise:
        raise ValueError(
            "`samplewise`=True needs multilabel targets (2-D 0/1 indicators); `y_true` "
            "and `y_pred` are 1-D class labels."
        )
    confusion = labelled_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    matrix = confusion.matrix
    k = confusion.n_requested
    tp = np.diagonal(matrix)[:k]
    fp = matrix.sum(axis=0)[:k] - tp
    fn = matrix.sum(axis=1)[:k] - tp
    tn = matrix.sum() - tp - fp - fn
    return np.stack([tn, fp, fn, tp], axis=-1).reshape(-1, 2, 2)


def resolve_hamming(
    y_true: Any, y_pred: Any, *, sample_weight: Any
) -> tuple[np.ndarray, dict[str, Any]]:
    """The confusion matrix of 1-D targets for :func:`hamming_loss` (the error rate)."""
    matrix, _ = resolve_counts(y_true, y_pred, normalize=True, sample_weight=sample_weight)
    return matrix, {}


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Fraction of wrong labels: of all (sample, label) pairs for multilabel targets,
    of the samples (the error rate) for 1-D targets.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels, or a multilabel indicator of 0/1 values.
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted labels or indicator.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.

    Returns
    -------
    float
        ``sum_i w_i |T_i xor P_i| / (L sum_i w_i)`` in [0, 1].

    Raises
    ------
    ValueError
        As :func:`multilabel_confusion_matrix`.

    Notes
    -----
    ``HL = (1 / (n L)) sum_i |Y_i xor Z_i|``, the symmetric difference of the true and
    predicted label sets over the number of labels (Schapire & Singer 2000, "BoosTexter: a
    boosting-based system for text categorization"; Tsoumakas, Katakis & Vlahavas
    2010, "Mining multi-label data").  For 1-D targets it
    is the error rate.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.metrics import hamming_loss
    >>> hamming_loss(np.array([[0, 1], [1, 1]]), np.zeros((2, 2)))
    0.75
    >>> hamming_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    """
    if not any_multilabel(y_true, y_pred):
        matrix, _ = resolve_hamming(y_true, y_pred, sample_weight=sample_weight)
        return float(hamming_from_confusion(matrix))
    mismatches, n_labels = row_mismatches(y_true, y_pred)
    weights = as_sample_weight(sample_weight, mismatches.shape[0])
    if weights is None:
        return float(np.sum(mismatches)) / (mismatches.shape[0] * n_labels)
    return float(weights @ mismatches) / (float(np.sum(weights)) * n_labels)


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted count) of samples predicted wrongly; for multilabel
    targets, of samples whose predicted label set is not exactly the true one.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels, or a multilabel indicator of 0/1 values.
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted labels or indicator.
    normalize : bool, default=True
        If False, return the (weighted) number of wrong samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.

    Returns
    -------
    float
        ``1 - accuracy_score(...)`` (subset accuracy for multilabel targets), or the
        weighted count of wrong samples when ``normalize=False``.

    Raises
    ------
    ValueError
        As :func:`multilabel_confusion_matrix`.

    Notes
    -----
    ``L_01 = (1/n) sum_i I(Y_i != Z_i)``: for 1-D targets the error rate
    (:func:`assay.error_rate`), for multilabel targets the subset 0-1 loss
    (Tsoumakas, Katakis & Vlahavas 2010, "Mining multi-label data": the complement
    of the subset accuracy).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.metrics import zero_one_loss
    >>> zero_one_loss([1, 2, 3, 4], [2, 2, 3, 4])
    0.25
    >>> zero_one_loss(np.array([[0, 1], [1, 1]]), np.ones((2, 2)))
    0.5
    """
    check_option(normalize, "normalize", (True, False))
    return error_rate(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)


def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> Any:
    """Jaccard index ``TP / (TP + FP + FN)``: the size of the intersection of the true
    and predicted sets over the size of their union.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or sparse matrix
        True class labels, or a multilabel indicator of 0/1 values.
    y_pred : array-like or sparse matrix, of the same kind and shape
        Predicted labels (not scores) or indicator.
    labels : array-like, default=None
        Classes (1-D targets) or column indices (multilabel) to report and average
        over, in this order.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average='binary'``; ignored otherwise.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, default='binary'
        As :func:`assay.f1_score`; 'samples' (multilabel only): the Jaccard index of
        each sample's label sets, averaged over the samples (weighted).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    zero_division : {'warn', 0.0, 1.0, nan}, default='warn'
        Value where ``TP + FP + FN = 0`` (a class, or a sample's label sets, empty on
        both sides).  'warn' gives 0.0 and warns.  NaN values are left out of the
        averages.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged index, or one per class (label) for ``average=None``.

    Raises
    ------
    ValueError
        As :func:`assay.f1_score`; ``average='samples'`` for 1-D targets;
        ``average='binary'`` for multilabel targets.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division='warn'``, when ``TP + FP + FN = 0``.

    Notes
    -----
    ``J = |Y ∩ Z| / |Y ∪ Z| = TP / (TP + FP + FN)`` (Jaccard 1912, "The distribution of the
    flora in the alpine zone"; Tsoumakas, Katakis & Vlahavas 2010, "Mining multi-label
    data", for the sample-based form).  It is monotone in F1:
    ``J = F1 / (2 - F1)``.  scikit-learn averages with NaN values included (a NaN
    ``zero_division`` makes its average NaN); assay leaves them out, as for the other
    ratios.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.metrics import jaccard_score
    >>> y_true = np.array([[0, 1, 1], [1, 1, 0]])
    >>> y_pred = np.array([[1, 1, 1], [1, 0, 0]])
    >>> jaccard_score(y_true, y_pred, average="samples")
    0.5833333333333333
    >>> jaccard_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.3333333333333333
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
    return jaccard_from_confusion(matrix, **options, stacklevel=3)
