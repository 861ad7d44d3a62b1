"""One-vs-rest cells and confusion counts, counted row by row, and how classes combine.

Each sample adds its weight (an integer numerator, see :mod:`._exact`) to one cell.
A per-class metric is a ratio of the one-vs-rest cells of a class (TP, FP, FN, TN);
``average`` chooses how classes combine:

* ``'binary'``: the class ``pos_label`` only (at most two labels in the data);
* ``None``: one value per class of ``labels``;
* ``'micro'``: the ratio of the cells summed over the classes (Honavar, "Evaluating
  model performance");
* ``'macro'``: the mean of the per-class values ("Classification validation"; Honavar);
* ``'weighted'``: the mean weighted by each class's true support ``TP + FN``.

A 0/0 ratio takes the ``zero_division`` value ("warn" means 0.0, the reference never
warns); with ``zero_division=nan`` the NaN classes are left out of the macro and
weighted means (scikit-learn's rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

from ._exact import (
    Exact,
    exact_weights,
    mean_ignoring_nan,
    ratio,
    sqrt_fraction,
    to_float,
    to_float_array,
    values_of,
)


class ClassCells(NamedTuple):
    """One-vs-rest cells of one class, as integer weight numerators."""

    tp: int
    fp: int
    fn: int
    tn: int


# A metric of one class's cells: (cells, value for 0/0) -> exact value or NaN.
CellMetric = Callable[[ClassCells, Exact], Exact]


def label_set(truth: list[Any], predicted: list[Any], labels: Any) -> list[Any]:
    """``labels`` if given, else the sorted union of the labels of both vectors."""
    if labels is not None:
        return values_of(labels)
    return sorted(set(truth) | set(predicted))


def count_matrix(
    truth: list[Any], predicted: list[Any], labels: list[Any], weights: list[int]
) -> list[list[int]]:
    """``A[i][j]``: weight of the rows with true label ``labels[i]`` predicted as
    ``labels[j]``; rows with a label outside ``labels`` are not counted."""
    index: dict[Any, int] = {}
    for position, label in enumerate(labels):
        index.setdefault(label, position)
    matrix = [[0] * len(labels) for _ in labels]
    for true_label, predicted_label, weight in zip(truth, predicted, weights, strict=True):
        if true_label in index and predicted_label in index:
            matrix[index[true_label]][index[predicted_label]] += weight
    return matrix


def one_vs_rest_cells(
    truth: list[Any], predicted: list[Any], labels: list[Any], weights: list[int]
) -> list[ClassCells]:
    """TP, FP, FN, TN of each label against all other rows, counted row by row.

    Every row counts, including rows whose labels are outside ``labels`` (they are
    true negatives of every listed label), as in scikit-learn's
    ``multilabel_confusion_matrix``.
    """
    cells = []
    for label in labels:
        tp = fp = fn = tn = 0
        for true_label, predicted_label, weight in zip(truth, predicted, weights, strict=True):
            is_true = true_label == label
            is_predicted = predicted_label == label
            if is_true and is_predicted:
                tp += weight
            elif is_predicted:
                fp += weight
            elif is_true:
                fn += weight
            else:
                tn += weight
        cells.append(ClassCells(tp, fp, fn, tn))
    return cells


def pooled_cells(cells: list[ClassCells]) -> ClassCells:
    """Micro-averaging: the sum of each cell over the classes (Honavar, "Evaluating model
    performance")."""
    return ClassCells(
        sum(c.tp for c in cells),
        sum(c.fp for c in cells),
        sum(c.fn for c in cells),
        sum(c.tn for c in cells),
    )


def selected_cells(
    y_true: Any,
    y_pred: Any,
    labels: Any,
    pos_label: Any,
    average: str | None,
    sample_weight: Any,
) -> tuple[list[Any], list[ClassCells]]:
    """The classes a metric reports on, and their one-vs-rest cells."""
    truth = values_of(y_true)
    predicted = values_of(y_pred)
    if len(truth) != len(predicted):
        raise ValueError("y_true and y_pred have different lengths.")
    weights, _ = exact_weights(sample_weight, len(truth))
    if average == "binary":
        present = set(truth) | set(predicted)
        if len(present) > 2:
            raise ValueError("average='binary' needs at most two labels; choose another.")
        if pos_label not in present and len(present) == 2:
            raise ValueError(f"pos_label={pos_label!r} is not one of the labels.")
        classes = [pos_label]
    elif average in (None, "micro", "macro", "weighted"):
        classes = label_set(truth, predicted, labels)
    else:
        raise ValueError(
            f"average must be 'binary', 'micro', 'macro', 'weighted' or None; got {average!r}."
        )
    return classes, one_vs_rest_cells(truth, predicted, classes, weights)


def combine(
    metric: CellMetric, cells: list[ClassCells], average: str | None, undefined: Exact
) -> Any:
    """Apply a cell metric per class and combine the classes as ``average`` says."""
    if average == "micro":
        return to_float(metric(pooled_cells(cells), undefined))
    per_class = [metric(c, undefined) for c in cells]
    if average is None:
        return to_float_array(per_class)
    if average == "binary":
        return to_float(per_class[0])
    if average == "macro":
        return to_float(mean_ignoring_nan(per_class))
    supports = [c.tp + c.fn for c in cells]
    return to_float(mean_ignoring_nan(per_class, supports))


def precision(c: ClassCells, undefined: Exact) -> Exact:
    """``TP / (TP + FP)``."""
    return ratio(c.tp, c.tp + c.fp, undefined)


def recall(c: ClassCells, undefined: Exact) -> Exact:
    """``TP / (TP + FN)``."""
    return ratio(c.tp, c.tp + c.fn, undefined)


def specificity(c: ClassCells, undefined: Exact) -> Exact:
    """``TN / (TN + FP)``."""
    return ratio(c.tn, c.tn + c.fp, undefined)


def npv(c: ClassCells, undefined: Exact) -> Exact:
    """``TN / (TN + FN)``."""
    return ratio(c.tn, c.tn + c.fn, undefined)


def fpr(c: ClassCells, undefined: Exact) -> Exact:
    """``FP / (FP + TN)``."""
    return ratio(c.fp, c.fp + c.tn, undefined)


def fnr(c: ClassCells, undefined: Exact) -> Exact:
    """``FN / (FN + TP)``."""
    return ratio(c.fn, c.fn + c.tp, undefined)


def fdr(c: ClassCells, undefined: Exact) -> Exact:
    """``FP / (FP + TP)``."""
    return ratio(c.fp, c.fp + c.tp, undefined)


def f_beta_metric(beta: float) -> CellMetric:
    """``F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``; the recall for b = inf."""
    if math.isinf(beta):
        return recall
    beta_squared = Fraction(beta) ** 2

    def f_beta(c: ClassCells, undefined: Exact) -> Exact:
        numerator = (1 + beta_squared) * c.tp
        return ratio(numerator, numerator + beta_squared * c.fn + c.fp, undefined)

    return f_beta


def matthews_from_cells(c: ClassCells, undefined: Exact) -> Exact:
    """``(TP TN - FP FN) / sqrt((TP+FN)(TP+FP)(TN+FP)(TN+FN))`` (Matthews 1975; Honavar)."""
    squared_denominator = (c.tp + c.fn) * (c.tp + c.fp) * (c.tn + c.fp) * (c.tn + c.fn)
    if squared_denominator == 0:
        return undefined
    return Fraction(c.tp * c.tn - c.fp * c.fn) / sqrt_fraction(squared_denominator)


def matthews_from_matrix(matrix: list[list[int]], undefined: Exact) -> Exact:
    """Gorodkin's R_K of a K x K confusion matrix.

    With ``s`` the total, ``c`` the trace, ``t_k`` the row (true) sums and ``p_k`` the
    column (predicted) sums: ``R_K = (c s - sum_k p_k t_k) /
    sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2))``.
    """
    k = len(matrix)
    true_sums = [sum(matrix[i]) for i in range(k)]
    predicted_sums = [sum(matrix[i][j] for i in range(k)) for j in range(k)]
    total = sum(true_sums)
    correct = sum(matrix[i][i] for i in range(k))
    covariance = correct * total - sum(
        p * t for p, t in zip(predicted_sums, true_sums, strict=True)
    )
    predicted_spread = total * total - sum(p * p for p in predicted_sums)
    true_spread = total * total - sum(t * t for t in true_sums)
    if predicted_spread * true_spread == 0:
        return undefined
    return Fraction(covariance) / sqrt_fraction(predicted_spread * true_spread)
