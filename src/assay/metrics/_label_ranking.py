"""Label ranking metrics of multilabel scores: coverage error, LRAP, ranking loss.

Each row of a multilabel problem ranks its own labels by score.  One sort of every row
(``np.argsort`` along the labels, rows in blocks that stay small) gives, for each label,
how many labels and how many relevant labels score at least as high and strictly higher
(:class:`RowRanks`); LRAP, the ranking loss, and the per-row ROC AUC and average
precision of ``average='samples'`` are sums over the relevant labels of those counts (the
coverage needs no sort: it counts the scores at or above each row's lowest relevant one).
The metrics are weighted means of the per-row values, so a row is one resampling unit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._ties import row_runs
from assay._validation import as_sample_weight, format_values, reject_sparse

__all__ = [
    "coverage_error",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
]

_BLOCK_ELEMENTS = 1 << 20  # rows are ranked in blocks of about this many scores


def _dense_indicator(values: Any, name: str) -> np.ndarray:
    """A scipy.sparse indicator as a dense array (its values are checked like any)."""
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(values):
        return np.asarray(values.toarray())
    reject_sparse(values, name)  # a sparse matrix wrapped in an object array
    return np.asarray(values)


def is_multilabel_target(y_true: Any) -> bool:
    """Whether ``y_true`` is 2-D with several columns (dense or scipy.sparse)."""
    sparse = sys.modules.get("scipy.sparse")
    if sparse is not None and sparse.issparse(y_true):
        return len(y_true.shape) == 2 and y_true.shape[1] > 1
    try:
        shape = np.shape(y_true)
    except ValueError:  # ragged sequences: refused by the 1-D checks, with their message
        return False
    return len(shape) == 2 and shape[1] > 1


def as_label_indicator(values: Any, name: str = "y_true") -> np.ndarray:
    """A multilabel indicator (n_samples, n_labels) of 0/1 values as a boolean array.

    Dense arrays, nested lists and scipy.sparse matrices or arrays are accepted; the
    values must be 0 and 1 (or booleans).
    """
    array = _dense_indicator(values, name)
    if array.ndim != 2:
        raise ValueError(
            f"`{name}` must be a 2-D multilabel indicator of shape (n_samples, n_labels); "
            f"got an array of shape {array.shape}."
        )
    if array.size == 0:
        raise ValueError(f"`{name}` is empty; at least one sample and one label are needed.")
    if array.dtype == bool:
        return np.ascontiguousarray(array)
    if array.dtype.kind not in "iuf":
        raise ValueError(
            f"`{name}` must be a multilabel indicator of 0/1 values; got dtype {array.dtype}."
        )
    other = (array != 0) & (array != 1)
    if np.any(other):
        raise ValueError(
            f"`{name}` must be a multilabel indicator of 0/1 values; it contains "
            f"{format_values(np.unique(array[other]))}."
        )
    return np.ascontiguousarray(array == 1)


def as_label_scores(values: Any, shape: tuple[int, ...], name: str = "y_score") -> np.ndarray:
    """Finite scores of the shape of the indicator, as contiguous float64."""
    reject_sparse(values, name)
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"`{name}` must be numeric; got dtype {array.dtype}.")
    if array.shape != shape:
        raise ValueError(
            f"`y_true` and `{name}` must have the same shape (n_samples, n_labels); "
            f"got {shape} and {array.shape}."
        )
    array = np.ascontiguousarray(array, dtype=np.float64)
    n_bad = int(np.count_nonzero(~np.isfinite(array)))
    if n_bad:
        raise ValueError(f"`{name}` contains {n_bad} non-finite values; scores must be finite.")
    return array


def label_ranking_inputs(
    y_true: Any, y_score: Any, sample_weight: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validated (indicator, scores, weights) of a multilabel ranking problem."""
    truth = as_label_indicator(y_true)
    scores = as_label_scores(y_score, truth.shape)
    return truth, scores, as_sample_weight(sample_weight, truth.shape[0])


class RowRanks(NamedTuple):
    """Per row, the labels in descending score order and the counts at each of them.

    All arrays have shape (rows, labels); column ``k`` is the row's k-th highest label.
    """

    relevant: np.ndarray
    """Whether the label is relevant (bool)."""
    at_least: np.ndarray
    """Labels scoring at least as high (the label's rank, ties ranked last)."""
    above: np.ndarray
    """Labels scoring strictly higher."""
    relevant_at_least: np.ndarray
    """Relevant labels scoring at least as high."""
    relevant_above: np.ndarray
    """Relevant labels scoring strictly higher."""


