"""Curves of at most K points that keep the exact areas.

No subset of a curve's points keeps its area in general (dropping a point changes the
area unless it lies on the line through its neighbours, which ``drop_intermediate``
already drops), so a K-point curve keeps some exact points and gives the others' area
to the points in between:

* ROC (:func:`thin_roc`): the first and last points and exact points at evenly spaced
  positions of the curve are kept; between two kept points ``a`` and ``b`` one corner
  point is put on the border of the box they span, so that the two segments
  ``a -> corner -> b`` enclose the exact trapezoid area of the curve from ``a`` to
  ``b``: above the chord, ``(fpr_a, t)`` (a vertical step up, then a line); below it,
  ``(f, tpr_a)`` (a flat run, then a line).  A corner is no operating point: its
  threshold is NaN.  The curve stays monotone and its trapezoid area is the AUC.
* precision-recall (:func:`thin_precision_recall`): exact recall values at evenly
  spaced positions are kept, with the point (recall 0, precision 1); each kept point's
  precision is the recall-weighted mean of the exact precisions of the points it
  stands for (those after the previous kept point, up to it), so that the step sum
  ``sum (R_k - R_(k-1)) P_k`` of the returned points is the average precision.

Equal to the exact areas to rounding (the sums are regrouped), not bit for bit.
"""

from __future__ import annotations

import numpy as np


def check_max_points(max_points: int | None, smallest: int) -> int | None:
    """``max_points`` as an int (None: every point)."""
    if max_points is None:
        return None
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)):
        raise TypeError(f"`max_points` must be an int or None; got {max_points!r}.")
    if max_points < smallest:
        raise ValueError(
            f"`max_points` must be at least {smallest} (the curve's two ends and a point "
            f"between them); got {max_points}."
        )
    return int(max_points)


def _spaced(n: int, count: int) -> np.ndarray:
    """``count`` distinct positions evenly spaced over ``0 .. n - 1``, both ends included."""
    return np.unique(np.round(np.linspace(0, n - 1, count)).astype(np.int64))


def thin_roc(
    fpr: np.ndarray, tpr: np.ndarray, thresholds: np.ndarray, max_points: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """At most ``max_points`` (>= 3) points whose trapezoid area is the curve's."""
    n = fpr.shape[0]
    if n <= max_points or np.isnan(fpr[-1]) or np.isnan(tpr[-1]):
        return fpr, tpr, thresholds
    kept = _spaced(n, (max_points + 1) // 2)
    areas = np.concatenate(([0.0], np.cumsum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0)))
    a, b = kept[:-1], kept[1:]
    width = fpr[b] - fpr[a]
    rise = tpr[b] - tpr[a]
    area = areas[b] - areas[a]
    chord = width * (tpr[a] + tpr[b]) / 2.0
    with np.errstate(divide="ignore", invalid="ignore"):
        above = np.clip(2.0 * area / width - tpr[b], tpr[a], tpr[b])  # (fpr_a, t)
        below = np.clip(fpr[a] + 2.0 * (chord - area) / rise, fpr[a], fpr[b])  # (f, tpr_a)
    is_above = area >= chord
    corner_fpr = np.where(is_above, fpr[a], below)
    corner_tpr = np.where(is_above, above, tpr[a])
    # a straight piece (no width, no rise, or the area of its chord) needs no corner
    needed = (width > 0.0) & (rise > 0.0) & (area != chord)
    columns = []
    for kept_column, corner_column in (
        (fpr, corner_fpr),
        (tpr, corner_tpr),
        (thresholds, np.full(a.shape[0], np.nan)),
    ):
        out = np.empty(kept.shape[0] + a.shape[0])
        out[0::2] = kept_column[kept]
        out[1::2] = corner_column
        keep = np.ones(out.shape[0], dtype=bool)
        keep[1::2] = needed
        columns.append(out[keep])
    return columns[0], columns[1], columns[2]


def thin_precision_recall(
    precision: np.ndarray, recall: np.ndarray, thresholds: np.ndarray, max_points: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """At most ``max_points`` (>= 2) points whose step sum is the curve's (recall
    decreasing, the last point ``(recall 0, precision 1)`` without a threshold)."""
    n = thresholds.shape[0]  # the points with a threshold
    if n + 1 <= max_points or np.isnan(recall[0]):
        return precision, recall, thresholds
    # in ascending recall: point k (k = 0 the lowest threshold's) weighs R_k - R_(k+1)
    kept = _spaced(n, max_points - 1)
    steps = -np.diff(recall)  # steps[k] = R_k - R_(k+1), the weight of point k
    weighted = np.concatenate(([0.0], np.cumsum(steps * precision[:-1])))
    spans = np.concatenate(([0.0], np.cumsum(steps)))
    # kept point kept[j] stands for the points kept[j] .. kept[j + 1] - 1 (the last
    # kept point for those to the end): their weights are summed from its position
    ends = np.append(kept[1:], n)
    span = spans[ends] - spans[kept]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = (weighted[ends] - weighted[kept]) / span
    averaged = np.where(span > 0.0, mean, precision[kept])
    # the kept points' recalls must then be those of the first point each stands for
    return (
        np.append(averaged, precision[-1]),
        np.append(recall[kept], recall[-1]),
        thresholds[kept].copy(),
    )
