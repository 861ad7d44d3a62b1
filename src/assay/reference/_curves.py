"""Reference threshold curves: confusion counts per threshold, ROC, precision-recall, DET.

Every curve is computed by brute force: for each distinct score ``t`` (a threshold,
listed in decreasing order), the weights of the rows with ``score >= t`` are summed
again from scratch, O(n m); there are no cumulative sums and no tie-group bookkeeping.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._exact import NAN, Exact, binary_target, exact_weights, ratio, to_float_array, values_of

__all__ = [
    "confusion_matrix_at_thresholds",
    "det_curve",
    "precision_recall_curve",
    "roc_curve",
]


class Sweep(NamedTuple):
    """Counts at each distinct threshold, as integer numerators over ``denominator``.

    ``thresholds`` decrease; ``true_positives[k]`` and ``false_positives[k]`` are the
    weights of the positive and negative rows with ``score >= thresholds[k]``.
    """

    thresholds: list[float]
    true_positives: list[int]
    false_positives: list[int]
    total_positive: int
    total_negative: int
    denominator: int


class Row(NamedTuple):
    """One sample of a binary ranking problem, its weight an integer numerator."""

    score: Any
    positive: bool
    weight: int


def weighted_rows(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any
) -> tuple[list[Row], int]:
    """The rows with non-zero weight, and the common weight denominator.

    Zero-weight rows are dropped before anything else: they create no threshold.
    """
    positive = binary_target(y_true, pos_label)
    scores = values_of(y_score)
    if len(scores) != len(positive):
        raise ValueError("y_true and y_score have different lengths.")
    weights, denominator = exact_weights(sample_weight, len(scores))
    rows = [Row(s, p, w) for s, p, w in zip(scores, positive, weights, strict=True) if w != 0]
    return rows, denominator


def sweep_rows(rows: list[Row], denominator: int) -> Sweep:
    """Confusion counts at every distinct score of ``rows`` (brute force)."""
    # A set merges -0.0 with 0.0 (they compare equal); "+ 0.0" prints the group as 0.0.
    thresholds = sorted({row.score for row in rows}, reverse=True)
    true_positives = []
    false_positives = []
    for threshold in thresholds:
        tp = 0
        fp = 0
        for row in rows:
            if row.score >= threshold:
                if row.positive:
                    tp += row.weight
                else:
                    fp += row.weight
        true_positives.append(tp)
        false_positives.append(fp)
    total_positive = sum(row.weight for row in rows if row.positive)
    total_negative = sum(row.weight for row in rows if not row.positive)
    return Sweep(
        [float(t) + 0.0 for t in thresholds],
        true_positives,
        false_positives,
        total_positive,
        total_negative,
        denominator,
    )


def sweep(y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any) -> Sweep:
    """Confusion counts at every distinct score of the non-zero-weight rows."""
    rows, denominator = weighted_rows(y_true, y_score, pos_label, sample_weight)
    return sweep_rows(rows, denominator)


def _rates(counts: list[int], total: int) -> list[Exact]:
    """``counts / total`` exactly, or all NaN when ``total`` is 0."""
    if total == 0:
        return [NAN] * len(counts)
    return [ratio(c, total) for c in counts]


def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Weighted confusion counts for every distinct score used as threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores; a row is predicted positive at threshold ``t`` iff ``score >= t``.
    pos_label : scalar, default=None
        The positive class; inferred as 1 (True) for labels within {0, 1}, {-1, 1}
        or booleans.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; zero-weight rows are dropped and create no threshold.

    Returns
    -------
    tns, fps, fns, tps : ndarray of shape (n_thresholds,)
        Weighted counts of true negatives, false positives, false negatives and
        true positives at each threshold (float64).
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing (-0.0 and 0.0 are one threshold, 0.0).

    Notes
    -----
    For each distinct score ``t``: ``TP(t) = sum_i w_i [y_i = 1][s_i >= t]``,
    ``FP(t) = sum_i w_i [y_i = 0][s_i >= t]``, ``TN = N - FP``, ``FN = P - TP``
    (Fawcett 2006, section 3; Wu, "Evaluation", section 3.2), summed exactly.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27(8), 861-874, 2006.

    Examples
    --------
    >>> tns, fps, fns, tps, thresholds = confusion_matrix_at_thresholds(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    ... )
    >>> tps, fps
    (array([1., 1., 2., 2.]), array([0., 1., 1., 2.]))
    >>> thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    d = counts.denominator
    tps = [ratio(tp, d) for tp in counts.true_positives]
    fps = [ratio(fp, d) for fp in counts.false_positives]
    fns = [ratio(counts.total_positive - tp, d) for tp in counts.true_positives]
    tns = [ratio(counts.total_negative - fp, d) for fp in counts.false_positives]
    return (
        to_float_array(tns),
        to_float_array(fps),
        to_float_array(fns),
        to_float_array(tps),
        np.array(counts.thresholds, dtype=np.float64),
    )


def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic: false positive rate against true positive rate.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=True
        Drop the inner points where both the FP and the TP counts have a zero second
        difference (collinear with their neighbours), scikit-learn's rule, decided on
        exact counts.

    Returns
    -------
    fpr, tpr : ndarray of shape (n_points,)
        ``FP(t) / N`` and ``TP(t) / P``; all NaN when N (resp. P) is 0.
    thresholds : ndarray of shape (n_points,)
        Decreasing thresholds; the first is ``+inf`` for the prepended point (0, 0).

    Notes
    -----
    The ROC curve joins the points ``(FP(t)/N, TP(t)/P)`` for decreasing
    thresholds, starting at (0, 0) (Fawcett 2006; Wu, "Evaluation", section 3.2).

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27(8), 861-874, 2006.

    Examples
    --------
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    tps = counts.true_positives
    fps = counts.false_positives
    thresholds = counts.thresholds
    m = len(thresholds)
    if drop_intermediate and m > 2:
        keep = [0]
        for k in range(1, m - 1):
            fp_bend = fps[k + 1] - 2 * fps[k] + fps[k - 1]
            tp_bend = tps[k + 1] - 2 * tps[k] + tps[k - 1]
            if fp_bend != 0 or tp_bend != 0:
                keep.append(k)
        keep.append(m - 1)
        tps = [tps[k] for k in keep]
        fps = [fps[k] for k in keep]
        thresholds = [thresholds[k] for k in keep]
    fpr = _rates([0, *fps], counts.total_negative)
    tpr = _rates([0, *tps], counts.total_positive)
    return (
        to_float_array(fpr),
        to_float_array(tpr),
        np.array([np.inf, *thresholds], dtype=np.float64),
    )


def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision against recall for every distinct threshold.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop the inner points whose TP count equals that of both neighbours.

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        ``TP(t) / (TP(t) + FP(t))`` for increasing thresholds, then a final 1.
    recall : ndarray of shape (n_thresholds + 1,)
        ``TP(t) / P`` for increasing thresholds, then a final 0; all NaN if P is 0.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing thresholds.

    Notes
    -----
    Precision ``TP / (TP + FP)`` and recall ``TP / P`` (Wu, "Evaluation", eqs. 17-18,
    and exercise 5). The output order and the final point (recall 0, precision 1)
    follow scikit-learn.

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The relationship between precision-recall and
       ROC curves", Proceedings of ICML, 233-240, 2006.

    Examples
    --------
    >>> precision, recall, thresholds = precision_recall_curve(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    ... )
    >>> precision
    array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ])
    >>> recall
    array([1. , 1. , 0.5, 0.5, 0. ])
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    tps = counts.true_positives
    fps = counts.false_positives
    thresholds = counts.thresholds
    m = len(thresholds)
    if drop_intermediate and m > 2:
        keep = [0]
        for k in range(1, m - 1):
            if tps[k] != tps[k - 1] or tps[k + 1] != tps[k]:
                keep.append(k)
        keep.append(m - 1)
        tps = [tps[k] for k in keep]
        fps = [fps[k] for k in keep]
        thresholds = [thresholds[k] for k in keep]
    precision = [ratio(tp, tp + fp, undefined=0) for tp, fp in zip(tps, fps, strict=True)]
    recall = _rates(tps, counts.total_positive)
    return (
        to_float_array([*precision[::-1], 1]),
        to_float_array([*recall[::-1], 0]),
        np.array(thresholds[::-1], dtype=np.float64),
    )


def det_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error trade-off: false positive rate against false negative rate.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop the inner points whose TP count equals that of both neighbours
        (applied after prepending the ``+inf`` point, before trimming).

    Returns
    -------
    fpr, fnr : ndarray
        ``FP(t) / N`` and ``FN(t) / P`` for increasing thresholds; all NaN when N
        (resp. P) is 0.
    thresholds : ndarray
        Increasing thresholds, possibly ending with ``+inf``.

    Notes
    -----
    The points are those of the ROC curve with ``+inf`` (FP = TP = 0) prepended,
    FNR = 1 - TPR (Wu, "Evaluation", section 3.1). As in scikit-learn 1.9, the curve
    is trimmed to run from the last point where FP is still 0 to the first point
    where FN is 0, then reversed so that thresholds increase.

    References
    ----------
    .. [1] A. Martin, G. Doddington, T. Kamm, M. Ordowski, M. Przybocki, "The DET
       curve in assessment of detection task performance", Eurospeech, 1997.

    Examples
    --------
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, fnr, thresholds
    (array([0.5, 0.5, 0. ]), array([0. , 0.5, 0.5]), array([0.35, 0.4 , 0.8 ]))
    """
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    tps = [0, *counts.true_positives]
    fps = [0, *counts.false_positives]
    thresholds = [float("inf"), *counts.thresholds]
    if drop_intermediate and len(tps) > 2:
        keep = [0]
        for k in range(1, len(tps) - 1):
            if tps[k] != tps[k - 1] or tps[k + 1] != tps[k]:
                keep.append(k)
        keep.append(len(tps) - 1)
        tps = [tps[k] for k in keep]
        fps = [fps[k] for k in keep]
        thresholds = [thresholds[k] for k in keep]
    first = max(k for k in range(len(fps)) if fps[k] == fps[0])
    last = min(k for k in range(len(tps)) if tps[k] == tps[-1])
    span = range(first, last + 1)
    total_positive = counts.total_positive
    fns = [total_positive - tps[k] for k in span]
    fpr = _rates([fps[k] for k in span], counts.total_negative)
    fnr = _rates(fns, total_positive)
    return (
        to_float_array(fpr[::-1]),
        to_float_array(fnr[::-1]),
        np.array([thresholds[k] for k in span][::-1], dtype=np.float64),
    )
