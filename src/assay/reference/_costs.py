"""Reference cost-sensitive evaluation: expected cost of predictions, Bayes decisions."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._cells import count_matrix, label_set
from ._exact import NAN, exact_weights, to_float, values_of

__all__ = ["bayes_decision", "expected_cost"]


def _cost_rows(cost_matrix: Any, k: int) -> list[list[Fraction]]:
    costs = np.asarray(cost_matrix)
    if costs.shape != (k, k):
        raise ValueError(f"cost_matrix must have shape ({k}, {k}); got {costs.shape}.")
    return [[Fraction(c) for c in row] for row in costs.tolist()]


def expected_cost(
    y_true: Any,
    y_pred: Any,
    cost_matrix: Any,
    *,
    labels: Any = None,
    sample_weight: Any = None,
    normalize: str | None = "all",
) -> float:
    """Cost of the predictions under a cost matrix.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``C[i, j]``: cost of predicting class ``labels[j]`` for a true ``labels[i]``
        (negative costs are gains).
    labels : array-like, default=None
        Classes indexing ``C`` (default: sorted union); rows with other labels are
        not counted.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    normalize : {'all', None, 'true'}, default='all'
        'all': mean cost per (weighted) sample, ``sum_ij C_ij A_ij / sum_ij A_ij``;
        None: total cost ``sum_ij C_ij A_ij = tr(C^T A)``; 'true': ``tr(C^T Ahat)``
        with ``Ahat`` the row-normalized confusion matrix, i.e. the sum over the
        classes present in ``y_true`` of their mean cost (a class with no true
        sample adds nothing, like a zero row of the normalized matrix).

    Returns
    -------
    float
        NaN when the counted weight is 0 (for 'all' and 'true').

    Notes
    -----
    ``A`` is the (weighted) confusion matrix. The cost of one sample is
    ``c_{y, f(x)}`` and the empirical risk is their mean (Wu, "Evaluation", section
    2.2, eq. 14); exercise 9 writes the normalized form ``tr(C^T Ahat)``. The profit
    matrix of Honavar, "Evaluating model performance", is ``-C``.

    Examples
    --------
    >>> costs = [[0, 10], [1000, 10]]  # 0 = qualified part, 1 = defective
    >>> expected_cost([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], costs, normalize=None)
    1020.0
    >>> expected_cost([0, 0, 0, 1, 1], [0, 1, 0, 0, 1], costs)
    204.0
    """
    truth = values_of(y_true)
    predicted = values_of(y_pred)
    weights, denominator = exact_weights(sample_weight, len(truth))
    classes = label_set(truth, predicted, labels)
    counts = count_matrix(truth, predicted, classes, weights)
    costs = _cost_rows(cost_matrix, len(classes))
    k = len(classes)
    if normalize is None:
        total = sum(costs[i][j] * counts[i][j] for i in range(k) for j in range(k))
        return to_float(total / denominator)
    if normalize == "all":
        weight = sum(sum(row) for row in counts)
        if weight == 0:
            return NAN
        total = sum(costs[i][j] * counts[i][j] for i in range(k) for j in range(k))
        return to_float(total / weight)
    if normalize == "true":
        present = [i for i in range(k) if sum(counts[i]) != 0]
        if not present:
            return NAN
        total = Fraction(0)
        for i in present:
            row_weight = sum(counts[i])
            total += sum(costs[i][j] * Fraction(counts[i][j], row_weight) for j in range(k))
        return to_float(total)
    raise ValueError(f"normalize must be 'all', None or 'true'; got {normalize!r}.")


def bayes_decision(proba: Any, cost_matrix: Any, *, labels: Any = None) -> np.ndarray:
    """The decision of least expected cost for each row of class probabilities.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Posterior probabilities ``P(y = i | x)``, rows summing to 1.
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``C[i, j]``: cost of deciding ``j`` when the truth is ``i``.
    labels : array-like of shape (n_classes,), default=None
        Labels returned for the decisions (default: the column indices).

    Returns
    -------
    ndarray of shape (n_samples,)
        ``labels[j*]`` (or ``j*`` as int64) with
        ``j* = argmin_j sum_i proba[:, i] C[i, j]``, the first ``j`` on ties.

    Notes
    -----
    Bayes decision theory picks the decision minimising the conditional risk
    ``sum_i C[i, j] P(i | x)`` (Wu, "Evaluation", section 2.3, eqs. 15-16, and
    exercise 7). The risks are compared exactly (fractions of the floats).

    Examples
    --------
    >>> bayes_decision([[0.5, 0.5], [0.05, 0.95]], [[0, 10], [1, 0]], labels=[1, 2])
    array([1, 2])
    """
    probabilities = np.asarray(proba)
    k = probabilities.shape[1]
    costs = _cost_rows(cost_matrix, k)
    decisions = []
    for row in probabilities.tolist():
        row_fractions = [Fraction(p) for p in row]
        risks = [sum(row_fractions[i] * costs[i][j] for i in range(k)) for j in range(k)]
        decisions.append(risks.index(min(risks)))
    if labels is None:
        return np.array(decisions, dtype=np.int64)
    return np.asarray(labels)[np.array(decisions, dtype=np.int64)]
