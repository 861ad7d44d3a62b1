"""Reference metrics of multilabel targets, counted sample by sample and label by label.

A multilabel target is an (n_samples, n_labels) 0/1 indicator (a nested list, an array
or anything with ``toarray()``, such as a scipy.sparse matrix).  Label ``j`` is a binary
problem of its own: its cells TP, FP, FN, TN count the samples by ``(T_ij, P_ij)``.
``average='samples'`` computes the metric of each sample's cells over the labels instead,
and takes the mean over the samples weighted by ``sample_weight`` (NaN samples and
zero-weight samples left out).
Weights are exact integer numerators (:mod:`._exact`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._cells import CellMetric, ClassCells, combine, one_vs_rest_cells, selected_cells
from ._exact import (
    NAN,
    exact_weights,
    mean_ignoring_nan,
    ratio,
    to_float,
    values_of,
    zero_division_value,
)

__all__ = [
    "hamming_loss",
    "is_indicator",
    "jaccard",
    "jaccard_score",
    "multilabel_confusion_matrix",
    "multilabel_rate",
    "subset_accuracy",
    "zero_one_loss",
]


def is_indicator(values: Any) -> bool:
    """A sparse matrix, or a 2-D array-like with more than one column."""
    shape = getattr(values, "shape", None)
    if shape is None:
        shape = np.shape(values)
    return len(shape) == 2 and shape[1] > 1


def _rows(values: Any) -> list[list[int]]:
    """The indicator as a list of rows of Python ints 0/1."""
    if hasattr(values, "toarray"):
        values = values.toarray()
    rows = [[int(v) for v in row] for row in np.asarray(values).tolist()]
    for row in rows:
        for value in row:
            if value not in (0, 1):
                raise ValueError("a multilabel indicator holds only 0 and 1.")
    return rows


def _pair(y_true: Any, y_pred: Any) -> tuple[list[list[int]], list[list[int]]]:
    if not (is_indicator(y_true) and is_indicator(y_pred)):
        raise ValueError("both targets must be multilabel indicators.")
    truth, predicted = _rows(y_true), _rows(y_pred)
    if len(truth) != len(predicted) or len(truth[0]) != len(predicted[0]):
        raise ValueError("y_true and y_pred have different shapes.")
    return truth, predicted


def _columns(labels: Any, n_labels: int) -> list[int]:
    if labels is None:
        return list(range(n_labels))
    columns = [int(label) for label in values_of(labels)]
    if any(column < 0 or column >= n_labels for column in columns):
        raise ValueError("labels must be column indices in [0, n_labels).")
    return columns


def _cells_of(truth: list[int], predicted: list[int], weights: list[int]) -> ClassCells:
    """Cells of one binary problem: pairs (true bit, predicted bit) with weights."""
    tp = fp = fn = tn = 0
    for t, p, w in zip(truth, predicted, weights, strict=True):
        if t and p:
            tp += w
        elif p:
            fp += w
        elif t:
            fn += w
        else:
            tn += w
    return ClassCells(tp, fp, fn, tn)


def _row_cells(truth: list[int], predicted: list[int], columns: list[int]) -> ClassCells:
    """Unweighted cells of one sample over the labels ``columns``."""
    ones = [1] * len(columns)
    return _cells_of([truth[j] for j in columns], [predicted[j] for j in columns], ones)


def label_cells(
    y_true: Any, y_pred: Any, labels: Any, sample_weight: Any
) -> tuple[list[ClassCells], int]:
    """Cells of each label in ``labels`` (columns), and the weights' common denominator."""
    truth, predicted = _pair(y_true, y_pred)
    weights, denominator = exact_weights(sample_weight, len(truth))
    columns = _columns(labels, len(truth[0]))
    cells = [
        _cells_of([row[j] for row in truth], [row[j] for row in predicted], weights)
        for j in columns
    ]
    return cells, denominator


def multilabel_rate(
    metric: CellMetric,
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
) -> Any:
    """A ratio of cells of multilabel targets, combined as ``average`` says."""
    undefined = zero_division_value(zero_division)
    if average == "samples":
        truth, predicted = _pair(y_true, y_pred)
        weights, _ = exact_weights(sample_weight, len(truth))
        columns = _columns(labels, len(truth[0]))
        # a zero-weight sample has no say, even where its value is defined
        values = [
            metric(_row_cells(t, p, columns), undefined) if w > 0 else NAN
            for t, p, w in zip(truth, predicted, weights, strict=True)
        ]
        return to_float(mean_ignoring_nan(values, weights))
    if average not in (None, "micro", "macro", "weighted"):
        raise ValueError(f"average {average!r} is not one for multilabel targets.")
    cells, _ = label_cells(y_true, y_pred, labels, sample_weight)
    return combine(metric, cells, average, undefined)


