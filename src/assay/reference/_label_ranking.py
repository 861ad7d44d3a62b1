"""Reference label ranking metrics and the multilabel averages of binary ranking metrics.

Every row of a multilabel indicator is ranked by brute force: for each label, the labels
scoring at least as high are counted again from scratch, O(n_labels^2) a row.  Weighted
means over rows are exact (integer weight numerators, :class:`fractions.Fraction`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import NAN, Exact, exact_weights, is_nan, plain_mean, to_float, to_float_array

__all__ = [
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
]


def is_multilabel(y_true: Any) -> bool:
    """A 2-D target with several columns, or a scipy.sparse matrix."""
    if hasattr(y_true, "toarray"):
        return len(y_true.shape) == 2 and y_true.shape[1] > 1
    return np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1


def _indicator(y_true: Any) -> list[list[int]]:
    dense = y_true.toarray() if hasattr(y_true, "toarray") else y_true
    return [[1 if value else 0 for value in row] for row in np.asarray(dense).tolist()]


def _rows(y_true: Any, y_score: Any) -> list[tuple[list[int], list[float]]]:
    truth = _indicator(y_true)
    scores = np.asarray(y_score, dtype=float).tolist()
    return list(zip(truth, scores, strict=True))


def _weighted_mean(values: Sequence[Exact], sample_weight: Any) -> Exact:
    """``sum_i w_i v_i / sum_i w_i`` over the rows of non-zero weight."""
    weights, _ = exact_weights(sample_weight, len(values))
    kept = [(v, w) for v, w in zip(values, weights, strict=True) if w != 0]
    if any(is_nan(v) for v, _ in kept):
        return NAN
    return sum(Fraction(v) * w for v, w in kept) / sum(w for _, w in kept)


def _at_least(scores: list[float], j: int, among: list[int]) -> int:
    """How many of the labels ``among`` score at least as high as label ``j``."""
    return sum(1 for k in among if scores[k] >= scores[j])


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Coverage error: the mean rank of each row's lowest-scored relevant label.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Multilabel 0/1 indicator.
    y_score : array-like of shape (n_samples, n_labels)
        Scores of each label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows.

    Returns
    -------
    float

    Notes
    -----
    ``coverage_i = max_{j relevant} |{k : s_ik >= s_ij}|`` (0 without relevant labels),
    averaged over rows with the weights (Tsoumakas et al. 2010, plus one).

    Examples
    --------
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    2.5
    """
    values: list[Exact] = []
    for truth, scores in _rows(y_true, y_score):
        everything = list(range(len(truth)))
        relevant = [j for j in everything if truth[j]]
        values.append(max((_at_least(scores, j, everything) for j in relevant), default=0))
    return to_float(_weighted_mean(values, sample_weight))


def label_ranking_average_precision_score(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> float:
    """Label ranking average precision: per row, the mean over relevant labels of the
    share of relevant labels among those ranked at least as high.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Multilabel 0/1 indicator.
    y_score : array-like of shape (n_samples, n_labels)
        Scores of each label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows.

    Returns
    -------
    float

    Notes
    -----
    ``LRAP_i = mean_{j relevant} |{k relevant : s_ik >= s_ij}| / |{k : s_ik >= s_ij}|``;
    1 for a row whose labels are all relevant or all irrelevant.

    Examples
    --------
    >>> y_true, y_score = [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]
    >>> round(label_ranking_average_precision_score(y_true, y_score), 6)
    0.416667
    """
    values: list[Exact] = []
    for truth, scores in _rows(y_true, y_score):
        everything = list(range(len(truth)))
        relevant = [j for j in everything if truth[j]]
        if len(relevant) in (0, len(truth)):
            values.append(1)
            continue
        shares = [
            Fraction(_at_least(scores, j, relevant), _at_least(scores, j, everything))
            for j in relevant
        ]
        values.append(sum(shares) / len(shares))
    return to_float(_weighted_mean(values, sample_weight))


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Ranking loss: the share of (relevant, irrelevant) pairs of a row with the
    irrelevant label scored at least as high.

    Parameters
    ----------
    y_true : array-like or sparse matrix of shape (n_samples, n_labels)
        Multilabel 0/1 indicator.
    y_score : array-like of shape (n_samples, n_labels)
        Scores of each label.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows.

    Returns
    -------
    float

    Notes
    -----
    ``loss_i = |{(j, k) : j relevant, k irrelevant, s_ik >= s_ij}| / (P_i N_i)``, 0 for
    a row with ``P_i N_i = 0``; ties count as whole errors.

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    0.75
    """
    values: list[Exact] = []
    for truth, scores in _rows(y_true, y_score):
        relevant = [j for j, t in enumerate(truth) if t]
        irrelevant = [k for k, t in enumerate(truth) if not t]
        pairs = len(relevant) * len(irrelevant)
        wrong = sum(1 for j in relevant for k in irrelevant if scores[k] >= scores[j])
        values.append(Fraction(wrong, pairs) if pairs else 0)
    return to_float(_weighted_mean(values, sample_weight))


def multilabel_average(
    binary_metric: Callable[..., float],
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    average: str | None,
    **options: Any,
) -> Any:
    """A binary metric of each label (column), or of each row for 'samples', averaged.

    None: the per-label values; 'macro': their mean (NaN if any is NaN); 'weighted':
    their mean weighted by each label's positive weight, labels of weight 0 left out
    (NaN if none is left); 'micro': the metric of the raveled matrix (row-major, each
    row's weight repeated); 'samples': the unweighted metric of each row of non-zero
    weight over its labels, then their weighted mean.
    """
    truth = _indicator(y_true)
    scores = np.asarray(y_score, dtype=float)
    n_rows, n_labels = len(truth), len(truth[0])
    if average == "micro":
        repeated = None if sample_weight is None else np.repeat(sample_weight, n_labels)
        flat = [t for row in truth for t in row]
        return binary_metric(flat, scores.ravel(), sample_weight=repeated, pos_label=1, **options)
    if average == "samples":
        weights, _ = exact_weights(sample_weight, n_rows)
        values = [
            binary_metric(truth[i], scores[i], pos_label=1, **options) if weights[i] else 0.0
            for i in range(n_rows)
        ]
        return to_float(_weighted_mean(values, sample_weight))
    columns = [[row[c] for row in truth] for c in range(n_labels)]
    per_label = [
        binary_metric(column, scores[:, c], sample_weight=sample_weight, pos_label=1, **options)
        for c, column in enumerate(columns)
    ]
    if average is None:
        return to_float_array(per_label)
    if average == "macro":
        return to_float(plain_mean(per_label))
    if average == "weighted":
        weights, _ = exact_weights(sample_weight, n_rows)
        supports = [
            sum(w for t, w in zip(column, weights, strict=True) if t) for column in columns
        ]
        kept = [(v, s) for v, s in zip(per_label, supports, strict=True) if s != 0]
        if not kept or any(is_nan(v) for v, _ in kept):
            return NAN
        return to_float(sum(Fraction(v) * s for v, s in kept) / sum(s for _, s in kept))
    raise ValueError(
        f"average must be None, 'micro', 'macro', 'weighted' or 'samples'; got {average!r}."
    )


def one_hot(y_true: Any) -> np.ndarray:
    """The indicator of a multi-class target, one column per sorted class."""
    labels = np.asarray(y_true).ravel().tolist()
    classes = sorted(set(labels))
    return np.array([[int(label == c) for c in classes] for label in labels])
