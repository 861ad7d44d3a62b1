"""Reference scores of probabilistic predictions: log loss, Brier score, calibration.

Probabilities and weights are exact fractions of the floats given; squares, sums, means
and absolute gaps are exact, rounded to float once.  The log loss takes each row's
logarithm in floats (``math.log``) and averages those exactly.  Bins follow the rule of
scikit-learn's ``calibration_curve``, written out by hand: uniform edges
``k * (1 / n_bins)`` (and 1), quantile edges by linear interpolation between the order
statistics of the rows repeated as often as their weights say; a forecast on an inner
edge goes to the lower bin.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ._exact import values_of

__all__ = [
    "brier_decomposition",
    "brier_score_loss",
    "calibration_curve",
    "expected_calibration_error",
    "log_loss",
    "maximum_calibration_error",
]

_EPS = 2.0**-52  # the machine epsilon of float64


def _weights(sample_weight: Any, n: int) -> list[Fraction]:
    if sample_weight is None:
        return [Fraction(1)] * n
    return [Fraction(w) for w in values_of(sample_weight)]


def _classes(y_true: Any, labels: Any) -> list[Any]:
    """The columns' classes: ``labels`` as given, else the sorted classes of ``y_true``."""
    if labels is None:
        return sorted(set(values_of(y_true)))
    return list(values_of(labels))


def _rows(y_true: Any, y_proba: Any, labels: Any) -> tuple[list[int], list[list[float]]]:
    """The column of each row's class and the rows of probabilities (1-D: [1 - p, p])."""
    classes = _classes(y_true, labels)
    array = np.asarray(y_proba, dtype=float)
    if array.ndim == 1:
        rows = [[1.0 - p, p] for p in array.tolist()]
    else:
        rows = array.tolist()
    if len(classes) != len(rows[0]):
        raise ValueError("the number of classes and of probability columns differ.")
    return [classes.index(y) for y in values_of(y_true)], rows


def log_loss(
    y_true: Any,
    y_proba: Any,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
) -> float:
    """The log loss, row by row.

    Notes
    -----
    ``-sum_i w_i log(clip(p_i,y_i, eps, 1 - eps)) [/ sum_i w_i]``: each row's logarithm
    by ``math.log`` of its clipped probability, the weighted sum and mean exact.
    """
    columns, rows = _rows(y_true, y_proba, labels)
    weights = _weights(sample_weight, len(rows))
    losses = [
        Fraction(-math.log(min(max(row[c], _EPS), 1.0 - _EPS)))
        for c, row in zip(columns, rows, strict=True)
    ]
    total = sum(w * loss for w, loss in zip(weights, losses, strict=True))
    return float(total / sum(weights)) if normalize else float(total)


def _positive(y_true: Any, pos_label: Any) -> list[int]:
    """0/1 outcomes: ``pos_label``, else 1 for labels within {0, 1} or {-1, 1}, else
    the larger label."""
    labels = values_of(y_true)
    if pos_label is None:
        distinct = set(labels)
        if distinct <= {0, 1} or distinct <= {-1, 1}:
            pos_label = 1
        else:
            pos_label = max(distinct)
    return [int(y == pos_label) for y in labels]


def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: Any = "auto",
) -> float:
    """The Brier score, row by row.

    Notes
    -----
    ``sum_i w_i sum_c (o_ic - p_ic)^2 / sum_i w_i``, halved for two classes ('auto'), in
    exact fractions, rounded once.
    """
    array = np.asarray(y_proba, dtype=float)
    if array.ndim == 1:
        outcomes = _positive(y_true, pos_label)
        squares = [
            2 * (Fraction(o) - Fraction(p)) ** 2
            for o, p in zip(outcomes, array.tolist(), strict=True)
        ]
        k = 2
    else:
        columns, rows = _rows(y_true, y_proba, labels)
        k = len(rows[0])
        squares = [
            sum((Fraction(int(j == c)) - Fraction(p)) ** 2 for j, p in enumerate(row))
            + Fraction(0)
            for c, row in zip(columns, rows, strict=True)
        ]
    weights = _weights(sample_weight, len(squares))
    score = sum(w * s for w, s in zip(weights, squares, strict=True)) / sum(weights)
    halve = k < 3 if scale_by_half == "auto" else bool(scale_by_half)
    return float(score / 2 if halve else score)


def _lerp(low: float, high: float, t: float) -> float:
    """numpy's linear interpolation, operation for operation."""
    difference = high - low
    return high - difference * (1 - t) if t >= 0.5 else low + difference * t


