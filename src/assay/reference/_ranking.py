"""Reference ranking metrics: ROC AUC (binary, partial, multi-class), AP, AUC-PR, EER.

The binary AUC is the weighted sum over all (positive, negative) pairs with 1/2 for
ties, O(n^2) by definition. The other areas are computed from the brute-force curve
points of :mod:`._curves`. All arithmetic is exact (see :mod:`._exact`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations, pairwise
from typing import Any

import numpy as np

from ._curves import Row, Sweep, sweep, sweep_rows, weighted_rows
from ._exact import (
    NAN,
    Exact,
    exact_weights,
    is_nan,
    plain_mean,
    to_float,
    to_float_array,
    values_of,
)
from ._label_ranking import is_multilabel, multilabel_average, one_hot

__all__ = [
    "average_precision_score",
    "equal_error_rate",
    "pr_auc_score",
    "roc_auc_score",
]


# --------------------------------------------------------------------------- binary pieces


def _pairwise_auc(rows: list[Row]) -> Exact:
    """AUC as the weighted Mann-Whitney statistic: all (positive, negative) pairs.

    ``sum_{i pos, j neg} w_i w_j ([s_i > s_j] + [s_i = s_j] / 2) / (P N)``.
    """
    positives = [row for row in rows if row.positive]
    negatives = [row for row in rows if not row.positive]
    total_positive = sum(row.weight for row in positives)
    total_negative = sum(row.weight for row in negatives)
    if total_positive == 0 or total_negative == 0:
        return NAN
    twice_wins = 0  # a won pair counts 2, a tie 1: halves stay integers
    for pos in positives:
        for neg in negatives:
            if pos.score > neg.score:
                twice_wins += 2 * pos.weight * neg.weight
            elif pos.score == neg.score:
                twice_wins += pos.weight * neg.weight
    return Fraction(twice_wins, 2 * total_positive * total_negative)


def _roc_points(counts: Sweep) -> list[tuple[Fraction, Fraction]]:
    """All ROC points (FPR, TPR), from (0, 0) through every threshold to (1, 1)."""
    points = [(Fraction(0), Fraction(0))]
    for tp, fp in zip(counts.true_positives, counts.false_positives, strict=True):
        points.append((Fraction(fp, counts.total_negative), Fraction(tp, counts.total_positive)))
    return points


def _partial_auc_mcclish(counts: Sweep, max_fpr: Fraction) -> Exact:
    """McClish-standardized area under the ROC curve over FPR in [0, max_fpr]."""
    if counts.total_positive == 0 or counts.total_negative == 0:
        return NAN
    area = Fraction(0)
    points = _roc_points(counts)
    for (x0, y0), (x1, y1) in pairwise(points):
        if x0 >= max_fpr:
            break
        if x1 <= max_fpr:
            area += (x1 - x0) * (y0 + y1) / 2
        else:  # the segment crossing max_fpr: interpolate TPR linearly at max_fpr
            y_at_max = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
            area += (max_fpr - x0) * (y0 + y_at_max) / 2
    min_area = max_fpr * max_fpr / 2
    max_area = max_fpr
    return (1 + (area - min_area) / (max_area - min_area)) / 2


def _precisions_and_recalls(counts: Sweep) -> list[tuple[Fraction, Fraction]]:
    """The PR points (recall_k, precision_k), k = 1..m, for decreasing thresholds."""
    points = []
    for tp, fp in zip(counts.true_positives, counts.false_positives, strict=True):
        points.append((Fraction(tp, counts.total_positive), Fraction(tp, tp + fp)))
    return points


def _average_precision(counts: Sweep) -> Exact:
    """Step sum ``sum_k (r_k - r_{k-1}) p_k`` with ``r_0 = 0``."""
    if counts.total_positive == 0:
        return NAN
    total = Fraction(0)
    previous_recall = Fraction(0)
    for recall, precision in _precisions_and_recalls(counts):
        total += (recall - previous_recall) * precision
        previous_recall = recall
    return total


def _binary_rows_from_mask(
    positive: list[bool], scores: list[Any], weights: list[int]
) -> list[Row]:
    return [Row(s, p, w) for s, p, w in zip(scores, positive, weights, strict=True) if w != 0]


# --------------------------------------------------------------------------- multi-class


def _one_vs_rest(
    metric: Callable[[list[Row], int], Exact],
    y_true: list[Any],
    score_columns: list[list[Any]],
    classes: list[Any],
    weights: list[int],
    denominator: int,
    average: str | None,
) -> Any:
    """A binary metric per class (class c positive, column c), averaged like sklearn.

    'macro' is the plain mean (NaN if any class is NaN); 'weighted' weights each class
    by its total weight, classes of zero weight dropped; 'micro' is one binary value
    over the raveled indicator matrix; None returns the per-class array.
    """
    if average == "micro":
        rows = []
        for i, label in enumerate(y_true):
            for c, class_label in enumerate(classes):
                if weights[i] != 0:
                    rows.append(Row(score_columns[c][i], label == class_label, weights[i]))
        return to_float(metric(rows, denominator))
    per_class = []
    class_weights = []
    for c, class_label in enumerate(classes):
        positive = [label == class_label for label in y_true]
        rows = _binary_rows_from_mask(positive, score_columns[c], weights)
        per_class.append(metric(rows, denominator))
        class_weights.append(sum(w for p, w in zip(positive, weights, strict=True) if p))
    if average is None:
        return to_float_array(per_class)
    if average == "macro":
        return to_float(plain_mean(per_class))
    if average == "weighted":
        kept = [(v, w) for v, w in zip(per_class, class_weights, strict=True) if w != 0]
        total = sum(w for _, w in kept)
        if total == 0 or any(is_nan(v) for v, _ in kept):
            return NAN
        return to_float(sum(Fraction(v) * w for v, w in kept) / total)
    raise ValueError(f"average must be 'micro', 'macro', 'weighted' or None; got {average!r}.")


def _auc_of_rows(rows: list[Row], denominator: int) -> Exact:
    return _pairwise_auc(rows)


def _ap_of_rows(rows: list[Row], denominator: int) -> Exact:
    return _average_precision(sweep_rows(rows, denominator))


def _multiclass_inputs(
    y_true: Any, y_score: Any, sample_weight: Any, labels: Any
) -> tuple[list[Any], list[list[Any]], list[Any], list[int], int]:
    truth = values_of(y_true)
    score_matrix = np.asarray(y_score)
    classes = values_of(labels) if labels is not None else sorted(set(truth))
    if score_matrix.shape != (len(truth), len(classes)):
        raise ValueError(
            f"y_score must have shape ({len(truth)}, {len(classes)}); got {score_matrix.shape}."
        )
    columns = [score_matrix[:, c].tolist() for c in range(len(classes))]
    weights, denominator = exact_weights(sample_weight, len(truth))
    return truth, columns, classes, weights, denominator


def _one_vs_one_auc(
    truth: list[Any],
    columns: list[list[Any]],
    classes: list[Any],
    weights: list[int],
    average: str | None,
) -> Exact:
    """Hand & Till (2001): mean over class pairs of the two one-vs-one AUCs."""
    present = [
        c
        for c, label in enumerate(classes)
        if any(t == label and w != 0 for t, w in zip(truth, weights, strict=True))
    ]
    pair_scores = []
    pair_weights = []
    for a, b in combinations(present, 2):
        in_pair = [
            i for i, t in enumerate(truth) if weights[i] != 0 and t in (classes[a], classes[b])
        ]
        a_rows = [Row(columns[a][i], truth[i] == classes[a], weights[i]) for i in in_pair]
        b_rows = [Row(columns[b][i], truth[i] == classes[b], weights[i]) for i in in_pair]
        auc_a = _pairwise_auc(a_rows)
        auc_b = _pairwise_auc(b_rows)
        pair_scores.append((Fraction(auc_a) + Fraction(auc_b)) / 2)
        pair_weights.append(sum(weights[i] for i in in_pair))
    if not pair_scores:
        return NAN
    if average == "macro":
        return plain_mean(pair_scores)
    if average == "weighted":
        return sum(s * w for s, w in zip(pair_scores, pair_weights, strict=True)) / sum(
            pair_weights
        )
    raise ValueError(f"average must be 'macro' or 'weighted' for 'ovo'; got {average!r}.")


# --------------------------------------------------------------------------- public


def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    pos_label: Any = None,
) -> Any:
    """Area under the ROC curve, binary (optionally partial) or multi-class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Labels: binary with a 1-D ``y_score``, any classes with a 2-D ``y_score``.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores; for multi-class, column ``j`` scores class ``labels[j]``.
    average : {'macro', 'weighted', 'micro', None}, default='macro'
        Multi-class averaging ('micro' and None only with 'ovr').
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are dropped.
    max_fpr : float in (0, 1], default=None
        Binary only: McClish-standardized partial AUC over FPR in [0, max_fpr].
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        Multi-class scheme (required when ``y_score`` is 2-D).
    labels : array-like, default=None
        Classes ordering the columns of ``y_score`` (default: sorted labels of y_true).
    pos_label : scalar, default=None
        Binary only: the positive class (inferred for {0, 1}, {-1, 1}, booleans).

    Returns
    -------
    float or ndarray
        The AUC; NaN when a class is missing; per-class array for ``average=None``.

    Notes
    -----
    Binary: ``AUC = sum_{i pos, j neg} w_i w_j ([s_i > s_j] + [s_i = s_j]/2) / (P N)``,
    the probability that a random positive outranks a random negative, ties counting
    one half (Fawcett 2006, section 7; Wu, "Evaluation", section 3.2). Computed over
    all pairs, O(n^2).

    Partial (``max_fpr = a``): the trapezoid area ``A`` under the ROC points over
    FPR in [0, a], interpolating TPR linearly at ``a``, standardized as
    ``(1 + (A - a^2/2) / (a - a^2/2)) / 2`` (McClish 1989).

    'ovr': class ``c`` against the rest with column ``c``; 'ovo': Hand & Till
    (2001), for each pair of classes ``(a, b)`` present in ``y_true``, restricted to
    their rows, ``(AUC(a | b) + AUC(b | a)) / 2`` where ``AUC(a | b)`` uses column
    ``a`` with ``a`` positive; 'macro' is the mean over pairs, 'weighted' weights a
    pair by its total weight.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27(8), 861-874, 2006.
    .. [2] D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision
       Making 9(3), 190-195, 1989.
    .. [3] D. J. Hand and R. J. Till, "A simple generalisation of the area under the
       ROC curve for multiple class classification problems", Machine Learning 45,
       171-186, 2001.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([1, 0, 1, 0], [0.9, 0.9, 0.5, 0.1])  # the tie counts 1/2
    0.625
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], max_fpr=0.5)
    0.6666666666666666
    """
    if is_multilabel(y_true):
        return multilabel_average(
            roc_auc_score, y_true, y_score, sample_weight, average, max_fpr=max_fpr
        )
    if np.ndim(y_score) == 2:
        if max_fpr is not None and max_fpr != 1:
            raise ValueError("max_fpr is available for binary targets only.")
        truth, columns, classes, weights, denominator = _multiclass_inputs(
            y_true, y_score, sample_weight, labels
        )
        if multi_class == "ovr":
            return _one_vs_rest(
                _auc_of_rows, truth, columns, classes, weights, denominator, average
            )
        if multi_class == "ovo":
            return to_float(_one_vs_one_auc(truth, columns, classes, weights, average))
        raise ValueError("multi_class must be 'ovr' or 'ovo' for a 2-D y_score.")
    rows, denominator = weighted_rows(y_true, y_score, pos_label, sample_weight)
    if max_fpr is None or max_fpr == 1:
        return to_float(_pairwise_auc(rows))
    if not 0 < max_fpr < 1:
        raise ValueError(f"max_fpr must be in (0, 1]; got {max_fpr!r}.")
    return to_float(_partial_auc_mcclish(sweep_rows(rows, denominator), Fraction(max_fpr)))


def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> Any:
    """Average precision: precision at each threshold weighted by the recall gained.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels with a 1-D ``y_score``; any classes with a 2-D ``y_score``.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores; for multi-class, column ``j`` scores the j-th sorted class of y_true.
    average : {'macro', 'weighted', 'micro', None}, default='macro'
        Multi-class (one-vs-rest) averaging.
    pos_label : scalar, default=None
        Binary only: the positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are dropped.

    Returns
    -------
    float or ndarray
        AP; NaN when there is no positive weight.

    Notes
    -----
    ``AP = sum_k (r_k - r_{k-1}) p_k`` over the distinct thresholds in decreasing
    order, ``r_0 = 0``, ``r_k = TP_k / P``, ``p_k = TP_k / (TP_k + FP_k)``: the
    rectangle rule of Wu, "Evaluation", exercise 5(b); the all-point (uninterpolated)
    average precision of Everingham et al.

    References
    ----------
    .. [1] M. Everingham, L. Van Gool, C. K. I. Williams, J. Winn, A. Zisserman,
       "The PASCAL Visual Object Classes (VOC) Challenge", IJCV 88, 303-338, 2010.

    Examples
    --------
    >>> average_precision_score([1, 2, 1, 1, 2], [0.9, 0.8, 0.7, 0.6, 0.5], pos_label=1)
    0.8055555555555556
    """
    if is_multilabel(y_true):
        return multilabel_average(average_precision_score, y_true, y_score, sample_weight, average)
    if np.ndim(y_score) == 2 and average == "samples":
        indicator = one_hot(y_true)
        return multilabel_average(
            average_precision_score, indicator, y_score, sample_weight, average
        )
    if np.ndim(y_score) == 2:
        truth, columns, classes, weights, denominator = _multiclass_inputs(
            y_true, y_score, sample_weight, None
        )
        return _one_vs_rest(_ap_of_rows, truth, columns, classes, weights, denominator, average)
    return to_float(_average_precision(sweep(y_true, y_score, pos_label, sample_weight)))


def pr_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "trapezoid",
    average: str | None = "macro",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> Any:
    """Area under the precision-recall curve, by one of three named rules.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        Binary targets and scores, as in :func:`average_precision_score`; a
        multilabel indicator, or multi-class labels with one score column per class.
    method : {'trapezoid', 'interpolated', '11-point'}, default='trapezoid'
        How the area between the curve points is counted.
    average : {'macro', 'weighted', 'micro', 'samples', None}, default='macro'
        Multilabel and multi-class (one-hot) averaging of the per-label areas.

    Returns
    -------
    float
        The area; NaN when there is no positive weight.

    Notes
    -----
    Points ``(r_k, p_k)``, k = 1..m, one per distinct threshold (decreasing).

    * 'trapezoid' (Wu, "Evaluation", exercise 5(a)): pseudo-point
      ``(r_0, p_0) = (0, 1)``, area ``sum_k (r_k - r_{k-1}) (p_k + p_{k-1}) / 2``.
    * 'interpolated' (all-point, PASCAL VOC 2010 and later):
      ``p_interp(r) = max_{j: r_j >= r} p_j``, area
      ``sum_k (r_k - r_{k-1}) p_interp(r_k)`` with ``r_0 = 0``.
    * '11-point' (PASCAL VOC 2007): the mean over ``r in {0, 0.1, ..., 1}`` of
      ``max_{j: r_j >= r} p_j`` (0 if no such point), the comparison made exactly
      as ``10 TP_j >= i P``.

    References
    ----------
    .. [1] M. Everingham, L. Van Gool, C. K. I. Williams, J. Winn, A. Zisserman,
       "The PASCAL Visual Object Classes (VOC) Challenge", IJCV 88, 303-338, 2010.

    Examples
    --------
    >>> labels, scores = [1, 0, 1, 0], [4, 3, 2, 1]
    >>> pr_auc_score(labels, scores)  # 1/2 + 7/24
    0.7916666666666666
    >>> pr_auc_score(labels, scores, method="11-point")  # 28/33
    0.8484848484848485
    """
    if is_multilabel(y_true) or np.ndim(y_score) == 2:
        indicator = y_true if is_multilabel(y_true) else one_hot(y_true)
        return multilabel_average(
            pr_auc_score, indicator, y_score, sample_weight, average, method=method
        )
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    if counts.total_positive == 0:
        return NAN
    points = _precisions_and_recalls(counts)
    if method == "trapezoid":
        area = Fraction(0)
        previous_recall, previous_precision = Fraction(0), Fraction(1)
        for recall, precision in points:
            area += (recall - previous_recall) * (precision + previous_precision) / 2
            previous_recall, previous_precision = recall, precision
        return to_float(area)
    if method == "interpolated":
        area = Fraction(0)
        previous_recall = Fraction(0)
        for recall, _ in points:
            interpolated = max(p for r, p in points if r >= recall)
            area += (recall - previous_recall) * interpolated
            previous_recall = recall
        return to_float(area)
    if method == "11-point":
        total = Fraction(0)
        for i in range(11):
            reached = [
                p
                for (_, p), tp in zip(points, counts.true_positives, strict=True)
                if 10 * tp >= i * counts.total_positive
            ]
            total += max(reached) if reached else 0
        return to_float(total / 11)
    raise ValueError(f"method must be 'trapezoid', 'interpolated' or '11-point'; got {method!r}.")


def equal_error_rate(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "interpolate",
    pos_label: Any = None,
    sample_weight: Any = None,
) -> float:
    """Equal error rate: where the false positive rate meets the false negative rate.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        Binary targets and scores, as in :func:`roc_auc_score`.
    method : {'interpolate', 'nearest'}, default='interpolate'
        'interpolate' intersects the ROC segment crossing FPR = FNR with that line;
        'nearest' takes the point minimising ``|FPR - FNR|``.

    Returns
    -------
    float
        The EER; NaN when a class has no weight.

    Notes
    -----
    ROC points k = 0..m: ``(FPR_k, FNR_k) = (FP_k / N, 1 - TP_k / P)``, k = 0 being
    (0, 1) ("Estimation of the hypothesis real risk", EER; Wu, "Evaluation", section
    3.1).
    'interpolate': the first k with ``FPR_k >= FNR_k``; if equal the EER is
    ``FPR_k``, otherwise the crossing of the segment from point k-1 to k with the
    line FPR = FNR. 'nearest': the first k minimising ``|FPR_k - FNR_k|``,
    EER = ``(FPR_k + FNR_k) / 2``.

    Examples
    --------
    >>> equal_error_rate([1, 0, 0, 1, 0], [5, 4, 3, 2, 1])
    0.5
    >>> equal_error_rate([1, 0, 0, 1, 0], [5, 4, 3, 2, 1], method="nearest")  # 5/12
    0.4166666666666667
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    if counts.total_positive == 0 or counts.total_negative == 0:
        return NAN
    fprs = [Fraction(0)]
    fnrs = [Fraction(1)]
    for tp, fp in zip(counts.true_positives, counts.false_positives, strict=True):
        fprs.append(Fraction(fp, counts.total_negative))
        fnrs.append(1 - Fraction(tp, counts.total_positive))
    if method == "interpolate":
        k = next(k for k in range(len(fprs)) if fprs[k] >= fnrs[k])
        if fprs[k] == fnrs[k]:
            return to_float(fprs[k])
        fpr0, fnr0, fpr1, fnr1 = fprs[k - 1], fnrs[k - 1], fprs[k], fnrs[k]
        # FPR0 + t dFPR = FNR0 + t dFNR  =>  t = (FNR0 - FPR0) / (dFPR - dFNR)
        t = (fnr0 - fpr0) / ((fpr1 - fpr0) - (fnr1 - fnr0))
        return to_float(fpr0 + t * (fpr1 - fpr0))
    if method == "nearest":
        gaps = [abs(f - r) for f, r in zip(fprs, fnrs, strict=True)]
        k = gaps.index(min(gaps))
        return to_float((fprs[k] + fnrs[k]) / 2)
    raise ValueError(f"method must be 'interpolate' or 'nearest'; got {method!r}.")
