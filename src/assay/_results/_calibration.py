"""Results of the calibration functions: the calibration curve and the Brier score's
decomposition."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from assay._results import _summary
from assay._results._base import _ResultMixin

# The pieces of a decomposition are float64 sums of terms in [0, 1] (pairwise summed by
# numpy): their rounding errors stay many orders of magnitude below this, while a piece
# computed by a wrong formula misses the score by far more.
DECOMPOSITION_TOLERANCE = 1e-9


class CalibrationCurve(NamedTuple):
    """Calibration curve of binary forecasts, one point per non-empty bin; unpacks like
    scikit-learn's ``prob_true, prob_pred``."""

    prob_true: np.ndarray
    """Observed frequency of the positive class in each bin."""
    prob_pred: np.ndarray
    """Mean forecast in each bin."""


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class BrierDecomposition(_ResultMixin):
    """The Brier score of binned binary forecasts and its parts.

    Attributes
    ----------
    brier_score : float
        ``BS``, the weighted mean of ``(p_i - o_i)^2``.
    reliability : float
        ``REL``: weighted mean squared gap between each bin's mean forecast and its
        observed frequency (smaller is better).
    resolution : float
        ``RES``: weighted variance of the bins' observed frequencies around the overall
        frequency (larger is better).
    uncertainty : float
        ``UNC = o (1 - o)`` of the overall frequency ``o``: the score of always
        forecasting ``o`` (the forecasts play no part).
    within_bin_variance : float
        ``WBV``: weighted mean squared distance of the forecasts from their bin's mean
        forecast (0 when the forecasts in each bin are equal).
    within_bin_covariance : float
        ``WBC``: twice the weighted mean of ``(p_i - f_b)(o_i - o_b)`` within bins.
    n_bins : int
        The number of bins asked for (empty bins are left out of the sums).
    strategy : str
        ``'uniform'`` or ``'quantile'``.

    Notes
    -----
    ``brier_score = reliability - resolution + uncertainty + within_bin_variance -
    within_bin_covariance`` (Murphy 1973; Stephenson, Coelho and Jolliffe 2008); checked
    to ``DECOMPOSITION_TOLERANCE`` (1e-9) on construction, which raises ``ValueError``
    otherwise.  Frozen.
    """

    brier_score: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    n_bins: int
    strategy: str

    def __post_init__(self) -> None:
        self._normalise(
            floats=(
                "brier_score",
                "reliability",
                "resolution",
                "uncertainty",
                "within_bin_variance",
                "within_bin_covariance",
            ),
            ints=("n_bins",),
            strings=("strategy",),
        )
        total = self.murphy_total + self.within_bin_variance - self.within_bin_covariance
        if not abs(total - self.brier_score) <= DECOMPOSITION_TOLERANCE:
            raise ValueError(
                "the parts of a Brier score decomposition must add up to the score: "
                f"reliability - resolution + uncertainty + within_bin_variance - "
                f"within_bin_covariance = {total!r}, but brier_score = {self.brier_score!r}."
            )

    @property
    def murphy_total(self) -> float:
        """``reliability - resolution + uncertainty``: the score of the binned forecasts
        (each forecast replaced by its bin's mean forecast)."""
        return self.reliability - self.resolution + self.uncertainty

    def __str__(self) -> str:
        """``Brier score 0.1625 = reliability 0.0292 - resolution 0.1067 + uncertainty
        0.2400 + within-bin 0.0000 (5 uniform bins)``."""
        within = self.within_bin_variance - self.within_bin_covariance
        return (
            f"Brier score {_summary.value(self.brier_score)} = reliability "
            f"{_summary.value(self.reliability)} - resolution "
            f"{_summary.value(self.resolution)} + uncertainty "
            f"{_summary.value(self.uncertainty)} + within-bin {_summary.value(within)} "
            f"({self.n_bins} {self.strategy} bins)"
        )