def _edges(forecasts: list[float], weights: list[Fraction], n_bins: int, strategy: str) -> list:
    levels = [k * (1.0 / n_bins) for k in range(n_bins)] + [1.0]  # numpy.linspace(0, 1)
    if strategy == "uniform":
        return levels
    pairs = sorted((p, w) for p, w in zip(forecasts, weights, strict=True) if w > 0)
    total = float(sum(w for _, w in pairs))

    def order_statistic(k: float) -> float:
        """Value k (from 0) of the rows repeated as their weights say."""
        cumulative = Fraction(0)
        for p, w in pairs:
            cumulative += w
            if cumulative > k:
                return p
        return pairs[-1][0]

    edges = []
    for level in levels:
        position = (total - 1) * (level * 100 / 100)
        if position < 0:  # total weight below 1
            edges.append(pairs[0][0])
        elif position >= total - 1:
            edges.append(pairs[-1][0])
        else:
            below = math.floor(position)
            edges.append(
                _lerp(order_statistic(below), order_statistic(below + 1), position - below)
            )
    return edges


def _bins(
    y_true: Any, y_prob: Any, sample_weight: Any, pos_label: Any, n_bins: int, strategy: str
) -> tuple[list[list[tuple[Fraction, int, Fraction]]], list[float]]:
    """The rows (forecast, outcome, weight) of each bin of positive weight, in order."""
    forecasts = [float(p) for p in values_of(y_prob)]
    outcomes = _positive(y_true, pos_label)
    weights = _weights(sample_weight, len(forecasts))
    edges = _edges(forecasts, weights, n_bins, strategy)
    rows: list[list[tuple[Fraction, int, Fraction]]] = [[] for _ in range(n_bins)]
    for p, o, w in zip(forecasts, outcomes, weights, strict=True):
        rows[sum(1 for edge in edges[1:-1] if edge < p)].append((Fraction(p), o, w))
    return [b for b in rows if sum(w for _, _, w in b) > 0], edges


def _bin_summary(
    rows: list[tuple[Fraction, int, Fraction]],
) -> tuple[Fraction, Fraction, Fraction]:
    """(weight, mean forecast, observed frequency) of one bin."""
    weight = Fraction(sum(w for _, _, w in rows))
    forecast = Fraction(sum(w * p for p, _, w in rows)) / weight
    frequency = Fraction(sum(w * o for _, o, w in rows)) / weight
    return weight, forecast, frequency


def calibration_curve(
    y_true: Any,
    y_prob: Any,
    *,
    pos_label: Any = None,
    n_bins: int = 5,
    strategy: str = "uniform",
    sample_weight: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The calibration curve, bin by bin.

    Notes
    -----
    (observed frequency, mean forecast) of each non-empty bin, as exact weighted means of
    the bin's rows (bins as the module says), rounded once.
    """
    bins, _ = _bins(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    summaries = [_bin_summary(b) for b in bins]
    return (
        np.array([float(s[2]) for s in summaries]),
        np.array([float(s[1]) for s in summaries]),
    )


def expected_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> float:
    """The expected calibration error.

    Notes
    -----
    ``sum_b (n_b / n) |o_b - f_b|`` over the non-empty bins, exact, rounded once.
    """
    bins, _ = _bins(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    summaries = [_bin_summary(b) for b in bins]
    total = sum(s[0] for s in summaries)
    return float(sum(s[0] * abs(s[2] - s[1]) for s in summaries) / total)


def maximum_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> float:
    """The maximum calibration error.

    Notes
    -----
    ``max_b |o_b - f_b|`` over the non-empty bins, exact, rounded once.
    """
    bins, _ = _bins(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    return float(max(abs(s[2] - s[1]) for s in map(_bin_summary, bins)))


def brier_decomposition(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_bins: int = 10,
    strategy: str = "uniform",
) -> dict[str, float]:
    """The Brier score and its five parts, each exact and rounded once.

    Notes
    -----
    ``BS = REL - RES + UNC + WBV - WBC`` (Murphy 1973; Stephenson, Coelho and Jolliffe
    2008) holds exactly between the fractions before rounding.
    """
    bins, _ = _bins(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    summaries = [_bin_summary(b) for b in bins]
    total = sum(s[0] for s in summaries)
    overall = sum(s[0] * s[2] for s in summaries) / total
    parts = {
        "brier_score": sum(w * (p - o) ** 2 for b in bins for p, o, w in b) / total,
        "reliability": sum(s[0] * (s[1] - s[2]) ** 2 for s in summaries) / total,
        "resolution": sum(s[0] * (s[2] - overall) ** 2 for s in summaries) / total,
        "uncertainty": overall * (1 - overall),
        "within_bin_variance": sum(
            w * (p - s[1]) ** 2 for b, s in zip(bins, summaries, strict=True) for p, _, w in b
        )
        / total,
        "within_bin_covariance": 2
        * sum(
            w * (p - s[1]) * (o - s[2])
            for b, s in zip(bins, summaries, strict=True)
            for p, o, w in b
        )
        / total,
    }
    assert parts["brier_score"] == (
        parts["reliability"]
        - parts["resolution"]
        + parts["uncertainty"]
        + parts["within_bin_variance"]
        - parts["within_bin_covariance"]
    )
    return {name: float(value) for name, value in parts.items()}
