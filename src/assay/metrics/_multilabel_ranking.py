"""Binary ranking summaries (ROC AUC, average precision, PR AUC) of multilabel scores.

Each label (a column of the indicator) is a binary problem, sorted once and summarised by
the binary scan; the averages combine the columns as scikit-learn does:

* ``None``: the per-label values; ``'macro'``: their plain mean (NaN if one is NaN);
* ``'weighted'``: their mean weighted by each label's positive weight (a label without
  positives has weight 0 and does not enter, as in scikit-learn);
* ``'micro'``: one binary value over the raveled indicator and scores;
* ``'samples'``: one value per row over its labels (unweighted), then the weighted mean
  over rows; the ROC AUC and the average precision of every row come from one sort of the
  rows (:mod:`assay.metrics._label_ranking`), other summaries from a scan per row.

A multi-class target with one score column per class is the same problem with the
one-hot indicator (one-vs-rest), which is how ``average_precision_score`` takes any
per-class scores.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from assay._validation import as_1d, as_sample_weight, check_option, distinct_values
from assay.metrics._label_ranking import (
    as_label_scores,
    label_ranking_inputs,
    per_row,
    row_average_precision,
    row_roc_auc,
)
from assay.metrics._sorted import SortedBinary, sort_scores, warn_undefined

__all__: list[str] = []

AVERAGES = (None, "micro", "macro", "weighted", "samples")
"""The values of ``average`` for multilabel targets."""


class LabelSummary(NamedTuple):
    """A binary ranking summary as the multilabel averages use it."""

    name: str
    """Its name in warnings ("ROC AUC")."""
    of_sorted: Callable[..., float]
    """``of_sorted(data, stacklevel=...)``: its value for one sorted binary problem."""
    needs_negatives: bool
    """Undefined without negatives too (ROC AUC), not only without positives."""
    of_rows: Callable[..., np.ndarray] | None = None
    """Its value for every row at once, from :func:`row_ranks`' counts (or None)."""


def roc_auc_summary(of_sorted: Callable[..., float], max_fpr: float | None) -> LabelSummary:
    full = max_fpr is None or max_fpr >= 1.0
    return LabelSummary("ROC AUC", of_sorted, True, row_roc_auc if full else None)


def average_precision_summary(of_sorted: Callable[..., float]) -> LabelSummary:
    return LabelSummary("average precision", of_sorted, False, row_average_precision)


def pr_auc_summary(of_sorted: Callable[..., float]) -> LabelSummary:
    return LabelSummary("PR AUC", of_sorted, False)


def _defined(data: SortedBinary, summary: LabelSummary) -> bool:
    return data.has_positives and (data.has_negatives or not summary.needs_negatives)


def _undefined_reason(summary: LabelSummary) -> str:
    return "both relevant and irrelevant entries" if summary.needs_negatives else "positives"


def _of_problem(data: SortedBinary, summary: LabelSummary) -> float:
    """The summary of one sorted problem; NaN (no warning: the caller names them) if
    undefined."""
    if not _defined(data, summary):
        return float("nan")
    return float(summary.of_sorted(data, stacklevel=2))


def _micro(
    truth: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    summary: LabelSummary,
    stacklevel: int,
) -> float:
    repeated = None if weights is None else np.repeat(weights, truth.shape[1])
    data = sort_scores(truth.ravel(), scores.ravel(), repeated)
    return float(summary.of_sorted(data, stacklevel=stacklevel + 1))


def _per_label(
    truth: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    summary: LabelSummary,
    average: str | None,
    stacklevel: int,
) -> Any:
    n_labels = truth.shape[1]
    values = np.empty(n_labels)
    for label in range(n_labels):
        data = sort_scores(
            np.ascontiguousarray(truth[:, label]), np.ascontiguousarray(scores[:, label]), weights
        )
        values[label] = _of_problem(data, summary)
    support = truth.sum(axis=0) if weights is None else weights @ truth
    # a label of weight 0 does not enter the weighted mean: only the others are named
    named = values if average != "weighted" else np.where(support > 0, values, 0.0)
    undefined = np.flatnonzero(np.isnan(named))
    if undefined.size:
        shown = ", ".join(str(label) for label in undefined[:8])
        more = f" ({undefined.size} in all)" if undefined.size > 8 else ""
        warn_undefined(
            f"Label(s) (columns of `y_true`) {shown}{more} have no "
            f"{_undefined_reason(summary)} of positive weight; their {summary.name} is "
            "undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
    if average is None:
        return values
    if average == "macro":
        return float(np.mean(values))
    kept = support > 0
    if not np.any(kept):
        warn_undefined(
            f"No label has positive weight in `y_true`; the weighted {summary.name} is "
            "undefined (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    return float(np.average(values[kept], weights=support[kept]))


def _samples(
    truth: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    summary: LabelSummary,
    stacklevel: int,
) -> float:
    kept = np.arange(truth.shape[0]) if weights is None else np.flatnonzero(weights > 0)
    truth, scores = truth[kept], scores[kept]
    if summary.of_rows is not None:
        values = per_row(truth, scores, summary.of_rows)
    else:
        values = np.array(
            [
                _of_problem(
                    sort_scores(truth[row], np.ascontiguousarray(scores[row]), None), summary
                )
                for row in range(truth.shape[0])
            ]
        )
    undefined = np.flatnonzero(np.isnan(values))
    if undefined.size:
        warn_undefined(
            f"{undefined.size} row(s) of `y_true` (the first: row {int(kept[undefined[0]])}) "
            f"have no {_undefined_reason(summary)}; their {summary.name} is undefined, "
            "and so is the mean over rows (NaN returned).",
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    return float(np.average(values, weights=None if weights is None else weights[kept]))


def average_labels(
    truth: np.ndarray,
    scores: np.ndarray,
    weights: np.ndarray | None,
    summary: LabelSummary,
    average: str | None,
    stacklevel: int,
) -> Any:
    """The summary of each label (or row) combined by ``average`` (module docstring)."""
    if average == "micro":
        return _micro(truth, scores, weights, summary, stacklevel + 1)
    if average == "samples":
        return _samples(truth, scores, weights, summary, stacklevel + 1)
    return _per_label(truth, scores, weights, summary, average, stacklevel + 1)


def multilabel_score(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    summary: LabelSummary,
    average: str | None,
    stacklevel: int,
) -> Any:
    """Validate a multilabel problem and average ``summary`` over it."""
    check_option(average, "average", AVERAGES)
    truth, scores, weights = label_ranking_inputs(y_true, y_score, sample_weight)
    return average_labels(truth, scores, weights, summary, average, stacklevel + 1)


def one_hot_score(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    summary: LabelSummary,
    average: str | None,
    stacklevel: int,
) -> Any:
    """A multi-class target with one (any) score column per class, one-vs-rest: the
    multilabel problem of its one-hot indicator; classes are ``y_true``'s, sorted."""
    check_option(average, "average", AVERAGES)
    labels = as_1d(y_true, "y_true")
    classes = distinct_values(labels)
    score_shape = np.shape(y_score)
    if len(score_shape) == 2 and score_shape[1] != classes.shape[0]:
        raise ValueError(
            f"`y_true` has {classes.shape[0]} classes but `y_score` has {score_shape[1]} "
            "columns; they must match (one column per class, in sorted class order)."
        )
    truth = labels[:, None] == classes[None, :]
    scores = as_label_scores(y_score, truth.shape)
    weights = as_sample_weight(sample_weight, truth.shape[0])
    return average_labels(truth, scores, weights, summary, average, stacklevel + 1)
