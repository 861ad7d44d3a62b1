"""Reference confidence bands of curves: a curve read at a grid, from given replicate counts.

A bootstrap band is random; its twin here takes the replicates' row counts as input
(``replicate_counts[b, i]``: how many times row ``i`` is drawn in replicate ``b``) and
computes, from the definitions, each replicate's curve at the grid and the band:

* the curve of weighted rows is the polygon through the cumulative (FP, TP) weights
  above each distinct score, from (0, 0), a tie group being one straight segment;
* ROC: the true positive rate at a false positive rate ``f`` is read on that polygon:
  the highest vertex whose FPR is at most ``f``, then along the next segment (at a
  vertical segment, its top);
* precision-recall: the precision at recall ``r`` is read on the first segment that
  reaches recall ``r``, the counts interpolated linearly along it;
* a replicate whose counts leave a class without weight (a Poisson replicate can draw no
  positive or no negative row) has no curve (NaN): it is left out of the band and
  counted in ``n_undefined``; with no replicate left the band is NaN;
* the pointwise band is the percentile interval of the replicates at each grid point;
  the simultaneous band is the bootstrap sup-t band (Montiel Olea & Plagborg-Moller
  2019): the estimate plus or minus ``c`` standard errors, ``c`` the
  ``confidence_level`` quantile over replicates of the largest studentised deviation
  over the grid points whose standard error is not zero.

Counts are exact fractions; the rate of a vertex (its FPR or recall) is the float that the
curve functions report for it, and a curve value is rounded to float once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._curves import sweep

__all__ = ["precision_at_recall", "precision_recall_band", "roc_band", "tpr_at_fpr"]


class Band(NamedTuple):
    """A reference band: the data's curve, the band, and the replicates' curves."""

    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    standard_error: np.ndarray
    critical_value: float
    curves: np.ndarray  # the defined replicates' curves
    n_undefined: int = 0


def _vertices(
    y_true: Any, y_score: Any, pos_label: Any, sample_weight: Any
) -> tuple[list[int], list[int], int, int]:
    """Cumulative TP and FP numerators at (0, 0) and after each distinct score."""
    counts = sweep(y_true, y_score, pos_label, sample_weight)
    tp = [0, *counts.true_positives]
    fp = [0, *counts.false_positives]
    return tp, fp, counts.total_positive, counts.total_negative


def _read(curve: str, y_true: Any, y_score: Any, grid: Any, pos_label: Any,
          sample_weight: Any) -> np.ndarray:  # fmt: skip
    """The curve at each grid value, read on the polygon through the cumulative (FP, TP)
    weights above each distinct score (``curve``: "roc" or "precision_recall")."""
    tp, fp, total_positive, total_negative = _vertices(y_true, y_score, pos_label, sample_weight)
    if total_positive == 0 or total_negative == 0:  # no rates: no curve
        return np.full(np.asarray(grid, dtype=float).shape[0], np.nan)
    # each vertex's rate is the float nearest the exact rate, as roc_curve and
    # precision_recall_curve report it: a grid value equal to a reported rate reads
    # that vertex (the float 2/3 is slightly below the rational 2/3)
    if curve == "roc":
        axis = [Fraction(float(Fraction(f, total_negative))) for f in fp]  # FPRs
    else:
        axis = [Fraction(float(Fraction(t, total_positive))) for t in tp]  # recalls
    out = []
    for value in np.asarray(grid, dtype=float).tolist():
        x = Fraction(value)
        if curve == "roc":  # the last vertex at the rate or before it, then its next segment
            i = max(k for k in range(len(axis)) if axis[k] <= x)
        else:  # the segment ending at the first vertex that reaches the recall
            i = min(k for k in range(len(axis)) if axis[k] >= x) - 1
        if i + 1 == len(axis):  # the end of the curve
            at_tp, at_fp = Fraction(tp[i]), Fraction(fp[i])
        else:
            step = (x - axis[i]) / (axis[i + 1] - axis[i])
            at_tp = tp[i] + step * (tp[i + 1] - tp[i])
            at_fp = fp[i] + step * (fp[i + 1] - fp[i])
        if curve == "roc":
            out.append(float(at_tp / total_positive))
        else:
            out.append(float(at_tp / (at_tp + at_fp)))
    return np.array(out, dtype=float)


def tpr_at_fpr(
    y_true: Any, y_score: Any, grid: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> np.ndarray:
    """The ROC curve's true positive rate at each false positive rate of ``grid``.

    Notes
    -----
    Read on the polygon through the cumulative (FP, TP) weights above each distinct
    score: the highest vertex whose FPR is at most the grid value, then linearly along
    the next segment (vertical averaging, Fawcett 2006, section 8).
    """
    return _read("roc", y_true, y_score, grid, pos_label, sample_weight)


def precision_at_recall(
    y_true: Any, y_score: Any, grid: Any, *, pos_label: Any = None, sample_weight: Any = None
) -> np.ndarray:
    """The precision-recall curve's precision at each recall of ``grid`` (in (0, 1]).

    Notes
    -----
    Read on the first segment of the (FP, TP) polygon that reaches the recall, the
    true and false positive weights interpolated linearly along it (the precision is
    not linear along a segment; Davis & Goadrich 2006).
    """
    return _read("precision_recall", y_true, y_score, grid, pos_label, sample_weight)


def _band(
    curve: str,
    y_true: Any,
    y_score: Any,
    replicate_counts: Any,
    grid: Any,
    confidence_level: float,
    kind: str,
    pos_label: Any,
) -> Band:
    estimate = _read(curve, y_true, y_score, grid, pos_label, None)
    counts = np.asarray(replicate_counts)
    every = np.array(
        [_read(curve, y_true, y_score, grid, pos_label, row) for row in counts]
    ).reshape(counts.shape[0], -1)
    defined = [not np.isnan(row).any() for row in every]
    curves = every[np.array(defined, dtype=bool)]
    n_undefined = defined.count(False)
    n_resamples, n_grid = curves.shape
    if n_resamples == 0:
        nan = np.full(n_grid, np.nan)
        return Band(estimate, nan, nan, nan, float("nan"), curves, n_undefined)
    if n_resamples > 1:
        means = [sum(curves[:, j]) / n_resamples for j in range(n_grid)]
        variances = [
            sum((c - means[j]) ** 2 for c in curves[:, j]) / (n_resamples - 1)
            for j in range(n_grid)
        ]
        standard_error = np.sqrt(np.array(variances))
    else:
        standard_error = np.zeros(n_grid)
    alpha = 1.0 - confidence_level
    if kind == "pointwise":
        lower = np.array([np.quantile(curves[:, j], alpha / 2) for j in range(n_grid)])
        upper = np.array([np.quantile(curves[:, j], 1 - alpha / 2) for j in range(n_grid)])
        critical_value = float("nan")
    else:
        largest = [
            max(
                (abs(curve[j] - estimate[j]) / standard_error[j] for j in range(n_grid)
                 if standard_error[j] > 0),
                default=0.0,
            )
            for curve in curves
        ]  # fmt: skip
        critical_value = float(np.quantile(largest, confidence_level))
        lower = estimate - critical_value * standard_error
        upper = estimate + critical_value * standard_error
    return Band(
        estimate, np.clip(lower, 0.0, 1.0), np.clip(upper, 0.0, 1.0), standard_error,
        critical_value, curves, n_undefined,
    )  # fmt: skip


def roc_band(
    y_true: Any,
    y_score: Any,
    replicate_counts: Any,
    *,
    grid: Any,
    pos_label: Any = None,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
) -> Band:
    """The ROC band (TPR at the FPRs of ``grid``) of the given replicates.

    Notes
    -----
    ``replicate_counts[b, i]`` is the number of times row ``i`` is drawn in replicate
    ``b``; each replicate's curve is :func:`tpr_at_fpr` of the rows weighted by their
    counts.  Pointwise band: the percentile interval at each grid point (numpy's
    linear quantile); simultaneous: the bootstrap sup-t band.  The replicates of any
    bootstrap serve: stratified ones, or Poisson ones, whose counts may leave a class
    without rows; such a replicate has no curve, is left out of the band and counted in
    ``n_undefined`` (none left: the band is NaN).
    """
    return _band("roc", y_true, y_score, replicate_counts, grid, confidence_level, kind,
                 pos_label)  # fmt: skip


def precision_recall_band(
    y_true: Any,
    y_score: Any,
    replicate_counts: Any,
    *,
    grid: Any,
    pos_label: Any = None,
    confidence_level: float = 0.95,
    kind: str = "pointwise",
) -> Band:
    """The precision-recall band (precision at the recalls of ``grid``) of the replicates.

    Notes
    -----
    As :func:`roc_band`, each replicate's curve read by :func:`precision_at_recall`.
    """
    return _band("precision_recall", y_true, y_score, replicate_counts, grid,
                 confidence_level, kind, pos_label)  # fmt: skip
