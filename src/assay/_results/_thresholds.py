"""Results of the threshold choices: the posterior-FDR threshold and the optimal threshold."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from assay._results import _summary
from assay._results._base import ConfidenceInterval, _ResultMixin


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class PosteriorFdrResult(_ResultMixin):
    """The threshold of the direct posterior probability approach and its FDR curve.

    Attributes
    ----------
    threshold : float
        ``tau``: the items with ``p_i > tau`` (strictly) are the discoveries.  It is the
        largest posterior probability that is *not* discovered, ``-inf`` when every
        item is discovered.
    alpha : float
        The tolerance on the posterior expected false discovery rate.
    n_discoveries : int
        ``N(tau) = #{i : p_i > tau}``.
    expected_false_discoveries : float
        ``FD(tau) = sum over the discoveries of (1 - p_i)``.
    fdr : float
        ``FDR(tau) = FD(tau) / N(tau)``, 0 when nothing is discovered; at most
        ``alpha``.
    thresholds : numpy.ndarray of shape (m + 1,)
        The curve's thresholds, decreasing: the ``m`` distinct probabilities, then
        ``-inf``.  Entry ``j`` describes the discoveries ``{p_i > thresholds[j]}``.
    n_discoveries_curve : numpy.ndarray of int64, shape (m + 1,)
        ``N`` at each threshold (0 at the first, the number of items at the last).
    expected_false_discoveries_curve : numpy.ndarray of shape (m + 1,)
        ``FD`` at each threshold.
    fdr_curve : numpy.ndarray of shape (m + 1,)
        ``FDR`` at each threshold: non-decreasing as the threshold decreases.
    n : int
        Number of items.

    Notes
    -----
    Frozen; the arrays are read-only.  ``threshold`` is
    ``thresholds[j]`` for the last ``j`` with ``fdr_curve[j] <= alpha``, and the three
    scalars are the curves' entries at that ``j``.
    """

    threshold: float
    alpha: float
    n_discoveries: int
    expected_false_discoveries: float
    fdr: float
    thresholds: np.ndarray
    n_discoveries_curve: np.ndarray
    expected_false_discoveries_curve: np.ndarray
    fdr_curve: np.ndarray
    n: int

    def __post_init__(self) -> None:
        self._normalise(
            floats=("threshold", "alpha", "expected_false_discoveries", "fdr"),
            ints=("n_discoveries", "n"),
            arrays=("thresholds", "expected_false_discoveries_curve", "fdr_curve"),
        )
        counts = np.array(self.n_discoveries_curve, dtype=np.int64, copy=True).reshape(-1)
        counts.flags.writeable = False
        object.__setattr__(self, "n_discoveries_curve", counts)

    def __str__(self) -> str:
        """``Posterior FDR threshold 0.8500: 3 of 6 discoveries, expected false 0.3000,
        FDR 0.1000 <= alpha 0.1000``."""
        return (
            f"Posterior FDR threshold {_summary.value(self.threshold)}: "
            f"{self.n_discoveries} of {self.n} discoveries, expected false "
            f"{_summary.value(self.expected_false_discoveries)}, FDR "
            f"{_summary.value(self.fdr)} <= alpha {_summary.value(self.alpha)}"
        )


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class ThresholdResult(_ResultMixin):
    """The score threshold that optimises a confusion-matrix metric, with bootstrap intervals.

    Attributes
    ----------
    threshold : float
        The chosen threshold ``t``: predict positive when ``score >= t`` (``inf``:
        predict no positive).  NaN when the metric is undefined at every threshold.
    value : float
        The metric at ``threshold`` on the data (optimistic: chosen on the same data).
    metric : str
        Name of the metric.
    greater_is_better : bool
        True when the metric was maximised, False when minimised (a cost).
    thresholds : numpy.ndarray of shape (m + 1,)
        Every candidate: ``inf`` (nothing positive), then the distinct scores,
        decreasing.
    values : numpy.ndarray of shape (m + 1,)
        The metric at each candidate (NaN where undefined).
    threshold_interval : ConfidenceInterval
        Percentile bootstrap interval of the chosen threshold (NaN bounds without
        resamples).
    value_interval : ConfidenceInterval
        Percentile bootstrap interval of the optimised metric (the best value of each
        replicate).
    confidence_level : float
        Nominal level of the two percentile intervals.
    n_resamples : int
        Bootstrap replicates drawn.
    n_undefined : int
        Replicates in which the metric was undefined at every threshold (left out).
    rng_seed : int or None
        The seed of the replicates (None without resamples).
    bootstrap_thresholds : numpy.ndarray
        The chosen threshold of each defined replicate (read-only).
    bootstrap_values : numpy.ndarray
        The optimised metric of each defined replicate (read-only).

    Notes
    -----
    Frozen; the arrays are read-only.  ``value`` is ``values`` at ``threshold`` and
    the best of ``values``; among equal best values ``threshold`` is the largest
    candidate.
    """

    threshold: float
    value: float
    metric: str
    greater_is_better: bool
    thresholds: np.ndarray
    values: np.ndarray
    threshold_interval: ConfidenceInterval
    value_interval: ConfidenceInterval
    confidence_level: float
    n_resamples: int
    n_undefined: int
    rng_seed: int | None
    bootstrap_thresholds: np.ndarray
    bootstrap_values: np.ndarray

    def __post_init__(self) -> None:
        self._normalise(
            floats=("threshold", "value", "confidence_level"),
            ints=("n_resamples", "n_undefined"),
            strings=("metric",),
            arrays=("thresholds", "values", "bootstrap_thresholds", "bootstrap_values"),
        )
        object.__setattr__(self, "greater_is_better", bool(self.greater_is_better))
        for name in ("threshold_interval", "value_interval"):
            low, high = getattr(self, name)
            object.__setattr__(self, name, ConfidenceInterval(float(low), float(high)))

    def __str__(self) -> str:
        """``F1 0.8571 at score >= 0.4000; threshold [0.3500, 0.6000], F1 [0.7000,
        0.9500] (95% percentile bootstrap, 1000 resamples)``."""
        name = _summary.metric_name(self.metric)
        if math.isnan(self.threshold):
            return f"{name} undefined at every threshold"
        text = f"{name} {_summary.value(self.value)} at score >= {_summary.value(self.threshold)}"
        threshold_interval = _summary.interval(self.threshold_interval)
        if self.n_resamples and threshold_interval:
            undefined = f", {self.n_undefined} undefined" if self.n_undefined else ""
            text += (
                f"; threshold{threshold_interval}, {name}"
                f"{_summary.interval(self.value_interval)} "
                f"({_summary.level(self.confidence_level)} percentile bootstrap, "
                f"{self.n_resamples} resamples{undefined})"
            )
        return text