def jaccard(c: ClassCells, undefined: Any) -> Any:
    """``TP / (TP + FP + FN)``."""
    return ratio(c.tp, c.tp + c.fp + c.fn, undefined)


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
    """Jaccard index ``TP / (TP + FP + FN)`` of 1-D or multilabel targets.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or 0/1 indicators.
    labels : array-like, default=None
        Classes (1-D) or columns (multilabel) to report on.
    pos_label : scalar, default=1
        The class reported with ``average='binary'``.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples', None}
        How the values combine ('samples': multilabel only).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    zero_division : {"warn", 0.0, 1.0, nan}, default="warn"
        Value of a 0/0 ratio; "warn" means 0.0.

    Returns
    -------
    float or ndarray
        The index (one per class or label for ``average=None``).

    Notes
    -----
    The cells are counted one sample and one label at a time with exact fractions;
    'samples' computes the index of each row's label sets and averages them with the
    weights (Tsoumakas, Katakis and Vlahavas, "Mining multi-label data", 2010).
    """
    if is_indicator(y_true) or is_indicator(y_pred):
        return multilabel_rate(
            jaccard,
            y_true,
            y_pred,
            labels=labels,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
    undefined = zero_division_value(zero_division)
    _, cells = selected_cells(y_true, y_pred, labels, pos_label, average, sample_weight)
    return combine(jaccard, cells, average, undefined)


def multilabel_confusion_matrix(
    y_true: Any,
    y_pred: Any,
    *,
    sample_weight: Any = None,
    labels: Any = None,
    samplewise: bool = False,
) -> np.ndarray:
    """``[[TN, FP], [FN, TP]]`` of each label (or class, for 1-D targets, or sample).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or 0/1 indicators.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.
    labels : array-like, default=None
        Classes (1-D) or columns (multilabel) to report on.
    samplewise : bool, default=False
        One matrix per sample (multilabel only), its cells times the sample's weight.

    Returns
    -------
    ndarray of shape (n_outputs, 2, 2)
        Weighted counts as float64.

    Notes
    -----
    Each label's column (or each class against the rest, or each sample's row) is a
    binary problem whose four cells are counted one sample at a time, exactly.
    """
    if is_indicator(y_true) or is_indicator(y_pred):
        if samplewise:
            truth, predicted = _pair(y_true, y_pred)
            weights, denominator = exact_weights(sample_weight, len(truth))
            columns = _columns(labels, len(truth[0]))
            cells = [
                ClassCells(*(w * cell for cell in _row_cells(t, p, columns)))
                for t, p, w in zip(truth, predicted, weights, strict=True)
            ]
        else:
            cells, denominator = label_cells(y_true, y_pred, labels, sample_weight)
    else:
        truth, predicted = values_of(y_true), values_of(y_pred)
        weights, denominator = exact_weights(sample_weight, len(truth))
        classes = sorted(set(truth) | set(predicted)) if labels is None else values_of(labels)
        cells = one_vs_rest_cells(truth, predicted, classes, weights)
    return np.array(
        [[[c.tn / denominator, c.fp / denominator], [c.fn / denominator, c.tp / denominator]]
         for c in cells],
        dtype=np.float64,
    )  # fmt: skip


def _mismatches(y_true: Any, y_pred: Any) -> tuple[list[int], int]:
    """Per sample, the number of labels on which the targets differ; and the labels."""
    truth, predicted = _pair(y_true, y_pred)
    return [
        sum(int(a != b) for a, b in zip(t, p, strict=True))
        for t, p in zip(truth, predicted, strict=True)
    ], len(truth[0])


def subset_accuracy(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Weighted fraction (or count) of samples whose label sets are equal."""
    mismatches, _ = _mismatches(y_true, y_pred)
    weights, denominator = exact_weights(sample_weight, len(mismatches))
    correct = sum(w for m, w in zip(mismatches, weights, strict=True) if m == 0)
    if normalize:
        return to_float(Fraction(correct, sum(weights)))
    return to_float(Fraction(correct, denominator))


def zero_one_loss(
    y_true: Any, y_pred: Any, *, normalize: bool = True, sample_weight: Any = None
) -> float:
    """Weighted fraction (or count) of samples predicted wrongly (label sets unequal).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or 0/1 indicators.
    normalize : bool, default=True
        False: the weighted count of wrong samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float
        The loss.

    Notes
    -----
    A multilabel sample is wrong when its set of labels differs from the predicted set in
    any label (the subset 0-1 loss); the sum is exact, in fractions.
    """
    if is_indicator(y_true) or is_indicator(y_pred):
        mismatches, _ = _mismatches(y_true, y_pred)
        wrong = [int(m != 0) for m in mismatches]
    else:
        truth, predicted = values_of(y_true), values_of(y_pred)
        wrong = [int(t != p) for t, p in zip(truth, predicted, strict=True)]
    weights, denominator = exact_weights(sample_weight, len(wrong))
    total_wrong = sum(w * x for w, x in zip(weights, wrong, strict=True))
    if normalize:
        return to_float(Fraction(total_wrong, sum(weights)))
    return to_float(Fraction(total_wrong, denominator))


def hamming_loss(y_true: Any, y_pred: Any, *, sample_weight: Any = None) -> float:
    """Weighted fraction of wrong (sample, label) pairs; of wrong samples for 1-D targets.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Labels, or 0/1 indicators.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights.

    Returns
    -------
    float
        ``sum_i w_i |T_i xor P_i| / (L sum_i w_i)``.

    Notes
    -----
    Each (sample, label) pair is compared on its own and the weighted count of
    disagreements is summed exactly, in fractions.
    """
    if not (is_indicator(y_true) or is_indicator(y_pred)):
        return zero_one_loss(y_true, y_pred, sample_weight=sample_weight)
    mismatches, n_labels = _mismatches(y_true, y_pred)
    weights, _ = exact_weights(sample_weight, len(mismatches))
    wrong = sum(w * m for w, m in zip(weights, mismatches, strict=True))
    return to_float(Fraction(wrong, sum(weights) * n_labels))
