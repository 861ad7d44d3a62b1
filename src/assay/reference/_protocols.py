"""Slow twins of the estimation protocols: fold assignments, holdout shares, the summary
of cross-validated scores and the one-standard-error rule.

Plain Python loops and exact fractions; the t quantile comes from ``scipy.stats``.
Randomness is left out: the twins describe the deterministic part of each splitter
(which rows go together once the rows of each class are in a given order).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from scipy import stats

__all__ = [
    "cross_validation_summary",
    "holdout_test_counts",
    "kfold_assignment",
    "one_standard_error_rule",
    "stratified_kfold_assignment",
]


def kfold_assignment(n: int, n_splits: int) -> list[int]:
    """Fold of every row of unshuffled k-fold: contiguous blocks, the first n % k larger.

    Notes
    -----
    Wu, "Evaluation", section 1.4, eqs. 6-8: disjoint folds covering the rows, of sizes
    that differ by at most one.
    """
    fold_of = []
    for fold in range(n_splits):
        size = n // n_splits + (1 if fold < n % n_splits else 0)
        fold_of.extend([fold] * size)
    return fold_of


def stratified_kfold_assignment(y: Any, n_splits: int) -> list[int]:
    """Fold of every row of unshuffled stratified k-fold.

    Notes
    -----
    Classes in order of first appearance; the rows sorted by class are dealt to the folds
    one at a time, fold 0, 1, ..., k-1, 0, 1, ... ; that fixes how many rows of each
    class each fold gets.  Then the rows of each class, in data order, fill fold 0's
    share first, then fold 1's, and so on.
    """
    labels = list(y)
    classes: list[Any] = []
    for label in labels:
        if label not in classes:
            classes.append(label)
    shares = [[0] * len(classes) for _ in range(n_splits)]
    position = 0
    for code, label in enumerate(classes):
        for _ in range(labels.count(label)):
            shares[position % n_splits][code] += 1
            position += 1
    fold_of = [-1] * len(labels)
    for code, label in enumerate(classes):
        rows = [row for row, value in enumerate(labels) if value == label]
        fold = 0
        for row in rows:
            while shares[fold][code] == 0:
                fold += 1
            fold_of[row] = fold
            shares[fold][code] -= 1
    return fold_of


def holdout_test_counts(class_counts: list[int], n_test: int) -> list[int]:
    """Test rows per class of a stratified holdout (largest remainder, ties to the first).

    Notes
    -----
    Quota of class c: ``n_test * n_c / n`` (an exact fraction); each class gets the
    integer part, and the rows left go one each to the largest fractional parts, ties
    to the class listed first (Hamilton's apportionment).
    """
    n = sum(class_counts)
    quotas = [Fraction(n_test * count, n) for count in class_counts]
    shares = [math.floor(quota) for quota in quotas]
    left = n_test - sum(shares)
    remainders = [
        (-(quota - share), code)
        for code, (quota, share) in enumerate(zip(quotas, shares, strict=True))
    ]
    for _, code in sorted(remainders)[:left]:
        shares[code] += 1
    return shares


def cross_validation_summary(
    scores: list[float],
    n_train: float,
    n_test: float,
    confidence_level: float = 0.95,
    value_range: tuple[float, float] = (-math.inf, math.inf),
) -> dict[str, Any]:
    """Mean, sample standard deviation, t interval and corrected interval of split scores.

    Notes
    -----
    ``mean ± t s / sqrt(J)`` (Wu, "Evaluation", eqs. 33-35; Algorithm 2) and Nadeau &
    Bengio's (2003) ``mean ± t sqrt((1/J + n_test/n_train) s^2)``; ``t`` is the
    ``(1 + confidence_level)/2`` quantile of Student's t with ``J - 1`` degrees of freedom.
    Both intervals are then cut to the metric's ``value_range``.
    """
    count = len(scores)
    mean = math.fsum(scores) / count
    variance = math.fsum((score - mean) ** 2 for score in scores) / (count - 1)
    std = math.sqrt(variance)
    quantile = float(stats.t.ppf((1 + confidence_level) / 2, count - 1))
    half = quantile * std / math.sqrt(count)
    corrected_half = quantile * math.sqrt((1 / count + n_test / n_train) * variance)
    lowest, highest = value_range

    def cut(low: float, high: float) -> tuple[float, float]:
        return max(lowest, min(highest, low)), max(lowest, min(highest, high))

    return {
        "mean": mean,
        "std": std,
        "interval": cut(mean - half, mean + half),
        "corrected_interval": cut(mean - corrected_half, mean + corrected_half),
    }


def one_standard_error_rule(
    means: list[float],
    standard_errors: list[float],
    *,
    greater_is_better: bool,
    complexity: list[float] | None = None,
) -> int:
    """Position of the simplest model within one standard error of the best.

    Notes
    -----
    Hastie, Tibshirani & Friedman (2001), p. 216 (and "Estimation of the hypothesis real
    risk", "The one standard error rule"): find the best mean; keep
    the models whose mean is within the best model's standard error of it; among them
    take the lowest complexity, then the better mean, then the first position.
    """
    count = len(means)
    order = list(range(count)) if complexity is None else list(complexity)
    best = 0
    for i in range(count):
        better = means[i] > means[best] if greater_is_better else means[i] < means[best]
        if better:
            best = i
    chosen = None
    for i in range(count):
        if greater_is_better:
            inside = means[i] >= means[best] - standard_errors[best]
        else:
            inside = means[i] <= means[best] + standard_errors[best]
        if not inside:
            continue
        if chosen is None:
            chosen = i
            continue
        if order[i] < order[chosen]:
            chosen = i
        elif order[i] == order[chosen]:
            improves = means[i] > means[chosen] if greater_is_better else means[i] < means[chosen]
            if improves:
                chosen = i
    assert chosen is not None
    return chosen
