"""Costs of decisions: the expected cost of predictions, and the Bayes decision rule.

A cost matrix ``C`` is (k, k) with ``C[i, j]`` the cost of predicting class ``j`` for a
row of true class ``i`` (Wu, "Evaluation", section 2.2); negative costs are profits.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._kernels.confusion import minimum_expected_cost
from assay._validation import (
    as_finite_array,
    as_probabilities,
    check_option,
    check_probability_rows,
    format_values,
)
from assay.metrics._cell_metrics import expected_cost_from_confusion
from assay.metrics._confusion import labelled_confusion
from assay.metrics._multilabel import refuse_multilabel

__all__ = ["bayes_decision", "expected_cost"]


def _as_cost_matrix(cost_matrix: Any, n_classes: int, classes: Any) -> np.ndarray:
    cost = as_finite_array(cost_matrix, "cost_matrix", "costs")
    if cost.ndim != 2 or cost.shape[0] != cost.shape[1]:
        raise ValueError(f"`cost_matrix` must be a square 2-D array, got shape {cost.shape}.")
    if cost.shape[0] != n_classes:
        raise ValueError(
            f"`cost_matrix` has shape {cost.shape} but there are {n_classes} classes "
            f"{classes}; pass `labels` to name the classes of its rows and columns."
        )
    return cost


def resolve_expected_cost(
    y_true: Any,
    y_pred: Any,
    cost_matrix: Any,
    *,
    labels: Any,
    sample_weight: Any,
    normalize: str | None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Check the options; the matrix and options of :func:`expected_cost`."""
    check_option(normalize, "normalize", ("all", "true", None))
    confusion = labelled_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    k = confusion.n_requested
    if confusion.classes.shape[0] > k:
        raise ValueError(
            f"`y_true` or `y_pred` hold labels {format_values(confusion.classes[k:])} that "
            "are not in `labels`; the cost matrix must cover every class of the data."
        )
    cost = _as_cost_matrix(cost_matrix, k, format_values(confusion.classes))
    return confusion.matrix, {"cost_matrix": cost, "normalize": normalize}


def expected_cost(
    y_true: Any,
    y_pred: Any,
    cost_matrix: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = "all",
) -> float:
    """Cost of the predictions under a cost matrix: mean per row, total, or per class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels (integers, booleans, strings; floats holding integers).
    y_pred : array-like of shape (n_samples,)
        Predicted class labels, not scores (see :func:`assay.confusion_matrix`).
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: cost of predicting class ``j`` for true class ``i``, in
        the order of ``labels`` (default: the sorted union of the labels of ``y_true``
        and ``y_pred``).  Finite; negative entries are gains.
    labels : array-like of shape (n_classes,), default=None
        Classes of the rows and columns of ``cost_matrix``.  Every label of the data
        must be among them; listed classes may be absent from the data.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, not all zero.
    normalize : {'all', 'true'} or None, default='all'
        'all': mean cost per row ``sum(C * A) / sum(A)``; None: total cost
        ``sum(C * A) = tr(C^T A)``; 'true': ``tr(C^T Â)`` with ``Â`` the row-normalized
        confusion matrix, the sum over true classes of the class-conditional mean cost.

    Returns
    -------
    float
        The cost.

    Raises
    ------
    ValueError
        As :func:`assay.metrics.confusion_matrix`; also for a cost matrix that is not
        square, not finite or whose size differs from the number of classes, data
        labels missing from ``labels``, and an unknown ``normalize``.

    Warns
    -----
    UndefinedMetricWarning
        With ``normalize='true'``, when a class of ``labels`` has no true rows: its row
        of ``Â`` is 0.0 (as in ``confusion_matrix(normalize='true')``) and it adds 0.0.

    Notes
    -----
    With the (weighted) confusion matrix ``A`` (``A[i, j]`` rows of true class ``i``
    predicted as ``j``), the total cost is ``sum_ij C_ij A_ij = tr(C^T A)`` (Wu,
    "Evaluation", eq. 14 and exercise 9).  The mailing example of Honavar, "Evaluating
    model performance", classes ordered (1, 0):
    ``A = [[8, 2], [20, 970]]`` and profit matrix ``[[10, 0], [-1, 0]]``, i.e. costs
    ``[[-10, 0], [1, 0]]``, give a total cost of -60 (a net profit of $60).

    Examples
    --------
    >>> from assay.metrics import expected_cost
    >>> expected_cost([0, 0, 1, 1], [0, 1, 0, 1], [[0, 10], [1000, 10]])
    255.0
    >>> expected_cost([0, 0, 1, 1], [0, 1, 0, 1], [[0, 10], [1000, 10]], normalize=None)
    1020.0
    """
    refuse_multilabel("expected_cost", y_true, y_pred)
    matrix, options = resolve_expected_cost(
        y_true,
        y_pred,
        cost_matrix,
        labels=labels,
        sample_weight=sample_weight,
        normalize=normalize,
    )
    return float(expected_cost_from_confusion(matrix, **options, stacklevel=3))


