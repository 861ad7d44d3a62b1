"""Multi-class ranking metrics: one-vs-rest and one-vs-one (Hand & Till) averages.

A multi-class problem is validated once (:class:`MulticlassData`); each binary summary
(ROC AUC, average precision) is then computed on the sorted scores of one class against
the rest, or of each pair of classes, and averaged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from assay._validation import (
    as_1d,
    as_probabilities,
    as_sample_weight,
    check_same_length,
    distinct_values,
    format_values,
)
from assay.metrics._sorted import SortedBinary, sort_scores, warn_undefined

__all__: list[str] = []

_ROW_SUM_TOLERANCE = 1e-6  # probabilities of one row must sum to 1 within this (float noise)


class MulticlassData:
    """Validated multi-class problem: class codes, score matrix, weights, labels."""

    def __init__(self, y_true: Any, y_score: Any, labels: Any, sample_weight: Any) -> None:
        y = as_1d(y_true, "y_true")
        scores = as_probabilities(y_score, "y_score", ndim=2)
        n = check_same_length(y_true=y, y_score=scores)
        self.weights = as_sample_weight(sample_weight, n)
        row_sums = scores.sum(axis=1)
        bad_rows = np.flatnonzero(np.abs(row_sums - 1.0) > _ROW_SUM_TOLERANCE)
        if bad_rows.size:
            row = int(bad_rows[0])
            raise ValueError(
                f"`y_score` rows must be probabilities summing to 1 over the classes; "
                f"{bad_rows.size} rows do not (row {row} sums to {row_sums[row]:.6g})."
            )
        if labels is None:
            classes = distinct_values(y)
        else:
            classes = as_1d(labels, "labels")
            if distinct_values(classes).shape[0] != classes.shape[0]:
                raise ValueError(f"`labels` must be unique; got {format_values(classes)}.")
        if classes.shape[0] != scores.shape[1]:
            source = "`labels`" if labels is not None else "`y_true`"
            raise ValueError(
                f"{source} has {classes.shape[0]} classes but `y_score` has "
                f"{scores.shape[1]} columns; they must match."
            )
        sorter = np.argsort(classes, kind="stable")
        position = np.searchsorted(classes, y, sorter=sorter)
        position = np.minimum(position, classes.shape[0] - 1)
        codes = sorter[position]
        unknown = classes[codes] != y
        if np.any(unknown):
            raise ValueError(
                f"`y_true` contains labels not in `labels`: "
                f"{format_values(distinct_values(y[unknown]))}."
            )
        self.codes = codes
        self.scores = scores
        self.classes = classes
        self.labels_given = labels is not None
        class_weights = np.bincount(codes, weights=self.weights, minlength=classes.shape[0])
        self.absent = class_weights <= 0.0
        """Per class: no samples (of positive weight) in ``y_true``."""

    def warn_absent(self, consequence: str, stacklevel: int) -> None:
        """Name the classes without samples; ``stacklevel`` counts from the caller."""
        missing = self.classes[self.absent]
        if missing.shape[0] == 0:
            return
        where = " in `labels`" if self.labels_given else ""
        subject = (
            f"Class {missing[0].item()!r}{where} has"
            if missing.shape[0] == 1
            else f"Classes {format_values(missing)}{where} have"
        )
        weighted = " of positive weight" if self.weights is not None else ""
        warn_undefined(
            f"{subject} no samples{weighted} in `y_true`; {consequence} (NaN returned).",
            stacklevel=stacklevel + 1,
        )

    def class_weight(self, mask: np.ndarray) -> float:
        if self.weights is None:
            return float(np.count_nonzero(mask))
        return float(self.weights[mask].sum())

    def one_vs_rest(self, column: int) -> SortedBinary:
        return sort_scores(
            self.codes == column, np.ascontiguousarray(self.scores[:, column]), self.weights
        )

    def micro(self) -> SortedBinary:
        k = self.classes.shape[0]
        indicator = (self.codes[:, None] == np.arange(k)[None, :]).ravel()
        weights = None if self.weights is None else np.repeat(self.weights, k)
        return sort_scores(indicator, self.scores.ravel(), weights)


def _average(values: np.ndarray, weights: np.ndarray | None, average: str | None) -> Any:
    if average is None:
        return values
    if average == "weighted":
        assert weights is not None
        return float(np.average(values, weights=weights))
    return float(np.mean(values))


def one_vs_rest(
    problem: MulticlassData, summary: Any, average: str | None, stacklevel: int
) -> Any:
    if average == "micro":
        return summary(problem.micro(), stacklevel=stacklevel + 1)
    k = problem.classes.shape[0]
    problem.warn_absent("its one-vs-rest value is undefined", stacklevel + 1)
    values = np.array(
        [
            np.nan
            if problem.absent[c]
            else summary(problem.one_vs_rest(c), stacklevel=stacklevel + 1)
            for c in range(k)
        ]
    )
    weights = np.array([problem.class_weight(problem.codes == c) for c in range(k)])
    return _average(values, weights, average)


def one_vs_one(problem: MulticlassData, summary: Any, average: str, stacklevel: int) -> float:
    """Hand & Till (2001) M: mean over class pairs of (A(a|b) + A(b|a)) / 2, with
    ``summary`` the binary area of sorted data (the ROC AUC)."""
    k = problem.classes.shape[0]
    problem.warn_absent("the one-vs-one area of each pair with it is undefined", stacklevel + 1)
    pair_values = []
    pair_weights = []
    for a in range(k):
        for b in range(a + 1, k):
            rows = (problem.codes == a) | (problem.codes == b)
            if problem.absent[a] or problem.absent[b]:
                pair_values.append(np.nan)
                pair_weights.append(problem.class_weight(rows))
                continue
            weights = None if problem.weights is None else problem.weights[rows]
            codes = problem.codes[rows]
            areas = [
                summary(
                    sort_scores(
                        codes == c, np.ascontiguousarray(problem.scores[rows, c]), weights
                    ),
                    stacklevel=stacklevel + 1,
                )
                for c in (a, b)
            ]
            pair_values.append(0.5 * (areas[0] + areas[1]))
            pair_weights.append(problem.class_weight(rows))
    return float(_average(np.array(pair_values), np.array(pair_weights), average))
