"""Reference confusion matrix and the metrics read from the whole matrix.

Counts are taken row by row (see :mod:`._cells`). Accuracy, error rate, balanced
accuracy, Cohen's kappa and Matthews' correlation follow from the cells exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._cells import (
    combine,
    count_matrix,
    label_set,
    matthews_from_cells,
    matthews_from_matrix,
    selected_cells,
)
from ._exact import (
    NAN,
    exact_weights,
    ratio,
    to_float,
    values_of,
    zero_division_value,
)
from ._multilabel import is_indicator, subset_accuracy, zero_one_loss

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "confusion_matrix",
    "error_rate",
    "matthews_corrcoef",
]


def _prepare(
    y_true: Any, y_pred: Any, sample_weight: Any
) -> tuple[list[Any], list[Any], list[int], int]:
    truth = values_of(y_true)
    predicted = values_of(y_pred)
    if len(truth) != len(predicted):
        raise ValueError("y_true and y_pred have different lengths.")
    weights, denominator = exact_weights(sample_weight, len(truth))
    return truth, predicted, weights, denominator


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = None,
) -> np.ndarray:
    """Confusion matrix ``A[i, j]``: weight of class ``i`` predicted as class ``j``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes indexing the rows and columns (default: sorted union of the labels
        in ``y_true`` and ``y_pred``); rows with other labels are not counted.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    normalize : {None, 'true', 'pred', 'all'}, default=None
        Divide by the row sums, the column sums or the total. A zero row (column)
        stays zero, as in scikit-learn.

    Returns
    -------
    ndarray of shape (n_labels, n_labels)
        int64 counts without weights and normalization, float64 otherwise.

    Notes
    -----
    ``N(i, j) = |{a : y_a = c_i and yhat_a = c_j}|`` ("Classification validation", slide
    "Confusion Matrix"); with weights, the sum of the weights of those rows. The
    normalized matrix of Wu, "Evaluation", exercise 9, is ``normalize='true'``.

    Examples
    --------
    >>> confusion_matrix([0, 0, 1, 1, 2], [0, 1, 1, 1, 2])
    array([[1, 1, 0],
           [0, 2, 0],
           [0, 0, 1]])
    """
    truth, predicted, weights, denominator = _prepare(y_true, y_pred, sample_weight)
    classes = label_set(truth, predicted, labels)
    matrix = count_matrix(truth, predicted, classes, weights)
    k = len(classes)
    if normalize is None:
        if sample_weight is None:
            return np.array(matrix, dtype=np.int64).reshape(k, k)
        values = [[ratio(a, denominator) for a in row] for row in matrix]
    elif normalize == "true":
        values = [[ratio(a, sum(row), undefined=0) for a in row] for row in matrix]
    elif normalize == "pred":
        column_sums = [sum(matrix[i][j] for i in range(k)) for j in range(k)]
        values = [[ratio(row[j], column_sums[j], undefined=0) for j in range(k)] for row in matrix]
    elif normalize == "all":
        total = sum(sum(row) for row in matrix)
        values = [[ratio(a, total, undefined=0) for a in row] for row in matrix]
    else:
        raise ValueError(f"normalize must be None, 'true', 'pred' or 'all'; got {normalize!r}.")
    return np.array([[float(v) for v in row] for row in values], dtype=np.float64).reshape(k, k)


def accuracy_score(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted count) of correct predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    normalize : bool, default=True
        Return the fraction of correct predictions; False returns their weighted count.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float

    Notes
    -----
    ``ACC = sum_i w_i [y_i = yhat_i] / sum_i w_i`` ("Classification validation", slide
    "Accuracy"; Wu, "Evaluation", eq. 2 for the error).

    Examples
    --------
    >>> accuracy_score([0, 1, 2, 2], [0, 2, 2, 2])
    0.75
    >>> accuracy_score([0, 1, 2, 2], [0, 2, 2, 2], normalize=False)
    3.0
    """
    if is_indicator(y_true) or is_indicator(y_pred):  # multilabel: subset accuracy
        return subset_accuracy(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    truth, predicted, weights, denominator = _prepare(y_true, y_pred, sample_weight)
    correct = sum(w for t, p, w in zip(truth, predicted, weights, strict=True) if t == p)
    if not normalize:
        return to_float(ratio(correct, denominator))
    return to_float(ratio(correct, sum(weights)))


def error_rate(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Fraction (or weighted count) of wrong predictions, ``1 - accuracy``.

    Parameters
    ----------
    y_true, y_pred, normalize, sample_weight
        As in :func:`accuracy_score`.

    Returns
    -------
    float

    Notes
    -----
    ``ERR = sum_i w_i [y_i != yhat_i] / sum_i w_i`` (Wu, "Evaluation", eq. 2;
    "Classification validation", slide "Error Rate").

    Examples
    --------
    >>> error_rate([0, 1, 2, 2], [0, 2, 2, 2])
    0.25
    """
    if is_indicator(y_true) or is_indicator(y_pred):  # multilabel: subset 0-1 loss
        return zero_one_loss(y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    truth, predicted, weights, denominator = _prepare(y_true, y_pred, sample_weight)
    wrong = sum(w for t, p, w in zip(truth, predicted, weights, strict=True) if t != p)
    if not normalize:
        return to_float(ratio(wrong, denominator))
    return to_float(ratio(wrong, sum(weights)))


def balanced_accuracy_score(
    y_true: Any, y_pred: Any, *, sample_weight: Any = None, adjusted: bool = False
) -> float:
    """Mean of the per-class recalls over the classes present in ``y_true``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    adjusted : bool, default=False
        Rescale so that chance scores 0: ``(BA - 1/K) / (1 - 1/K)``.

    Returns
    -------
    float
        NaN when ``adjusted`` and only one class has weight in ``y_true``.

    Notes
    -----
    ``BA = (1/K) sum_k A[k, k] / sum_j A[k, j]`` over the K classes with positive
    weight in ``y_true`` (classes only predicted are skipped, as in scikit-learn);
    the macro-averaged sensitivity (Honavar, "Evaluating model performance").

    References
    ----------
    .. [1] K. H. Brodersen, C. S. Ong, K. E. Stephan, J. M. Buhmann, "The balanced
       accuracy and its posterior distribution", Proceedings of ICPR, 3121-3124, 2010.

    Examples
    --------
    >>> balanced_accuracy_score([0, 0, 0, 1], [0, 0, 1, 1])  # (2/3 + 1) / 2
    0.8333333333333334
    """
    truth, predicted, weights, _ = _prepare(y_true, y_pred, sample_weight)
    classes = label_set(truth, predicted, None)
    matrix = count_matrix(truth, predicted, classes, weights)
    recalls = [Fraction(row[k], sum(row)) for k, row in enumerate(matrix) if sum(row) != 0]
    if not recalls:
        return NAN
    score = sum(recalls) / len(recalls)
    if adjusted:
        if len(recalls) == 1:
            return NAN
        chance = Fraction(1, len(recalls))
        score = (score - chance) / (1 - chance)
    return to_float(score)


def cohen_kappa_score(
    y1: Any,
    y2: Any,
    *,
    labels: Any = None,
    weights: str | None = None,
    sample_weight: Any = None,
) -> float:
    """Cohen's kappa: agreement between two labelings beyond chance.

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        Labels assigned by the two annotators (or truth and prediction).
    labels : array-like, default=None
        Classes of the confusion matrix (default: sorted union).
    weights : {None, 'linear', 'quadratic'}, default=None
        Disagreement weights ``1 - [i = j]``, ``|i - j|`` or ``(i - j)^2``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float
        NaN when the expected disagreement is 0.

    Notes
    -----
    With ``A`` the confusion matrix, ``s`` its total and ``E[i, j] = r_i c_j / s``
    (row and column sums), ``kappa = 1 - sum_ij W_ij A_ij / sum_ij W_ij E_ij``
    (Cohen 1960; weighted form Cohen 1968).

    References
    ----------
    .. [1] J. Cohen, "A coefficient of agreement for nominal scales", Educational
       and Psychological Measurement 20(1), 37-46, 1960.
    .. [2] J. Cohen, "Weighted kappa", Psychological Bulletin 70(4), 213-220, 1968.

    Examples
    --------
    >>> cohen_kappa_score([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    """
    truth, predicted, sample_weights, _ = _prepare(y1, y2, sample_weight)
    classes = label_set(truth, predicted, labels)
    matrix = count_matrix(truth, predicted, classes, sample_weights)
    k = len(classes)
    total = sum(sum(row) for row in matrix)
    if total == 0:
        return NAN
    row_sums = [sum(row) for row in matrix]
    column_sums = [sum(matrix[i][j] for i in range(k)) for j in range(k)]

    def disagreement(i: int, j: int) -> int:
        if weights is None:
            return 0 if i == j else 1
        if weights == "linear":
            return abs(i - j)
        if weights == "quadratic":
            return (i - j) ** 2
        raise ValueError(f"weights must be None, 'linear' or 'quadratic'; got {weights!r}.")

    observed = sum(disagreement(i, j) * matrix[i][j] for i in range(k) for j in range(k))
    expected = sum(
        disagreement(i, j) * Fraction(row_sums[i] * column_sums[j], total)
        for i in range(k)
        for j in range(k)
    )
    if expected == 0:
        return NAN
    return to_float(1 - observed / expected)


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
    """Matthews correlation coefficient: Gorodkin's R_K or per-class CC_j.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels : array-like, default=None
        Classes (default: sorted union). For 'multiclass', rows with other labels
        are left out of the K x K matrix; otherwise they are negatives of every class.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'multiclass', 'binary', 'micro', 'macro', 'weighted', None}
        'multiclass' is R_K of the confusion matrix; the others combine the
        one-vs-rest ``CC_j`` like the other rates.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value when a denominator is 0; "warn" means 0.0.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    Notes
    -----
    ``CC_j = (TP TN - FP FN) / sqrt((TP + FN)(TP + FP)(TN + FP)(TN + FN))``
    (Matthews 1975; Honavar, "Evaluating model performance", "Correlation Coefficient";
    micro from the pooled cells).
    ``R_K = (c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2))``
    with ``s`` the total, ``c`` the trace, ``t_k``, ``p_k`` the true and predicted
    class totals (Gorodkin 2004); for two classes it equals the binary CC.
    Square roots are taken to 128 bits before the single rounding to float.

    References
    ----------
    .. [1] J. Gorodkin, "Comparing two K-category assignments by a K-category
       correlation coefficient", Computational Biology and Chemistry 28, 367-374, 2004.

    Examples
    --------
    >>> matthews_corrcoef([1, 1, 1, 0], [1, 0, 1, 1])
    -0.3333333333333333
    >>> matthews_corrcoef([0, 1, 2, 2], [0, 2, 2, 1], average=None)
    array([ 1.        , -0.33333333,  0.        ])
    """
    undefined = zero_division_value(zero_division)
    if average == "multiclass":
        truth = values_of(y_true)
        predicted = values_of(y_pred)
        weights, _ = exact_weights(sample_weight, len(truth))
        classes = label_set(truth, predicted, labels)
        matrix = count_matrix(truth, predicted, classes, weights)
        return to_float(matthews_from_matrix(matrix, undefined))
    _, cells = selected_cells(y_true, y_pred, labels, pos_label, average, sample_weight)
    return combine(matthews_from_cells, cells, average, undefined)
