"""Reference thresholds and baselines: every candidate tried, every outcome enumerated.

- :func:`posterior_fdr_threshold`: each distinct probability (and ``-inf``) tried as
  the threshold, the FDR of its discoveries summed in exact fractions.
- :func:`optimal_threshold`: each distinct score (and ``inf``) tried, the predictions
  ``score >= t`` built row by row and scored by the given reference metric.
- :func:`baseline_score`: the majority predictions scored directly; for the random
  strategies every one of the ``k ** n`` prediction vectors scored and weighted by
  its exact probability (tiny ``n`` only).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["baseline_score", "optimal_threshold", "posterior_fdr_threshold"]


def posterior_fdr_threshold(proba: Any, alpha: float) -> tuple[float, int, float]:
    """``(tau, N(tau), FD(tau))`` for the smallest candidate ``tau`` with FDR <= alpha.

    Parameters
    ----------
    proba : array-like of shape (n,)
        Posterior probabilities.
    alpha : float
        Tolerance.

    Returns
    -------
    tuple
        The threshold (``-inf`` when everything is discovered), the number of
        discoveries ``p_i > tau`` and their expected number of false discoveries.

    Notes
    -----
    ``FD(tau) = sum_i (1 - p_i) I(p_i > tau)``, ``N(tau) = sum_i I(p_i > tau)``,
    ``FDR = FD / N`` (0 when ``N = 0``) ("Estimation of the hypothesis real risk",
    "False discovery rates").  The candidates are the distinct probabilities and
    ``-inf``; the smallest one whose FDR is at most ``alpha`` is returned.  Sums are
    exact fractions of the float inputs.

    Examples
    --------
    >>> tau, count, false = posterior_fdr_threshold([0.95, 0.2, 0.9, 0.6, 0.85, 0.4], 0.12)
    >>> tau, count, round(false, 10)
    (0.6, 3, 0.3)
    """
    probabilities = [Fraction(float(p)) for p in np.asarray(proba, dtype=np.float64)]
    tolerance = Fraction(float(alpha))
    candidates: list[Fraction | None] = [*sorted(set(probabilities), reverse=True), None]
    chosen: tuple[Fraction | None, int, Fraction] = (candidates[0], 0, Fraction(0))
    for tau in candidates:
        discovered = [p for p in probabilities if tau is None or p > tau]
        false = sum((1 - p for p in discovered), Fraction(0))
        rate = false / len(discovered) if discovered else Fraction(0)
        if rate <= tolerance:
            chosen = (tau, len(discovered), false)
    tau, count, false = chosen
    return (-math.inf if tau is None else float(tau)), count, float(false)


def optimal_threshold(
    y_true: Any,
    y_score: Any,
    *,
    metric: Callable[..., Any],
    greater_is_better: bool = True,
    pos_label: Any = 1,
    sample_weight: Any = None,
    **metric_kwargs: Any,
) -> tuple[float, float]:
    """``(threshold, value)``: the best value of ``metric`` over every threshold.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels and scores.
    metric : callable
        A reference metric ``metric(y01, y_pred, sample_weight=..., **metric_kwargs)``
        of 0/1 labels.
    greater_is_better : bool, default=True
        Maximise (True) or minimise.
    pos_label : label, default=1
        The positive class.
    sample_weight : array-like, default=None
        Row weights; rows of zero weight create no candidate.
    **metric_kwargs
        Options of ``metric``.

    Returns
    -------
    tuple of two floats
        NaN, NaN when the metric is NaN at every candidate.

    Notes
    -----
    The candidates are ``inf`` and every distinct score of a row of positive weight,
    in decreasing order; at ``t`` the prediction of a row is 1 when ``score >= t``.
    A candidate replaces the best so far only when strictly better, so among equal
    best values the largest threshold is returned.  NaN values are skipped.

    Examples
    --------
    >>> from assay.reference import f1_score
    >>> optimal_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metric=f1_score)
    (0.35, 0.8)
    """
    labels = list(np.asarray(y_true).tolist())
    scores = [float(s) for s in np.asarray(y_score, dtype=np.float64)]
    weights = [1.0] * len(scores) if sample_weight is None else list(sample_weight)
    truth = [1 if label == pos_label else 0 for label in labels]
    candidates = [
        math.inf,
        *sorted({s for s, w in zip(scores, weights, strict=True) if w > 0}, reverse=True),
    ]
    best: tuple[float, float] = (math.nan, math.nan)
    for threshold in candidates:
        predicted = [1 if s >= threshold else 0 for s in scores]
        value = float(metric(truth, predicted, sample_weight=sample_weight, **metric_kwargs))
        if math.isnan(value):
            continue
        if math.isnan(best[1]) or (value > best[1] if greater_is_better else value < best[1]):
            best = (threshold, value)
    return best


def baseline_score(
    metric: Callable[..., Any],
    y_true: Any,
    *,
    strategy: str = "majority",
    classes: Any = None,
    prior: Any = None,
    ranking: bool = False,
    **metric_kwargs: Any,
) -> float:
    """The metric of a naive classifier: its predictions, or their exact expectation.

    Parameters
    ----------
    metric : callable
        A reference metric ``metric(y_true, y_pred, **metric_kwargs)``.
    y_true : array-like of shape (n,)
        True labels.
    strategy : {'majority', 'prior', 'stratified', 'uniform'}
        The naive classifier.
    classes : sequence, default=None
        The classes it may predict; default: the sorted labels of ``y_true``.
    prior : sequence of float, default=None
        Class probabilities in the order of ``classes``; default: the frequencies in
        ``y_true``.
    ranking : bool, default=False
        ``metric`` takes scores: the naive scores are all 0 (majority and prior only).
    **metric_kwargs
        Options of ``metric``.

    Returns
    -------
    float

    Notes
    -----
    Majority (and prior, for labels): every row gets the class of largest prior, the
    first in ``classes`` among equals.  Stratified: each row's class drawn from
    ``prior``; uniform: from ``1 / k``.  The expectation is the sum over all ``k ** n``
    prediction vectors of ``prod_i q(pred_i) * metric(y_true, pred)``, with the
    probabilities as exact fractions (Honavar, "Evaluating model performance", the
    naive baseline).

    Examples
    --------
    >>> from assay.reference import accuracy_score
    >>> baseline_score(accuracy_score, [0, 0, 0, 1], strategy="uniform")
    0.5
    """
    labels = list(np.asarray(y_true).tolist())
    n = len(labels)
    if ranking:
        return float(metric(labels, [0.0] * n, **metric_kwargs))
    classes = sorted(set(labels)) if classes is None else list(classes)
    if prior is None:
        q = [Fraction(labels.count(c), n) for c in classes]
    else:
        q = [Fraction(float(p)) for p in prior]
    if strategy in ("majority", "prior"):
        majority = classes[q.index(max(q))]
        return float(metric(labels, [majority] * n, **metric_kwargs))
    if strategy == "uniform":
        q = [Fraction(1, len(classes))] * len(classes)
    total = Fraction(0)
    for indices in itertools.product(range(len(classes)), repeat=n):
        probability = Fraction(1)
        for index in indices:
            probability *= q[index]
        if probability == 0:
            continue
        predicted = [classes[index] for index in indices]
        value = float(metric(labels, predicted, **metric_kwargs))
        if math.isnan(value):
            return math.nan
        total += probability * Fraction(value)
    return float(total)