def row_ranks(truth: np.ndarray, scores: np.ndarray) -> RowRanks:
    """Counts of the labels above each label of each row (ties found exactly)."""
    order, group_start, group_end = row_runs(-scores)  # highest score first
    relevant = np.take_along_axis(truth, order, axis=1)
    cumulative = np.cumsum(relevant, axis=1, dtype=np.int64)
    relevant_at_least = np.take_along_axis(cumulative, group_end, axis=1)
    before_start = np.take_along_axis(cumulative, np.maximum(group_start - 1, 0), axis=1)
    relevant_above = np.where(group_start > 0, before_start, 0)
    return RowRanks(relevant, group_end + 1, group_start, relevant_at_least, relevant_above)


def per_row(truth: np.ndarray, scores: np.ndarray, statistic: Any) -> np.ndarray:
    """``statistic(RowRanks)`` for every row, computed on blocks of rows."""
    n_rows, n_labels = truth.shape
    block = max(1, _BLOCK_ELEMENTS // n_labels)
    values = np.empty(n_rows, dtype=np.float64)
    for first in range(0, n_rows, block):
        rows = slice(first, first + block)
        values[rows] = statistic(row_ranks(truth[rows], scores[rows]))
    return values


# --- The per-row quantities (each a function of RowRanks). ---


def _coverage(truth: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The rank of each row's lowest-scored relevant label (0 without one): no sort."""
    lowest = np.min(np.where(truth, scores, np.inf), axis=1)
    return np.count_nonzero(scores >= lowest[:, None], axis=1).astype(np.float64)


def _precision_at_relevant(ranks: RowRanks) -> tuple[np.ndarray, np.ndarray]:
    """(sum over relevant labels of relevant-at-least / at-least, number relevant)."""
    ratios = np.where(ranks.relevant, ranks.relevant_at_least / ranks.at_least, 0.0)
    return ratios.sum(axis=1), ranks.relevant.sum(axis=1)


def _lrap(ranks: RowRanks) -> np.ndarray:
    total, n_relevant = _precision_at_relevant(ranks)
    n_labels = ranks.relevant.shape[1]
    trivial = (n_relevant == 0) | (n_relevant == n_labels)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(trivial, 1.0, total / n_relevant)


def _misordered_pairs(ranks: RowRanks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(irrelevant labels above each relevant one, tied with it) summed, and P * N."""
    irrelevant_at_least = ranks.at_least - ranks.relevant_at_least
    irrelevant_above = ranks.above - ranks.relevant_above
    above = np.where(ranks.relevant, irrelevant_above, 0).sum(axis=1)
    tied = np.where(ranks.relevant, irrelevant_at_least - irrelevant_above, 0).sum(axis=1)
    n_relevant = ranks.relevant.sum(axis=1)
    pairs = n_relevant * (ranks.relevant.shape[1] - n_relevant)
    return above, tied, pairs


def _ranking_loss(ranks: RowRanks) -> np.ndarray:
    above, tied, pairs = _misordered_pairs(ranks)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pairs == 0, 0.0, (above + tied) / pairs)


def row_roc_auc(ranks: RowRanks) -> np.ndarray:
    """ROC AUC of each row over its labels, ties one half; NaN without both kinds."""
    above, tied, pairs = _misordered_pairs(ranks)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pairs == 0, np.nan, 1.0 - (above + 0.5 * tied) / pairs)


def row_average_precision(ranks: RowRanks) -> np.ndarray:
    """Average precision of each row over its labels; NaN without relevant labels."""
    total, n_relevant = _precision_at_relevant(ranks)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n_relevant == 0, np.nan, total / n_relevant)


def _weighted_mean(values: np.ndarray, weights: np.ndarray | None) -> float:
    if weights is None:
        return float(np.mean(values))
    kept = weights > 0  # a zero-weight row does not count, whatever its value
    return float(np.average(values[kept], weights=weights[kept]))


def coverage_error(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Coverage error: how far down each row's ranking all its relevant labels lie.

    Parameters
    ----------
    y_true : array-like or scipy.sparse matrix of shape (n_samples, n_labels)
        Multilabel indicator: 1 (or True) for a relevant label, 0 otherwise.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores of each label; higher ranks first.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows, not all zero.

    Returns
    -------
    float
        The weighted mean over rows of the rank of the row's lowest-scored relevant
        label (between the mean number of relevant labels and ``n_labels``; lower is
        better).

    Raises
    ------
    ValueError
        A ``y_true`` that is not a 2-D 0/1 indicator, shapes that differ, non-finite
        scores or bad weights.

    Notes
    -----
    For row ``i`` with relevant labels ``Y_i`` and scores ``s_i``,
    ``coverage_i = max_{j in Y_i} |{k : s_ik >= s_ij}|``: tied labels all take the
    highest rank of their tie group.  A row without relevant labels has coverage 0.
    This is the coverage of Tsoumakas et al. (2010) plus one, as in scikit-learn.

    References
    ----------
    G. Tsoumakas, I. Katakis and I. Vlahavas, "Mining multi-label data", in *Data
    Mining and Knowledge Discovery Handbook*, Springer (2010).

    Examples
    --------
    >>> import assay
    >>> assay.coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    2.5
    """
    truth, scores, weights = label_ranking_inputs(y_true, y_score, sample_weight)
    return _weighted_mean(_coverage(truth, scores), weights)


def label_ranking_average_precision_score(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> float:
    """Label ranking average precision (LRAP) of multilabel scores.

    Parameters
    ----------
    y_true : array-like or scipy.sparse matrix of shape (n_samples, n_labels)
        Multilabel indicator: 1 (or True) for a relevant label, 0 otherwise.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores of each label; higher ranks first.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows, not all zero.

    Returns
    -------
    float
        LRAP in (0, 1]; 1 is a perfect ranking.

    Raises
    ------
    ValueError
        As :func:`coverage_error`.

    Notes
    -----
    For row ``i`` with relevant labels ``Y_i`` and
    ``rank_ij = |{k : s_ik >= s_ij}|`` (ties ranked last),
    ``LRAP_i = (1 / |Y_i|) sum_{j in Y_i} |{k in Y_i : s_ik >= s_ij}| / rank_ij``;
    a row whose labels are all relevant or all irrelevant has ``LRAP_i = 1`` (its
    ranking cannot be wrong), as in scikit-learn.  The result is the weighted mean over
    rows.  For rows with some relevant labels this is the row's average precision.

    References
    ----------
    G. Tsoumakas, I. Katakis and I. Vlahavas, "Mining multi-label data", in *Data
    Mining and Knowledge Discovery Handbook*, Springer (2010).

    Examples
    --------
    >>> import assay
    >>> y_true, y_score = [[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]]
    >>> round(assay.label_ranking_average_precision_score(y_true, y_score), 6)
    0.416667
    """
    truth, scores, weights = label_ranking_inputs(y_true, y_score, sample_weight)
    return _weighted_mean(per_row(truth, scores, _lrap), weights)


def label_ranking_loss(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Ranking loss: the share of (relevant, irrelevant) label pairs ranked wrongly.

    Parameters
    ----------
    y_true : array-like or scipy.sparse matrix of shape (n_samples, n_labels)
        Multilabel indicator: 1 (or True) for a relevant label, 0 otherwise.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores of each label; higher ranks first.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the rows, not all zero.

    Returns
    -------
    float
        The loss in [0, 1]; 0 is a perfect ranking.

    Raises
    ------
    ValueError
        As :func:`coverage_error`.

    Notes
    -----
    For row ``i`` with ``P_i`` relevant and ``N_i`` irrelevant labels,
    ``loss_i = |{(j, k) : j relevant, k irrelevant, s_ik >= s_ij}| / (P_i N_i)``: a tie
    between a relevant and an irrelevant label counts as a whole error (unlike the
    half of :func:`roc_auc_score`), and a row with ``P_i N_i = 0`` has loss 0, as in
    scikit-learn.  The result is the weighted mean over rows.

    References
    ----------
    G. Tsoumakas, I. Katakis and I. Vlahavas, "Mining multi-label data", in *Data
    Mining and Knowledge Discovery Handbook*, Springer (2010).

    Examples
    --------
    >>> import assay
    >>> assay.label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    0.75
    """
    truth, scores, weights = label_ranking_inputs(y_true, y_score, sample_weight)
    return _weighted_mean(per_row(truth, scores, _ranking_loss), weights)


DECLARATIONS: tuple[tuple[Callable[..., float], str, bool, tuple[float, float]], ...] = (
    (coverage_error, "coverage error", False, (0.0, np.inf)),
    (label_ranking_average_precision_score, "LRAP", True, (0.0, 1.0)),
    (label_ranking_loss, "ranking loss", False, (0.0, 1.0)),
)
"""The registry's entries of these metrics (:mod:`assay.metrics._registry`): function,
readable name, whether greater is better, and the range of the values."""
