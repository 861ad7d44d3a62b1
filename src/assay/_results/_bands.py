"""Result of a confidence band of a curve (ROC or precision-recall) at a fixed grid."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from assay._results._base import _ResultMixin


@dataclasses.dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class CurveBand(_ResultMixin):
    """A curve at a fixed grid with a bootstrap confidence band.

    Attributes
    ----------
    curve : str
        ``'roc'`` (true positive rate at false positive rates ``grid``) or
        ``'precision_recall'`` (precision at recalls ``grid``).
    grid : numpy.ndarray of shape (n_grid,)
        The points of the horizontal axis, increasing.
    estimate : numpy.ndarray of shape (n_grid,)
        The curve of the data at ``grid``.
    lower, upper : numpy.ndarray of shape (n_grid,)
        The band, within [0, 1].
    kind : str
        ``'pointwise'`` (each grid point covered with ``confidence_level``) or
        ``'simultaneous'`` (the whole curve covered with ``confidence_level``).
    confidence_level : float
        Nominal coverage.
    critical_value : float
        The bootstrap sup-t critical value of a simultaneous band (the half-width in
        standard errors); NaN for a pointwise band.
    standard_error : numpy.ndarray of shape (n_grid,)
        Standard deviation (``ddof=1``) of the replicate curves at each grid point.
    n_resamples : int
        Number of bootstrap replicates drawn (``n_undefined`` of them left out).
    rng_seed : int
        The seed the replicates were drawn from.
    bootstrap_curves : numpy.ndarray of shape (n_resamples - n_undefined, n_grid)
        The defined replicates' curves at ``grid``.  Read-only.
    resampling : str
        ``'multinomial'`` (rows drawn within each class, the class sizes fixed) or
        ``'poisson'`` (every row counted Poisson(1) times).
    n_undefined : int
        Replicates without a curve (a Poisson replicate that drew no positive or no
        negative row), left out of the band; always 0 for ``'multinomial'``.

    Examples
    --------
    >>> import assay
    >>> band = assay.roc_band([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7],
    ...                       grid=[0.0, 0.5, 1.0], n_resamples=200, rng=0)
    >>> band.estimate.tolist()
    [0.6666666666666666, 1.0, 1.0]
    >>> bool((band.lower <= band.estimate).all() and (band.estimate <= band.upper).all())
    True
    """

    curve: str
    grid: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    kind: str
    confidence_level: float
    critical_value: float
    standard_error: np.ndarray
    n_resamples: int
    rng_seed: int
    bootstrap_curves: np.ndarray
    resampling: str = "multinomial"
    n_undefined: int = 0

    def __post_init__(self) -> None:
        self._normalise(
            floats=("confidence_level", "critical_value"),
            ints=("n_resamples", "n_undefined"),
            strings=("curve", "kind", "resampling"),
            arrays=("grid", "estimate", "lower", "upper", "standard_error"),
        )
        curves = np.array(self.bootstrap_curves, dtype=np.float64, copy=True)
        curves = curves.reshape(-1, self.grid.shape[0])
        curves.flags.writeable = False
        object.__setattr__(self, "bootstrap_curves", curves)

    def __str__(self) -> str:
        axis = "TPR at FPR" if self.curve == "roc" else "precision at recall"
        widest = float(np.max(self.upper - self.lower)) if self.grid.size else float("nan")
        poisson = " Poisson" if self.resampling == "poisson" else ""
        undefined = f", {self.n_undefined} undefined" if self.n_undefined else ""
        return (
            f"{self.kind} {self.confidence_level:.0%} band of {axis}, {self.grid.shape[0]} "
            f"grid points, widest {widest:.3f} ({self.n_resamples}{poisson} resamples"
            f"{undefined})"
        )

    def __iter__(self) -> Any:
        """Unpacks as ``grid, estimate, lower, upper``."""
        return iter((self.grid, self.estimate, self.lower, self.upper))