def bayes_decision(proba: Any, cost_matrix: Any, *, labels: Any = None) -> np.ndarray:
    """Bayes decisions: for each row, the class of least expected cost.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Class probabilities per row, in [0, 1], each row summing to 1 (within
        ``1e-6``).
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: cost of deciding class ``j`` when the true class is
        ``i``; finite.
    labels : array-like of shape (n_classes,), default=None
        Labels of the columns of ``proba``; the decisions are returned as these labels.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``labels[j*]`` per row, or the column index ``j*`` (int64) without ``labels``,
        where ``j* = argmin_j sum_i proba[:, i] C[i, j]``; ties go to the smallest ``j``.

    Raises
    ------
    ValueError
        ``proba`` not 2-D, empty, non-finite, outside [0, 1] or with rows not summing
        to 1; a cost matrix that is not square, not finite or not (n_classes,
        n_classes); ``labels`` of the wrong length or with repeats.

    Notes
    -----
    The conditional risk of deciding ``j`` is ``R(j | x) = sum_i C_ij Pr(y = i | x)``;
    deciding ``argmin_j R(j | x)`` for every ``x`` minimises the risk
    ``E[c_{y, f(x)}]`` (Elkan 2001; Wu, "Evaluation", section 2.3, eqs. 15-16).  With the
    0-1 cost matrix it is the most probable class (Wu, exercise 7(b)).  Exercise 7(d): for
    classes 1 and 2
    with ``p(x | 1) = N(-1, 0.25)``, ``p(x | 2) = N(1, 0.25)``, equal priors and costs
    ``[[0, 10], [1, 0]]``, class 1 is decided iff ``x < ln(10) / 8``.

    Examples
    --------
    >>> from assay.metrics import bayes_decision
    >>> bayes_decision([[0.8, 0.2], [0.95, 0.05]], [[0, 1], [10, 0]])
    array([1, 0])
    >>> bayes_decision([[0.8, 0.2]], [[0, 1], [1, 0]], labels=["cat", "dog"])
    array(['cat'], dtype='<U3')
    """
    probabilities = as_probabilities(proba, "proba", ndim=2)
    check_probability_rows(probabilities, "proba")
    k = probabilities.shape[1]
    cost = _as_cost_matrix(cost_matrix, k, f"(the {k} columns of `proba`)")
    decisions = minimum_expected_cost(probabilities, cost)
    if labels is None:
        return decisions
    names = np.asarray(labels)
    if names.ndim != 1 or names.shape[0] != k:
        raise ValueError(
            f"`labels` must be 1-D with one label per column of `proba` ({k}); got shape "
            f"{names.shape}."
        )
    if np.unique(names).shape[0] != k:
        raise ValueError(f"`labels` {format_values(names)} contains repeated labels.")
    return names[decisions]
